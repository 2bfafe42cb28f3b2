"""Who may act when, as the rules give it: an instant action waits for its character's turn
(one a turn), and a character out of the fight takes no action. Who may send a move at all (the
Storyteller's moves, a character's player) is the core's, checked once before any handler."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.engine import RuleError
from games.harsh_light import health
from games.harsh_light.errors import OutOfTurn
from games.harsh_light.state import name, out, status


def require_turn(state: Mapping[str, Any], cid: str, what: str) -> None:
    """Seed: "In combat, you get one instant action per turn"; the table keeps whose action it is."""
    if not state["combat"] or cid not in state["order"]:
        return
    if state["acting"] != cid:
        raise OutOfTurn(f"It is {name(state, state['acting'])}'s action, not {name(state, cid)}'s: "
                        f"{what} waits for {name(state, cid)}'s turn.")
    if status(state, cid)["acted"]:
        raise OutOfTurn(f"{name(state, cid)} has already taken an instant action this turn.")


def require_able(state: Mapping[str, Any], cid: str, what: str) -> None:
    """Issue 22: "a character unconscious or dead takes no turn and is not offered actions"; the
    Storyteller still corrects its track (harm, heal, the sheet)."""
    if out(state, cid):
        words = health.state_words(state["characters"][cid])
        raise RuleError(f"{name(state, cid)} is {words}: no {what} until the Storyteller heals it.")
