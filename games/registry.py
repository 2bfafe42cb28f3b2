"""Every game system the tabletop knows, and how each plugs into a table.

A system is a key, a name, its sheet (fields, cleaning, derived values) and the
actions a table offers. Systems whose issue has not landed are listed as "coming":
they show in the campaign form but cannot be chosen.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import games.demon_city as demon_city
from games.demon_city import table as demon_city_table
from games.freeform import sheet as freeform_sheet
from games.sheets import SheetField


@dataclass(frozen=True)
class Procedure:
    """A system's table procedure as a state machine the platform drives:
    ``decide(state, command, rng) -> events`` and ``apply(state, event) -> state``.
    ``summary(event, state)`` is the log line; ``view(state)`` what the panel shows."""

    new_state: Callable[[], dict[str, Any]]
    decide: Callable[[dict[str, Any], dict[str, Any], Any], list[dict[str, Any]]]
    apply: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]
    summary: Callable[[dict[str, Any], dict[str, Any]], str]
    view: Callable[[dict[str, Any]], dict[str, Any]]
    error: type[Exception]
    # command -> reads its arguments from submitted form data (raising ``error``)
    command_args: Mapping[str, Callable[[Mapping[str, str]], dict[str, Any]]] = field(default_factory=dict)
    # after an event, the sheet fields to write back to each combatant's character, if any
    writeback: Callable[[dict[str, Any], dict[str, Any]], dict[str, dict[str, Any]]] | None = None


@dataclass(frozen=True)
class GameSystem:
    key: str
    name: str
    blurb: str
    available: bool
    sheet_fields: tuple[SheetField, ...] = ()
    clean_sheet: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None
    derived: Callable[[Mapping[str, Any]], list[tuple[str, str]]] = field(
        default=lambda sheet: []
    )
    actions: tuple[str, ...] = ()
    procedure: Procedure | None = None
    # A one-off task roll for a character (sheet, keyword args, rng) -> (data, log line)
    task: Callable[..., tuple[dict[str, Any], str]] | None = None
    rule_error: type[Exception] = ValueError  # what the system's rules raise to refuse


SYSTEMS: dict[str, GameSystem] = {
    s.key: s
    for s in (
        GameSystem(
            key="freeform",
            name="Freeform",
            blurb="Free dice notation, chat and free-form character sheets.",
            available=True,
            sheet_fields=freeform_sheet.FIELDS,
            clean_sheet=freeform_sheet.clean,
            derived=freeform_sheet.derived,
            actions=("roll", "chat"),
        ),
        GameSystem(
            key="demon_city",
            name="Demon City",
            blurb="d10 pools where the best die counts; slow-motion Action Rounds and Clashes.",
            available=True,
            sheet_fields=demon_city_table.FIELDS,
            clean_sheet=demon_city_table.clean_sheet,
            derived=demon_city_table.derived,
            actions=("roll", "chat", "action_rounds", "task"),
            task=demon_city_table.task,
            rule_error=demon_city.RuleError,
            procedure=Procedure(
                new_state=demon_city.new_state,
                decide=demon_city.decide,
                apply=demon_city.apply,
                summary=lambda event, state: demon_city.summary(event, demon_city.names_of(state)),
                view=demon_city_table.panel,
                error=demon_city.RuleError,
                command_args=demon_city_table.COMMAND_ARGS,
                writeback=demon_city_table.writeback,
            ),
        ),
        GameSystem("shadows", "Shadows of Humanity", "Tarot draws and Action Points.", False),
        GameSystem("passages", "Passages (NycosRPG)", "Percentile checks and tracks.", False),
        GameSystem("harsh_light", "Harsh Light", "A card plus a pool, ten-again.", False),
        GameSystem("report_card", "Report Card", "A Tarot deck for every player.", False),
    )
}


class UnknownSystem(LookupError):
    pass


def get(key: str) -> GameSystem:
    """The system with this key, available or not; ``UnknownSystem`` otherwise."""
    try:
        return SYSTEMS[key]
    except KeyError:
        raise UnknownSystem(f"No game system called {key!r}.") from None


def available() -> list[GameSystem]:
    return [s for s in SYSTEMS.values() if s.available]


def coming() -> list[GameSystem]:
    return [s for s in SYSTEMS.values() if not s.available]
