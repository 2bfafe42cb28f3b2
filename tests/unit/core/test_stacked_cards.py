"""The test double of the cards port behaves as the table's: play from a hand, gather, and
what is left with or without the discard."""

from __future__ import annotations

import pytest

from games.core.cards_port import Cards, StackedCards


def test_stacked_cards_play_gather_and_left() -> None:
    cards = StackedCards({"Fate": ["ten:S:1", "ten:S:2", "ten:S:3", "ten:S:4"]})
    assert isinstance(cards, Cards)
    cards.draw("Fate", 2, to="hand", holder=7)
    cards.draw("Fate", 1, to="discard")
    assert cards.held("Fate", 7) == ["ten:S:1", "ten:S:2"]
    assert sorted(cards.left("Fate")) == ["ten:S:3", "ten:S:4"]
    assert cards.left("Fate", with_discard=False) == ["ten:S:4"]
    assert cards.play("Fate", "ten:S:2", holder=7).token == "ten:S:2"
    assert cards.held("Fate", 7) == ["ten:S:1"]
    with pytest.raises(LookupError):
        cards.play("Fate", "ten:S:2", holder=7)
    cards.gather("Fate")
    assert cards.held("Fate", 7) == [] and cards.left("Fate", with_discard=False) == [
        "ten:S:1", "ten:S:2", "ten:S:3", "ten:S:4"]
