"""A redeal deals back none of the cards it discards (seed 000, Combat Actions: "Each player has
the option to have their character forego their first AP of action and instead discard and be
re-dealt up to three cards"): the discarded cards are set aside face up until the new ones are
dealt, so a short draw pile refills from the older discard alone; no card is lost or doubled."""

from __future__ import annotations

import pytest

from games.core.engine import RuleError
from games.shadows import deck
from tests.unit.shadows.kit import ANN, ANN_MEMBER, t
from tests.unit.shadows.test_at_the_table import fight


def _everywhere(table) -> list[str]:
    """Every Minor Arcana card where the table holds it: draw pile, discard, play area, hands."""
    lying = [tok for (d, tok), (_, _, to, _) in table.cards._where.items() if d == deck.MINOR and to in ("hand", "play")]
    return sorted(table.cards.decks[deck.MINOR] + table.cards.discards[deck.MINOR] + lying)


def _short_pile(table, left: int, discarded: int = 0) -> None:
    """The draw pile down to ``left`` cards: the rest laid face up in play, and ``discarded`` of
    them on the discard pile (what earlier rules drew)."""
    pile = len(table.cards.decks[deck.MINOR])
    table.cards.draw(deck.MINOR, pile - left - discarded, to="play")
    if discarded:
        table.cards.draw(deck.MINOR, discarded, to="discard")


def test_a_redeal_with_a_short_draw_pile_never_deals_back_a_card_it_discarded() -> None:
    table = fight()
    _short_pile(table, left=1, discarded=1)  # one card left to draw; the discard holds one older card
    pile, older = list(table.cards.decks[deck.MINOR]), list(table.cards.discards[deck.MINOR])
    [event] = table.send(ANN, "redeal", combatant="c1", cards=[t("W1"), t("P2")])
    assert event["drawn"] == pile + older  # the pile's card, then the older discard's
    assert t("W1") not in event["drawn"] and t("P2") not in event["drawn"]
    assert table.cards.discards[deck.MINOR][-2:] == [t("W1"), t("P2")]  # face up, for everyone
    assert sorted(table.cards.held(deck.MINOR, ANN_MEMBER)) == sorted(table.hand("c1"))
    assert _everywhere(table) == sorted(deck.minor_tokens())  # conserved: none lost, none doubled


def test_a_redeal_with_too_few_other_cards_is_refused_and_moves_nothing() -> None:
    """Only the discarded cards could come back: "re-dealt" means other cards, so it is refused."""
    table = fight()
    _short_pile(table, left=1)
    before = (list(table.cards.decks[deck.MINOR]), list(table.cards.discards[deck.MINOR]), table.hand("c1"))
    with pytest.raises(RuleError, match="left to deal besides those discarded"):
        table.send(ANN, "redeal", combatant="c1", cards=[t("W1"), t("P2")])
    assert (table.cards.decks[deck.MINOR], table.cards.discards[deck.MINOR], table.hand("c1")) == before
    assert sorted(table.cards.held(deck.MINOR, ANN_MEMBER)) == sorted(table.hand("c1"))
