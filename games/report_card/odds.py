"""Exact odds of one Report Card check, enumerated with fractions (no sampling).

``check(rank, *, own_major=None, bonus=False, penalty=False)`` is one attempt drawn from a
fresh, full 78-card Tarot deck; ``from_cards(cards, rank, ...)`` the same from the cards of a
deck not yet face up (its composition is public at the table: every card a check draws lies
face up, so what is not face up is known to all; a card held face down counts among them, so
no figure lets anyone subtract it).
Both return ``Odds``: float ``critical_success``, ``success``, ``failure`` and
``critical_failure``, mutually exclusive and summing to 1 (``*_exact`` keeps fractions).
``ODDS`` is the odds page: every rank from a fresh deck, plain, with Bonus and with Penalty.

The rulings are the engine's, through the same functions (``rules.outcome_of``): a Wheel of
Fortune's second card comes from the cards left after it (from the 77 of a fresh deck); with
Bonus the player keeps the better outcome and with Penalty the GM forces the worse; Bonus and
Penalty together cancel. When the draw pile runs out mid-check, the discard (``discard``) is
shuffled in and the draw goes on, as at the table: ``pile_size`` says how many of ``cards``
the draw pile holds (a public count; the others are held face down), so once that many have
come off, the next comes from the discard. Seen from the table, the draw pile is any
``pile_size`` of the unseen cards, each as likely, so each card off it is any unseen card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, fields
from fractions import Fraction
from functools import cache

from typing import Any, Generic, TypeVar

from games.contract import Page
from games.core.cards import tarot
from games.core.tarot import MAJOR_ARCANA
from games.forms import Form, value
from games.report_card.chart import odds_chart, percent
from games.report_card.errors import BadInput
from games.report_card.rules import (
    CRITICAL_FAILURE, CRITICAL_SUCCESS, FAILURE, LEVEL, OUTCOME_LABELS, OUTCOMES, RANK_LABELS, RANKS, SUCCESS,
    card_class, edge_of, major_id, outcome_of,
)
from games.report_card.sheet import major_number

Class = int | str
# (the unseen cards, the discard) by card class, and how many more cards the draw pile gives
Piles = tuple[Counter[Class], Counter[Class], int]


N = TypeVar("N", Fraction, float)


@dataclass(frozen=True)
class Odds(Generic[N]):
    """The chances of one attempt's outcomes, which exclude each other and sum to 1: exact
    (``Fraction``, ``ExactOdds``) or as floats."""

    critical_success: N
    success: N
    failure: N
    critical_failure: N

    @property
    def succeeds(self) -> N:
        """Any success, critical or not."""
        return self.critical_success + self.success

    def as_floats(self) -> Odds[float]:
        return Odds(*(float(getattr(self, f.name)) for f in fields(self)))


ExactOdds = Odds[Fraction]


class NotEnoughCards(ValueError):
    """The deck (with its discard) cannot give every card the check might draw."""


def _own(own_major: object) -> int | None:
    try:
        return major_number(own_major)
    except BadInput as exc:
        raise ValueError(str(exc)) from None


def _rank(rank: str) -> str:
    if rank not in RANKS:
        raise ValueError(f"rank is one of {' '.join(RANKS)}, not {rank!r}")
    return rank


def _draws(piles: Piles, exact: bool = True) -> Iterator[tuple[Fraction | float, Class, Piles]]:
    """Each class the next card may be, its chance, and the piles after it. An empty draw pile
    is refilled by the whole discard (cards held in hands stay there)."""
    pile, discard, room = piles
    if room <= 0 or not sum(pile.values()):
        pile, discard = discard, Counter()
        room = sum(pile.values())
    total = sum(pile.values())
    if not total:
        raise NotEnoughCards("the deck and its discard are out of cards for this check")
    for cls, n in pile.items():
        if n:
            rest = pile.copy()
            rest[cls] -= 1
            yield Fraction(n, total) if exact else n / total, cls, (rest, discard, room - 1)


def _seconds(firsts: tuple[Class, ...], piles: Piles,
             exact: bool = True) -> Iterator[tuple[Fraction | float, list[Class | None]]]:
    """The Wheels' second cards, in the order of the cards that drew them."""
    if "wheel" not in firsts:
        yield Fraction(1) if exact else 1.0, [None] * len(firsts)
        return
    at = firsts.index("wheel")
    rest = firsts[at + 1:]
    for p, second, after in _draws(piles, exact):
        for q, tail in _seconds(rest, after, exact):
            yield p * q, [None] * at + [second] + tail


def _enumerate(piles: Piles, rank: str, edge: str | None) -> ExactOdds:
    return _enumerate_ranks(piles, (rank,), edge)[rank]


def _enumerate_ranks(piles: Piles, ranks: tuple[str, ...], edge: str | None,
                     exact: bool = True) -> dict[str, ExactOdds]:
    """The odds at each of ``ranks`` at once: the ways the cards can come off do not depend
    on the rank, so they are walked once (the panel wants every rank a retry may reach)."""
    chances: dict[str, Counter[str]] = {rank: Counter() for rank in ranks}  # float weights unless exact
    for p, firsts, after in _firsts(piles, 1 if edge is None else 2, exact):
        for q, seconds in _seconds(firsts, after, exact):
            for rank in ranks:
                outcomes = [outcome_of(rank, c, s) for c, s in zip(firsts, seconds, strict=True)]
                kept = (max if edge == "bonus" else min)(outcomes, key=LEVEL.__getitem__)
                chances[rank][kept] += p * q
    return {rank: ExactOdds(*(found[o] for o in (CRITICAL_SUCCESS, SUCCESS, FAILURE, CRITICAL_FAILURE)))
            for rank, found in chances.items()}


def _firsts(piles: Piles, count: int,
            exact: bool = True) -> Iterator[tuple[Fraction | float, tuple[Class, ...], Piles]]:
    if count == 0:
        yield Fraction(1) if exact else 1.0, (), piles
        return
    for p, cls, after in _draws(piles, exact):
        for q, more, left in _firsts(after, count - 1, exact):
            yield p * q, (cls, *more), left


def _piles(cards: Iterable[str], own: int | None, discard: Iterable[str], pile_size: int | None) -> Piles:
    unseen = Counter(card_class(c, own) for c in cards)
    room = sum(unseen.values()) if pile_size is None else min(pile_size, sum(unseen.values()))
    return unseen, Counter(card_class(c, own) for c in discard), room


def from_cards_exact(cards: Iterable[str], rank: str, *, own_major: object = None, bonus: bool = False,
                     penalty: bool = False, discard: Iterable[str] = (), pile_size: int | None = None) -> ExactOdds:
    """Exact odds of one attempt from ``cards`` (ids or tokens, any order): the cards not yet
    face up, of which the draw pile holds ``pile_size`` (all of them by default); refilled
    from ``discard`` when the draw pile runs out."""
    piles = _piles(cards, _own(own_major), discard, pile_size)
    return _enumerate(piles, _rank(rank), edge_of(bonus, penalty))


def from_cards(cards: Iterable[str], rank: str, *, own_major: object = None, bonus: bool = False,
               penalty: bool = False, discard: Iterable[str] = (), pile_size: int | None = None) -> Odds[float]:
    """Odds before the draw at the table, from the cards of that character's deck not yet face up."""
    return from_cards_exact(cards, rank, own_major=own_major, bonus=bonus, penalty=penalty,
                            discard=discard, pile_size=pile_size).as_floats()


def by_rank(cards: Iterable[str], *, own_major: object = None, bonus: bool = False, penalty: bool = False,
            discard: Iterable[str] = (), pile_size: int | None = None,
            ranks: tuple[str, ...] = RANKS) -> dict[str, Odds[float]]:
    """``from_cards`` at each of ``ranks`` (every rank by default), in one walk over the cards:
    what a panel shows before a draw and before each retry (which may be one rank easier, or
    held)."""
    piles = _piles(cards, _own(own_major), discard, pile_size)
    wanted = tuple(_rank(r) for r in ranks)
    # floats, not fractions: a panel shows whole percents, drawn again for every seat
    found = _enumerate_ranks(piles, wanted, edge_of(bonus, penalty), exact=False)
    return {rank: found[rank].as_floats() for rank in wanted}


@cache
def _fresh(rank: str, own: int | None, edge: str | None) -> ExactOdds:
    return from_cards_exact((c.id for c in tarot()), rank, own_major=own, bonus=edge == "bonus",
                            penalty=edge == "penalty")


def check_exact(rank: str, *, own_major: object = None, bonus: bool = False,
                penalty: bool = False) -> ExactOdds:
    """Exact odds of one attempt drawn from a fresh, full 78-card Tarot deck."""
    return _fresh(_rank(rank), _own(own_major), edge_of(bonus, penalty))


def check(rank: str, *, own_major: str | None = None, bonus: bool = False,
          penalty: bool = False) -> Odds[float]:
    """One check from a fresh 78-card deck: ``rank`` one of automatic trivial easy medium hard
    unlikely impossible; ``own_major`` a card id ``tarot:major:<0-21>`` or None."""
    return check_exact(rank, own_major=own_major, bonus=bonus, penalty=penalty).as_floats()


def odds_context(query: Form) -> dict[str, Any]:
    """The odds page: ``?major=<0-21>`` counts that card as the character's own;
    ``?edge=bonus|penalty`` picks the chart. Never refuses: a value it cannot read is left out."""
    try:
        major = major_number(value(query, "major"))
    except BadInput:
        major = None
    own = None if major is None else major_id(major)
    edge = value(query, "edge") if value(query, "edge") in ("bonus", "penalty") else ""
    rows = []
    for rank in RANKS:
        row: dict[str, Any] = {"rank": RANK_LABELS[rank]}
        for key, flags in (("plain", {}), ("bonus", {"bonus": True}), ("penalty", {"penalty": True})):
            chances = check(rank, own_major=own, **flags)
            row[key] = {kind: percent(getattr(chances, kind)) for kind in OUTCOMES}
        rows.append(row)
    charted = {rank: check(rank, own_major=own, bonus=edge == "bonus", penalty=edge == "penalty") for rank in RANKS}
    return {"rows": rows, "outcomes": [(k, OUTCOME_LABELS[k].capitalize()) for k in OUTCOMES],
            "majors": [(t.number, f"{t.number} {t.name}") for t in MAJOR_ARCANA], "major": major, "edge": edge,
            "chart": odds_chart(charted)}


ODDS = Page(slug="odds", title="Report Card odds", template="games/report_card/odds.html", context=odds_context)
