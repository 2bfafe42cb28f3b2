"""Task resolution: pools, the best die, target numbers, opposed rolls, ties, crits, fumbles."""

from __future__ import annotations

import random

import pytest

from games.core.engine import RuleError
from games.demon_city.dice import (
    BOTH_FUMBLE,
    CRITICAL,
    FAILURE,
    FUMBLE,
    PROMPTS,
    SUCCESS,
    TIE,
    build_pool,
    judge_against_target,
    judge_opposed,
    opposed_pools,
    roll_against_target,
    roll_opposed,
    task_pool,
)


def test_the_best_die_is_the_roll(scripted):
    """Seed: "So if you roll a 6 and an 8, your "roll" is 8."."""
    pool = build_pool(skill="stat 5 > 3")
    result = roll_against_target(pool, 7, scripted([6, 8]))
    assert result.dice == (6, 8)
    assert result.best == 8
    assert result.outcome == SUCCESS


def test_skill_die_in_an_opposed_task_goes_to_the_higher_stat():
    """Seed: "whichever has the higher stat gets to roll an extra die. This extra d10 is
    called the Skill Die."."""
    fast, slow = opposed_pools(7, 4)
    assert (fast.count("skill"), fast.size) == (1, 2)
    assert (slow.count("skill"), slow.size) == (0, 1)
    even, also_even = opposed_pools(5, 5)
    assert even.size == also_even.size == 1


def test_skill_die_against_a_target_number_needs_a_higher_stat():
    """Seed: "If the stat number is higher than the Target number, the player gets to roll
    an extra die and use the better of their two rolls (the "Skill Die")."."""
    assert task_pool(6, 5).size == 2
    assert task_pool(5, 5).size == 1
    assert task_pool(4, 5).size == 1


def test_marty_must_roll_over_the_static_difficulty(scripted):
    """Seed: "the Host can just assign a static difficulty number to be rolled over (player
    must roll over a 3, for instance)"."""
    pool = task_pool(2, 3)  # drunk Marty: stat 2 is no better than 3, one die
    assert pool.size == 1
    assert roll_against_target(pool, 3, scripted([4])).outcome == SUCCESS
    assert roll_against_target(pool, 3, scripted([2])).outcome == FAILURE


def test_rolling_exactly_the_target_number_is_a_tie_that_prompts_the_host(scripted):
    """Seed: "In the case of a tie ... the Host must think fast: the situation becomes more
    complex, but not in a way that immediately decides the contest. The task can be
    attempted again in the new situation." (Marty's door: blood seeps under it.)"""
    result = roll_against_target(task_pool(2, 3), 3, scripted([3]))
    assert result.outcome == TIE
    assert result.prompt is not None and "more complex" in result.prompt


def test_distraction_die_for_a_target_who_is_distracted_or_unaware():
    """Seed: "If a task targets someone who is distracted (pickpocketing someone who is
    watching a car crash happen, for instance) or doesn't know they're there the
    perpetrator also gets an extra die (the Distraction Die)."."""
    pickpocket, mark = opposed_pools(4, 4, distracted="watching the car crash")
    assert pickpocket.count("distraction") == 1 and pickpocket.size == 2
    assert mark.size == 1


def test_up_to_two_situation_dice():
    """Seed: "You can have up to two Situation Dice representing distinct advantages"."""
    assert build_pool(situation=["head start", "uneven ground for them"]).size == 3
    with pytest.raises(RuleError):
        build_pool(situation=["a", "b", "c"])


def test_up_to_two_lost_dice_never_below_one_die():
    """Seed: "the Host may subtract up to two Lost Dice (down to a minumum of one rolled
    die)"."""
    assert build_pool(skill="s", situation=["x"], misc_lost=["drunk"]).size == 2
    assert build_pool(misc_lost=["drunk", "dark"]).size == 1
    with pytest.raises(RuleError):
        build_pool(misc_lost=["a", "b", "c"])


def test_a_ten_that_wins_is_a_critical_but_a_tie_at_ten_is_not():
    """Seed: "If a character rolls a 10 and wins (ie not a tie), they have a critical
    success"."""
    assert judge_opposed(10, 9) == CRITICAL
    assert judge_opposed(10, 10) == TIE
    assert judge_against_target(10, 6) == CRITICAL
    assert judge_against_target(10, 10) == TIE


def test_a_best_roll_of_one_is_a_fumble():
    """Seed: "if their best roll is a 1, they fumble"."""
    assert judge_opposed(1, 4) == FUMBLE
    assert judge_opposed(4, 1) == SUCCESS
    assert judge_against_target(1, 5) == FUMBLE
    assert judge_against_target(1, 0) == FUMBLE  # even the easiest task can be botched


def test_both_sides_best_one_makes_things_worse_for_both(scripted):
    """Seed: "If both sides' best roll is a 1 when two characters are competing, the
    situation gets worse for both sides."."""
    mine, theirs = roll_opposed(build_pool(), build_pool(skill="s"), scripted([1, 1, 1]))
    assert mine.outcome == theirs.outcome == BOTH_FUMBLE
    assert "worse for both sides" in PROMPTS[BOTH_FUMBLE]


def test_opposed_roll_gives_each_side_its_own_view(scripted):
    """Seed: "if the player ... gets a higher roll than the Host, the task gets done"."""
    player, host = roll_opposed(build_pool(skill="s"), build_pool(), scripted([2, 7, 5]))
    assert (player.best, host.best) == (7, 5)
    assert (player.outcome, host.outcome) == (SUCCESS, FAILURE)


def test_a_pool_rolls_as_many_ten_sided_dice_as_its_size():
    """Seed: "the player rolls a d10"; a pool of n dice rolls n d10, each 1-10."""
    rng = random.Random(4)
    pools = [build_pool(), build_pool(skill="s"), build_pool(skill="s", distraction="d"),
             build_pool(skill="s", defense="d", situation=["a"]),
             build_pool(skill="s", distraction="d", situation=["a", "b"])]
    for expected, pool in enumerate(pools, start=1):
        assert pool.size == expected
        for _ in range(50):
            result = roll_against_target(pool, 5, rng)
            assert len(result.dice) == expected
            assert all(1 <= d <= 10 for d in result.dice)
