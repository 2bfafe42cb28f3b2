"""Exact odds: each band's chance for one d100, and a pairing's chance to land a Potential Wound."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from games.passages import combat, odds
from games.passages.rules import BANDS, band


def test_the_bands_of_26_by_count() -> None:
    """Seed's example: 100 fails critically, 53-99 are Blown, 27-52 DU, 14-26 success, 1-13 DD."""
    assert odds.check_exact(26) == {"critical_fail": Fraction(1, 100), "blown": Fraction(47, 100),
                                    "double_up": Fraction(26, 100), "success": Fraction(13, 100),
                                    "double_down": Fraction(13, 100)}


def test_a_mastered_challenge_succeeds_a_noodge_over_one_in_six() -> None:
    """Seed: "A Mastered Skill of 95 renders a Core of 19, a noodge over one in six cases." The
    Core's plain success or better is 19 in 100 (DU, up to 38, adds more)."""
    chances = odds.check(95, challenge=True)
    assert chances["success"] + chances["double_down"] == pytest.approx(0.19)
    assert chances["success"] + chances["double_down"] > 1 / 6
    assert chances["double_up"] == pytest.approx(0.19) and chances["critical_fail"] == pytest.approx(0.01)


@pytest.mark.parametrize("challenge", [False, True])
@pytest.mark.parametrize("base", range(1, 96))
def test_odds_sum_to_one_and_match_counting(base: int, challenge: bool) -> None:
    """The contract: ``check(base, challenge=...)`` is the exact chance of each band."""
    chances = odds.check(base, challenge=challenge)
    assert set(chances) == set(BANDS)
    assert sum(odds.check_exact(base, challenge=challenge).values()) == 1
    for name in BANDS:
        counted = sum(1 for r in range(1, 101) if band(base, r, challenge=challenge) == name)
        assert chances[name] == counted / 100


def test_a_pairing_lands_when_the_roll_plus_combat_beats_defense() -> None:
    """Seed: "If the modified Combat Roll is higher than the Selected Defense, the result is a
    'Potential Wound.'" Trayer (18) against Garbo's Defense 25 needs 8 or more: 93 in 100."""
    assert odds.lands(18, 25) == pytest.approx(0.93)
    assert odds.lands(25, 18) == 1.0
    assert odds.lands(10, 110) == 0.0
    assert odds.lands(45, 18, timing=-20) == 1.0  # Turn Two's torch: still a sure blow


def brute_pairing(a_combat: int, a_defense: int, b_combat: int, b_defense: int) -> dict[str, Fraction]:
    counts: dict[str, int] = {}
    for ra, rb in product(range(1, 101), repeat=2):
        la = combat.attack_level(ra + a_combat, b_defense)
        lb = combat.attack_level(rb + b_combat, a_defense)
        result = combat.roll_off(la, lb)
        key = result.outcome if result.outcome in (combat.BOTH_MISS, combat.EQUAL) else (
            ("only_a" if "a" in result.resolves else "only_b") if result.outcome == combat.ONE_SUCCEEDS
            else ("a_greater" if la > lb else "b_greater"))
        counts[key] = counts.get(key, 0) + 1
        for side in result.wounded:
            counts[f"{side}_wounded"] = counts.get(f"{side}_wounded", 0) + 1
    return {k: Fraction(v, 10000) for k, v in counts.items()}


@pytest.mark.parametrize("sides", [(18, 18, 25, 25), (60, 40, 20, 90), (5, 5, 5, 5), (30, 70, 70, 30)])
def test_pairing_odds_are_exact_and_their_cases_sum_to_one(sides: tuple[int, int, int, int]) -> None:
    """Every case of the hierarchy, counted over all 10,000 pairs of rolls."""
    exact = odds.pairing_exact(*sides)
    brute = brute_pairing(*sides)
    for key, value in brute.items():
        assert exact[key] == value, key
    cases = ("both_miss", "only_a", "only_b", "equal", "a_greater", "b_greater")
    assert sum(exact[k] for k in cases) == 1
    floats = odds.pairing(*sides)
    assert 0 <= floats["a_lands"] <= 1 and 0 <= floats["b_lands"] <= 1


def test_the_duels_pairing_odds() -> None:
    """Turn One's duel: each side's chance of landing a Potential Wound."""
    o = odds.pairing(18, 18, 25, 25)
    assert o["a_lands"] == pytest.approx(0.93) and o["b_lands"] == 1.0
    assert o["a_wounded"] + o["b_wounded"] >= o["a_lands"]  # every landed blow wounds someone
