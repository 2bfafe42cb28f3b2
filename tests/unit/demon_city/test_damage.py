"""Damage against Toughness, Massive Damage, armour, and the Injury table."""

from __future__ import annotations

from fractions import Fraction

import pytest

from games.core.engine import RuleError
from games.demon_city.combatant import Combatant
from games.demon_city.damage import damage_dice, roll_damage
from games.demon_city.injury import DEFAULT_INJURY_TABLE, lookup, roll_injury, validate_table
from games.demon_city.odds import expected_damage, lowest_of


def person(**sheet) -> Combatant:
    return Combatant.from_dict({"id": "target", **sheet})


def test_base_and_current_toughness_three_takes_the_lowest_of_three_dice(scripted):
    """Seed: "So if you have Base and Current Toughness 3, someone shooting you would roll
    3d10, take the lowest, and subtract that from 3."."""
    rng = scripted([7, 2, 9])
    hit = roll_damage(person(toughness=3), rng)
    assert rng.asked == [(1, 10)] * 3
    assert hit.dice == (7, 2, 9) and hit.taken == 2
    assert (hit.before, hit.after, hit.out_of_fight) == (3, 1, False)


def test_current_toughness_minus_one_is_out_of_the_fight(scripted):
    """Seed: "At Current Toughness -1 they are out of the fight and roll on the Injury
    table"."""
    assert roll_damage(person(toughness=3), scripted([4, 5, 6])).out_of_fight  # 3-4 = -1
    assert not roll_damage(person(toughness=3), scripted([3, 5, 6])).out_of_fight  # 0


def test_toughness_zero_still_rolls_one_die_and_any_hit_puts_them_down(scripted):
    """Seed: "If their Toughness is 0 you still roll one die." and "any successful hit on
    someone with 0 Toughness puts them in the Injured box"."""
    frail = person(toughness=0)
    assert damage_dice(frail) == 1
    for die in range(1, 11):
        assert roll_damage(frail, scripted([die])).out_of_fight


def test_damage_dice_follow_base_not_current_toughness(scripted):
    """Seed: "They take a number of d10s equal to the target's Base Toughness"."""
    worn = person(toughness=4, current_toughness=1)
    rng = scripted([9, 9, 9, 8])
    hit = roll_damage(worn, rng)
    assert len(rng.asked) == 4
    assert (hit.taken, hit.after) == (8, -7)


def test_kevlar_adds_damage_dice(scripted):
    """Seed: "Kevlar and other protection raises your Base Toughness for these purposes."."""
    vest = person(toughness=2, armour=2)
    rng = scripted([6, 5, 9, 3])
    hit = roll_damage(vest, rng)
    assert len(hit.dice) == 4 and hit.taken == 3
    assert hit.after == 2 - 3


def test_massive_damage_rolls_the_attackers_stat_and_takes_the_highest(scripted):
    """Seed: "Some few weapons (supernatural abilities, high explosives at close range) do
    Massive Damage. In this case you roll one die for each point of the attacker's stat and
    take the highest."."""
    tank = person(toughness=9)
    hit = roll_damage(tank, scripted([2, 8, 5, 1]), massive_stat=4)
    assert hit.massive and hit.dice == (2, 8, 5, 1) and hit.taken == 8
    assert hit.after == 1


def test_comment_expected_damage_per_hit_by_toughness():
    """Seed comment: "if you have a Base Toughness of 1, you roll 1 die for damage, and
    probably take 5.5 ... Base toughness 2 ... one hit probably does 3.8 ... Base
    toughness 3 means a hit does probably 3 damage ... Base toughness 4 expects to take 2.5
    per hit ... Base toughness 5 takes 2.2 per hit"."""
    quoted = {1: Fraction(55, 10), 2: Fraction(38, 10), 3: Fraction(3), 4: Fraction(25, 10),
              5: Fraction(22, 10)}
    for toughness, approx in quoted.items():
        assert abs(expected_damage(toughness) - approx) < Fraction(1, 10)
    assert expected_damage(1) == Fraction(11, 2)  # exactly the mean of a d10


def test_comment_toughness_four_goes_down_after_two_hits():
    """Seed comment: "Base toughness 4 expects to take 2.5 per hit, so goes down after 2
    hits. Base toughness 5 takes 2.2 per hit, so goes down after 3."."""
    for toughness, hits in ((4, 2), (5, 3)):
        # Out at -1: needs toughness + 1 points; count average hits to get there.
        needed = toughness + 1
        assert (hits - 1) * expected_damage(toughness) < needed <= hits * expected_damage(toughness)


def test_comment_at_toughness_eight_one_damage_is_most_likely():
    """Seed comment: "Once you reach base toughness 8, the most likely outcome is 1 dmg per
    hit."."""
    dist = lowest_of(8)
    assert max(dist, key=dist.__getitem__) == 1
    assert dist[1] > Fraction(1, 2)


def test_comment_toughness_nine_with_five_damage_dice_is_about_five_hits():
    """Seed comment (a variant the author declined, but its arithmetic is the odds'):
    "With 9 toughness and 5 dice to roll, on average you're 5 hits from being injured"."""
    points_to_go_down = 9 + 1  # from 9 to -1
    assert round(points_to_go_down / expected_damage(5)) == 5


def test_default_injury_table_covers_every_d10_roll():
    """Seed: "roll on the Injury table (that'll be in a later entry)" -- ours is data."""
    table = validate_table(DEFAULT_INJURY_TABLE)
    for die in range(1, 11):
        rows = [r for r in table if r["low"] <= die <= r["high"]]
        assert rows == [lookup(table, die)]
    assert any(not row["conclusive"] for row in table)  # step 8 needs inconclusive rows
    assert any(row["dead"] for row in table)


def test_gm_edited_injury_tables_are_checked():
    """The GM may replace the table, but every roll must land on exactly one row."""
    row = {"low": 1, "high": 10, "result": "Hurt", "dead": False, "conclusive": True,
           "heals": "scene", "description": ""}
    assert validate_table([row]) == [row]
    for bad in ([{**row, "high": 9}], [row, {**row, "low": 5, "high": 5}],
                [{**row, "low": 0}], [{**row, "extra": 1}], [{**row, "dead": "no"}],
                [{**row, "heals": "month"}], [{**row, "dead": True}]):
        with pytest.raises(RuleError):
            validate_table(bad)


def test_injury_roll_lands_on_the_row_for_the_die(scripted):
    """A d10 on the table: the die and its row are both returned for the log."""
    for die in (1, 2, 5, 10):
        got_die, row = roll_injury(DEFAULT_INJURY_TABLE, scripted([die]))
        assert got_die == die and row["low"] <= die <= row["high"]
