"""The Harsh Light table state: plain JSON-ready data, changed only by ``events.apply``.

::

    {
      "deck": "Harsh Light",   the table deck every pull comes from (DECK)
      "step": 0,               one per command that changed anything
      "characters": {cid: sheet + "id" + "name"},   as last read from the sheets
      "combat": False,         whether a turn order runs
      "turn": 0,               the combat turn (every character acts once a turn)
      "order": [cid], "acting": cid | None, "initiative": {cid: {modifier, card, value, total}},
      "status": {cid: {attacks, all_out, dodging, acted, moved, willpower_spent, resist_willpower,
                       kept_conscious}},   kept_conscious: pulled Stamina to stay conscious this turn
      "extended": {id: ...}, "contests": {id: ...}, "next_id": 1,
      "prepared": {cid: {"args": the pull's arguments, "step"}},   pulls set up, not yet made
      "recent": [pull record],
      "deck_left": [count of 1s, ..., count of 10s] | None   the cards the odds count, as last
                               counted (deck.counted): every card not lying face up (the draw
                               pile and the hands), or the discard when the draw pile is empty
      "deck_from": "unseen" | "discard"   which of the two
    }
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.harsh_light import health
from games.harsh_light import sheet as sh

# The table deck Harsh Light pulls from: a GM brings out an "Ace to 10 (40 cards)" deck
# (games.core.cards, kind "ten_value") and names it so.
DECK = "Harsh Light"
RECENT = 12  # pulls the panel keeps

State = dict[str, Any]


def new_state() -> State:
    return {
        "deck": DECK, "step": 0, "characters": {}, "combat": False, "turn": 0, "order": [],
        "acting": None, "initiative": {}, "status": {}, "extended": {}, "contests": {},
        "next_id": 1, "prepared": {}, "recent": [], "deck_left": None,
        "deck_from": "unseen",
    }


def fresh_status() -> dict[str, Any]:
    return {"attacks": 0, "all_out": False, "dodging": False, "acted": False, "moved": False,
            "willpower_spent": False, "resist_willpower": False, "kept_conscious": False}


def name(state: Mapping[str, Any], cid: str | None) -> str:
    if cid is None:
        return "nobody"
    return str(state["characters"].get(cid, {}).get("name") or cid)


def status(state: Mapping[str, Any], cid: str) -> dict[str, Any]:
    return state["status"].get(cid) or fresh_status()


def out(state: Mapping[str, Any], cid: str | None) -> bool:
    """Unconscious, dying (or in torpor) or dead (health.py): no turn, no action."""
    return cid is not None and health.out(state["characters"].get(cid) or {})


def defence_now(state: Mapping[str, Any], cid: str) -> int:
    """Defence as it stands against the next attack, before any Willpower.

    Seed: "Each attack on an enemy lowers their Defence by 1 until their next action"; an
    All-Out Attack gives Defence up; a Dodge doubles it "until your next turn". The doubling
    comes first and each attack then takes 1 off the doubled Defence, as the World of
    Darkness rulebook has it for a dodging character attacked several times. A character out of
    the fight (unconscious, dying) has none: the World of Darkness gives no Defence to one who
    cannot see the blow coming, let alone one who cannot move.
    """
    person = state["characters"][cid]
    now = status(state, cid)
    if now["all_out"] or health.out(person):  # an unconscious body does not defend itself
        return 0
    base = sh.defence(person) * (2 if now["dodging"] else 1)
    return max(0, base - now["attacks"])
