"""The state machine: ``decide(state, command, rng, cards) -> events``.

``decide`` checks a command against the rules and the sender, draws whatever cards the
rules call for through the cards port, and returns the events (every card drawn is in
them, as a token); ``events.apply`` folds each event into the state and never draws. A
refusal raises a ``RuleError`` subclass before anything is drawn or changed.

Every command is a dict with ``type`` and ``actor = {"is_gm", "controls", "member",
"name"}`` (the platform's ``Member.actor()``). The handlers are in ``checks``, ``contests``
and ``arcana`` (outside combat) and ``fight`` (combat); see ``COMMANDS`` and the package
docstring.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.core.cards_port import Cards
from games.core.rng import Rng
from games.shadows import arcana, checks, contests, fight, hands
from games.shadows.actor import Actor, Command, Event
from games.core.engine import RuleError
from games.shadows.events import apply

Handler = Callable[[Mapping[str, Any], Command, Actor, Rng, Cards], list[Event]]

COMMANDS: dict[str, Handler] = {
    "prepare_check": checks.prepare_check,
    "cancel_check": checks.cancel_check,
    "check": checks.check,
    "approve_help": checks.approve_help,
    "opposed": contests.opposed,
    "counter": contests.counter,
    "contest_start": contests.contest_start,
    "contest_draw": contests.contest_draw,
    "contest_end": contests.contest_end,
    "draw_guide": arcana.draw_guide,
    "show_guide": arcana.show_guide,
    "return_guide": arcana.return_guide,
    "spend_arcana": arcana.spend_arcana,
    "end_session": arcana.end_session,
    "start_combat": fight.start_combat,
    "add_combatant": fight.add_combatant,
    "new_round": hands.new_round,
    "declare_focus": hands.declare_focus,
    "deal": hands.deal,
    "redeal": hands.redeal,
    "aim": fight.aim,
    "attack": fight.attack,
    "end_turn": fight.end_turn,
    "set_cover": fight.set_cover,
    "defend": fight.defend,
    "announce_critical": fight.announce_critical,
    "set_weapons": fight.set_weapons,
    "set_criticals": fight.set_criticals,
    "adjust": fight.adjust,
    "end_combat": fight.end_combat,
}


def decide(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    """The events ``command`` causes; ``RuleError`` (a subclass) if the rules refuse it."""
    handler = COMMANDS.get(str(command.get("type", "")))
    if handler is None:
        raise RuleError(f"No command called {command.get('type')!r}.")
    actor = Actor.of(command)
    events = handler(state, command, actor, rng, cards)
    if actor.is_gm and actor.member is not None and state.get("gm_member") != actor.member and events:
        events[0] = {**events[0], "gm_member": actor.member}
    return events


def run(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> tuple[dict[str, Any], list[Event]]:
    """``decide`` then ``apply`` each event: the new state and the events."""
    events = decide(state, command, rng, cards)
    new = dict(state)
    for event in events:
        new = apply(new, event)
    return new, events
