"""The Freeform sheet: portrait colour, notes and free key/value stats."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from games.contract import Sheet
from games.sheets import SheetError, SheetField, parse_stats

MAX_STATS = 40
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")

FIELDS: tuple[SheetField, ...] = (
    SheetField("colour", "Portrait colour", "colour", default="#6b5b95", max_length=7),
    SheetField("notes", "Notes", "longtext", default="", max_length=4000),
    SheetField(
        "stats",
        "Stats",
        "stats",
        default=[],
        max_length=100,
        help="One per line, as 'Name: value' (for example 'Strength: 3').",
    ),
)


def clean(data: Mapping[str, Any]) -> dict[str, Any]:
    """Validates a submitted sheet and returns the stored form of it."""
    colour = str(data.get("colour") or "#6b5b95")
    if not _COLOUR.match(colour):
        raise SheetError("colour", "The colour must look like #a1b2c3.")
    notes = str(data.get("notes") or "")
    if len(notes) > 4000:
        raise SheetError("notes", "Notes are limited to 4000 characters.")
    stats = data.get("stats") or []
    if isinstance(stats, str):
        stats = parse_stats(stats)
    if len(stats) > MAX_STATS:
        raise SheetError("stats", f"A sheet holds at most {MAX_STATS} stats.")
    for name, value in stats:
        if len(name) > 40 or len(value) > 100:
            raise SheetError("stats", "A stat's name is at most 40 characters, its value 100.")
    return {"colour": colour.lower(), "notes": notes, "stats": [[n, v] for n, v in stats]}


def derived(sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Freeform derives nothing: its stats are on the card as they were typed (a count of them
    read as one more stat, "Stats: 3")."""
    return []


# the sheet as the registration gives it (games.contract.Sheet). Freeform has no rules to read a
# sheet: its stats are free text a table reads as it likes, so no field is "read" (a player's
# change is never a request) and a new character has no creation limits (Sheet.creation's
# default: nothing past them).
SHEET = Sheet(FIELDS, clean, derived)
