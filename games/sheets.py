"""How a system describes its character sheet, in plain data the platform can render."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

FieldKind = Literal["text", "longtext", "colour", "int", "bool", "stats", "skills"]
# Who may set a field: its player ("", the default: what no rule reads, a portrait's words, notes);
# its player until a rule move has used the character, then the rules, the GM, and its player's
# request the GM approves ("read": a stat, a skill, an ability, a weapon the rules read); its
# player when making the character and then only the rules and the GM ("chosen": Report Card's
# A+ and F); only the rules and the GM ("kept": a track in play, Corruption). The platform refuses
# a player's sheet edit that would change a "chosen" or "kept" one, turns one that would change a
# "read" one of a character in play into a request (tabletop/services/requests.py), and logs the
# GM's with the old and the new value.
FieldOwner = Literal["", "read", "chosen", "kept"]


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

    def player_sets(self, *, making: bool, in_play: bool = False) -> bool:
        """Whether a player may set this field themselves: when making their character, or
        afterwards (a "read" field until the character is in play)."""
        if self.rules == "read":
            return making or not in_play
        return self.rules == "" or (self.rules == "chosen" and making)

    @property
    def asked(self) -> bool:
        """Whether a player's change to it may be a request to the GM: a "read" field's once the
        character is in play, a "chosen" one's once the character is made."""
        return self.rules in ("read", "chosen")


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
