"""Who may act when, as the rules give it: an instant action waits for its character's turn
(one a turn), and a character out of the fight takes no action. Who may send a move at all (the
Storyteller's moves, a character's player) is the core's, checked once before any handler."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Member
from games.core.engine import RuleError
from games.harsh_light import health
from games.harsh_light.errors import OutOfTurn
from games.harsh_light.state import name, out, status


# What a pull is, for the turn order. Seed: "Instant: ... In combat, you get one instant action per
# turn"; "Reflexive: ... you can take several Reflexive actions per turn (within reason). Examples
# include talking, activating simple powers, or resisting an opponent's power." Our reading (issue
# 26): whether an action is reflexive is the Storyteller's call ("reflexive"), or one of the kinds
# the seed lists, named so the table reads it (moving is its own move): a player ticks no box that
# lets an instant action past the turn order.
INSTANT, REFLEXIVE, TALKING, RESISTING = "instant", "reflexive", "talking", "resisting"
ACTIONS = (INSTANT, REFLEXIVE, TALKING, RESISTING)
ACTION_WORDS = {REFLEXIVE: "reflexive, the Storyteller's call", TALKING: "reflexive: talking",
                RESISTING: "reflexive: resisting a power"}


def require_action_kind(action: str | None, member: Member) -> None:
    """A pull called reflexive without a listed kind is the Storyteller's to call."""
    if action == REFLEXIVE and not member.is_gm:
        raise RuleError("Whether an action is reflexive is the Storyteller's call: choose talking or resisting a "
                        "power, or ask the Storyteller.")


def require_turn(state: Mapping[str, Any], cid: str, what: str) -> None:
    """Seed: "In combat, you get one instant action per turn"; the table keeps whose action it is.
    A character outside the turn order is held to one a turn too, while a fight runs (our
    reading: the seed's "In combat" is everyone at the scene, not only those listed)."""
    if not state["combat"]:
        return
    if cid not in state["order"]:
        if status(state, cid)["acted"]:
            raise OutOfTurn(f"{name(state, cid)} has already taken an instant action this turn.")
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
