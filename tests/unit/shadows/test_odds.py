"""Odds before drawing: exact, summing to 1, and equal to a brute-force count over the real
56 cards (``games.shadows.odds``, the contract in issue 16)."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.shadows import deck, odds
from games.shadows import resolution as r


def t(short: str) -> str:
    suit = {"S": "swords", "P": "pentacles", "C": "cups", "W": "wands"}[short[0]]
    return f"tarot:{suit}:{short[1:]}"


COMPLEXITIES = ["mundane", "simple", "normal", "difficult", "hard", "very_hard", "extremely_hard", "absurd"]
VALUES = [deck.value(c) for c in deck.minor_tokens()]


def brute(modifier: int, complexity: str, cards: int) -> dict[str, Fraction]:
    """Every unordered draw of ``cards`` of the 56 real cards, and every extra card after it."""
    level = r.complexity(complexity)
    tally = dict.fromkeys(r.BANDS, 0)
    for combo in combinations(range(56), cards):
        values = [VALUES[i] for i in combo]
        if r.earns_extra_card(values) and not r.is_fumble(r.drawn_value(values), level):
            for extra in (i for i in range(56) if i not in combo):
                tally[r.judge(values, VALUES[extra], modifier, level).band] += 1
        else:
            tally[r.judge(values, None, modifier, level).band] += 56 - cards
    whole = sum(tally.values())
    return {k: Fraction(v, whole) for k, v in tally.items()}


@pytest.mark.parametrize("modifier, complexity, cards", [
    (10, "mundane", 1), (10, "mundane", 3), (20, "normal", 1), (20, "normal", 3),
    (30, "very_hard", 3), (35, "absurd", 1), (0, "simple", 3),
])
def test_the_odds_match_a_brute_force_count_over_the_real_deck(modifier: int, complexity: str, cards: int) -> None:
    exact = odds.all_or_nothing_exact(modifier, complexity, cards=cards)
    assert {k: getattr(exact, k) for k in r.BANDS} == brute(modifier, complexity, cards)
    floats = odds.all_or_nothing(modifier, complexity, cards=cards)
    assert floats.success == pytest.approx(float(exact.success), abs=1e-15)


@settings(max_examples=60, deadline=None)
@given(st.integers(-10, 70), st.sampled_from(COMPLEXITIES), st.sampled_from([1, 3]))
def test_the_four_chances_are_exclusive_and_sum_to_one(modifier: int, complexity: str, cards: int) -> None:
    exact = odds.all_or_nothing_exact(modifier, complexity, cards=cards)
    assert exact.fumble + exact.failure + exact.success + exact.critical_success == 1
    floats = odds.all_or_nothing(modifier, complexity, cards=cards)
    assert min(floats.fumble, floats.failure, floats.success, floats.critical_success) >= 0
    assert floats.fumble + floats.failure + floats.success + floats.critical_success == pytest.approx(1)


def test_one_card_by_hand() -> None:
    """Mundane with +10: an Ace fumbles (4 in 56); 2-4 fail (12 in 56); a Critical (30+) needs
    a King and then an extra card of 6 or more: 4/56 x 35/55."""
    o = odds.all_or_nothing_exact(10, "mundane", cards=1)
    assert o.fumble == Fraction(4, 56)
    assert o.failure == Fraction(12, 56)
    assert o.critical_success == Fraction(4, 56) * Fraction(35, 55)


def test_three_cards_fumble_when_two_aces_are_drawn() -> None:
    """Seed: the middle card is an Ace "meaning that two cards with a value of 1 or "ace"
    have been drawn": P(at least two of the four Aces in three cards)."""
    o = odds.all_or_nothing_exact(0, "normal", cards=3)
    two = 6 * 52 + 4  # two Aces and another card, or three Aces, out of C(56, 3)
    assert o.fumble == Fraction(two, 27720)


def test_the_fumble_band_widens_with_complexity() -> None:
    assert odds.all_or_nothing(0, "absurd").fumble == pytest.approx(16 / 56)
    assert odds.all_or_nothing(0, "difficult").fumble == pytest.approx(8 / 56)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError):
        odds.all_or_nothing(0, "trivial")
    with pytest.raises(ValueError):
        odds.all_or_nothing(0, "normal", cards=2)


def test_an_attack_without_active_defence_gets_through_or_not() -> None:
    """Seed: damage is the attack card "minus their opponents Defense value plus the
    attacker's attack skill value. If this is positive" it gets through."""
    assert odds.attack_through(t("S10"), 5, 14).hit == 1.0
    assert odds.attack_through(t("S10"), 5, 15).hit == 0.0


def test_attack_odds_against_dodge_cards_match_a_brute_force_count() -> None:
    """The defender's best card (Pentacles doubled) from a hand of two, dealt from a small
    pool of unseen cards, every hand counted."""
    pool = [t(x) for x in ("C2", "P3", "S9", "W11", "C5", "P7")]
    result = odds.attack_through(t("S10"), 4, 5, defender_hand=2, defence_cards=1, unseen=pool)
    hands = list(combinations(pool, 2))
    through = sum(1 for h in hands if 14 - (5 + max(deck.value(c) * (2 if "pentacles" in c else 1) for c in h)) > 0)
    assert result.hit == pytest.approx(through / len(hands))
    assert 0 < result.hit < 1


def test_opposed_odds_are_even_at_a_level_start_and_mirror_each_other() -> None:
    """Seed: "with the higher result being successful. If this results in a tie, then both
    sides draw an additional card, continuing to do so until one side succeeds"."""
    assert odds.opposed_exact(0) == Fraction(1, 2)
    for lead in range(-30, 31):
        assert odds.opposed_exact(lead) + odds.opposed_exact(-lead) == 1
        assert odds.opposed_exact(lead) <= odds.opposed_exact(lead + 1)
    match = odds.opposed(12, 7)
    assert match.first == pytest.approx(float(odds.opposed_exact(5))) and match.first + match.second == pytest.approx(1)


def test_opposed_odds_at_the_edge_counted_by_hand() -> None:
    """A lead of 28 always wins: the most a draw is worth is a King and another King, 28
    ("if a single card was used and it is a King, then an additional card is drawn"), the
    least an Ace. At 27 the only way not to win outright is a tie, the first side drawing an
    Ace (4 of 56) and the second a King (4 of 55) then another (3 of 54), won half the time."""
    assert odds.opposed_exact(28) == 1
    tie = Fraction(4, 56) * Fraction(4, 55) * Fraction(3, 54)
    assert odds.opposed_exact(27) == 1 - tie / 2


def test_opposed_odds_match_the_table_s_own_draws() -> None:
    """The exact chance against the real procedure, drawing from 4,000 shuffled decks
    (fixed seeds): within four standard deviations."""
    from tests.unit.shadows.kit import GM, Table, ann, bob, stacked

    sides = [{"character": ann(skills={"chess": 5}, mind=5), "skill": "chess", "attribute": "mind"},
             {"character": bob(skills={"chess": 2}, mind=5), "skill": "chess", "attribute": "mind"}]
    runs = 4000
    won = sum(Table(stacked(seed=seed)).send(GM, "opposed", sides=sides)[0]["winner"] == "c1"
              for seed in range(runs))
    p = float(odds.opposed_exact(3))
    assert abs(won / runs - p) < 4 * (p * (1 - p) / runs) ** 0.5, (won / runs, p)
