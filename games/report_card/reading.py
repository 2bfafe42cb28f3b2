"""A character's deck as the cards port tells it: how many of its cards are not yet face up,
and the odds of a draw from exactly those cards.

Issue 14: "Odds before the draw: beside the check, the exact chance of success, critical
success and critical failure, computed from the cards actually left in that player's deck
(the composition is public: every draw was face up)". Issue 21: a figure everyone sees is
counted from the cards not yet face up (``cards.unseen``: the draw pile and any card held face
down), never from the draw pile alone, which would let anyone subtract a card someone holds:
the GM may deal a player cards of their deck by hand, and the figures must not move with them.
The engine reads the deck when a check is called and after each draw and keeps, in the state,
the count and the odds by edge and rank: never the cards themselves, so no event lists a
deck's contents.
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


def odds_by_rank(unseen: Iterable[str], own_major: int | None, edge: str | None,
                 discard: Iterable[str] = (), pile_size: int | None = None) -> dict[str, dict[str, int]] | None:
    """Whole percents at every rank for one draw from ``unseen`` (of which the draw pile holds
    ``pile_size``; then ``discard``), or None when they cannot give every card the draw may need."""
    own = None if own_major is None else major_id(own_major)
    try:
        found = odds.by_rank(unseen, own_major=own, bonus=edge == "bonus", penalty=edge == "penalty",
                             discard=discard, pile_size=pile_size)
    except odds.NotEnoughCards:
        return None
    return {rank: percents(found[rank]) for rank in RANKS}


def read_deck(cards: Cards, deck: str, own_major: int | None, edges: Iterable[str | None]) -> dict[str, Any]:
    """``{deck, unseen, odds: {edge key: {rank: percents} | None}}`` from the deck as it is now:
    ``unseen`` how many of its cards are not yet face up. The draw pile's own count only says
    when the discard comes in (it is public, on the deck's widget), never which cards."""
    unseen = cards.unseen(deck)
    pile = cards.left(deck, with_discard=False)
    pool = Counter(cards.left(deck))
    pool.subtract(Counter(pile))
    discard = list(pool.elements())
    return {"deck": deck, "unseen": len(unseen),
            "odds": {edge_key(e): odds_by_rank(unseen, own_major, e, discard, len(pile)) for e in dict.fromkeys(edges)}}


def unseen_count(read: dict[str, Any]) -> int:
    """How many cards of the deck were not yet face up when it was read (a reading stored before
    issue 21 counted its draw pile, as ``left``)."""
    return int(read["unseen"] if "unseen" in read else read.get("left", 0))
