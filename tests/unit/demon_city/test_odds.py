"""Exact odds: the seed comment's table, and a brute-force check of every field."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from games.demon_city import odds
from games.demon_city.odds import odds_chart
from games.demon_city.dice import judge_against_target, judge_opposed

FIELDS = ("win", "lose", "tie", "crit", "fumble")


def enumerate_clash(a: int, b: int) -> dict[str, Fraction]:
    """Every possible roll of a dice against b dice, judged by the engine's own rules."""
    counts = dict.fromkeys(FIELDS, 0)
    total = 0
    for mine in product(range(1, 11), repeat=a):
        for theirs in product(range(1, 11), repeat=b):
            total += 1
            outcome = judge_opposed(max(mine), max(theirs))
            counts["win"] += outcome in ("success", "critical")
            counts["lose"] += outcome in ("failure", "fumble")
            counts["tie"] += outcome in ("tie", "both_fumble")
            counts["crit"] += outcome == "critical"
            counts["fumble"] += max(mine) == 1
    return {k: Fraction(v, total) for k, v in counts.items()}


def enumerate_target(pool: int, target: int) -> dict[str, Fraction]:
    counts = dict.fromkeys(FIELDS, 0)
    for dice in product(range(1, 11), repeat=pool):
        outcome = judge_against_target(max(dice), target)
        counts["win"] += outcome in ("success", "critical")
        counts["lose"] += outcome in ("failure", "fumble")
        counts["tie"] += outcome == "tie"
        counts["crit"] += outcome == "critical"
        counts["fumble"] += outcome == "fumble"
    return {k: Fraction(v, 10 ** pool) for k, v in counts.items()}


@pytest.mark.parametrize(("pool", "win", "lose"),
                         [(1, 50, 50), (2, 68, 32), (3, 78, 23), (4, 83, 17), (5, 87, 13)])
def test_seed_comment_table_with_ties_rerolled(pool, win, lose):
    """Seed comment: "In a straight-up winner take all situation (ties are re-rolled, no
    crits or fumbles), the implication is: 1d10 v 1d10: 50% win vs 50% lose / 2d10 v 1d10:
    68% win vs 32% lose / 3d10 v 1d10: 78% win vs 23% lose / 4d10 v 1d10: 83% win vs 17%
    lose / 5d10 v 1d10: 87% win vs 13% lose"."""
    rerolled = odds.win_ties_rerolled(pool, 1)
    assert odds.percent(rerolled) == win
    assert odds.percent(1 - rerolled) == lose
    assert odds.clash(pool, 1).win_ties_rerolled == pytest.approx(float(rerolled))


@pytest.mark.parametrize(("a", "b"), [(1, 1), (2, 1), (1, 2), (3, 2), (2, 3), (4, 1)])
def test_clash_odds_match_brute_force_enumeration(a, b):
    """``clash(a, b)`` is exact: it equals counting every one of the 10^(a+b) rolls."""
    exact = odds.clash_exact(a, b)
    counted = enumerate_clash(a, b)
    for name in FIELDS:
        assert getattr(exact, name) == counted[name]
        assert getattr(odds.clash(a, b), name) == pytest.approx(float(counted[name]))


@pytest.mark.parametrize("pool", [1, 2, 3, 4])
@pytest.mark.parametrize("target", [0, 1, 3, 5, 9, 10, 12])
def test_against_target_odds_match_brute_force_enumeration(pool, target):
    """``against_target(pool, target)`` is exact, fields as the task rules judge them."""
    exact = odds.against_target_exact(pool, target)
    counted = enumerate_target(pool, target)
    for name in FIELDS:
        assert getattr(exact, name) == counted[name]


def test_ties_happen_about_one_time_in_ten_a_little_more_with_many_dice():
    """Seed: "In the case of a tie (around 10% of the time, depending how many dice are
    involved)" and comment: "It generates ties about 1 in 10 times, a little more if both
    parties are rolling lots of dice"."""
    for many in range(1, 6):
        # Against a lone die a tie is exactly 1 in 10, however big the other pool.
        assert odds.clash_exact(many, 1).tie == Fraction(1, 10)
    ties = [odds.clash_exact(n, n).tie for n in range(1, 6)]
    assert ties == sorted(ties) and ties[-1] > ties[0]
    # "A little more" undersells it: 5d10 against 5d10 ties about 27% of the time.
    assert odds.percent(ties[-1]) == 27


def test_one_die_each_is_a_coin_flip():
    """Seed comment: "Everyone understands 1d10 vs 1d10 is a 50-50 proposition."."""
    even = odds.clash_exact(1, 1)
    assert even.win == even.lose
    assert even.win_ties_rerolled == Fraction(1, 2)


def test_odds_fields_are_floats_that_add_up():
    """CONTRACT: float fields win, lose, tie, crit, fumble; win + lose + tie == 1."""
    for result in (odds.clash(3, 2), odds.against_target(2, 4)):
        for name in FIELDS:
            assert isinstance(getattr(result, name), float)
        assert result.win + result.lose + result.tie == pytest.approx(1.0)
        assert result.crit <= result.win


def test_more_dice_never_hurt():
    """Every extra die (Skill, Situation...) raises the win chance, as the seed intends."""
    for b in range(1, 6):
        chances = [odds.clash_exact(a, b).win for a in range(1, 6)]
        assert chances == sorted(chances) and len(set(chances)) == 5


def test_chart_data_has_one_bar_per_pool_with_segments_filling_the_width():
    """Data for the SVG chart: bars line up and labels show the ties-re-rolled chance."""
    chart = odds_chart(opponent=1, width=200)
    assert [bar["win_ties_rerolled"] for bar in chart["bars"]] == [50, 68, 78, 83, 87]
    for bar in chart["bars"]:
        assert sum(s["width"] for s in bar["segments"]) == 200
        assert [s["kind"] for s in bar["segments"]] == ["win", "tie", "lose"]
        assert bar["segments"][0]["x"] + bar["segments"][0]["width"] == bar["segments"][1]["x"]
    ys = [bar["y"] for bar in chart["bars"]]
    assert ys == sorted(ys) and len(set(ys)) == len(ys)
    assert chart["height"] == ys[-1] + chart["bars"][-1]["height"]
