from __future__ import annotations

import random

import pytest
from hypothesis import given, strategies as st

from games.core.dice import NotationError, roll_notation


def test_same_seed_same_roll() -> None:
    first = roll_notation("4d10kh1", random.Random(7))
    again = roll_notation("4d10kh1", random.Random(7))
    assert first == again


def test_keep_highest_records_every_die_and_keeps_the_best() -> None:
    roll = roll_notation("4d10kh1", random.Random(3))
    (group,) = roll.groups
    assert group.sides == 10 and len(group.values) == 4
    assert sum(group.kept) == 1
    kept_value = group.values[group.kept.index(True)]
    assert kept_value == max(group.values) == roll.total


@given(n=st.integers(1, 20), sides=st.sampled_from([4, 6, 8, 10, 12, 20, 100]),
       bonus=st.integers(-10, 10), seed=st.integers(0, 10_000))
def test_total_is_the_sum_of_the_dice_plus_the_modifier(n: int, sides: int, bonus: int, seed: int) -> None:
    roll = roll_notation(f"{n}d{sides}{bonus:+d}", random.Random(seed))
    (group,) = roll.groups
    assert len(group.values) == n
    assert all(1 <= v <= sides for v in group.values)
    assert roll.total == sum(group.values) + bonus


def test_the_dice_come_from_the_rng_given() -> None:
    class Fixed(random.Random):
        def randrange(self, *args: int) -> int:  # type: ignore[override]
            return 5  # d20 adds one

    roll = roll_notation("3d20", Fixed())
    assert roll.groups[0].values == (6, 6, 6)


def test_as_dict_keeps_every_die_and_whether_it_counts() -> None:
    data = roll_notation("2d6kh1", random.Random(1)).as_dict()
    dice = data["groups"][0]["dice"]
    assert len(dice) == 2 and sorted(d["kept"] for d in dice) == [False, True]


@pytest.mark.parametrize(
    ("text", "message"),
    [("", "Type some dice"), ("hello", "is not dice notation"), ("1000d6", "more than 200 dice"),
     ("1d0", "0-sided")],
)
def test_bad_notation_is_refused_with_a_clear_message(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        roll_notation(text, random.Random(1))


def test_a_thread_s_roller_counts_each_roll_afresh() -> None:
    """The roller a thread keeps between rolls (for d20's parse cache) resets its count of
    dice thrown for every roll: two rolls under the limit both roll, one over it is refused."""
    rng = random.Random(7)
    for _ in range(2):
        assert len(roll_notation("150d6", rng, max_dice=200).groups[0].values) == 150
    with pytest.raises(NotationError):
        roll_notation("201d6", rng, max_dice=200)
    assert roll_notation("2d6+3", rng, max_dice=200).total >= 5
