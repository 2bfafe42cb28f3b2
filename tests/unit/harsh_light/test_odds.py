"""Exact odds of one pull, checked against enumerating every pair of cards."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.cards import ten_value_deck
from games.harsh_light import odds, rules

FRESH_IDS = [c.id for c in ten_value_deck()]


def enumerate_pull(pool: int, ids: list[str], again: int) -> tuple[Counter, Fraction, Fraction]:
    """Every first card, and every second card from those left when the first pulls again,
    judged by the rules: the chance of each success count, of a Dramatic Failure, of 5+."""
    values = [int(i.rsplit(":", 1)[1]) for i in ids]
    found: Counter = Counter()
    dramatic = exceptional = Fraction(0)
    n = len(values)
    for i, first in enumerate(values):
        if rules.pulls_second(first, again) and n > 1:
            for j, second in enumerate(values):
                if j == i:
                    continue
                p = Fraction(1, n * (n - 1))
                result = rules.resolve(pool, [first, second], again=again)
                found[0 if result.dramatic else result.successes] += p
                exceptional += p if result.exceptional else 0
        else:  # one card (or the last card of all, which has no second to bring)
            p = Fraction(1, n)
            is_dramatic = rules.is_dramatic(pool, first)
            got = 0 if is_dramatic else rules.successes(pool + first)
            found[got] += p
            dramatic += p if is_dramatic else 0
            exceptional += p if got >= 5 else 0
    return found, dramatic, exceptional


@pytest.mark.parametrize("again", [10, 9, 8])
@pytest.mark.parametrize("pool", range(-3, 16))
def test_fresh_deck_odds_match_brute_force(pool: int, again: int) -> None:
    """The issue: "computed exactly for one pull from a fresh 40-card deck (four each of 1-10), a
    second card (when the first is `again` or more) pulled from the 39 left"."""
    exact = odds.pull_exact(pool, again=again)
    found, dramatic, exceptional = enumerate_pull(pool, FRESH_IDS, again)
    assert {k: v for k, v in exact.successes.items() if v} == {k: v for k, v in found.items() if v}
    assert (exact.dramatic, exact.exceptional) == (dramatic, exceptional)
    assert sum(exact.successes.values()) == 1
    floats = odds.pull(pool, again=again)
    assert floats.successes == {k: float(v) for k, v in exact.successes.items()}
    assert sum(floats.successes.values()) == pytest.approx(1.0)


def test_the_contract_shape() -> None:
    """``pull(pool, *, again=10)``: ``successes`` (0 included), ``dramatic``, ``exceptional``."""
    result = odds.pull(7)
    assert 0 in result.successes and result.successes[0] == 0.0
    assert isinstance(result.dramatic, float) and isinstance(result.exceptional, float)
    assert list(result.successes) == list(range(len(result.successes)))
    assert odds.pull(-3).successes[0] == pytest.approx(0.9)


def test_dramatic_failure_is_an_ace_on_a_pool_of_zero_or_less() -> None:
    """Seed: "If you pull a 1 while using a pool of 0 or less": 4 Aces in 40 cards."""
    assert odds.pull(0).dramatic == odds.pull(-3).dramatic == 0.1
    assert odds.pull(1).dramatic == 0.0


def test_two_tens_in_a_row_are_the_only_way_to_five_from_nothing() -> None:
    """Seed: "Pulling a second 10 in a row ... you're adding +20 to your pool": from a pool of 0
    only 10 then 10 reaches 20, an Exceptional Success: 4/40 x 3/39."""
    assert odds.pull_exact(0).exceptional == Fraction(4, 40) * Fraction(3, 39)


def test_more_again_is_never_worse() -> None:
    for pool in range(-3, 16):
        for n in range(1, 8):
            assert odds.pull_exact(pool, again=8).at_least(n) >= odds.pull_exact(pool, again=10).at_least(n)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(FRESH_IDS), min_size=1, max_size=40, unique=True),
       st.integers(min_value=-3, max_value=15), st.sampled_from([10, 9, 8]))
def test_odds_from_the_cards_left_match_brute_force(ids: list[str], pool: int, again: int) -> None:
    """The issue: the odds "from the cards actually left in the deck"."""
    exact = odds.exact_from_counts(pool, odds.counts_of(ids), again=again)
    found, dramatic, exceptional = enumerate_pull(pool, ids, again)
    assert {k: v for k, v in exact.successes.items() if v} == {k: v for k, v in found.items() if v}
    assert (exact.dramatic, exact.exceptional) == (dramatic, exceptional)
    assert sum(exact.successes.values()) == 1
    assert odds.pull_from(pool, ids, again=again).dramatic == float(dramatic)


def test_no_cards_left_is_refused() -> None:
    with pytest.raises(ValueError):
        odds.pull_from(3, [])


def test_the_chart_covers_pools_minus_three_to_fifteen_for_each_again() -> None:
    """The issue: "an SVG chart of pools -3 to 15 on a fresh deck (10-, 9- and 8-again)"."""
    chart = odds.chart()
    assert [t["label"] for t in chart["x_ticks"]] == [str(p) for p in range(-3, 16)]
    assert {(s["again"], s["measure"]) for s in chart["series"]} == {
        (a, m) for a in (10, 9, 8) for m in ("any", "exceptional")}
    for series in chart["series"]:
        points = series["points"].split()
        assert len(points) == 19
        assert all(0 <= float(p.split(",")[1]) <= chart["height"] for p in points)
    assert [t["again"] for t in chart["tables"]] == [10, 9, 8]
    first = chart["tables"][0]["rows"][0]
    assert first["pool"] == -3 and first["dramatic"] == 10.0 and first["exactly"][0] == 90.0


def test_a_lone_ten_left_in_the_draw_pile_counts_as_giving_a_second_card() -> None:
    """Seed: "A pull of 10 ... allows you pull a second card, adding both cards to your pool".
    The last card a 10: the table shuffles the discard pile back in for the second
    (deck.pull_cards), and so do the odds, from the discard's cards, which lie face up."""
    from dataclasses import replace

    from games.contract import DeckView, Seat
    from games.core.cards_port import StackedCards
    from games.harsh_light import DECK, deck, panel
    from tests.unit.harsh_light.conftest import Table, sheet

    rest = tuple(i for i in FRESH_IDS if i != "ten:S:10")
    lone = DeckView(name=DECK, unseen=("ten:S:10",), draw=1, discard=rest)
    t = Table(c1=sheet("Ann", wits=2))
    t.send({"type": "set_up_pull", "combatant": "c1", "attribute": "wits"})
    shown = panel.view(t.state, replace(Seat("gm"), decks=(lone,)))["prepared"][0]["odds"]
    exact = odds.exact_from_counts(2, odds.counts_of(["ten:S:10"]), refill=odds.counts_of(rest))
    # 2 + 10 + a second card of 1..10: totals 13 to 22, never the lone card's 12 alone
    assert exact.successes[2] == Fraction(4, 39) and exact.at_least(5) == Fraction(4 + 4 + 3, 39)  # an Ace; 8, 9, 10
    assert [c["percent"] for c in shown["cells"]][2] == odds.percent(exact.successes[2]) < 100
    # and the table agrees: the pull takes the 10, then a card of the discard shuffled back in
    port = StackedCards({DECK: ["ten:S:10"]})
    port.discards[DECK] = list(rest)
    tokens, values = deck.pull_cards(port, 10)
    assert values[0] == 10 and len(values) == 2 and tokens[1] in rest
