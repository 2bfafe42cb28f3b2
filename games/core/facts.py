"""What the platform vouches for and hands a system's rules: who sends a move (``Member``), the
characters at the table (``Character``), and what a parser may read of the table (``Table``).
Plain data, no Django; ``games.contract`` gives them to systems with the rest of the contract."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Member:
    """The person sending a command or rolling a check, as the platform vouches for it:
    enough for an engine to let only one person make a choice (a pick, a retry)."""

    id: int
    name: str
    is_gm: bool
    controls: tuple[str, ...] = ()  # the combatant ids of the characters they own

    def plays(self, cid: str) -> bool:
        """Whether they play this character (the GM plays only the ones nobody else does)."""
        return cid in self.controls

    def acts_for(self, cid: str) -> bool:
        """Whether they may act for this character: its player, or the GM, who stands in for
        anyone."""
        return self.is_gm or cid in self.controls


@dataclass(frozen=True)
class Character:
    """A character at the table, as a parser or a check reads it."""

    id: int  # the platform's id, what forms post
    cid: str  # its combatant id in a procedure's state and commands ("c12")
    name: str
    sheet: Mapping[str, Any]
    owner: int | None  # the member id of whoever plays it
    is_npc: bool = False

    @property
    def combatant(self) -> dict[str, Any]:
        """The sheet as a procedure's engine reads it: with its ``id`` and ``name``."""
        return {**self.sheet, "id": self.cid, "name": self.name}


@dataclass(frozen=True)
class Table:
    """What a parser may read of the table: its characters (never the procedure's state: a
    parser runs before the table's lock is taken; a rule reads the state in its handler).

    ``read_id`` is the platform's one rule for ids from a request (``tabletop.ids.parse_id``):
    a value no database could hold names no character rather than reaching the database."""

    characters: tuple[Character, ...]
    read_id: Callable[[object], int | None]

    def character(self, raw: object) -> Character | None:
        wanted = self.read_id(raw)
        return next((c for c in self.characters if c.id == wanted), None)

    def chosen(self, raws: Sequence[object]) -> list[Character]:
        """The characters these submitted ids name, in the table's order; others are dropped."""
        wanted = {i for i in map(self.read_id, raws) if i is not None}
        return [c for c in self.characters if c.id in wanted]
