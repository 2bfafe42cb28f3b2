"""The Freeform sheet: portrait colour, notes and free key/value stats; and, at a table whose GM
designed a sheet (games/core/designs.py), the designed fields' values with a copy of the design
they follow (``design``, ``values``: kept beside the form's fields, as what the rules wrote is)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from games.contract import Character, Glance, Sheet
from games.core import designs
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
    cleaned = {"colour": colour.lower(), "notes": notes, "stats": [[n, v] for n, v in stats]}
    if data.get("design") is not None:  # a sheet on the table's design: its values checked by kind
        design = designs.clean_design(data["design"])
        cleaned.update(design=design, values=designs.clean_values(design, data.get("values") or {}))
    return cleaned


def derived(sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Freeform derives nothing: its stats are on the card as they were typed (a count of them
    read as one more stat, "Stats: 3")."""
    return []


def glance(sheet: Mapping[str, Any]) -> Glance:
    """A designed sheet at a glance: its tracks as bars and its first numbers (at most six, the
    card stays a card); a sheet of free stats shows none (its stats are on its sheet)."""
    design = sheet.get("design")
    if not design:
        return Glance()
    values = sheet.get("values") or {}
    fields = designs.valued(design)
    tracks = tuple((f["label"], int(values.get(f["full"], {}).get("now", 0)), int(values.get(f["full"], {}).get("of", 0)))
                   for f in fields if f["kind"] == "track" and isinstance(values.get(f["full"]), Mapping))
    stats = tuple((f["label"], str(values.get(f["full"], 0))) for f in fields if f["kind"] == "number")[:6]
    return Glance(stats=stats, tracks=tracks)


def npc_glance(glance: Glance) -> Glance:
    """A secret NPC's card shows nothing of a designed sheet: a Freeform table's tracks are
    whatever its GM made them (a hidden agenda, a countdown), not harm every seat watches, so
    behind the screen means all of it (a table that shows NPCs' sheets shows them whole)."""
    return Glance(out=glance.out)


def character_view(character: Character) -> dict[str, Any]:
    """``Panel.character_view``: a designed sheet as the panel draws it, field by field in the
    GM's order with each value, and its saved rolls; drawn only for the seats that may see it."""
    design = character.sheet.get("design")
    if not design:
        return {"designed": False}
    values = character.sheet.get("values") or {}
    rows = []
    for field in designs.layout(design):
        value = values.get(field["full"], designs.default_value(field)) if field["kind"] != "group" else None
        row = {**field, "value": value, "slug": field["full"].replace(".", "-")}
        if field["kind"] == "track" and isinstance(value, Mapping):
            of = max(1, int(value.get("of", 1)))
            row["fill"] = max(0, min(100, round(100 * int(value.get("now", 0)) / of)))
        rows.append(row)
    return {"designed": True, "rows": rows, "rolls": [{**r, "index": i} for i, r in enumerate(design.get("rolls", []))]}


# the sheet as the registration gives it (games.contract.Sheet). Freeform has no rules to read a
# sheet: its stats are free text a table reads as it likes, so no field is "read" (a player's
# change is never a request) and a new character has no creation limits (Sheet.creation's
# default: nothing past them).
SHEET = Sheet(FIELDS, clean, derived, glance=glance, npc_glance=npc_glance)
