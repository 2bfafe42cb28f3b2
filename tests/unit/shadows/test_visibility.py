"""What each seat sees: hands, the GM's guide and criticals, NPC sheets; summaries; replay."""

from __future__ import annotations

from games.contract import Seat

import copy
import json

from games.core.engine import Turn
from games.shadows.audiences import audience
from games.shadows.narrate import summary
from games.shadows.panel import hand_of, view
from games.shadows.system import ENGINE
from tests.support.engine import member
from tests.unit.shadows.kit import ANN, ANN_MEMBER, BOB_MEMBER, GM, GM_MEMBER, Table, ann, bob, of_type, orc, stacked, t

HANDS = ["S12", "C3", "P10", "W1", "S5", "C11", "P2", "S14", "C12", "P6", "W9", "S3", "C4", "P8", "W2", "S7"]


def fought() -> Table:
    table = Table(stacked(HANDS + ["W3", "W4", "W12", "C6"], majors=["M16"]))  # H2, then the chain
    table.fight(ann(), orc(vulnerabilities="silver", health=30))
    table.send(ANN, "attack", combatant="c1", target="c3", weapon="Sword", cards=[t("S12")], skill="melee")
    table.send(GM, "defend", combatant="c3", cards=[])
    return table


def test_a_dealt_hand_is_private_to_its_player_and_the_gm() -> None:
    table = fought()
    dealt = of_type(table.log, "hand_dealt")
    for event in dealt:
        seen = audience(event)
        assert seen.private == {"cards": event["cards"]} and seen.owner == event["combatant"]
        # read by the hand's player and by the GM, so it names whose hand it is
        assert seen.private_summary.startswith(f"{event['name']} is dealt ")
        assert "tarot:" not in summary(event, table.state)


def test_hand_of_gives_each_member_the_hands_they_hold() -> None:
    table = fought()
    assert [h["combatant"] for h in hand_of(table.state, ANN_MEMBER)] == ["c1"]
    assert [h["combatant"] for h in hand_of(table.state, GM_MEMBER)] == ["c3"]
    assert hand_of(table.state, BOB_MEMBER) == []
    assert hand_of(table.state, None) == []


def test_a_major_criticals_effect_is_the_gms_until_announced() -> None:
    """Seed: "I will not be posting the "Critical Tables" that I will be using, so that the
    critical results will be more of a surprise to the players"."""
    table = fought()
    [resolved] = of_type(table.log, "attack_resolved")
    seen = audience(resolved)
    assert seen.private_audience == "gm" and seen.private["criticals"][0]["card"] == t("C6")
    effect = seen.private["criticals"][0]["effect"]
    assert effect not in summary(resolved, table.state)
    for lens in ("player", "spectator"):
        panel = json.dumps(view(table.state, Seat(lens)))
        assert effect not in panel and "criticals_text" not in panel
    assert effect in json.dumps(view(table.state, Seat("gm")))
    table.send(GM, "announce_critical")
    assert effect in json.dumps(view(table.state, Seat("spectator")))


def test_a_fumbles_guide_is_the_gms_until_shown() -> None:
    table = Table(stacked(["C1"], majors=["M18"]))
    table.send(GM, "check", character=ann(), skill="", attribute="mind", complexity="normal", cards=1)
    [guide] = of_type(table.log, "guide_drawn")
    seen = audience(guide)
    assert seen.private == {"card": t("M18")} and seen.private_audience == "gm"
    assert "Moon" not in summary(guide, table.state)
    assert "card" not in view(table.state, Seat("player"))["guides"][0]
    assert view(table.state, Seat("gm"))["guides"][0]["card"]["name"] == "The Moon"
    table.send(GM, "show_guide")
    assert view(table.state, Seat("player"))["guides"][0]["card"]["name"] == "The Moon"


def test_npc_sheets_and_tracks_are_the_gms() -> None:
    """A seat whose ``hidden`` names the Orc (the table keeps NPC sheets behind the screen)
    gets none of its tracks; a seat that may see its sheet does."""
    table = fought()
    started = of_type(table.log, "combat_started")[0]
    assert set(audience(started).private) == {"combatants"}
    rows = {r["id"]: r for r in view(table.state, Seat("player", hidden=frozenset({"c3"})))["combat"]["combatants"]}
    assert "tracks" in rows["c1"] and "tracks" not in rows["c3"]
    shown = {r["id"]: r for r in view(table.state, Seat("player"))["combat"]["combatants"]}
    assert "tracks" in shown["c3"]
    gm_rows = {r["id"]: r for r in view(table.state, Seat("gm"))["combat"]["combatants"]}
    assert "tracks" in gm_rows["c3"]
    ended = table.send(GM, "end_combat")[0]
    assert set(audience(ended).private) == {"tracks", "whole"}


def test_every_summary_is_plain_words() -> None:
    table = fought()
    table.send(GM, "announce_critical")
    for event in table.log:
        line = summary(event, table.state)
        assert line and "None" not in line and "{" not in line and "tarot:" not in line


def test_replaying_the_log_rebuilds_the_state() -> None:
    table = fought()
    assert ENGINE.fold(table.log) == table.state


def test_decide_leaves_the_state_alone() -> None:
    table = Table(stacked(HANDS))
    table.fight(ann(), bob())
    before = copy.deepcopy(table.state)
    turn = Turn(member=member(ANN), characters=table.characters, rng=table.rng, cards=table.cards)
    ENGINE.decide(table.state, "attack", {"combatant": "c1", "target": "c2", "weapon": "Sword",
                                          "cards": [t("S12")]}, turn)
    assert table.state == before
