"""Wounds and Fatigue (seed 001, "Wounds, Fatigue, and the Effects of Damage").

Seed: "On the Persona Sheet, Wounds and Fatigue each has a track of 20 5% spaces." Decided
reading: each track is 100 points, one tick is 5 points, and damage removes
points one for one; that is what the worked example counts (Trayer ends Turn One at 99
Wounds and 94 Fatigue). Every value here stays within 0-100.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

FULL = 100
TICK = 5
BOXES = FULL // TICK  # 20


def clamp(points: int) -> int:
    """A track never rises above 100 nor falls below 0."""
    return max(0, min(FULL, int(points)))


def lose(value: int, points: int) -> int:
    return clamp(value - max(0, points))


def gain(value: int, points: int, ceiling: int = FULL) -> int:
    """``value`` raised by ``points``, never above ``ceiling`` (and never lowered by it)."""
    return clamp(max(value, min(ceiling, value + max(0, points))))


def ticks(n: int, cost: int = TICK) -> int:
    """Points in ``n`` ticks; the Director may change what a tick costs in a contest."""
    return max(0, n) * max(0, cost)


def boxes(value: int) -> list[dict[str, Any]]:
    """The track as the sheet draws it: 20 boxes of 5, each full, partial or empty.

    Box 1 holds points 1-5, box 20 points 96-100; a track at 94 shows 18 full boxes, the
    19th holding 4 of its 5 points and the 20th empty."""
    value = clamp(value)
    drawn = []
    for index in range(BOXES):
        points = max(0, min(TICK, value - index * TICK))
        state = "full" if points == TICK else "empty" if points == 0 else "partial"
        drawn.append({"index": index + 1, "points": points, "state": state})
    return drawn


def eligible_fatigue(untended: int) -> int:
    """The most Fatigue a Persona can recover to ("available"/"eligible" Fatigue).

    Seed: "Wounds must be tended for the individual to regain so Fatigue and Wound Ticks".
    Reading: each untended Wound point holds back one Fatigue point from recovery until
    the Wound is tended; a tended Wound no longer does."""
    return clamp(FULL - max(0, untended))


def recovered(fatigue: int, untended: int, quiet_turns: int) -> int:
    """Fatigue after a Resolution Point at which the Persona did no Combat Action.

    Seed: "DID NO Combat ACTION ... regains one Fatigue box (5%) at the Resolution Point,
    ... for a subsequent turn recovers HALF of their eligible Fatigue ... for three turns
    return to FULL eligible Fatigue." ``quiet_turns`` counts this turn (1, 2, 3 ...).
    Reading: "half" is half the Fatigue lost below the eligible level, rounded down, as
    Double Down rounds. (The seed's "A Single-Action Rest only recovers ... 10%" is at odds
    with its three other statements of one box, 5%; one box it is.)"""
    ceiling = eligible_fatigue(untended)
    if quiet_turns <= 0:
        return clamp(fatigue)
    if quiet_turns == 1:
        return gain(fatigue, TICK, ceiling)
    if quiet_turns == 2:
        return gain(fatigue, max(0, ceiling - fatigue) // 2, ceiling)
    return gain(fatigue, FULL, ceiling)


def state_word(person: Mapping[str, Any]) -> str:
    """The word for a Persona who cannot fight on ("Unconscious", "Downed"), else ""."""
    if person.get("unconscious") or person["wounds"] <= 0:
        return "Unconscious"
    if person.get("downed") or person["fatigue"] <= 0:
        return "Downed"
    return ""
