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


# Each die's outline on a 40 x 40 face (templates/games/core/die.html, jinja2/log/die.html):
# a d4 a triangle, a d6 a square, a d8 a diamond, a d10 a kite, a d12 a pentagon, a d20 a
# hexagon; any other a circle.
OUTLINES = {
    4: "20,3 37,35 3,35", 6: "5,5 35,5 35,35 5,35", 8: "20,2 38,20 20,38 2,20", 10: "20,2 37,16 20,38 3,16",
    12: "20,2 38,15 31,37 9,37 2,15", 20: "20,2 36,11 36,29 20,38 4,29 4,11",
}


def faces(sides: int | str, value: int, *, kept: bool = True, best: bool = False) -> list[dict[str, Any]]:
    """How one die is drawn: its outline and the number on it; a d100 as two d10s, the tens
    ("40", "00" for 100) and the units, as a table throws it."""
    if sides == 100:
        tens, units = (value // 10) % 10, value % 10
        return [{"sides": 10, "outline": OUTLINES[10], "label": f"{tens}0", "kept": kept, "best": best, "part": "tens"},
                {"sides": 10, "outline": OUTLINES[10], "label": str(units), "kept": kept, "best": best, "part": "units"}]
    outline = OUTLINES.get(sides if isinstance(sides, int) else 0, "")
    return [{"sides": sides, "outline": outline, "label": str(value), "kept": kept, "best": best, "part": ""}]


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
                    # facts only: the log line draws each die from them (``faces``)
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
