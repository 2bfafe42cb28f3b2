"""Checks and challenges (seed 001, "CHECKS" and "CHALLENGES"): the band of one d100 roll.

A check rolls percentile dice against a skill's BASE (1-95; 95 is Mastered). A challenge,
the Director's call for hindered actions, rolls against the skill's Core value instead,
with the same bands. Decided readings: Core = BASE / 5 rounded up
(32 -> 7, 33 -> 7, 95 -> 19); Double Down = half, rounded down; Double Up = double.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.core.rng import Rng
from games.passages.errors import BadValue

CRITICAL_FAIL = "critical_fail"
BLOWN = "blown"
DOUBLE_UP = "double_up"
SUCCESS = "success"
DOUBLE_DOWN = "double_down"
# Worst to best, as the seed lists them.
BANDS = (CRITICAL_FAIL, BLOWN, DOUBLE_UP, SUCCESS, DOUBLE_DOWN)
LABELS = {
    CRITICAL_FAIL: "Critical Fail",
    BLOWN: "Blown Roll",
    DOUBLE_UP: "Double Up success",
    SUCCESS: "Success",
    DOUBLE_DOWN: "Double Down wild success",
}
MEANINGS = {
    CRITICAL_FAIL: "the Action fails",
    BLOWN: "the Action fails",
    DOUBLE_UP: "the Action partially succeeds",
    SUCCESS: "the attempt succeeded as intended",
    DOUBLE_DOWN: "wildly successful: the Director embellishes the result",
}
FAILURES = frozenset({CRITICAL_FAIL, BLOWN})
# Contests rank successes "DD over Success over DU"; any failure is below them all.
LEVEL = {CRITICAL_FAIL: 0, BLOWN: 0, DOUBLE_UP: 1, SUCCESS: 2, DOUBLE_DOWN: 3}

MIN_BASE, MASTERED = 1, 95
D100 = 100


def require_base(base: object) -> int:
    """A Skill BASE: a whole number from 1 to 95 (Mastered)."""
    if isinstance(base, bool) or not isinstance(base, int) or not MIN_BASE <= base <= MASTERED:
        raise BadValue(f"A Skill BASE is a whole number from {MIN_BASE} to {MASTERED}, not {base!r}.")
    return base


def require_roll(roll: object) -> int:
    if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= D100:
        raise BadValue(f"A percentile roll is a whole number from 1 to {D100}, not {roll!r}.")
    return roll


def core(base: int) -> int:
    """Seed: "Challenges use the Skill's Core Value" - "the Lock Pick Skill Core would be 7"
    for 32 and "A Mastered Skill of 95 renders a Core of 19": a fifth, rounded up."""
    return -(-require_base(base) // 5)


def double_up(value: int) -> int:
    """Seed: "Double the Skill value for the DU"."""
    return 2 * value


def double_down(value: int) -> int:
    """Seed: "Halve the Skill value for the DD" (rounded down: 7 -> 3, the storm example)."""
    return value // 2


@dataclass(frozen=True)
class Thresholds:
    """What one roll is judged against: ``value`` is the BASE (a check) or the Core (a
    challenge); at or below ``dd`` is a wild success, above ``du`` a Blown Roll."""

    base: int
    challenge: bool
    value: int
    du: int
    dd: int

    def to_dict(self) -> dict[str, Any]:
        return {"base": self.base, "challenge": self.challenge, "value": self.value,
                "du": self.du, "dd": self.dd}


def thresholds(base: int, *, challenge: bool = False) -> Thresholds:
    value = core(base) if challenge else require_base(base)
    return Thresholds(base=base, challenge=challenge, value=value, du=double_up(value),
                      dd=double_down(value))


def band(base: int, roll: int, *, challenge: bool = False) -> str:
    """The band of a d100 ``roll`` (1-100) against a skill of ``base``.

    Seed: "CRITICAL FAIL: A roll of precisely 100% means the Action fails. This applies even
    to Mastered Skills (95%)"; "BLOWN ROLL: A roll higher than the Double Up value";
    "DOUBLE UP SUCCESS: A roll higher than the Skill BASE and lower than or equal to double
    the Skill BASE"; "SKILLS SUCCESS: A roll equal to or less than Skill BASE and more than
    1/2(Skill BASE)"; "DOUBLE DOWN SUCCESS: A roll equal to or less than 1/2 Skills BASE".
    A challenge reads the same bands off the Core value.
    """
    roll = require_roll(roll)
    t = thresholds(base, challenge=challenge)
    if roll == D100:
        return CRITICAL_FAIL
    if roll > t.du:
        return BLOWN
    if roll > t.value:
        return DOUBLE_UP
    if roll > t.dd:
        return SUCCESS
    return DOUBLE_DOWN


def succeeded(result: str) -> bool:
    return result not in FAILURES


def level(result: str) -> int:
    """0 for a failure, then DU 1, Success 2, DD 3 (a contest's "level of success")."""
    return LEVEL[result]


def roll_d100(rng: Rng) -> int:
    """Percentile dice: 1-100, where "double-ought" reads as 100."""
    return rng.randint(1, D100)


@dataclass(frozen=True)
class CheckResult:
    """One check, challenge or practice, with the die (None for practice) and its band."""

    skill: str
    thresholds: Thresholds
    roll: int | None
    band: str
    practice: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"skill": self.skill, **self.thresholds.to_dict(), "roll": self.roll,
                "band": self.band, "label": LABELS[self.band], "practice": self.practice}


def check(skill: str, base: int, rng: Rng, *, challenge: bool = False) -> CheckResult:
    """Roll a check (or a challenge) of ``skill`` at ``base``."""
    t = thresholds(base, challenge=challenge)
    roll = roll_d100(rng)
    return CheckResult(skill=skill, thresholds=t, roll=roll, band=band(base, roll, challenge=challenge))


def practice(skill: str, base: int) -> CheckResult:
    """Seed: "A player may 'practice' any skill, but they will automatically succeed ...
    There is no need to roll dice; you just do it." (It does not advance the skill.)"""
    return CheckResult(skill=skill, thresholds=thresholds(base), roll=None, band=SUCCESS, practice=True)
