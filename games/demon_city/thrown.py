"""Rolled d10s as the panel draws them (issue 23, "Dice as dice"): each die with its faces
(games/core/dice.py ``faces``, drawn by templates/games/core/die.html), the die the rule counts
kept and the others marked not counted.

Seed 003: in a roll "Their official roll ... is whichever of their rolls is highest", so the
highest die is kept and marked the best; a damage roll takes "the lowest" (Massive Damage "the
highest"), so that die alone is kept, and a low die is not "the best", so it is not marked so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from games.core.dice import faces

SIDES = 10


def thrown(dice: Sequence[int], counts: Literal["best", "lowest", "one"] = "best") -> list[dict[str, Any]]:
    """Each die of a roll as ``{"value", "faces"}``; ``counts`` says which the rule keeps: the
    highest (marked the best), the lowest (damage), or the one die there is (an injury)."""
    if not dice:
        return []
    counted = dice.index(min(dice) if counts == "lowest" else max(dice))
    return [{"value": v, "faces": faces(SIDES, v, kept=i == counted, best=i == counted and counts == "best")}
            for i, v in enumerate(dice)]


def happened_dice(event: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The dice behind a line of what happened: a damage roll's, an injury's d10, or none."""
    if event["type"] == "damage_rolled":
        return thrown(event["dice"], "best" if event["massive"] else "lowest")
    if event["type"] == "injury_rolled":
        return thrown([event["die"]], "one")
    return []
