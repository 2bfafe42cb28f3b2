"""Shadows of Humanity over a campaign (issue 35, games/core/clock.py): what the table's clock
does to Health, Life and Æssence, the GM's raise of the fallen and correction of a track outside
a fight, the lasting conditions its rules read, and the session's close.

The seed gives no recovery; the decided reading does: "Æssence returns in full when a scene
ends; Health returns by the character's Body each night and in full after a week; Life by 1 a
week. A fallen character stays fallen until the GM raises them (a rule move, logged)." A night
and a week end the scene too, so Æssence returns then as well. Every character at the table
recovers, PCs and NPCs alike, onto its sheet ("Health now" and so on, blank while whole:
writeback.py); an NPC's figures stay behind the GM's screen (audiences.py). Readings where the
decided reading is silent, each coded below:

- Time passes outside a fight only: the GM ends the fight first (the fight's record holds the
  tracks then, and a round is 15 seconds of it).
- The fallen (no Health left: down; no Life left: dead) recover nothing until raised: the clock
  never stands anyone up.
- Raising (``raise``, the GM's, logged for everyone) stands a fallen character with Health 1
  (a table option, "Health a raised character stands with") and, one dead, Life 1; Æssence as
  it was. Raised in a fight, it comes back into it at the next round, as a correction does.
- The GM's correction of Health, Life or Æssence (``adjust``) works outside a fight too,
  logged with what it was and what it is now; it never stands a fallen character up (that is
  the raise's).
- The conditions the rules read, and the wounds by suit the seed names: conditions.py.

Growth, the decided reading: "the GM awards experience at a session's close, with a reason,
logged" (the close form's awards, ``growth.with_awards``, and the GM's move ``award`` any time);
what it buys and at what cost: growth.py, its costs table options here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Table
from games.core import clock as time
from games.core import growth
from games.core.engine import Args, Event, RuleError, Turn
from games.forms import Form, text
from games.shadows import arcana, fight
from games.shadows import state as st
from games.shadows.conditions import EFFECTS
from games.shadows.fields import character
from games.shadows.growth import OPTIONS as GROWTH_OPTIONS
from games.shadows.profile import npc_flag, profile_of
from games.shadows.sheet import TRACK_LABELS, TRACKS
from games.shadows.state import harm

RECOVERED, RAISED, CORRECTED = "recovered", "raised", "track_corrected"

# Table options: amounts the decided reading gives, the GM's to change (games/core/clock.py).
LIFE_A_WEEK, RAISED_HEALTH = "life_a_week", "raised_health"
OPTIONS = (
    time.Option(LIFE_A_WEEK, "Life back each week", 1, 0, 20,
                why="The decided reading: \"Life by 1 a week\"."),
    time.Option(RAISED_HEALTH, "Health a raised character stands with", 1, 1, 99,
                why="The rules give none: raised, a fallen character stands with 1 Health (never past its whole)."),
    *GROWTH_OPTIONS,  # what experience costs (growth.py)
)

SAYS = {
    time.SCENE: "Æssence returns in full (the decided reading).",
    time.NIGHT: "The scene ends: Æssence returns in full; Health returns by the character's Body (the decided "
                "reading). The fallen recover nothing until the GM raises them.",
    time.WEEK: "The scene ends: Æssence and Health return in full; Life by 1 (the decided reading). The fallen "
               "recover nothing until the GM raises them.",
    time.SESSION: "Each character carries at most one Major Arcana into the next session, as the GM allows; the "
                  "rest go back into the deck.",
}

def round_now(state: Mapping[str, Any]) -> int:
    """``Clock.round``: the round of the fight under way (0 when none is)."""
    return int((state.get("combat") or {}).get("round") or 0)


# --- time passing ---------------------------------------------------------------------------

def _option(state: Mapping[str, Any], key: str) -> int:
    return CLOCK.option(state, key)


def recovers(person: Mapping[str, Any], span: str, life_a_week: int) -> dict[str, int]:
    """Health, Life and Æssence after ``span`` (the decided reading), from ``person`` as the
    rules read it (its tracks now, its ``maxima``, its Body); the fallen recover nothing."""
    now = {t: int(person[t]) for t in TRACKS}
    if harm(now):
        return now  # "A fallen character stays fallen until the GM raises them"
    whole = person["maxima"]
    back = {**now, "aessence": whole["aessence"]}  # "Æssence returns in full when a scene ends"
    if span == time.NIGHT:  # "Health returns by the character's Body each night"
        back["health"] = min(whole["health"], now["health"] + int(person["attributes"]["body"]))
    if span == time.WEEK:  # "... and in full after a week; Life by 1 a week"
        back["health"] = whole["health"]
        back["life"] = min(whole["life"], now["life"] + life_a_week)
    return back


def passes(state: Mapping[str, Any], span: str, turn: Turn) -> list[Event]:
    """``Clock.passes``: each character's recovery for ``span``, read from its sheet as the table
    has it; a check set up and not drawn is called off (its moment is gone)."""
    if state.get("combat"):
        raise RuleError("End the fight before time passes: the fight's record holds everyone's tracks until then.")
    life = _option(state, LIFE_A_WEEK)
    events: list[Event] = []
    for cid, who in sorted(turn.characters.items()):
        try:
            person = profile_of(who)
        except RuleError:
            continue  # a sheet that cannot be read has nothing to recover
        was = {t: int(person[t]) for t in TRACKS}
        now = recovers(person, span, life)
        fallen = harm(was)
        if now == was and not fallen:
            continue
        events.append({"type": RECOVERED, "span": span, "combatant": cid, "name": person["name"],
                       "was": was, "now": now, "whole": dict(person["maxima"]), "fallen": fallen,
                       **npc_flag(person)})
    for cid, entry in sorted((state.get("prepared") or {}).items()):
        events.append({"type": "check_cancelled", "combatant": cid, "name": entry["name"], "check": entry["id"],
                       "why": "time"})
    return events


# --- the GM's raise and correction ----------------------------------------------------------

def parse_raise(form: Form, table: Table) -> dict[str, Any]:
    return {"combatant": character(form, table, "character", "whom to raise").cid}


def raise_fallen(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """The decided reading: "A fallen character stays fallen until the GM raises them (a rule
    move, logged)". Raised, it stands with Health ``raised_health`` (at most its whole) and,
    one dead, Life 1; in a fight it comes back into it at the next round."""
    cid = str(args["combatant"])
    fighting = st.in_combat(state, cid)
    who = turn.character(cid)
    if fighting is None and who is None:
        raise RuleError("There is no such character at the table.")
    person = fighting if fighting is not None else profile_of(who)  # type: ignore[arg-type]
    was = {t: int(person[t]) for t in TRACKS}
    fell = harm(was)
    if not fell:
        raise RuleError(f"{person['name']} has not fallen: only a character down or dead is raised.")
    whole = dict(person["maxima"])
    now = {**was, "health": max(was["health"], min(whole["health"], _option(state, RAISED_HEALTH))),
           "life": max(was["life"], 1)}
    return [{"type": RAISED, "combatant": cid, "name": person["name"], "fell": fell, "was": was, "now": now,
             "whole": whole, "in_fight": fighting is not None, **npc_flag(person)}]


def correct(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """The GM's correction (``adjust``): in a fight, of the combatant's record (fight.adjust);
    outside one, of Health, Life or Æssence on the sheet (0 to the whole), logged with what it
    was. It never stands a fallen character up: the raise does that."""
    cid = str(args["combatant"])
    if st.in_combat(state, cid) is not None:
        return fight.adjust(state, args, turn)
    field = args["field"]
    who = turn.character(cid)
    if who is None:
        raise RuleError("There is no such character at the table.")
    if field not in TRACKS:
        raise RuleError("AP and who is in the fight are corrected during a fight; outside one, Health, Life or Æssence.")
    person = profile_of(who)
    whole = int(person["maxima"][field])
    value = int(args["value"] or 0)
    label = f"{person['name']}'s {TRACK_LABELS[field]}"
    if not 0 <= value <= whole:
        raise RuleError(f"{label} is from 0 to {whole}.")
    was = int(person[field])
    if value == was:
        raise RuleError(f"{label} is {was} already.")
    before = {t: int(person[t]) for t in TRACKS}
    if harm(before) and not harm({**before, field: value}):
        raise RuleError(f"{person['name']} is {harm(before)}: only the GM's raise stands them again.")
    return [{"type": CORRECTED, "combatant": cid, "name": person["name"], "field": field, "was": was,
             "value": value, "whole": whole, **npc_flag(person)}]


# --- folds and lines --------------------------------------------------------------------------

def _raised(state: dict[str, Any], e: Mapping[str, Any]) -> None:
    person = st.in_combat(state, e["combatant"]) if e.get("in_fight") else None
    if person is not None:
        # back above nothing, it stays out of the fight until the next round (fight_record.py)
        person.update({t: e["now"][t] for t in TRACKS})


FOLDS = {RECOVERED: lambda s, e: None, RAISED: _raised, CORRECTED: lambda s, e: None}

_SPAN_WORDS = {time.SCENE: "The scene's end", time.NIGHT: "A night", time.WEEK: "A week"}


def _changes(e: Mapping[str, Any]) -> str:
    return ", ".join(f"{TRACK_LABELS[t]} {e['was'][t]} → {e['now'][t]}" for t in TRACKS if e["now"][t] != e["was"][t])


def line(e: Mapping[str, Any], *, figures: bool | None = None) -> str:
    """The log line of this module's events; an NPC's figures only in the GM's (``figures``)."""
    shown = figures if figures is not None else not e.get("npc")
    kind = e["type"]
    if kind == RECOVERED:
        if e.get("fallen"):
            return f"{e['name']} is {e['fallen']}: nothing returns until the GM raises them."
        span = _SPAN_WORDS.get(str(e["span"]), "Time")
        return f"{span}: {e['name']} recovers" + (f" ({_changes(e)})." if shown else " (the GM's figures).")
    if kind == RAISED:
        then = " and comes back into the fight at the next round" if e.get("in_fight") else ""
        return (f"The GM raises {e['name']}, who was {e['fell']}: they stand again{then}"
                + (f" ({_changes(e)})." if shown else "."))
    if kind == CORRECTED:
        return (f"The GM corrects {e['name']}'s {TRACK_LABELS[e['field']]}: {e['was']} → {e['value']}"
                f" (of {e['whole']}).")
    return ""


# --- the session's close ----------------------------------------------------------------------

def closing_parse(form: Form, table: Table) -> Args:
    """``Clock.closing_parse``: ``keep_<character id>``, the one Major Arcana each character
    carries into the next session (a card's token, or blank for none); the platform reads it
    from the GM's session close (close_session.html#fields)."""
    keep = {c.cid: text(form, f"keep_{c.id}", max_length=40, refuse=lambda key: RuleError(
        "A card kept is named by its card id, at most 40 characters.")) for c in table.characters}
    return {"keep": {cid: token for cid, token in keep.items() if token}}


def closing(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """``Clock.closing``: seed, "The GM may allow for up to one Major Arcana to be carried over
    into the next session" (arcana.end_session): the rest go back into the deck."""
    return arcana.end_session(state, args, turn)


# the decided reading: "the GM awards experience at a session's close, with a reason, logged"
# (growth.with_awards: an award for each player character beside the card each carries)
CLOCK = growth.with_awards(time.Clock(
    passes=passes, says=SAYS, effects=EFFECTS, round=round_now, closing=closing, closing_parse=closing_parse,
    options=OPTIONS,
    # the fields closing_parse reads, in the GM's session box (keep_<character id>, and the awards)
    closing_fields="games/shadows/close_session.html#fields"))
