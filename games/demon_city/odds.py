"""Exact odds for Demon City rolls (no sampling): pool against pool, pool against a number;
the bar chart of them and the odds page (``ODDS``) that shows both.

Everything is computed with ``Fraction`` from the distribution of the best of n d10,
P(best <= k) = (k/10)^n, and handed out as floats (``*_exact`` keeps the fractions).
Seed comment: "1d10 v 1d10: 50% win ... 5d10 v 1d10: 87% win" with ties re-rolled.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any

from games.contract import Page
from games.demon_city.dice import MAX_POOL, SIDES
from games.forms import Form, bounded

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


# The bar chart: one horizontal bar per pool size, split into win / tie / lose segments, with
# the ties-re-rolled win chance as the label, like the seed comment's table; the template only
# draws what ``odds_chart`` returns.
SEGMENTS = ("win", "tie", "lose")


def odds_chart(opponent: int = 1, *, pools: range = range(1, MAX_POOL + 1), width: int = 300,
               bar_height: int = 20, gap: int = 8, label_width: int = 60) -> dict[str, Any]:
    """Rectangles for ``pools`` d10 against ``opponent`` d10.

    Returns ``{"width", "height", "bars": [{"label", "y", "win_ties_rerolled" (whole %),
    "segments": [{"kind", "x", "width", "percent"}]}]}``; segment widths of a bar add up
    to ``width`` exactly (rounding is pushed into the last segment) so bars line up.
    """
    bars = []
    for row, pool in enumerate(pools):
        exact = clash_exact(pool, opponent)
        shares = {"win": exact.win, "tie": exact.tie, "lose": exact.lose}
        x, segments = label_width, []
        for index, kind in enumerate(SEGMENTS):
            if index == len(SEGMENTS) - 1:
                span = label_width + width - x
            else:
                span = round(shares[kind] * width)
            segments.append({"kind": kind, "x": x, "width": span, "percent": percent(shares[kind])})
            x += span
        bars.append({"label": f"{pool}d10 v {opponent}d10", "y": row * (bar_height + gap),
                     "height": bar_height, "win_ties_rerolled": percent(exact.win_ties_rerolled),
                     "segments": segments})
    height = len(bars) * (bar_height + gap) - gap if bars else 0
    return {"width": label_width + width, "height": height, "bars": bars}


def _pct(x: float) -> str:
    return f"{x * 100:.1f}"


def odds_context(query: Form) -> dict[str, Any]:
    """The odds page's figures: every pool against every pool, every pool against each static
    number, and the chart against the pool the query names (``against``, 1-5; never refused)."""
    opponent = bounded(query, "against", 1, 1, MAX_POOL)
    pools = range(1, MAX_POOL + 1)
    clash_rows = [
        {"label": f"{a}d10 v {b}d10", **{k: _pct(getattr(clash(a, b), k)) for k in
                                         ("win", "tie", "lose", "crit", "fumble", "win_ties_rerolled")}}
        for a in pools for b in pools
    ]
    target_rows = [{"pool": n, "cells": [_pct(against_target(n, t).win) for t in range(0, 10)]} for n in pools]
    return {"clash_rows": clash_rows, "target_rows": target_rows, "targets": range(0, 10),
            "chart": odds_chart(opponent), "opponent": opponent, "opponents": pools}


ODDS = Page(slug="odds", title="Demon City odds", template="games/demon_city/odds.html", context=odds_context)
