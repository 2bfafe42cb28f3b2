"""Dice pools and task resolution.

Seed: "Their official roll for the purposes of deciding the contest is whichever of their
rolls is highest. So if you roll a 6 and an 8, your "roll" is 8."
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.core.engine import RuleError
from games.core.rng import Rng

SIDES = 10
MAX_SITUATION = 2
MAX_MISC_LOST = 2
MAX_POOL = 5  # 1 + Skill + (Distraction or Defense) + 2 Situation, the seed's stated maximum

LOSSES = ("lost_injury", "lost_misc")

# Outcomes, always from the point of view of the side that rolled.
CRITICAL, SUCCESS, TIE, FAILURE, FUMBLE, BOTH_FUMBLE = (
    "critical", "success", "tie", "failure", "fumble", "both_fumble")
PROMPTS = {
    TIE: "Tie: the situation becomes more complex, but not in a way that decides the contest. "
         "Host, change the situation; the task can be attempted again.",
    BOTH_FUMBLE: "Both sides' best roll is a 1: the situation gets worse for both sides.",
}


@dataclass(frozen=True)
class Die:
    """One die in a pool, or one die taken away, with the reason shown to the table."""

    kind: str
    reason: str

    @property
    def sign(self) -> int:
        return -1 if self.kind in LOSSES else 1

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "reason": self.reason, "sign": self.sign}


@dataclass(frozen=True)
class Pool:
    """The dice an entity rolls; ``size`` applies Lost Dice down to the floor of one."""

    dice: tuple[Die, ...]

    @property
    def size(self) -> int:
        return max(1, min(MAX_POOL, sum(d.sign for d in self.dice)))

    def count(self, kind: str) -> int:
        return sum(1 for d in self.dice if d.kind == kind)

    def to_dict(self) -> dict[str, Any]:
        return {"dice": [d.to_dict() for d in self.dice], "size": self.size}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Pool:
        return cls(tuple(Die(d["kind"], d["reason"]) for d in data["dice"]))


def build_pool(*, skill: str | None = None, defense: str | None = None,
               distraction: str | None = None, situation: Sequence[str] = (),
               injury: str | None = None, misc_lost: Sequence[str] = ()) -> Pool:
    """Collect a pool from the reasons for each die; ``None`` means that die is not earned.

    Raises ``RuleError`` past the seed's caps: two Situation Dice, two Miscellaneous Lost
    Dice, and Defense with Distraction ("1 Distraction Die or Defense Die").
    """
    if len(situation) > MAX_SITUATION:
        raise RuleError("Nobody can get more than 2 Situation Dice.")
    if len(misc_lost) > MAX_MISC_LOST:
        raise RuleError("Nobody can lose more than 2 Miscellaneous Lost Dice.")
    if defense and distraction:
        raise RuleError("A pool holds a Distraction Die or a Defense Die, not both.")
    dice = [Die("base", "the d10 everyone rolls")]
    for kind, reason in (("skill", skill), ("defense", defense), ("distraction", distraction)):
        if reason:
            dice.append(Die(kind, reason))
    dice += [Die("situation", r) for r in situation]
    if injury:
        dice.append(Die("lost_injury", injury))
    dice += [Die("lost_misc", r) for r in misc_lost]
    return Pool(tuple(dice))


def roll(size: int, rng: Rng) -> list[int]:
    """Roll ``size`` d10 (at least one), in order, so the log shows every die."""
    return [rng.randint(1, SIDES) for _ in range(max(1, size))]


def best(dice: Iterable[int]) -> int:
    return max(dice)


def judge_against_target(best_die: int, target_number: int) -> str:
    """Outcome of a roll against a static difficulty.

    The player must roll *over* the number. Rolling exactly the number is a tie: the
    static number stands in for the Host's roll ("tends to personify the environment"),
    and the seed's tie rule covers tasks in general. A best die of 1 is always a fumble,
    even against difficulty 0, because the seed defines the fumble on the roll alone.
    """
    if best_die == 1:
        return FUMBLE
    if best_die > target_number:
        return CRITICAL if best_die == SIDES else SUCCESS
    return TIE if best_die == target_number else FAILURE


def judge_opposed(best_die: int, other_best: int) -> str:
    """Outcome of an opposed roll for the side whose best die is ``best_die``."""
    if best_die == other_best:
        return BOTH_FUMBLE if best_die == 1 else TIE
    if best_die == 1:
        return FUMBLE
    if best_die > other_best:
        return CRITICAL if best_die == SIDES else SUCCESS
    return FAILURE


@dataclass(frozen=True)
class TaskRoll:
    """A rolled task: the pool, every die, and the outcome for the roller."""

    pool: Pool
    dice: tuple[int, ...]
    against: int  # the target number, or the other side's best die
    outcome: str

    @property
    def best(self) -> int:
        return best(self.dice)

    @property
    def prompt(self) -> str | None:
        return PROMPTS.get(self.outcome)

    def to_dict(self) -> dict[str, Any]:
        return {"pool": self.pool.to_dict(), "dice": list(self.dice), "best": self.best,
                "against": self.against, "outcome": self.outcome, "prompt": self.prompt}


def task_pool(stat: int, target_number: int, *, distracted: str | None = None,
              situation: Sequence[str] = (), injury: str | None = None,
              misc_lost: Sequence[str] = ()) -> Pool:
    """Pool for a task against a static difficulty: the Skill Die when stat > number."""
    skill = f"stat {stat} > difficulty {target_number}" if stat > target_number else None
    return build_pool(skill=skill, distraction=distracted, situation=situation,
                      injury=injury, misc_lost=misc_lost)


def opposed_pools(stat: int, other_stat: int, *, distracted: str | None = None,
                  situation: Sequence[str] = (), other_situation: Sequence[str] = (),
                  misc_lost: Sequence[str] = (), other_misc_lost: Sequence[str] = (),
                  ) -> tuple[Pool, Pool]:
    """Pools for two sides competing at a task: the higher stat gets the Skill Die.

    ``distracted`` is the reason the first side (the perpetrator) earns a Distraction Die.
    """
    mine = f"stat {stat} > {other_stat}" if stat > other_stat else None
    theirs = f"stat {other_stat} > {stat}" if other_stat > stat else None
    return (build_pool(skill=mine, distraction=distracted, situation=situation,
                       misc_lost=misc_lost),
            build_pool(skill=theirs, situation=other_situation, misc_lost=other_misc_lost))


def roll_against_target(pool: Pool, target_number: int, rng: Rng) -> TaskRoll:
    dice = tuple(roll(pool.size, rng))
    return TaskRoll(pool, dice, target_number, judge_against_target(best(dice), target_number))


def roll_opposed(pool: Pool, other: Pool, rng: Rng) -> tuple[TaskRoll, TaskRoll]:
    """Both sides roll at once; each result carries its own outcome."""
    mine, theirs = tuple(roll(pool.size, rng)), tuple(roll(other.size, rng))
    return (TaskRoll(pool, mine, best(theirs), judge_opposed(best(mine), best(theirs))),
            TaskRoll(other, theirs, best(mine), judge_opposed(best(theirs), best(mine))))
