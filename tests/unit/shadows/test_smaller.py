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


def test_an_aims_odds_count_the_targets_hand_from_what_its_player_may_know() -> None:
    """Issue 25: odds "in combat, from what the viewer may know". An aim counts the target's
    hand from the cards not face up this round less the hand its player holds (they know it is
    not there); the GM reads the aim with the same figures."""
    from games.shadows import state as st
    from games.shadows.faces import chance
    from games.shadows.odds import through_by_value

    table = Table()
    table.fight(ann(), bob())
    table.send(ANN, "aim", combatant="c1", target="c2", weapon="Knife", skill="melee")
    fight = table.state["combat"]
    alma, bram = fight["combatants"]["c1"], fight["combatants"]["c2"]
    [aim] = view(table.state, Seat("player", member=2, controls=frozenset({"c1"})))["combat"]["aims"]
    [gm_aim] = view(table.state, Seat("gm"))["combat"]["aims"]
    bonus, guard, k = aim["skill_value"] + aim["off_focus"], aim["defence"], aim["dodge_cards"]
    assert k > 0 and alma["hand"] and set(alma["hand"]).isdisjoint(bram["hand"])

    def odds(pool: list[str]) -> list[str]:
        return [chance(p) for p in through_by_value(bonus, guard, defender_hand=len(bram["hand"]),
                                                    defence_cards=k, unseen=pool).values()]

    unseen = st.unseen_by(fight, "c2")
    without_mine = [c for c in unseen if c not in set(alma["hand"])]
    assert len(without_mine) == len(unseen) - len(alma["hand"])
    assert [o["chance"] for o in aim["odds"]] == [o["chance"] for o in gm_aim["odds"]] == odds(without_mine)
