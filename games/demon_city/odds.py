"""Exact odds for Demon City rolls (no sampling): pool against pool, pool against a number.

Everything is computed with ``Fraction`` from the distribution of the best of n d10,
P(best <= k) = (k/10)^n, and handed out as floats (``*_exact`` keeps the fractions).
Seed comment: "1d10 v 1d10: 50% win ... 5d10 v 1d10: 87% win" with ties re-rolled.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from fractions import Fraction

from games.demon_city.dice import SIDES

FACES = range(1, SIDES + 1)


def best_of(n: int) -> dict[int, Fraction]:
    """P(best die == k) for a pool of ``n`` d10 (a pool is never below one die)."""
    n = max(1, n)
    return {k: Fraction(k, SIDES) ** n - Fraction(k - 1, SIDES) ** n for k in FACES}


def lowest_of(n: int) -> dict[int, Fraction]:
    """P(lowest die == k) for ``n`` d10: the normal damage roll."""
    n = max(1, n)
    return {k: Fraction(SIDES - k + 1, SIDES) ** n - Fraction(SIDES - k, SIDES) ** n
            for k in FACES}


@dataclass(frozen=True)
class ExactOdds:
    """Chances for the first side, as fractions. ``win`` includes ``crit``; ``fumble`` is
    P(own best die is 1) and ``both_fumble`` the share of ties where both best dice are 1."""

    win: Fraction
    lose: Fraction
    tie: Fraction
    crit: Fraction
    fumble: Fraction
    both_fumble: Fraction = Fraction(0)

    @property
    def win_ties_rerolled(self) -> Fraction:
        """Win chance when a tie is simply rolled again (the seed comment's table)."""
        return self.win / (self.win + self.lose)

    def as_floats(self) -> Odds:
        return Odds(**{f.name: float(getattr(self, f.name)) for f in fields(self)},
                    win_ties_rerolled=float(self.win_ties_rerolled))


@dataclass(frozen=True)
class Odds:
    """Chances for the first side, as floats: ``win + lose + tie == 1``."""

    win: float
    lose: float
    tie: float
    crit: float
    fumble: float
    both_fumble: float
    win_ties_rerolled: float


def clash_exact(a: int, b: int) -> ExactOdds:
    """``a`` dice against ``b`` dice, both sides keeping their best die."""
    mine, theirs = best_of(a), best_of(b)
    win = sum((mine[x] * theirs[y] for x in FACES for y in FACES if x > y), Fraction(0))
    tie = sum((mine[x] * theirs[x] for x in FACES), Fraction(0))
    crit = mine[SIDES] * (1 - theirs[SIDES])  # "rolls a 10 and wins (ie not a tie)"
    return ExactOdds(win=win, lose=1 - win - tie, tie=tie, crit=crit, fumble=mine[1],
                     both_fumble=mine[1] * theirs[1])


def against_target_exact(pool: int, target: int) -> ExactOdds:
    """``pool`` dice rolled over a static ``target`` (see ``dice.judge_against_target``:
    equal is a tie, and a best die of 1 is a fumble and so a loss)."""
    dist = best_of(pool)
    win = sum((p for k, p in dist.items() if k > target and k != 1), Fraction(0))
    tie = sum((p for k, p in dist.items() if k == target and k != 1), Fraction(0))
    crit = dist[SIDES] if target < SIDES else Fraction(0)
    return ExactOdds(win=win, lose=1 - win - tie, tie=tie, crit=crit, fumble=dist[1])


def clash(a: int, b: int) -> Odds:
    """Odds of ``a`` d10 against ``b`` d10, for the side rolling ``a``."""
    return clash_exact(a, b).as_floats()


def against_target(pool: int, target: int) -> Odds:
    """Odds of ``pool`` d10 against a static target number."""
    return against_target_exact(pool, target).as_floats()


def win_ties_rerolled(a: int, b: int) -> Fraction:
    """Exact win chance of ``a`` dice against ``b`` when ties are re-rolled."""
    return clash_exact(a, b).win_ties_rerolled


def expected_damage(toughness: int, *, massive: bool = False) -> Fraction:
    """Mean damage of one hit: lowest of Toughness dice (at least one), or for Massive
    Damage the highest of as many dice as the attacker's stat (pass the stat)."""
    dist = best_of(toughness) if massive else lowest_of(toughness)
    return sum((k * p for k, p in dist.items()), Fraction(0))


def percent(value: Fraction | float) -> int:
    """Whole percent, halves rounded up, as a table in a rulebook prints them."""
    return int(Fraction(value) * 100 + Fraction(1, 2))
