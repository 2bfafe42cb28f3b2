"""Every game system the tabletop knows, and how each plugs into a table.

A system is a key, a name, its sheet (fields, cleaning, derived values) and the
actions a table offers. Systems whose issue has not landed are listed as "coming":
they show in the campaign form but cannot be chosen.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.freeform import sheet as freeform_sheet
from games.sheets import SheetField


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
        GameSystem("demon_city", "Demon City", "d10 pools, slow-motion Action Rounds.", False),
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
