"""The Injury table: data the GM may replace, and the roll on it.

The seed promises the table "in a later entry", so the default below is ours: a d10,
low is bad, and some results are not conclusive, which is what the seed's step 8 needs
("Anyone who is present, out of the fight, still alive, and who needs to roll on the
Injury table because their last roll wasn't conclusive does").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core.engine import RuleError
from games.core.rng import Rng
from games.demon_city.dice import SIDES

DEFAULT_INJURY_TABLE: list[dict[str, Any]] = [
    {"low": 1, "high": 1, "result": "Killed", "dead": True, "conclusive": True,
     "description": "Dead, or beyond any help the scene can offer."},
    {"low": 2, "high": 3, "result": "Bleeding out", "dead": False, "conclusive": False,
     "description": "Unconscious and bleeding: roll again next round unless someone "
                    "stops the bleeding."},
    {"low": 4, "high": 5, "result": "Broken", "dead": False, "conclusive": True,
     "description": "A broken bone or torn muscle; unconscious for the rest of the scene."},
    {"low": 6, "high": 7, "result": "Knocked out", "dead": False, "conclusive": True,
     "description": "Unconscious for a few minutes."},
    {"low": 8, "high": 10, "result": "Battered", "dead": False, "conclusive": True,
     "description": "Conscious, hurt and shaken: can crawl or hide, not fight."},
]

_KEYS = {"low", "high", "result", "dead", "conclusive", "description"}


def validate_table(table: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Check a GM-edited table: rows cover 1-10 exactly once; returns a plain copy."""
    covered: list[int] = []
    rows = []
    for row in table:
        if set(row) != _KEYS:
            raise RuleError(f"Each Injury table row needs exactly: {', '.join(sorted(_KEYS))}.")
        low, high = row["low"], row["high"]
        if not (isinstance(low, int) and isinstance(high, int) and 1 <= low <= high <= SIDES):
            raise RuleError(f"Injury row {row['result']!r} must span 1-{SIDES}, low <= high.")
        if not isinstance(row["dead"], bool) or not isinstance(row["conclusive"], bool):
            raise RuleError("Injury rows say dead and conclusive with true or false.")
        covered += range(low, high + 1)
        rows.append(dict(row))
    if sorted(covered) != list(range(1, SIDES + 1)):
        raise RuleError(f"The Injury table must cover every roll 1-{SIDES} exactly once.")
    return rows


def lookup(table: Sequence[Mapping[str, Any]], die: int) -> dict[str, Any]:
    for row in table:
        if row["low"] <= die <= row["high"]:
            return dict(row)
    raise RuleError(f"The Injury table has no row for {die}.")


def roll_injury(table: Sequence[Mapping[str, Any]], rng: Rng) -> tuple[int, dict[str, Any]]:
    """Roll one d10 on the table; returns the die and the row it lands on."""
    die = rng.randint(1, SIDES)
    return die, lookup(table, die)
