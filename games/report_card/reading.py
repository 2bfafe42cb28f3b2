"""The odds of a part's next draw, counted from its deck as the table has it now.

Issue 14: "Odds before the draw: beside the check, the exact chance of success, critical
success and critical failure, computed from the cards actually left in that player's deck
(the composition is public: every draw was face up)". Issue 21: a figure everyone sees is
counted from the cards not yet face up (``DeckView.unseen``: the draw pile and any card held
face down), never from the draw pile alone, which would let anyone subtract a card someone
holds: the GM may deal a player cards of their deck by hand, and the figures must not move with
them. Issue 26: the panel reads each character's deck as every seat is handed it
(``Panel(rule_decks=True)``, ``seat.deck``), so the odds follow every change of the deck, the
GM's by hand included, and no state or event keeps a copy of a deck's count.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from games.contract import DeckView
from games.report_card import odds
from games.report_card.rules import major_id

SHOWN = ("critical_success", "success", "failure", "critical_failure", "succeeds")


def percents(chances: odds.Odds) -> dict[str, int]:
    """Whole percents for a panel, halves rounded up; ``fails`` is what ``succeeds`` leaves."""
    shown = {k: int(getattr(chances, k) * 100 + 0.5) for k in SHOWN}
    return {**shown, "fails": 100 - shown["succeeds"]}


def deck_odds(deck: DeckView | None, name: str, rank: str, own_major: int | None,
              edge: str | None) -> dict[str, Any]:
    """``{chances, unseen, deck, fresh}``: the odds of one draw at ``rank`` from ``deck`` (its
    cards not face up, of which the draw pile holds ``deck.draw``; then its discard, which
    refills it), in whole percents, None when even with the discard it cannot give every card
    the draw may need; from a fresh deck (``fresh``) when the table has no deck ``name``."""
    own = None if own_major is None else major_id(own_major)
    flags = {"bonus": edge == "bonus", "penalty": edge == "penalty"}
    if deck is None:
        return {"chances": percents(odds.check(rank, own_major=own, **flags)), "unseen": None, "deck": name,
                "fresh": True}
    chances = _counted(tuple(deck.unseen), tuple(deck.discard), deck.draw, rank, own, edge)
    return {"chances": None if chances is None else dict(chances), "unseen": len(deck.unseen), "deck": deck.name,
            "fresh": False}


@lru_cache(maxsize=512)
def _counted(unseen: tuple[str, ...], discard: tuple[str, ...], draw: int, rank: str, own: str | None,
             edge: str | None) -> tuple[tuple[str, int], ...] | None:
    """The percents of one draw, counted once for every seat drawn the same deck (each seat's
    view is drawn in turn, under the table's lock)."""
    try:
        found = odds.by_rank(unseen, own_major=own, discard=discard, pile_size=draw, ranks=(rank,),
                             bonus=edge == "bonus", penalty=edge == "penalty")
    except odds.NotEnoughCards:
        return None
    return tuple(percents(found[rank]).items())
