"""Health, as the World of Darkness keeps it: the track, its wounds, their penalties, and what a
full track means. Pure arithmetic on a sheet's figures: no state, no cards.

The seed converts "the mechanics found in Vampire: The Requiem and World of Darkness" to a card
pull and says nothing of harm, so Harsh Light takes the World of Darkness rulebook's (its
"States of Being"), as it takes its actions:

- Health is Stamina + Size ("The average person is 5 Size and has 2 Stamina, for a total of 7").
- Wounds are bashing ("/"), lethal ("X") and aggravated ("*"); the most severe are marked at the
  left and push lesser ones right, so a track is its count of each kind.
- On a full track each further point "upgrades the leftmost, least severe wound": a bashing one
  to lethal (for a bashing or lethal point; an aggravated point makes it aggravated), and when
  none is bashing, a lethal one to aggravated.
- Wound penalties: -1 when the third-to-last box is filled, -2 the second-to-last, -3 the last;
  on pools and on Speed, never on Defence or a resisting trait.
- The last box holding bashing: a Stamina pull each turn to stay conscious, with no wound
  penalty (pulls.py, harm.py); a vampire does not faint (the Requiem).
- The last box holding lethal (every box lethal or aggravated): a mortal is dying, bleeding
  out ("Each minute thereafter in which your character receives no medical attention ... one
  Health box currently marked with an X is upgraded"), a vampire falls into torpor; every box
  aggravated: dead (for a vampire, Final Death).
- Healing takes the least severe wound first, the rightmost box.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

BASHING, LETHAL, AGGRAVATED = "bashing", "lethal", "aggravated"
KINDS = (BASHING, LETHAL, AGGRAVATED)  # least severe first
MARKS = {AGGRAVATED: "✱", LETHAL: "X", BASHING: "/"}  # the rulebook's "/", "X" and "*"
HUMAN_SIZE = 5
MAX_WOUNDS = 40  # of one kind on a sheet: Health 30 and more is not a person any more

# What the track comes to, most grave first; ``None``: the character can act.
DEAD, DYING, UNCONSCIOUS = "dead", "dying", "unconscious"


@dataclass(frozen=True)
class Track:
    """A Health track: ``size`` boxes, and how many hold each kind of wound (most severe left)."""

    size: int
    aggravated: int = 0
    lethal: int = 0
    bashing: int = 0

    @property
    def filled(self) -> int:
        return self.aggravated + self.lethal + self.bashing

    @property
    def full(self) -> bool:
        return self.filled >= self.size

    def last(self) -> str | None:
        """The kind of wound in the last box, None when it is empty."""
        if not self.full or self.size <= 0:
            return None
        return BASHING if self.bashing else LETHAL if self.lethal else AGGRAVATED

    def boxes(self) -> list[str | None]:
        """Left to right: aggravated, then lethal, then bashing, then the empty boxes (None)."""
        return ([AGGRAVATED] * self.aggravated + [LETHAL] * self.lethal + [BASHING] * self.bashing
                + [None] * max(0, self.size - self.filled))

    def counts(self) -> dict[str, int]:
        return {AGGRAVATED: self.aggravated, LETHAL: self.lethal, BASHING: self.bashing}

    def _with(self, **counts: int) -> Track:
        return Track(self.size, **{**self.counts(), **counts})

    def hurt(self, kind: str, points: int = 1) -> Track:
        """The track after ``points`` of ``kind``: each fills an empty box (the most severe at the
        left, pushing lesser wounds right) or, on a full track, upgrades the least severe wound."""
        if kind not in KINDS:
            raise ValueError(f"A wound is bashing, lethal or aggravated, not {kind!r}.")
        track = self
        for _ in range(max(0, points)):
            if not track.full:
                track = track._with(**{kind: track.counts()[kind] + 1})
            elif track.bashing:
                worse = AGGRAVATED if kind == AGGRAVATED else LETHAL
                track = track._with(bashing=track.bashing - 1, **{worse: track.counts()[worse] + 1})
            elif track.lethal:
                track = track._with(lethal=track.lethal - 1, aggravated=track.aggravated + 1)
        return track

    def heal(self, points: int, kind: str | None = None) -> Track:
        """The track with ``points`` wounds healed, the least severe first (the rightmost box), or
        only wounds of ``kind`` (a power's healing, the Storyteller's ruling)."""
        counts = self.counts()
        for _ in range(max(0, points)):
            which = kind if kind is not None else next((k for k in KINDS if counts[k]), None)
            if which is None or not counts[which]:
                break
            counts[which] -= 1
        return Track(self.size, **counts)

    def penalty(self) -> int:
        """Seed's pools lose what the World of Darkness's dice pools lose: -1 once the third box
        from the end is filled, -2 the second, -3 the last (0 or less: no penalty)."""
        for boxes_left, penalty in ((0, -3), (1, -2), (2, -1)):
            if self.size - boxes_left >= 1 and self.filled >= self.size - boxes_left:
                return penalty
        return 0

    def grave(self) -> str | None:
        """DEAD (every box aggravated), DYING (the last box lethal), or None."""
        if self.size > 0 and self.aggravated >= self.size:
            return DEAD
        if self.last() == LETHAL:
            return DYING
        return None

    def fitted(self, size: int) -> Track:
        """These wounds on a track of ``size`` boxes: most severe first, and those with no box
        left upgrade the least severe (the rulebook: a wound in a lost box "upgrades the least
        severe wound that he has remaining")."""
        track = Track(max(0, size))
        for kind in (AGGRAVATED, LETHAL, BASHING):
            track = track.hurt(kind, self.counts()[kind])
        return track


def size_of(sheet: Mapping[str, Any]) -> int:
    """Health: Stamina + Size."""
    return int(sheet.get("stamina") or 1) + int(sheet.get("size") or HUMAN_SIZE)


def of(sheet: Mapping[str, Any]) -> Track:
    """A sheet's track, its wounds fitted to its Health as the sheet stands now (a lowered
    Stamina upgrades what no longer has a box)."""
    wounds = Track(10**6, **{k: max(0, int(sheet.get(k) or 0)) for k in KINDS})
    return wounds.fitted(size_of(sheet))


def is_vampire(sheet: Mapping[str, Any]) -> bool:
    """A vampire: the sheet says so, or it has Blood Potency ("Vampires will often add their
    Blood Potency to their Resistance traits")."""
    return bool(sheet.get("vampire")) or int(sheet.get("blood_potency") or 0) > 0


def state_of(sheet: Mapping[str, Any]) -> str | None:
    """What the track and the sheet say of the character now: DEAD, DYING, UNCONSCIOUS or None."""
    grave = of(sheet).grave()
    if grave is not None:
        return grave
    return UNCONSCIOUS if sheet.get("unconscious") else None


def out(sheet: Mapping[str, Any]) -> bool:
    """Unconscious, dying (or in torpor) or dead: it takes no turn and no action."""
    return state_of(sheet) is not None


def state_words(sheet: Mapping[str, Any]) -> str:
    """The state in words, as the Requiem names a vampire's: '' when it can act."""
    vampire = is_vampire(sheet)
    return {DEAD: "Final Death" if vampire else "dead", DYING: "in torpor" if vampire else "bleeding out",
            UNCONSCIOUS: "unconscious", None: ""}[state_of(sheet)]


def must_keep_conscious(sheet: Mapping[str, Any]) -> bool:
    """The rulebook: "Once all your character's Health boxes are full and the rightmost is
    occupied with a slash, begin making Stamina rolls to see if he remains conscious" (a
    vampire is "never knocked unconscious by bashing damage", the Requiem)."""
    return of(sheet).last() == BASHING and not sheet.get("unconscious") and not is_vampire(sheet)


def words(track: Track) -> str:
    """'2 lethal, 1 bashing of 7' or 'unharmed, 7 boxes'."""
    parts = [f"{track.counts()[k]} {k}" for k in (AGGRAVATED, LETHAL, BASHING) if track.counts()[k]]
    return f"{', '.join(parts)} of {track.size}" if parts else f"unharmed, {track.size} boxes"


def marks(track: Track) -> str:
    """'X X / · · · ·': the track as the sheet marks it."""
    return " ".join(MARKS[b] if b else "·" for b in track.boxes())


def shown(sheet: Mapping[str, Any]) -> dict[str, Any]:
    """A character's Health as everyone sees it (harm everyone watches, an NPC's too: issue 22),
    JSON-safe: its boxes left to right, their marks, in words, its wound penalty, its state
    (unconscious, bleeding out, in torpor, dead), whether it is out, and ``bleeding`` while the
    Storyteller marks its untended minutes."""
    track = of(sheet)
    return {"boxes": [{"kind": b or "", "mark": MARKS[b] if b else ""} for b in track.boxes()],
            "size": track.size, "left": track.size - track.filled, "words": words(track), "marks": marks(track),
            "penalty": track.penalty(), "state": state_words(sheet), "out": out(sheet),
            "unconscious": bool(sheet.get("unconscious")),
            "bleeding": track.grave() == DYING and not is_vampire(sheet), "dead": track.grave() == DEAD}


def shown_text(track: Mapping[str, Any]) -> str:
    """'Health X X / · · · · (2 lethal, 1 bashing of 7), -1 to pools and Speed; unconscious'."""
    text = f"Health {track['marks']} ({track['words']})"
    if track["penalty"]:
        text += f", {track['penalty']} to pools and Speed"
    return f"{text}; {track['state']}" if track["state"] else text
