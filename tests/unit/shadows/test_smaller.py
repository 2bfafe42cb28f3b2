"""The smaller points of issue 25: a reversed guide reads reversed on the panel as in the log,
a focus changes until the deal, suit meanings where a card is chosen, and setting up a check
posts its figures to nobody but its player and the GM."""

from __future__ import annotations

from games.contract import Seat
from games.shadows import deck
from games.shadows.narrate import summary
from games.shadows.panel import view
from games.shadows.audiences import audience
from tests.unit.shadows.kit import ANN, GM, Table, ann, bob, of_type, stacked

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


def test_showing_the_odds_of_an_aim_tells_nobody_else() -> None:
    """The issue: "Show the odds" posts nothing to the log (it announced the target to everyone):
    an aim is its player's and the GM's, in the log and on the panel."""
    table = Table()
    table.fight(ann(), bob())
    [aimed] = table.send(ANN, "aim", combatant="c1", target="c2", weapon="Knife", skill="melee")
    seen = audience(aimed)
    assert seen.audience == "owner" and seen.owner == "c1"
    mine = Seat("player", member=2, controls=frozenset({"c1"}))
    theirs = Seat("player", member=3, controls=frozenset({"c2"}))
    assert view(table.state, mine)["combat"]["aims"] and view(table.state, Seat("gm"))["combat"]["aims"]
    assert view(table.state, theirs)["combat"]["aims"] == []
    assert view(table.state, Seat("spectator"))["combat"]["aims"] == []
