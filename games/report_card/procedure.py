"""Skill checks as a state machine: ``decide(state, command, rng, cards) -> events``.

``decide`` checks a command against the rules before any card moves, then draws through the
cards port (each character from its own deck, ``draws.deck_name``) and returns the events,
which record every card token; ``apply`` folds them in. A refusal raises a ``RuleError``
subclass and nothing changes.

Every command is a dict with ``type`` and ``actor`` ({is_gm, controls, member, name}); the
characters a command involves come as ``characters: {cid: {name, player, **sheet}}`` (the
web's parsers fill it from the table), ``player`` being the member id of whoever plays them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.core.cards_port import Cards
from games.report_card.calls import call_check, call_group
from games.report_card.choices import (
    accept, allow_player_calls, close, draw, hold, new_day, pick, rechoose, retry,
)
from games.report_card.errors import BadInput
from games.report_card.events import apply
from games.report_card.flow import Event

State = Mapping[str, Any]


Handler = Callable[[State, Mapping[str, Any], Mapping[str, Any], "Cards | None"], list[Event]]
COMMANDS: dict[str, Handler] = {
    "call_check": call_check, "call_group": call_group, "draw": draw, "pick": pick, "retry": retry, "accept": accept,
    "hold": hold, "close": close, "new_day": new_day, "allow_player_calls": allow_player_calls,
    "rechoose": rechoose,
}


def decide(state: State, command: Mapping[str, Any], rng: Any = None, cards: Cards | None = None) -> list[Event]:
    """The events ``command`` causes; a ``RuleError`` subclass, and no card drawn, if the rules
    refuse it. ``rng`` is unused: every chance in Report Card is a card."""
    handler = COMMANDS.get(str(command.get("type") or ""))
    if handler is None:
        raise BadInput(f"There is no Report Card command {str(command.get('type'))[:30]!r}.")
    return handler(state, command, command.get("actor") or {}, cards)


def run(state: State, command: Mapping[str, Any], cards: Cards | None = None) -> tuple[dict[str, Any], list[Event]]:
    """``decide`` then ``apply``: the new state and the events, as the table does it."""
    events = decide(state, command, None, cards)
    new = dict(state)
    for event in events:
        new = apply(new, event)
    return new, events

