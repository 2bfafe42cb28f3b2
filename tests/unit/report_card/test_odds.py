"""Exact odds: closed forms for a fresh deck, and agreement with brute-force enumeration of
every order the cards could come off, drawn through the engine's own draw path."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.cards import tarot
from games.report_card import odds
from games.report_card.draws import draw_attempt
from games.report_card.rules import LEVEL, RANKS, edge_of
from tests.unit.report_card.helpers import card

DECK = [c.id for c in tarot()]
EDGES = [(False, False), (True, False), (False, True)]


class NeedMore(Exception):
    pass


def brute(draw_pile: list[str], rank: str, own: int | None, edge: str | None,
          discard: list[str] = ()) -> dict[str, Fraction]:  # type: ignore[assignment]
    """Walks every order the cards could come off (draw pile first, then the discard), as far
    as the engine's ``draw_attempt`` asks, each order weighted by its chance."""
    totals: Counter[str] = Counter()

    def walk(prefix: list[str], weight: Fraction) -> None:
        queue = list(prefix)

        def take(n: int) -> list[str]:
            if len(queue) < n:
                raise NeedMore
            out = queue[:n]
            del queue[:n]
            return out
        try:
            attempt = draw_attempt(take, rank, own, edge)
        except NeedMore:
            used = len(prefix)
            pile = [c for c in draw_pile if c not in prefix]
            pool = pile if used < len(draw_pile) else [c for c in discard if c not in prefix]
            for c in pool:
                walk(prefix + [c], weight / len(pool))
            return
        outcomes = [d["outcome"] for d in attempt["draws"]]
        kept = outcomes[0] if edge is None else (max if edge == "bonus" else min)(outcomes, key=LEVEL.__getitem__)
        totals[kept] += weight

    walk([], Fraction(1))
    return {k: totals[k] for k in ("critical_success", "success", "failure", "critical_failure")}


def as_dict(exact: odds.ExactOdds) -> dict[str, Fraction]:
    return {k: getattr(exact, k) for k in ("critical_success", "success", "failure", "critical_failure")}


def test_medium_from_a_fresh_deck_in_closed_form() -> None:
    """Medium fails on the 36 Minor Arcana of 9 or less; the Fool, the World and the Sun are
    Critical Successes, the Tower, the Devil and Death Critical Failures; the Wheel's second
    card comes from the 77 left, 36 of them an Ace to Nine."""
    exact = odds.check_exact("medium")
    assert exact.failure == Fraction(36, 78)
    assert exact.critical_success == Fraction(3, 78) + Fraction(1, 78) * Fraction(41, 77)
    assert exact.critical_failure == Fraction(3, 78) + Fraction(1, 78) * Fraction(36, 77)
    assert exact.success == Fraction(78 - 36 - 7, 78)


def test_own_major_adds_a_critical_success_card() -> None:
    assert odds.check_exact("hard", own_major="tarot:major:7").critical_success == \
        Fraction(4, 78) + Fraction(1, 78) * Fraction(41, 77)
    # one's own Tower is a success card, so only the Devil and Death are left to fail critically
    assert odds.check_exact("hard", own_major="tarot:major:16").critical_failure == \
        Fraction(2, 78) + Fraction(1, 78) * Fraction(36, 77)


def test_automatic_and_impossible_are_certain() -> None:
    assert odds.check("automatic").failure == 0 and odds.check("automatic").critical_failure == 0
    assert odds.check("impossible").succeeds == 0
    assert odds.check("unlikely").critical_success == 0


@pytest.mark.parametrize("rank", RANKS)
@pytest.mark.parametrize(("bonus", "penalty"), EDGES + [(True, True)])
def test_odds_are_exclusive_and_sum_to_one(rank: str, bonus: bool, penalty: bool) -> None:
    exact = odds.check_exact(rank, bonus=bonus, penalty=penalty)
    assert sum(as_dict(exact).values()) == 1
    floats = odds.check(rank, bonus=bonus, penalty=penalty)
    assert sum((floats.critical_success, floats.success, floats.failure, floats.critical_failure)) == \
        pytest.approx(1, abs=1e-12)
    assert all(isinstance(getattr(floats, k), float) for k in as_dict(exact))


@pytest.mark.parametrize("rank", RANKS)
def test_a_fresh_deck_agrees_with_brute_force(rank: str) -> None:
    """Every first card and, after the Wheel, every second card of the 77 left."""
    assert as_dict(odds.check_exact(rank, own_major="tarot:major:3")) == brute(DECK, rank, 3, None)


@pytest.mark.parametrize(("rank", "edge"), [("medium", "bonus"), ("hard", "penalty"), ("unlikely", "bonus")])
def test_bonus_and_penalty_from_a_fresh_deck_agree_with_brute_force(rank: str, edge: str) -> None:
    """Every ordered pair of the 78, then the Wheel's own second card from the 76 left."""
    bonus, penalty = edge == "bonus", edge == "penalty"
    assert as_dict(odds.check_exact(rank, bonus=bonus, penalty=penalty)) == brute(DECK, rank, None, edge)


def test_bonus_and_penalty_together_are_a_plain_check() -> None:
    assert odds.check("hard", bonus=True, penalty=True) == odds.check("hard")


def test_a_bonus_helps_and_a_penalty_hurts() -> None:
    for rank in ("easy", "medium", "hard", "unlikely"):
        plain, up, down = (odds.check(rank, bonus=b, penalty=p) for b, p in EDGES)
        assert down.succeeds < plain.succeeds < up.succeeds


SPECIAL = [card(n) for n in ("M0", "M10", "M16", "M19", "M2", "M7", "AC", "5S", "9W", "10P", "KC", "QS")]


@settings(max_examples=60, deadline=None)
@given(pile=st.lists(st.sampled_from(SPECIAL), min_size=3, max_size=7, unique=True),
       rank=st.sampled_from(RANKS), edge=st.sampled_from([(False, False), (True, False), (False, True)]),
       own=st.sampled_from([None, 2, 10, 16]))
def test_odds_from_the_cards_left_agree_with_brute_force(pile: list[str], rank: str, edge: tuple[bool, bool],
                                                         own: int | None) -> None:
    bonus, penalty = edge
    exact = odds.from_cards_exact(pile, rank, own_major=own, bonus=bonus, penalty=penalty)
    assert sum(as_dict(exact).values()) == 1
    assert as_dict(exact) == brute(pile, rank, own, edge_of(bonus, penalty))


def test_a_short_draw_pile_goes_on_from_the_discard() -> None:
    """One card left and a Bonus: the second card comes from the discard, shuffled in."""
    pile, discard = [card("M10")], [card("2C"), card("KC")]
    exact = odds.from_cards_exact(pile, "medium", bonus=True, discard=discard)
    assert as_dict(exact) == brute(pile, "medium", None, "bonus", discard)
    # the Wheel keeps, its second card is the one card left in the discard: half the time a King
    assert exact.critical_success == Fraction(1, 2)


def test_too_few_cards_is_said() -> None:
    with pytest.raises(odds.NotEnoughCards):
        odds.from_cards([card("3C")], "easy", bonus=True)


def test_the_contract_refuses_an_unknown_rank_or_card() -> None:
    with pytest.raises(ValueError):
        odds.check("tricky")
    with pytest.raises(ValueError):
        odds.check("easy", own_major="tarot:major:22")
