"""The stacked cards port that engines' unit tests pass (games/core/cards_port.py)."""

from __future__ import annotations

import pytest

from games.core.cards_port import Cards, OutOfCards, StackedCards, UnknownDeck


def test_a_stacked_deck_deals_its_top_cards_in_order_and_records_where_they_went() -> None:
    port = StackedCards({"Fate": ["ten:S:1", "tarot:major:1/r", "ten:H:7"]})
    assert isinstance(port, Cards)
    [first] = port.draw("Fate", 1, to="discard")
    second, third = port.draw("Fate", 2, to="hand", holder=4)
    assert (first.card.id, second.token, second.reversed, third.card.name) == (
        "ten:S:1", "tarot:major:1/r", True, "Seven of Hearts")
    assert port.placed == [("Fate", "ten:S:1", "discard", None), ("Fate", "tarot:major:1/r", "hand", 4),
                           ("Fate", "ten:H:7", "hand", 4)]


def test_an_empty_stacked_deck_refills_from_its_discard() -> None:
    port = StackedCards({"Fate": ["ten:S:1", "ten:S:2"]})
    port.draw("Fate", 2, to="discard")
    assert sorted(port.left("Fate")) == ["ten:S:1", "ten:S:2"]
    assert [c.card.id for c in port.draw("Fate", 1)] == ["ten:S:1"]
    with pytest.raises(OutOfCards):
        port.draw("Fate", 2)
    with pytest.raises(UnknownDeck):
        port.draw("Doom")
    with pytest.raises(ValueError):
        port.draw("Fate", 0)
