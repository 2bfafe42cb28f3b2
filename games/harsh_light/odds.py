"""Exact odds of one pull (no sampling), from a fresh deck or from the cards left.

A pull is one card from the deck; when its value is the ``again`` value or more a second card
comes from the cards then left (seed: "A pull of 10 ... allows you pull a second card"; never a
third). The total is the pool plus the card(s); successes, Dramatic Failure and Exceptional
Success are judged by ``rules``, so the odds and the table agree by construction.

``pull(pool, again=10)`` is a fresh 40-card deck, four of each value; ``pull_from(pool, ids)``
is the cards a table's deck still holds (``cards.left``); ``*_exact`` keep the ``Fraction``s.
``ODDS`` is the page of every pool from -3 to 15 on a fresh deck, 10-, 9- and 8-again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from games.contract import Page
from games.forms import Form, value
from games.harsh_light import rules

VALUES = range(rules.LOWEST_CARD, rules.HIGHEST_CARD + 1)
FRESH = (4,) * 10  # four each of 1..10: games.core.cards.ten_value_deck
CHART_POOLS = range(-3, 16)
CHART_AGAINS = (10, 9, 8)


@dataclass(frozen=True)
class ExactOdds:
    pool: int
    again: int
    successes: dict[int, Fraction]  # every count from 0 to the most reachable, 0 included
    dramatic: Fraction
    exceptional: Fraction

    def at_least(self, n: int) -> Fraction:
        return sum((p for k, p in self.successes.items() if k >= n), Fraction(0))

    @property
    def mean(self) -> Fraction:
        return sum((k * p for k, p in self.successes.items()), Fraction(0))

    def as_floats(self) -> Odds:
        return Odds(self.pool, self.again, {k: float(p) for k, p in self.successes.items()},
                    float(self.dramatic), float(self.exceptional))


@dataclass(frozen=True)
class Odds:
    """One pull's chances: ``successes[k]`` is the chance of exactly k successes (a Dramatic
    Failure counts as 0), ``dramatic`` of a Dramatic Failure, ``exceptional`` of 5 or more."""

    pool: int
    again: int
    successes: dict[int, float]
    dramatic: float
    exceptional: float

    def at_least(self, n: int) -> float:
        return sum(p for k, p in self.successes.items() if k >= n)


def counts_of(card_ids: Iterable[str]) -> tuple[int, ...]:
    """How many cards of each value 1..10 are among ``ten:<suit>:<value>`` ids."""
    counts = [0] * 10
    for card_id in card_ids:
        value = int(str(card_id).split("/")[0].rsplit(":", 1)[-1])
        if value not in VALUES:
            raise ValueError(f"{card_id!r} is not a Harsh Light card.")
        counts[value - 1] += 1
    return tuple(counts)


@dataclass(frozen=True)
class Counted:
    """What the odds before a pull count: ``counts`` by value of the cards the next card may be,
    and ``refill``, the cards a second card comes from when the first leaves none (the discard
    pile, shuffled back in: deck.counted)."""

    counts: tuple[int, ...]
    refill: tuple[int, ...] = ()


def exact_from_counts(pool: int, counts: Sequence[int], *, again: int = 10,
                      refill: Sequence[int] = ()) -> ExactOdds:
    """The odds when the deck holds ``counts[v - 1]`` cards of value v.

    With a single card left and a first card that pulls again, the table shuffles the discard
    pile back in for the second (deck.pull_cards): ``refill`` counts it. A lone 10 left gives a
    second card so; only with nothing to shuffle in does that pull keep its one card.
    """
    rules.check_again(again)
    if len(counts) != 10 or any(c < 0 for c in counts):
        raise ValueError("Give ten counts, one for each value 1 to 10.")
    size = sum(counts)
    if size == 0:
        raise ValueError("There are no cards left to pull.")
    found: dict[int, Fraction] = {}
    dramatic = exceptional = Fraction(0)

    def add(values: tuple[int, ...], p: Fraction) -> None:
        nonlocal dramatic, exceptional
        total = pool + sum(values)
        got = rules.successes(total)
        if rules.is_dramatic(pool, values[0]):
            dramatic += p
            got = 0  # a Dramatic Failure has no successes (with pool <= 0 and an Ace, none anyway)
        if got >= rules.EXCEPTIONAL:
            exceptional += p
        found[got] = found.get(got, Fraction(0)) + p

    for first in VALUES:
        if not counts[first - 1]:
            continue
        p_first = Fraction(counts[first - 1], size)
        if size == 1 and rules.pulls_second(first, again) and sum(refill):
            for second in VALUES:
                if refill[second - 1]:
                    add((first, second), p_first * Fraction(refill[second - 1], sum(refill)))
            continue
        if not rules.pulls_second(first, again) or size == 1:
            add((first,), p_first)
            continue
        for second in VALUES:
            left = counts[second - 1] - (second == first)
            if left > 0:
                add((first, second), p_first * Fraction(left, size - 1))
    top = max(found)
    return ExactOdds(pool, again, {k: found.get(k, Fraction(0)) for k in range(top + 1)}, dramatic, exceptional)


def pull_exact(pool: int, *, again: int = 10) -> ExactOdds:
    """One pull from a fresh 40-card deck (four each of 1-10)."""
    return exact_from_counts(pool, FRESH, again=again)


def pull(pool: int, *, again: int = 10) -> Odds:
    """One pull from a fresh 40-card deck, a second card (when the first is ``again`` or more)
    from the 39 left: the chance of each number of successes, of a Dramatic Failure and of an
    Exceptional Success."""
    return pull_exact(pool, again=again).as_floats()


def pull_from(pool: int, card_ids: Iterable[str], *, again: int = 10) -> Odds:
    """The odds before a pull at the table: from the cards its deck still holds."""
    return exact_from_counts(pool, counts_of(card_ids), again=again).as_floats()


def percent(value: Fraction | float) -> float:
    """A chance as a percentage to one decimal place."""
    return round(float(value) * 100, 1)


def row(odds: ExactOdds | Odds, *, up_to: int = 5) -> dict[str, Any]:
    """One table row: the chance of a Dramatic Failure, of exactly 0..up_to-1 successes and of
    up_to or more, and of any success, as percentages."""
    exactly = [percent(odds.successes.get(k, 0)) for k in range(up_to)]  # a list: JSON-safe
    return {"pool": odds.pool, "again": odds.again, "dramatic": percent(odds.dramatic),
            "exactly": exactly, "or_more": percent(odds.at_least(up_to)),
            "any": percent(odds.at_least(1)), "exceptional": percent(odds.exceptional)}


def table_rows(pools: Iterable[int] = CHART_POOLS, *, again: int = 10,
               counts: Sequence[int] = FRESH) -> list[dict[str, Any]]:
    return [row(exact_from_counts(p, counts, again=again)) for p in pools]


def chart(pools: Sequence[int] = tuple(CHART_POOLS), agains: Sequence[int] = CHART_AGAINS, *,
          width: int = 480, height: int = 240, margin: int = 36) -> dict[str, Any]:
    """Data for an SVG line chart of pools -3..15 on a fresh deck: for each again, the chance
    of at least one success and of an Exceptional Success, as ``points`` ready for a
    ``<polyline>``; the axes' ticks come with their positions. The template draws, no sums."""
    step = (width - 2 * margin) / max(1, len(pools) - 1)

    def x(i: int) -> float:
        return round(margin + i * step, 1)

    def y(chance: Fraction) -> float:
        return round(height - margin - float(chance) * (height - 2 * margin), 1)

    series = []
    for again in agains:
        exact = [pull_exact(p, again=again) for p in pools]
        for measure, label, get in (("any", "at least one success", lambda o: o.at_least(1)),
                                    ("exceptional", "Exceptional Success", lambda o: o.exceptional)):
            series.append({
                "again": again, "measure": measure, "label": f"{again}-again: {label}",
                "points": " ".join(f"{x(i)},{y(get(o))}" for i, o in enumerate(exact)),
                "percents": [percent(get(o)) for o in exact],
            })
    return {
        "width": width, "height": height, "margin": margin, "series": series,
        "x_ticks": [{"x": x(i), "label": str(p)} for i, p in enumerate(pools)],
        "y_ticks": [{"y": y(Fraction(t, 100)), "label": f"{t}%"} for t in range(0, 101, 25)],
        "tables": [{"again": again, "rows": table_rows(pools, again=again)} for again in agains],
    }


def odds_context(query: Form) -> dict[str, Any]:
    """The odds page's figures; never refuses: a bad ``again`` in the query shows 10-again."""
    try:
        again = int(value(query, "again", "10"))
    except ValueError:
        again = 10
    if again not in CHART_AGAINS:
        again = 10
    drawn = chart()
    return {"again": again, "agains": list(CHART_AGAINS), "chart": drawn,
            "rows": next(t["rows"] for t in drawn["tables"] if t["again"] == again), "pools": list(CHART_POOLS)}


ODDS = Page(slug="odds", title="Harsh Light odds", template="games/harsh_light/odds.html", context=odds_context)
