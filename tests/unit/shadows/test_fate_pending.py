"""A fate card called on waits for the GM (seed 000: "Such fate influences can be based off of
the standard or inverted (players choice) meaning of the Major Arcana that they have gained ...
Any such modifications are pending GM's approval")."""

from __future__ import annotations

import pytest

from games.contract import Seat
from games.core.engine import NotYourMove
from games.shadows import deck
from games.shadows.errors import WrongStep
from games.shadows.panel import view
from tests.unit.shadows.kit import ANN, GM, Table, ann, stacked, t


def _holding(card: str) -> Table:
    table = Table(stacked(["C13"], majors=[card]))
    table.send(ANN, "check", character=ann(), skill="", attribute="mind", complexity="normal", cards=1)
    return table


def test_a_fate_card_called_on_is_pending_until_the_gm_approves() -> None:
    table = _holding("M17")
    [spent] = table.send(ANN, "spend_arcana", combatant="c1", card=t("M17"))
    assert spent["pending"] and table.state["held"]["c1"] == [t("M17")]
    assert table.cards.held(deck.MAJOR, 2) == [t("M17")]  # not back in the deck yet
    [waiting] = view(table.state, Seat("player", member=2, controls=frozenset({"c1"})))["spending"]
    assert waiting["card"] == t("M17")
    [held] = view(table.state, Seat("gm"))["held"]["c1"]["cards"]
    assert held["waiting"] is True  # no "call on it" for a card the GM is judging
    with pytest.raises(WrongStep):  # the same card cannot be called on twice
        table.send(ANN, "spend_arcana", combatant="c1", card=t("M17"))
    with pytest.raises(NotYourMove):  # the GM's word, not the player's
        table.send(ANN, "judge_spend", spend=spent["id"], verdict="approve")
    [approved] = table.send(GM, "judge_spend", spend=spent["id"], verdict="approve")
    assert approved["type"] == "arcana_approved"
    assert table.state["held"]["c1"] == [] and table.state["spending"] == {}
    assert table.cards.held(deck.MAJOR, 2) == []


def test_a_fate_card_the_gm_refuses_returns_to_the_hand() -> None:
    table = _holding("M17")
    [spent] = table.send(ANN, "spend_arcana", combatant="c1", card=t("M17"), reversed=True)
    [refused] = table.send(GM, "judge_spend", spend=spent["id"], verdict="refuse")
    assert refused["type"] == "arcana_refused"
    assert table.state["held"]["c1"] == [t("M17")] and table.state["spending"] == {}
    assert table.cards.held(deck.MAJOR, 2) == [t("M17")]
    table.send(ANN, "spend_arcana", combatant="c1", card=t("M17"))  # it may be called on again
    with pytest.raises(WrongStep):
        table.send(GM, "judge_spend", spend="999", verdict="approve")
