"""The pull itself (seed 002, "Basic Rules"), each rule quoting the seed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.harsh_light import rules
from games.harsh_light.rules import resolve, successes


@pytest.mark.parametrize(("total", "expected"), [(8, 1), (11, 2), (14, 3), (17, 4), (20, 5)])
def test_the_seed_success_table(total: int, expected: int) -> None:
    """Seed: "The totals required for one to five successes are as follows: 8: 1 success.
    11: 2 successes. 14: 3 successes. 17: 4 successes. 20: 5 successes.\""""
    assert successes(total) == expected
    assert successes(total - 1) == expected - 1  # each is the lowest total that gives it


@pytest.mark.parametrize(("total", "expected"), [(-5, 0), (0, 0), (7, 0), (9, 1), (10, 1), (12, 2),
                                                 (19, 4), (23, 6), (26, 7), (30, 8)])
def test_every_three_points_above_eight_is_another_success(total: int, expected: int) -> None:
    """Seed: "you get your first success at a total of eight ..., and every three points above
    eight is another success"."""
    assert successes(total) == expected


def test_a_pull_of_three_and_a_pool_of_five_is_the_first_success() -> None:
    """Seed: "you get your first success at a total of eight (for example, a pull of three + a
    pool of five)"."""
    result = resolve(5, [3])
    assert (result.total, result.successes, result.succeeded) == (8, 1, True)


@given(st.integers(min_value=-50, max_value=200), st.integers(min_value=0, max_value=30))
def test_successes_never_decrease_as_the_total_grows(total: int, more: int) -> None:
    """Property: a higher total is never fewer successes ("every three points above eight is
    another success")."""
    assert successes(total + more) >= successes(total)


@given(st.integers(min_value=8, max_value=500))
def test_three_more_points_are_exactly_one_more_success(total: int) -> None:
    """Seed: "every three points above eight is another success"."""
    assert successes(total + 3) == successes(total) + 1


def test_the_pool_is_added_to_the_card() -> None:
    """Seed: "you pull a single card value from 1-10 and add your pool to that number"."""
    assert resolve(4, [6]).total == 10


def test_a_ten_pulls_a_second_card_and_adds_both() -> None:
    """Seed: "A pull of 10 ... allows you pull a second card, adding both cards to your pool for
    your total"."""
    result = resolve(3, [10, 4])
    assert (result.total, result.successes, result.rules()) == (17, 4, ["ten-again"])
    with pytest.raises(ValueError):
        resolve(3, [10])  # a ten always brings its second card


def test_a_second_ten_adds_no_third_card() -> None:
    """Seed: "Pulling a second 10 in a row doesn't let you keep adding, but you're adding +20 to
    your pool now, so enjoy that!\""""
    result = resolve(0, [10, 10])
    assert result.total == 20 and result.successes == 5
    assert not rules.pulls_second(10, 10) or len(result.values) == 2
    with pytest.raises(ValueError):
        resolve(0, [10, 10, 10])


@pytest.mark.parametrize(("again", "first", "second"), [(9, 9, 2), (8, 8, 5), (8, 9, 1), (9, 10, 3)])
def test_nine_again_and_eight_again(again: int, first: int, second: int) -> None:
    """Seed: "A pull of 10 (or, with certain powers and/or equipment, even 8 or 9) allows you pull
    a second card"."""
    assert rules.pulls_second(first, again)
    result = resolve(2, [first, second], again=again)
    assert result.total == 2 + first + second
    assert result.rules() == [f"{rules.again_word(again)}-again"]


@pytest.mark.parametrize(("again", "first"), [(10, 9), (10, 8), (9, 8)])
def test_below_the_again_value_there_is_no_second_card(again: int, first: int) -> None:
    """Seed: only "A pull of 10 (or ... even 8 or 9)" pulls a second card."""
    assert not rules.pulls_second(first, again)
    with pytest.raises(ValueError):
        resolve(2, [first, 3], again=again)


@pytest.mark.parametrize("pool", [0, -1, -4])
def test_a_one_on_a_pool_of_zero_or_less_is_a_dramatic_failure(pool: int) -> None:
    """Seed: "when your Attribute + Skill pool has been reduced to 0 or less due to difficulty or
    penalties ... you may still attempt the action ... If you pull a 1 while using a pool of 0 or
    less, you have Dramatically Failed!\""""
    result = resolve(pool, [1])
    assert result.dramatic and not result.succeeded and "dramatic failure" in result.rules()


def test_no_dramatic_failure_on_a_positive_pool_or_another_card() -> None:
    """Seed: the risk is only "If you pull a 1 while using a pool of 0 or less"; "Dramatic Failure
    is worse than simply not succeeding"."""
    assert not resolve(1, [1]).dramatic
    failure = resolve(0, [2])
    assert not failure.dramatic and failure.successes == 0 and not failure.succeeded


def test_a_pool_of_zero_or_less_may_still_succeed() -> None:
    """Seed: "you may still attempt the action, and hope that luck carries you through"."""
    assert resolve(0, [10, 8]).succeeded
    assert resolve(-2, [10, 1]).successes == 1  # -2 + 11 = 9


def test_a_pool_of_seven_succeeds_automatically_at_one_success() -> None:
    """Seed: "If something only takes a single success to achieve, and your pool is 7 or above,
    then you will accomplish the task automatically, without needing to pull a card"."""
    assert rules.is_automatic(7, 1) and not rules.is_automatic(6, 1)
    taken = resolve(7, [], needed=1)
    assert taken.automatic and taken.succeeded and not taken.pulled and taken.successes == 1


def test_a_pool_of_ten_succeeds_automatically_at_two() -> None:
    """Seed: "This continues on if you need two successes and your pool is 10, etc. etc.\""""
    assert rules.is_automatic(10, 2) and not rules.is_automatic(9, 2)
    assert rules.is_automatic(13, 3) and not rules.is_automatic(12, 3)


def test_an_automatic_success_may_still_be_pulled_for_more() -> None:
    """Seed: "Note that you can still pull a card if you want, as some tasks give greater results
    based on more successes achieved"."""
    pulled = resolve(7, [10, 2], needed=1)
    assert pulled.automatic and pulled.successes == 4 and pulled.rules() == ["automatic success", "ten-again"]


def test_no_automatic_success_without_the_pool() -> None:
    """Seed: automatic success needs "your pool is 7 or above"; a smaller pool pulls."""
    with pytest.raises(ValueError):
        resolve(6, [], needed=1)


@pytest.mark.parametrize(("pool", "values", "exceptional"), [(5, [10, 4], False), (9, [10, 1], True),
                                                             (10, [9], False), (11, [9], True),
                                                             (0, [10, 10], True)])
def test_five_successes_is_an_exceptional_success(pool: int, values: list[int], exceptional: bool) -> None:
    """Seed: "if you get a total of 5 or more successes (20+ on your test) you have achieved an
    Exceptional Success\""""
    result = resolve(pool, values)
    assert result.exceptional is exceptional
    assert result.exceptional == (result.total >= 20)


def test_more_successes_needed() -> None:
    """Seed: "most tasks only requiring a single success to accomplish, but some requiring more"."""
    assert not resolve(5, [4], needed=2).succeeded  # 9: one success of two
    assert resolve(5, [6], needed=2).succeeded  # 11: two
