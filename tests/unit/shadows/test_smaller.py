"""The smaller points of issue 25: a reversed guide reads reversed on the panel as in the log,
a focus changes until the deal, suit meanings where a card is chosen, and setting up a check
posts its figures to nobody but its player and the GM."""

from __future__ import annotations

from games.contract import Seat
from games.shadows import deck
from games.shadows.narrate import summary
from games.shadows.panel import view
from tests.unit.shadows.kit import GM, Table, ann, of_type, stacked, t

STAR_REVERSED = "tarot:major:17/r"


def test_a_reversed_guide_shows_its_reversed_meaning_on_the_panel_as_in_the_log() -> None:
    table = Table(stacked(["C1"], majors=[STAR_REVERSED]))
    events = table.send(GM, "check", character=ann(), skill="", attribute="mind", complexity="normal", cards=1)
    [drawn] = of_type(events, "guide_drawn")
    assert drawn["card"] == STAR_REVERSED
    [guide] = view(table.state, Seat("gm"))["guides"]
    assert guide["card"]["lies"] == deck.meaning(STAR_REVERSED) == "Lack of faith, despair, discouragement"
    assert guide["card"]["oriented_name"] == "The Star (reversed)"
    [shown] = table.send(GM, "show_guide", guide=str(drawn["id"]))
    assert "Lack of faith, despair, discouragement" in summary(shown, table.state)
    [seen] = view(table.state, Seat("spectator"))["guides"]
    assert seen["card"]["lies"] == "Lack of faith, despair, discouragement"
