"""Free dice notation (``4d10kh1``, ``1d100``, ``2d6+3``) through the d20 engine.

d20 draws from the module-level :mod:`random`; we point its ``random`` at a proxy
that asks the ``Rng`` of the roll in progress, so every die still comes from the
injected source (seeded in tests, the OS CSPRNG in production).
"""

from __future__ import annotations

import contextvars
import threading
from dataclasses import dataclass
from typing import Any

import d20
import d20.expression

from games.core.rng import Rng, system_rng

_current: contextvars.ContextVar[Rng | None] = contextvars.ContextVar("dice_rng", default=None)


class _RngProxy:
    def randrange(self, *args: int) -> int:
        rng = _current.get()
        if rng is None:  # never roll from an implicit source: callers must pass one
            raise RuntimeError("roll_notation was not given an Rng")
        return rng.randrange(*args)


d20.expression.random = _RngProxy()  # type: ignore[attr-defined]


class NotationError(ValueError):
    """Notation the dice engine cannot roll, with a message fit to show the roller."""


@dataclass(frozen=True)
class DieGroup:
    """One ``NdS`` term: every die thrown, and which of them count."""

    sides: int | str
    values: tuple[int, ...]
    kept: tuple[bool, ...]


@dataclass(frozen=True)
class NotationRoll:
    notation: str
    total: int
    groups: tuple[DieGroup, ...]
    # d20's own rendering, e.g. "4d10kh1 (~~3~~, **9**, ~~2~~, ~~5~~) = `9`"
    detail: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "notation": self.notation,
            "total": self.total,
            "groups": [
                {
                    "sides": g.sides,
                    "dice": [{"value": v, "kept": k} for v, k in zip(g.values, g.kept)],
                }
                for g in self.groups
            ],
            "detail": self.detail,
        }


def _groups(node: Any) -> list[DieGroup]:
    found: list[DieGroup] = []
    if isinstance(node, d20.expression.Dice):
        values, kept = [], []
        for die in node.values:
            for literal in die.values:
                values.append(int(literal.number))
                kept.append(bool(literal.kept and die.kept))
        found.append(DieGroup(sides=node.size, values=tuple(values), kept=tuple(kept)))
        return found
    for child in getattr(node, "children", []):
        found.extend(_groups(child))
    return found


_rollers = threading.local()


def _roller(max_dice: int) -> d20.Roller:
    """This thread's roller for that limit. A roller keeps the trees of the notation it has
    parsed (d20's cache), so a table rolling ``2d6+3`` again does not parse it again; its
    count of dice thrown is reset by every roll, so it is never shared between threads."""
    mine: dict[int, d20.Roller] = getattr(_rollers, "by_limit", None) or {}
    _rollers.by_limit = mine
    if max_dice not in mine:
        mine[max_dice] = d20.Roller(context=d20.RollContext(max_rolls=max_dice))
    return mine[max_dice]


def roll_notation(notation: str, rng: Rng | None = None, *, max_dice: int = 200) -> NotationRoll:
    """Rolls ``notation`` with ``rng`` (the system CSPRNG if none), recording every die.

    Raises ``NotationError`` for text that is not dice notation or throws more than
    ``max_dice`` dice.
    """
    text = notation.strip()
    if not text:
        raise NotationError("Type some dice notation, such as 2d6+3.")
    roller = _roller(max_dice)
    token = _current.set(rng or system_rng())
    try:
        result = roller.roll(text)
    except d20.TooManyRolls:
        raise NotationError(f"That rolls more than {max_dice} dice.") from None
    except d20.RollSyntaxError:
        raise NotationError(f"{text!r} is not dice notation (try 4d10kh1, 1d100 or 2d6+3).") from None
    except d20.RollError as exc:
        raise NotationError(f"Cannot roll {text!r}: {str(exc).rstrip('.')}.") from None
    finally:
        _current.reset(token)
    return NotationRoll(
        notation=text,
        total=int(result.total),
        groups=tuple(_groups(result.expr)),
        detail=str(result),
    )
