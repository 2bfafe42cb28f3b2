"""Shuffling: a permutation, done by ``rng.shuffle`` alone, and uniform.

Uniformity is checked with Pearson's chi-square at p = 0.001 over 20,000 shuffles of a
5-card deck with a fixed seed, and the same check is shown to reject biased shuffles, so
that it can fail. The chi-square distribution is computed here (scipy is not a dependency).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, MutableSequence, Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.core import cards
from games.core.rng import Rng

Shuffle = Callable[[Sequence[Any], Rng], list[Any]]
ALPHA = 0.001
DECK = cards.major_arcana()[:5]
SHUFFLES = 20_000
SEED = 20_240_601


def chi2_sf(stat: float, df: int) -> float:
    """P(X >= stat) for X ~ chi-square(df), as 1 - P(df/2, stat/2), the regularised lower
    incomplete gamma function, summed as its power series in log space: for a large
    statistic the first term underflows and the middle ones would overflow, and either
    would make a hugely biased shuffle look fair."""
    if stat <= 0:
        return 1.0
    s, x = df / 2, stat / 2
    log_term = s * math.log(x) - x - math.lgamma(s + 1)
    log_terms, peak, n = [log_term], log_term, 0
    # Terms grow until n passes x - s, then shrink; stop when they are e^-40 of the peak.
    while n < x - s or log_term > peak - 40:
        n += 1
        log_term += math.log(x / (s + n))
        log_terms.append(log_term)
        peak = max(peak, log_term)
    log_p = peak + math.log(sum(math.exp(v - peak) for v in log_terms))
    return max(0.0, -math.expm1(log_p))


def chi2_critical(df: int, alpha: float = ALPHA) -> float:
    """The statistic above which chi-square(df) lies with probability ``alpha`` (bisection)."""
    low, high = 0.0, df + 10 * math.sqrt(2 * df) + 60
    for _ in range(100):
        middle = (low + high) / 2
        low, high = (middle, high) if chi2_sf(middle, df) > alpha else (low, middle)
    return (low + high) / 2


def position_statistic(shuffle: Shuffle, deck: Sequence[Any], shuffles: int, rng: Rng) -> float:
    """Pearson's statistic over the card-by-position table, scaled to follow chi-square with
    (k-1)^2 degrees of freedom when every card is equally likely in every position.

    Each shuffle puts every card in exactly one position and fills every position, so the
    k x k cell counts are tied more tightly than an ordinary contingency table's: the plain
    sum of (O-E)^2/E is (k/(k-1)) times a chi-square((k-1)^2) variable (its mean is k(k-1)),
    hence the factor (k-1)/k.
    """
    k = len(deck)
    counts: Counter[tuple[int, Any]] = Counter()
    for _ in range(shuffles):
        counts.update(enumerate(shuffle(deck, rng)))
    expected = shuffles / k
    raw = sum((counts[(p, c)] - expected) ** 2 / expected for p in range(k) for c in deck)
    return raw * (k - 1) / k


def permutation_statistic(shuffle: Shuffle, deck: Sequence[Any], shuffles: int, rng: Rng) -> float:
    """Pearson's statistic over how often each of the k! orders came up: chi-square(k! - 1)."""
    seen = Counter(tuple(shuffle(deck, rng)) for _ in range(shuffles))
    expected = shuffles / math.factorial(len(deck))
    return sum((seen[order] - expected) ** 2 / expected for order in itertools.permutations(deck))


def positions_look_uniform(shuffle: Shuffle) -> bool:
    k = len(DECK)
    stat = position_statistic(shuffle, DECK, SHUFFLES, random.Random(SEED))
    return stat < chi2_critical((k - 1) ** 2)


def naive_swap_shuffle(items: Sequence[Any], rng: Rng) -> list[Any]:
    """The classic bug: swap each position with ANY position; n^n paths onto n! orders."""
    order = list(items)
    for i in range(len(order)):
        j = rng.randrange(len(order))
        order[i], order[j] = order[j], order[i]
    return order


def off_by_one_shuffle(items: Sequence[Any], rng: Rng) -> list[Any]:
    """Fisher-Yates that never lets a card stay put (Sattolo's cycle): only (n-1)! orders."""
    order = list(items)
    for i in range(len(order) - 1, 0, -1):
        j = rng.randrange(i)
        order[i], order[j] = order[j], order[i]
    return order


@pytest.mark.parametrize(
    ("df", "table_value"), [(1, 10.828), (4, 18.467), (16, 39.252), (100, 149.449)]
)
def test_chi2_critical_values_match_published_tables(df: int, table_value: float) -> None:
    assert chi2_critical(df) == pytest.approx(table_value, abs=0.002)


def test_chi2_sf_known_points() -> None:
    assert chi2_sf(3.841, 1) == pytest.approx(0.05, abs=1e-4)
    assert chi2_sf(0, 3) == 1.0
    assert chi2_sf(2000, 16) == 0.0
    assert chi2_sf(1e5, 119) == 0.0
    assert 0.0 < chi2_sf(150, 119) < 0.05


def test_scaled_position_statistic_has_the_chi_square_mean() -> None:
    """Calibrates the (k-1)/k factor: over many small runs the mean is about (k-1)^2."""
    rng = random.Random(SEED)
    deck = DECK[:4]
    stats = [position_statistic(cards.shuffled, deck, 400, rng) for _ in range(300)]
    assert sum(stats) / len(stats) == pytest.approx(9, abs=1.2)


def test_every_card_is_equally_likely_in_every_position() -> None:
    k = len(DECK)
    stat = position_statistic(cards.shuffled, DECK, SHUFFLES, random.Random(SEED))
    assert stat < chi2_critical((k - 1) ** 2), stat


def test_every_order_is_equally_likely() -> None:
    stat = permutation_statistic(cards.shuffled, DECK, SHUFFLES, random.Random(SEED))
    assert stat < chi2_critical(math.factorial(len(DECK)) - 1), stat


@pytest.mark.parametrize("biased", [naive_swap_shuffle, off_by_one_shuffle])
def test_the_uniformity_check_rejects_a_biased_shuffle(biased: Shuffle) -> None:
    assert positions_look_uniform(cards.shuffled)
    assert not positions_look_uniform(biased)


class SpyRng:
    """Records which ``Rng`` methods were called, delegating to a seeded ``random.Random``."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)
        self.calls: list[str] = []

    def shuffle(self, x: MutableSequence[Any]) -> None:
        self.calls.append("shuffle")
        self._random.shuffle(x)

    def __getattr__(self, name: str) -> Any:
        self.calls.append(name)
        return getattr(self._random, name)


def test_shuffling_uses_rng_shuffle_and_nothing_else() -> None:
    """Shuffles are Fisher-Yates via ``rng.shuffle`` (games/core/cards.py)."""
    spy = SpyRng(1)
    cards.shuffled(cards.tarot(), spy)  # type: ignore[arg-type]
    assert spy.calls == ["shuffle"]


ALL_CARDS = cards.tarot() + cards.ten_value_deck() + cards.standard_deck(jokers=True)


@given(st.lists(st.sampled_from(ALL_CARDS), max_size=80), st.integers())
def test_shuffling_is_a_permutation_and_leaves_the_input_alone(
    deck: list[cards.Card], seed: int
) -> None:
    before = list(deck)
    result = cards.shuffled(deck, random.Random(seed))
    assert Counter(result) == Counter(deck)
    assert deck == before
    assert result is not deck
    assert cards.shuffled(deck, random.Random(seed)) == result
