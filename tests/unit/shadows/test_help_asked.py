"""Assistance a player asks for from their own panel, the GM approves, and their own check
carries (seed 000: "Assistance can be provided by a second or even a third character (subject
to GM approval, from a logistics standpoint). With one-half the second characters' skill being
added to the value of the attempt by the primary character and one-quarter of the third
characters' skill value being added if allowed by the GM")."""

from __future__ import annotations

import pytest

from games.contract import Seat
from games.core.engine import NotYourMove, RuleError
from games.shadows.audiences import audience
from games.shadows.panel import view
from tests.unit.shadows.kit import ANN, BOB, GM, Table, ann, bob, of_type, orc, stacked


def _check(table: Table, **more) -> dict:
    made = table.send(ANN, "check", character=ann(quickness=5), skill="stealth", attribute="quickness",
                      complexity="normal", cards=1, **more)
    return of_type(made, "check_made")[0]


def test_a_players_own_check_carries_the_help_the_gm_approved() -> None:
    """The player's check form names no helpers (the boxes are the GM's): the approval counts."""
    table = Table(stacked(["C5", "C6"]))
    table.seat(bob(skills={"stealth": 8}))
    table.seat(orc(skills={"stealth": 8}))
    [asked] = table.send(ANN, "ask_help", combatant="c1", helpers=["c2", "c3"])
    assert asked["type"] == "help_asked" and audience(asked).audience == "everyone"
    assert table.state["asked"] == {"c1": ["c2", "c3"]}
    table.send(GM, "approve_help", combatant="c1", helpers=["c2", "c3"])
    assert table.state["asked"] == {}
    made = _check(table)
    assert made["assistance"] == 8 // 2 + 8 // 4
    assert made["total"] == 5 + 4 + 5 + 6  # card + stealth 4 + quickness 5 + help
    assert table.state["help"] == {}  # used up by the check it served
    assert _check(table)["assistance"] == 0


def test_a_players_prepared_check_shows_and_carries_the_approved_help() -> None:
    table = Table(stacked(["C5"]))
    table.seat(bob(skills={"stealth": 8}))
    table.send(ANN, "ask_help", combatant="c1", helpers=["c2"])
    table.send(GM, "approve_help", combatant="c1", helpers=["c2"])
    [prepared] = table.send(ANN, "prepare_check", character=ann(quickness=5), skill="stealth",
                            attribute="quickness", complexity="normal")
    assert prepared["assistance"] == 4
    made = of_type(table.send(ANN, "check", combatant="c1", prepared=True, cards=1), "check_made")[0]
    assert made["assistance"] == 4 and made["total"] == 5 + 4 + 5 + 4


def test_help_is_asked_only_for_ones_own_character_and_of_others() -> None:
    table = Table()
    with pytest.raises(NotYourMove):
        table.send(BOB, "ask_help", combatant="c1", helpers=["c2"])
    with pytest.raises(RuleError):
        table.send(ANN, "ask_help", combatant="c1", helpers=["c1"])
    with pytest.raises(RuleError):
        table.send(ANN, "ask_help", combatant="c1", helpers=[])


def test_the_gm_sees_the_request_with_a_button_to_approve_it() -> None:
    table = Table()
    table.send(ANN, "ask_help", combatant="c1", helpers=["c2"])
    [asked] = view(table.state, Seat("gm"))["help_asked"]
    assert asked["name"] == "Ann" and asked["helpers"] == [{"cid": "c2", "name": "Bob"}]


def test_an_npcs_help_is_the_gms_figure_and_so_are_the_odds_it_makes() -> None:
    """Seeds README: an NPC's sheet is the GM's; "Odds that depend on a secret figure are shown
    to the GM alone". Half the Orc's skill is a figure of its sheet."""
    table = Table(stacked(["C5"]))
    table.seat(orc(npc=True, skills={"stealth": 8}))
    table.send(ANN, "ask_help", combatant="c1", helpers=["c3"])
    table.send(GM, "approve_help", combatant="c1", helpers=["c3"])
    [prepared] = table.send(ANN, "prepare_check", character=ann(quickness=5), skill="stealth",
                            attribute="quickness", complexity="normal")
    seen = audience(prepared)
    assert seen.private_audience == "gm" and seen.private["assistance"] == 4
    assert "assistance" not in {k: v for k, v in prepared.items() if k not in seen.private}
    mine = Seat("player", member=2, controls=frozenset({"c1"}), hidden=frozenset({"c3"}))
    assert view(table.state, mine)["prepared"][0] == {"combatant": "c1", "name": "Ann",
                                                      "complexity_label": "Normal", "hidden": True}
    assert view(table.state, Seat("gm"))["prepared"][0]["assistance"] == 4
    made = of_type(table.send(ANN, "check", combatant="c1", prepared=True, cards=1), "check_made")[0]
    shown = audience(made)
    assert "assistance" in shown.private and made["assistance"] == 4


def test_the_gm_may_refuse_a_request_for_help_and_the_player_may_ask_again() -> None:
    """Seed: assistance is "subject to GM approval": the GM may say no. Refused, the request is
    answered (nothing waits on the GM's panel), no help counts, and the player may ask again."""
    table = Table(stacked(["C5", "C6"]))
    table.seat(bob(skills={"stealth": 8}))
    table.send(ANN, "ask_help", combatant="c1", helpers=["c2"])
    with pytest.raises(NotYourMove):
        table.send(ANN, "refuse_help", combatant="c1")  # the GM's call, not the asker's
    [refused] = table.send(GM, "refuse_help", combatant="c1")
    assert refused["type"] == "help_refused" and audience(refused).audience == "everyone"
    assert table.state["asked"] == {} and table.state["help"] == {}
    assert _check(table)["assistance"] == 0
    with pytest.raises(RuleError):
        table.send(GM, "refuse_help", combatant="c1")  # nothing is waiting now
    table.send(ANN, "ask_help", combatant="c1", helpers=["c2"])
    assert table.state["asked"] == {"c1": ["c2"]}
