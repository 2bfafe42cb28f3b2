"""The table procedure as a state machine: ``decide(state, command, rng) -> events``.

``decide`` checks a command against the rules and returns the events it causes, every die
in them; ``events.apply`` folds each into the state. A refused command raises a
``RuleError`` subclass and nothing changes. Every command is a dict with ``type`` and
``actor`` = ``{"is_gm", "controls", "member", "name"}``; the Director (the GM) plays every
Persona, a player only their own: nobody rolls for another's Persona.

The handlers live by concern: ``scene_checks``, ``contest_commands``, ``combat_commands``
and ``director``; ``guards`` holds what they share.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from games.core.rng import Rng
from games.passages.combat_commands import combat_roll, combat_start, declare, resolve, rest, tend, timing
from games.passages.contest_commands import contest_break_off, contest_cost, contest_roll, contest_start
from games.passages.director import correct, end, set_conditions, set_status, undo
from games.passages.errors import BadValue
from games.passages.events import apply
from games.passages.guards import Actor, Event
from games.passages.scene_checks import check, practice

Handler = Callable[[Mapping[str, Any], Mapping[str, Any], Actor, Rng], list[Event]]
COMMANDS: dict[str, Handler] = {
    "check": check,
    "practice": practice,
    "contest_start": contest_start,
    "contest_roll": contest_roll,
    "contest_break_off": contest_break_off,
    "contest_cost": contest_cost,
    "combat_start": combat_start,
    "declare": declare,
    "rest": rest,
    "tend": tend,
    "timing": timing,
    "combat_roll": combat_roll,
    "resolve": resolve,
    "set_conditions": set_conditions,
    "set_status": set_status,
    "correct": correct,
    "end": end,
    "undo": undo,
}
# Commands a player sends for their own Persona (``combatant``); the Director sends the rest.
PLAYER_COMMANDS = frozenset({"check", "practice", "contest_roll", "contest_break_off", "declare", "rest",
                             "tend", "combat_roll"})


def decide(state: Mapping[str, Any], command: Mapping[str, Any], rng: Rng) -> list[Event]:
    """The events ``command`` causes, or a ``RuleError``; ``state`` is never changed."""
    handler = COMMANDS.get(str(command.get("type")))
    if handler is None:
        raise BadValue(f"Unknown command {command.get('type')!r}.")
    actor = Actor.from_dict(command.get("actor"))
    events = copy.deepcopy(handler(state, copy.deepcopy(dict(command)), actor, rng))
    step = state["step"] + 1
    for event in events:
        event["step"] = step
    return events


def run(state: Mapping[str, Any], command: Mapping[str, Any], rng: Rng) -> tuple[dict[str, Any], list[Event]]:
    """``decide`` then ``apply`` each event: the new state and the events."""
    events = decide(state, command, rng)
    new: dict[str, Any] = dict(state)
    for event in events:
        new = apply(new, event)
    return new, events
