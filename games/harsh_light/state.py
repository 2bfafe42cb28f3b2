"""The Harsh Light table state: plain JSON-ready data, changed only by the folds (events.py).

::

    {
      "step": 0,               the last step folded (the core's)
      "people": {cid: {"name", "track", "defence"}},   the characters the rules have met: the
                               name each move recorded (reckon.py), their Health as the last move
                               left it (health.shown: harm everyone watches) and their Defence as
                               it then stood (an NPC's is the GM's figure)
      "combat": False,         whether a turn order runs
      "turn": 0,               the combat turn (every character acts once a turn)
      "order": [cid], "acting": cid | None, "initiative": {cid: {modifier, card, value, total}},
      "status": {cid: {attacks, all_out, dodging, acted, moved, willpower_spent, resist_willpower,
                       kept_conscious}},   kept_conscious: pulled Stamina to stay conscious this turn
      "extended": {id: ...}, "contests": {id: ...}, "next_id": 1,
      "prepared": {cid: {"args": the pull's arguments, "step", "now": the pull as it would be made}},
      "recent": [pull record],
      "reaction": None | {combatant, target, against, label, args}: a pull waiting for its
                               target's answer (reaction.py)
      "options": {"untrained": bool}: the Storyteller's table options (untrained_penalty)
      "rest": {cid: nights}: nights of rest counted toward each one's next lethal or aggravated
                               box (campaign.py); beside them the core's clock, conditions and
                               campaign options (games/core/clock.py)
    }

No sheet is kept here: a rule reads the characters as the table holds them now (``in_play``,
from the move's ``Turn``), and the panel counts the deck from what the platform hands each seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import clock as time
from games.core.engine import RuleError, Turn
from games.harsh_light import health
from games.harsh_light import sheet as sh

# The table deck Harsh Light pulls from: a GM brings out an "Ace to 10 (40 cards)" deck
# (games.core.cards, kind "ten_value") and names it so.
DECK = "Harsh Light"
RECENT = 12  # pulls the panel keeps

State = dict[str, Any]


def new_state() -> State:
    return {
        "step": 0, "people": {}, "combat": False, "turn": 0, "order": [], "acting": None, "initiative": {},
        "status": {}, "extended": {}, "contests": {}, "next_id": 1, "prepared": {}, "recent": [],
        "reaction": None, "options": {"untrained": False}, "rest": {},
    }


def in_play(state: Mapping[str, Any], turn: Turn) -> State:
    """The state as a move's rules read it: with ``characters``, the table's characters as their
    sheets stand now (``turn.characters``, cleaned by ``sheet.read``), each with its ``id``,
    ``name`` and whether it is an NPC (whose figures are the GM's: audiences.py), and ``unread``,
    why a sheet could not be read. Never stored: no fold sees it."""
    people: dict[str, dict[str, Any]] = {}
    unread: dict[str, str] = {}
    for cid, character in turn.characters.items():
        try:
            people[cid] = {**sh.read(character.sheet), "id": cid, "name": character.name[:60],
                           "npc": character.is_npc}
        except RuleError as exc:
            unread[cid] = exc.message
    return {**state, "characters": people, "unread": unread}


def untrained_penalty(state: Mapping[str, Any]) -> bool:
    """Whether the Storyteller has turned on the untrained Skill penalty (a table option, off by
    default: the decided reading; pools.build)."""
    return bool((state.get("options") or {}).get("untrained"))


def dice(state: Mapping[str, Any], cid: str) -> tuple[tuple[str, int], ...]:
    """The parts the conditions on ``cid`` add to every pool it builds (the clock's "dice"
    effect, campaign.py), each named as the condition is; one the GM keeps to itself on a player's
    character is named "a condition" (its amount shows in the total anyway)."""
    found = []
    for made in time.conditions(state, cid):
        if made.get("effect") == "dice" and int(made.get("amount") or 0):
            npc = bool(((state.get("characters") or {}).get(cid) or {}).get("npc"))
            called = str(made.get("name")) if made.get("seen") == time.EVERYONE or npc else "a condition"
            found.append((called, int(made["amount"])))
    return tuple(found)


def fresh_status() -> dict[str, Any]:
    return {"attacks": 0, "all_out": False, "dodging": False, "acted": False, "moved": False,
            "willpower_spent": False, "resist_willpower": False, "kept_conscious": False}


def name(state: Mapping[str, Any], cid: str | None) -> str:
    """A character's name: as its sheet stands (a rule's view, ``in_play``), else as the events
    recorded it (``people``)."""
    if cid is None:
        return "nobody"
    found = (state.get("characters") or {}).get(cid) or (state.get("people") or {}).get(cid) or {}
    return str(found.get("name") or cid)


def person(state: Mapping[str, Any], cid: str) -> dict[str, Any]:
    """A character's sheet as the rules read it (``in_play``); refused when it is not at the
    table, or its sheet cannot be read (the refusal names the field)."""
    found = state["characters"].get(cid)
    if found is None:
        raise RuleError(state.get("unread", {}).get(cid) or "That is not a character at this table.")
    return dict(found)


def status(state: Mapping[str, Any], cid: str) -> dict[str, Any]:
    return state["status"].get(cid) or fresh_status()


def out(state: Mapping[str, Any], cid: str | None) -> bool:
    """Unconscious, dying (or in torpor) or dead (health.py): no turn, no action. Read from the
    sheet in a rule's view, else from the Health the last move left (``people``)."""
    if cid is None:
        return False
    sheet = (state.get("characters") or {}).get(cid)
    if sheet is not None:
        return health.out(sheet)
    return bool(((state.get("people") or {}).get(cid) or {}).get("track", {}).get("out"))


def defence_now(state: Mapping[str, Any], cid: str) -> int:
    """Defence as it stands against the next attack, before any Willpower (a rule's view).

    Seed: "Each attack on an enemy lowers their Defence by 1 until their next action"; an
    All-Out Attack gives Defence up; a Dodge doubles it "until your next turn". The doubling
    comes first and each attack then takes 1 off the doubled Defence, as the World of
    Darkness rulebook has it for a dodging character attacked several times. A character out of
    the fight (unconscious, dying) has none: the World of Darkness gives no Defence to one who
    cannot see the blow coming, let alone one who cannot move.
    """
    sheet = state["characters"][cid]
    now = status(state, cid)
    if now["all_out"] or health.out(sheet):  # an unconscious body does not defend itself
        return 0
    base = sh.defence(sheet) * (2 if now["dodging"] else 1)
    return max(0, base - now["attacks"])
