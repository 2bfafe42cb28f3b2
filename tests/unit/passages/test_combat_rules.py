"""Combat's arithmetic: the Combined Attack, the outcome hierarchy, damage and armour."""

from __future__ import annotations

import pytest

from games.passages import combat
from games.passages.combat import DOUBLED, LANDED, MISS, Armour, attack_level, damage, parse_armour, roll_off
from games.passages.errors import BadValue


def test_the_combined_attack_beats_the_defense_for_a_potential_wound() -> None:
    """Seed: "Roll your Combat Roll and add your Selected Combat value. Compare the sum with the
    Selected Defense of the Opponent. If the modified Combat Roll is higher than the Selected
    Defense, the result is a 'Potential Wound.'" Equal is not higher."""
    assert combat.attack_total(42, 18) == 60
    assert attack_level(25, 25) == MISS
    assert attack_level(26, 25) == LANDED


def test_turn_ones_two_blows_are_equal_successes() -> None:
    """Seed, Turn One: "The Die roll is a 42, so the Combined Attack is 60. The Urgluch ... has
    25 Selected Combat and Selected Defense"; "he makes his Combat Roll and does well, rolling an
    80! Adding his Combat of 25 ... reduced by Trayer's Selected Defense of 18 (105-18 is 87)".
    Both land and both are wounded, so (our reading) both beat double the Defense: equal."""
    assert attack_level(60, 25) == DOUBLED
    assert attack_level(105, 18) == DOUBLED
    assert roll_off(attack_level(60, 25), attack_level(105, 18)).wounded == ("a", "b")


def test_torch_timing_lowers_the_roll() -> None:
    """Seed, Turn Two: "he has a Condition modifier of -20 ... He rolls a 33. After reducing it
    by the Director's modifier of -20, it is still a 13 ... he needs to roll high and add that to
    his skill of 45; he arrives at 58\""""
    assert combat.attack_total(33, 45, -20) == 58


def test_both_miss() -> None:
    """Seed: "If both Actors miss, the Combat continues, and each suffers a Tick of Fatigue for
    the effort, which takes effect at the Resolution Point.\""""
    result = roll_off(MISS, MISS)
    assert result.outcome == "both_miss" and result.wounded == () and result.resolves == ()
    assert result.fail_ticks == {"a": 1, "b": 1}


@pytest.mark.parametrize(("a", "b", "winner", "loser"), [(LANDED, MISS, "a", "b"), (MISS, DOUBLED, "b", "a")])
def test_one_succeeds_and_the_other_fails(a: int, b: int, winner: str, loser: str) -> None:
    """Seed: "If one Actor succeeds and the other fails, then the Actor's Intended Condition will
    resolve and the other's will not. Further, the succeeding Actor will not suffer Fatigue, but
    the other will suffer an injury and the attendant fatigue, plus one Tick for failing.\""""
    result = roll_off(a, b)
    assert result.outcome == "one_succeeds"
    assert result.resolves == (winner,) and result.wounded == (loser,)
    assert result.fail_ticks == {winner: 0, loser: 1}


@pytest.mark.parametrize("level", [LANDED, DOUBLED])
def test_both_succeed_equally(level: int) -> None:
    """Seed: "If Both succeed equally, neither Condition will resolve, both will suffer a Wound
    but neither will lose extra Fatigue, and the Engagement Continues\""""
    result = roll_off(level, level)
    assert result.outcome == "equal" and result.resolves == ()
    assert result.wounded == ("a", "b") and result.fail_ticks == {"a": 0, "b": 0}


@pytest.mark.parametrize(("a", "b", "lesser"), [(DOUBLED, LANDED, "b"), (LANDED, DOUBLED, "a")])
def test_both_succeed_unequally(a: int, b: int, lesser: str) -> None:
    """Seed: "If Both succeed unequally, neither Condition will resolve, the greater will not
    suffer injury, the lesser will suffer the injury but not lose extra Fatigue and the
    Engagement continues.\""""
    result = roll_off(a, b)
    assert result.outcome == "unequal" and result.resolves == ()
    assert result.wounded == (lesser,) and result.fail_ticks == {"a": 0, "b": 0}


def test_an_attack_on_someone_not_fighting_back() -> None:
    """Seed: "Failure will mean an extra point of fatigue, whether the opponent succeeds or not"
    and "If you succeed and your opponent fails, you get to Resolve a Condition"."""
    assert combat.single(MISS).fail_ticks == {"a": 1} and combat.single(MISS).wounded == ()
    hit = combat.single(LANDED)
    assert hit.resolves == ("a",) and hit.wounded == ("b",) and hit.fail_ticks == {"a": 0}


def test_damage_is_no_more_than_the_attackers_skill() -> None:
    """Seed: "(Damage from an Attack Action can be no more than the value of the Attacker's
    Skill)"."""
    assert damage(30, 12, Armour()).dealt == 12
    assert damage(3, 18, Armour()).dealt == 3


@pytest.mark.parametrize(("text", "dealt"), [("none", 6), ("halve", 3), ("double", 12), ("+2", 8),
                                             ("-1", 5), ("-9", 0), ("increase 1", 7), ("decrease by 2", 4)])
def test_armour_increases_decreases_halves_or_doubles(text: str, dealt: int) -> None:
    """Seed: "Armor can Increase, Decrease, Halve, or Double the damage, based on its
    characteristics." Damage never goes below 0."""
    assert damage(6, 50, parse_armour(text)).dealt == dealt


def test_turn_ones_armour() -> None:
    """Seed: "As an Urgluch has a Naturally Armored hide, the Damage is reduced by 1. Two points
    of Damage are marked against Garbo's Health and Fatigue tracks." / "Trayer's armor,
    brigantine, halves the weapon damage (Damage numbers round down), though, so he only suffers
    one point of Damage.\""""
    assert damage(3, 18, parse_armour("-1")).dealt == 2
    assert damage(3, 25, parse_armour("halve")).dealt == 1


def test_unknown_armour_is_refused() -> None:
    with pytest.raises(BadValue, match="halve"):
        parse_armour("chainmail")
