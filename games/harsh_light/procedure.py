"""Harsh Light's table procedure: ``decide(state, command, rng, cards) -> events``.

``decide`` checks a command against the rules, draws what it needs from the table's deck
(``state.DECK``, through the cards port) and returns the events, each card's token in them;
``events.apply`` folds them in. A refusal raises a ``RuleError`` and changes nothing.

Every command is a dict with ``type``, ``actor`` (``{"is_gm", "controls", "member", "name"}``;
the GM controls every character) and ``sheets`` (``{cid: sheet + "name"}``: the characters as
the table holds them now, so a changed sheet is read before the rules use it).

The commands' handlers live by concern: who may act and reading a command in ``access``; cards,
Willpower and the pull in ``pulls``; reflexive and combat moves, and the Storyteller's harm and
healing, in ``moves``; an attack's damage and Health's consequences in ``harm``; extended and
contested actions in ``extended``. Here is the dispatch (``COMMANDS``, ``decide``) and ``run``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from games.core.cards_port import Cards
from games.core.rng import Rng
from games.harsh_light import deck
from games.harsh_light.access import Command, Event, _actor
from games.harsh_light.errors import RuleError
from games.harsh_light.events import apply
from games.harsh_light.extended import (
    contest_pull, contest_start, contest_stop, extended_pull, extended_start, extended_stop,
)
from games.harsh_light.moves import (
    dodge, end_combat, end_turn, harm_command, heal_command, move, roll_initiative, set_order, willpower,
)
from games.harsh_light.pulls import count_deck, pull, put_away, set_up_pull

Handler = Callable[[Mapping[str, Any], Command, Rng, Cards], list[Event]]
COMMANDS: dict[str, Handler] = {
    "pull": pull,
    "set_up_pull": set_up_pull,
    "put_away": put_away,
    "count_deck": count_deck,
    "willpower": willpower,
    "dodge": dodge,
    "move": move,
    "set_order": set_order,
    "roll_initiative": roll_initiative,
    "end_turn": end_turn,
    "end_combat": end_combat,
    "extended_start": extended_start,
    "extended_pull": extended_pull,
    "extended_stop": extended_stop,
    "contest_start": contest_start,
    "contest_pull": contest_pull,
    "contest_stop": contest_stop,
    "harm": harm_command,
    "heal": heal_command,
}


def decide(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    """The events ``command`` causes, or a ``RuleError``; ``state`` is never changed. Each event
    gets the command's ``step`` and the ``turn`` it happened in."""
    handler = COMMANDS.get(str(command.get("type", "")))
    if handler is None:
        raise RuleError(f"Unknown command {command.get('type')!r}.")
    _actor(command)
    events = copy.deepcopy(handler(state, copy.deepcopy(dict(command)), rng, cards))
    step = state["step"] + 1
    for event in events:
        event["step"] = step
        event.setdefault("turn", state["turn"])
    # The odds before the next pull count the cards not lying face up (deck.counted): read after
    # every command (a pull set up, a card pulled, the deck counted) and kept in the state.
    last = events[-1]
    if "deck_left" in last:
        left, source = last["deck_left"], last.get("deck_from", deck.UNSEEN)
    else:
        left, source = deck.counted(cards)
    if (left, source) != (state.get("deck_left"), state.get("deck_from", deck.UNSEEN)) \
            or last["type"] == "deck_counted":
        last["deck_left"], last["deck_from"] = left, source
    return events


def run(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> tuple[dict[str, Any], list[Event]]:
    """``decide`` then ``apply`` each event: the new state and the events."""
    events = decide(state, command, rng, cards)
    new: dict[str, Any] = dict(state)
    for event in events:
        new = apply(new, event)
    return new, events
