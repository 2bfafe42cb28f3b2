"""A character's deck as the cards port tells it: how many cards are left, and the odds of a
draw from exactly those cards.

Issue 14: "Odds before the draw: beside the check, the exact chance of success, critical
success and critical failure, computed from the cards actually left in that player's deck
(the composition is public: every draw was face up)". The engine reads the deck when a check
is called and after each draw (``cards.left(deck, with_discard=False)``: what the next card
comes from; the discard only if the draw pile runs out) and keeps, in the state, the count and
the odds by edge and rank: never the cards themselves, so no event lists a deck's contents.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from games.core.cards_port import Cards
from games.report_card import odds
from games.report_card.rules import RANKS, major_id

EDGE_KEYS = {None: "none", "bonus": "bonus", "penalty": "penalty"}
SHOWN = ("critical_success", "success", "failure", "critical_failure", "succeeds")


def percents(chances: odds.Odds) -> dict[str, int]:
    """Whole percents for a panel, halves rounded up; ``fails`` is what ``succeeds`` leaves."""
    shown = {k: int(getattr(chances, k) * 100 + 0.5) for k in SHOWN}
    return {**shown, "fails": 100 - shown["succeeds"]}


def edge_key(edge: str | None) -> str:
    return EDGE_KEYS[edge]


def odds_by_rank(left: Iterable[str], own_major: int | None, edge: str | None,
                 discard: Iterable[str] = ()) -> dict[str, dict[str, int]] | None:
    """Whole percents at every rank for one draw from ``left`` (then ``discard``), or None
    when even both cannot give every card the draw may need."""
    own = None if own_major is None else major_id(own_major)
    try:
        found = odds.by_rank(left, own_major=own, bonus=edge == "bonus", penalty=edge == "penalty",
                             discard=discard)
    except odds.NotEnoughCards:
        return None
    return {rank: percents(found[rank]) for rank in RANKS}


def read_deck(cards: Cards, deck: str, own_major: int | None, edges: Iterable[str | None]) -> dict[str, Any]:
    """``{deck, left, odds: {edge key: {rank: percents} | None}}`` from the deck as it is now."""
    left = cards.left(deck, with_discard=False)
    pool = Counter(cards.left(deck))
    pool.subtract(Counter(left))
    discard = list(pool.elements())
    return {"deck": deck, "left": len(left),
            "odds": {edge_key(e): odds_by_rank(left, own_major, e, discard) for e in dict.fromkeys(edges)}}
