"""What every command handler shares: the sender (``Actor``), reading a command's
arguments, and the checks every action makes (cards in the hand, AP left)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.core.cards_port import Cards, Destination, UnknownDeck
from games.shadows import deck
from games.shadows import state as st
from games.core.engine import RuleError
from games.shadows.errors import GMOnly, NotEnoughAP, NotInHand, NotYourCharacter
from games.shadows.profile import profile

Event = dict[str, Any]
Command = Mapping[str, Any]

# Reading: the seed leaves each action's AP cost "as specified elsewhere"; an attack costs
# its weapon's AP (1 unless the GM's table says more), any other action in a round 1 AP
# unless the GM says otherwise (as a counter: "one Action Point (or more, if the GM deems
# it appropriate)").
ACTION_AP = 1
# Seed: "discard and be re-dealt up to three cards".
MAX_REDEAL = 3
# Ties in an opposed action "draw an additional card, continuing to do so until one side
# succeeds"; past this many the GM is asked to decide (decks are finite).
MAX_TIE_DRAWS = 20


@dataclass(frozen=True)
class Actor:
    is_gm: bool
    controls: frozenset[str]
    member: int | None
    name: str

    @classmethod
    def of(cls, command: Command) -> Actor:
        data = command.get("actor")
        if not isinstance(data, Mapping):
            raise RuleError("A command needs its sender (actor).")
        member = data.get("member")
        return cls(bool(data.get("is_gm")), frozenset(map(str, data.get("controls") or ())),
                   member if isinstance(member, int) and not isinstance(member, bool) else None,
                   str(data.get("name") or ""))

    def require_gm(self, what: str) -> None:
        if not self.is_gm:
            raise GMOnly(f"Only the GM can {what}.")

    def require_control(self, cid: str, name: str) -> None:
        """The GM acts for anyone (NPCs, an absent player); a player only for their own."""
        if not (self.is_gm or cid in self.controls):
            raise NotYourCharacter(f"You do not play {name}: you act only for your own character.")


def whole(command: Command, key: str, default: int = 0, *, low: int | None = None,
         high: int | None = None, what: str = "") -> int:
    raw = command.get(key, default)
    if raw in (None, ""):
        raw = default
    if isinstance(raw, bool) or not isinstance(raw, int):
        try:
            raw = int(str(raw))
        except ValueError:
            raise RuleError(f"{what or key} is a whole number.") from None
    if (low is not None and raw < low) or (high is not None and raw > high):
        span = f"from {low}" if high is None else f"from {low} to {high}"
        raise RuleError(f"{what or key} is {span}.")
    return raw


def tokens_of(command: Command, key: str) -> list[str]:
    raw = command.get(key) or []
    if isinstance(raw, str):
        raw = [raw]
    tokens = [str(t) for t in raw]
    if len(set(tokens)) != len(tokens):
        raise RuleError("The same card is named twice.")
    if any(not deck.is_minor(t) for t in tokens):
        raise NotInHand("That is not a card of the Minor Arcana: pick the cards in the hand.")
    return tokens


def require_in_hand(person: Mapping[str, Any], tokens: Sequence[str]) -> None:
    missing = [t for t in tokens if t not in person["hand"]]
    if missing:
        raise NotInHand(f"{deck.names(missing)} {'is' if len(missing) == 1 else 'are'} not in "
                        f"{person['name']}'s hand.")


def play_from_hand(cards: Cards, person: Mapping[str, Any], tokens: Sequence[str], *,
                   to: Destination = "play") -> None:
    """Each card leaves the real hand at the table (its holder's hand pile) face up: laid in
    the play area, or on the discard pile. The table's piles are the hands' truth: a card
    the engine still counts in a hand but the table no longer has there (played, discarded
    or passed with the table's own card tools) is refused, and the platform undoes whatever
    this action had already moved."""
    holder = person.get("holder")
    if not isinstance(holder, int):
        raise NotInHand(f"{person['name']} holds no cards at the table.")
    source = str(person.get("deck") or deck.MINOR)  # the deck the hand was dealt from (decks.py)
    for token in tokens:
        try:
            cards.play(source, deck.bare(token), holder=holder, to=to)
        except UnknownDeck:
            raise
        except LookupError:
            raise NotInHand(f"{deck.name(token)} is no longer in {person['name']}'s hand at the table "
                            "(it was played, discarded or passed with the card tools).") from None


def require_ap(person: Mapping[str, Any], ap: int) -> None:
    if ap > person["ap"]:
        raise NotEnoughAP(f"{person['name']} has {person['ap']} AP left; that takes {ap}.")


def person_of(state: Mapping[str, Any], command: Command) -> dict[str, Any]:
    """The character a command is about: from the combat when it is in one (its AP, hand and
    focus), else from the sheet the command carries (``character``)."""
    raw = command.get("character")
    cid = str(command.get("combatant") or (raw.get("id") if isinstance(raw, Mapping) else "") or "")
    fighting = st.in_combat(state, cid) if cid else None
    if fighting is not None:
        return fighting
    if not isinstance(raw, Mapping):
        raise RuleError("Choose a character.")
    return profile(raw)


def new_id(state: Mapping[str, Any], events: Sequence[Event] = ()) -> int:
    taken = [e["id"] for e in events if isinstance(e.get("id"), int)]
    return max([state["next_id"], *(i + 1 for i in taken)])


def holder_of(state: Mapping[str, Any], person: Mapping[str, Any], actor: Actor) -> int:
    """Whose hand a character's cards go to: its player's, or the GM's for an NPC."""
    for member in (person.get("owner"), state.get("gm_member") if not person.get("owner") else None,
                   actor.member):
        if isinstance(member, int):
            return member
    raise RuleError("Nobody at the table can hold those cards.")


def npc_flag(person: Mapping[str, Any]) -> dict[str, bool]:
    """``{"npc": True}`` for an event about an NPC: its figures in the event are the GM's
    (audiences.py); nothing for anyone else's."""
    return {"npc": True} if person.get("npc") else {}


def names_of(command: Command) -> dict[str, str]:
    """Display names a parser sends along ({cid: name}), for the log's lines."""
    raw = command.get("names") or {}
    return {str(k): str(v)[:60] for k, v in raw.items()} if isinstance(raw, Mapping) else {}
