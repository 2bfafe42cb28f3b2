"""How a system describes its character sheet, in plain data the platform can render."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

FieldKind = Literal["text", "longtext", "colour", "int", "bool", "stats", "skills"]
# Who may set a field: its player ("", the default); its player when making the character and
# then only the rules and the GM ("chosen": Report Card's A+ and F); only the rules and the GM
# ("kept": a track in play, Corruption). The platform refuses a player's sheet edit that would
# change one, and logs the GM's with the old and the new value.
FieldOwner = Literal["", "chosen", "kept"]


class SheetError(ValueError):
    """A sheet value a system refuses; ``field`` names the field at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class SheetField:
    key: str
    label: str
    kind: FieldKind
    default: object = ""
    max_length: int = 200
    help: str = ""
    rules: FieldOwner = ""

    def player_sets(self, *, making: bool) -> bool:
        """Whether a player may set this field: when making their character, or afterwards."""
        return self.rules == "" or (self.rules == "chosen" and making)


def parse_stats(text: str) -> list[list[str]]:
    """Turns 'Name: value' lines into ``[[name, value], ...]``, refusing malformed lines."""
    stats: list[list[str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        name, sep, value = line.partition(":")
        if not sep or not name.strip():
            raise SheetError("stats", f"Line {number} should read 'Name: value'.")
        stats.append([name.strip(), value.strip()])
    return stats


def format_stats(stats: list[list[str]]) -> str:
    return "\n".join(f"{name}: {value}" for name, value in stats)
