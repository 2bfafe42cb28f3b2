"""Who may send which command: the GM, or a player for the combatants they control."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.demon_city.errors import RuleError


@dataclass(frozen=True)
class Actor:
    """The sender of a command, as the Django side vouches for it.

    ``command["actor"] = {"is_gm": bool, "controls": [combatant id, ...]}``.
    """

    is_gm: bool = False
    controls: frozenset[str] = frozenset()

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Actor:
        if not isinstance(data, Mapping):
            raise RuleError("A command needs an actor: {'is_gm': bool, 'controls': [ids]}.")
        controls = data.get("controls") or []
        if not isinstance(controls, (list, tuple, set, frozenset)):
            raise RuleError("actor.controls must be a list of combatant ids.")
        return cls(is_gm=bool(data.get("is_gm", False)), controls=frozenset(map(str, controls)))

    def to_dict(self) -> dict[str, Any]:
        return {"is_gm": self.is_gm, "controls": sorted(self.controls)}

    def may_control(self, cid: str) -> bool:
        """The GM speaks for NPCs and may stand in for an absent player, as at a real
        table; a player speaks only for their own characters."""
        return self.is_gm or cid in self.controls


def require_gm(actor: Actor, what: str) -> None:
    if not actor.is_gm:
        raise RuleError(f"Only the Host can {what}.")
