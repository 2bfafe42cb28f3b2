"""An NPC's figures are the GM's (issue 21; the decided reading: "an NPC's sheet is the GM's unless
the GM shows it ... Odds that depend on a secret figure are shown to the GM alone"), while
"every die is public" (seed 003): the panel for each seat, and the GM's part of each event.

Reading: an NPC's pool before the roll (how many dice, and why each) is its sheet's figure; once
rolled, how many dice it rolled and each die are everyone's."""

from __future__ import annotations

from typing import Any

from games.contract import GM_PART, Seat, screened
from games.demon_city import ENGINE
from games.demon_city.panel import view
from games.demon_city.state import new_state
from games.demon_city.system import SYSTEM
from tests.unit.demon_city.conftest import ScriptedRng, run

ALFIE = {"id": "alfie", "name": "Alfie", "agility": 2, "toughness": 3, "hand_to_hand": 9, "side": "players"}
DEMON = {"id": "demon", "name": "Demon", "agility": 7, "toughness": 4, "hand_to_hand": 8,
         "skills": {"Gloomfang Bite": 6}, "side": "opponents"}
PLAYER = Seat("player", member=5, controls=frozenset({"alfie"}), hidden=frozenset({"demon"}))


def announced() -> tuple[dict[str, Any], list]:
    state, log = run(new_state(), {"type": "start", "combatants": [ALFIE, DEMON], "npcs": ["demon"]})
    state, more = run(state, {"type": "announce", "combatant": "alfie", "kind": "melee", "target": "demon"})
    log += more
    state, more = run(state, {"type": "announce", "combatant": "demon", "kind": "melee", "target": "alfie"})
    return state, log + more


def test_a_player_s_panel_holds_no_npc_figure_and_no_odds_counted_from_it() -> None:
    state, _ = announced()
    mine = view(state, PLAYER)
    alfie, demon = mine["order"]
    assert demon["agility"] is None and demon["pool"] is None and demon["secret"]
    assert demon["stat_choices"] == mine["stats"]  # the stats' names; none of its skills
    assert all("Gloomfang" not in key for key, _ in mine["against_choices"])
    assert alfie["agility"] == 2 and [d["reason"] for d in alfie["pool"]["dice"] if d["kind"] == "skill"] == [
        "Alfie's Hand-to-Hand 9 > Demon's Hand-to-Hand"]
    (clash,) = mine["clashes"]
    for chance in clash["chances"]:
        assert "win" not in chance and chance["secret"] == "the odds depend on the GM's figures"
    assert "size" not in clash["chances"][1]  # the Demon's pool before the roll
    gm = view(state, Seat("gm"))
    assert gm["order"][1]["agility"] == 7 and gm["order"][1]["pool"]["size"] == 1
    assert all("win" in c for c in gm["clashes"][0]["chances"])
    assert view(state, Seat("player", member=5, controls=frozenset({"alfie"})))["order"][1]["agility"] == 7


def test_once_rolled_the_npc_s_dice_and_their_number_are_everyone_s() -> None:
    state, _ = announced()
    state, events = run(state, {"type": "roll"}, ScriptedRng(rolls=[3, 9, 5] + [1] * 8 + [5]))
    mine = view(state, PLAYER)
    demon = mine["order"][1]
    assert demon["pool"] == {"size": 1, "dice": []} and demon["rolled"] == {"dice": [5], "best": 5}
    clash = next(e for e in events if e["type"] == "clash_rolled")
    seen = screened(clash)
    assert seen.private_audience == "gm" and "rolls" in seen.private
    assert clash["rolled"] == {"alfie": {"dice": [3, 9], "best": 9}, "demon": {"dice": [5], "best": 5}}


def test_each_event_keeps_the_npc_s_figures_in_the_gm_s_part() -> None:
    _, log = announced()
    started, alfie_announced, demon_announced = log
    for event, keys in ((started, {"combatants", "ties", "settled"}), (alfie_announced, {"pool"}),
                        (demon_announced, {"pool"})):
        seen = SYSTEM.visibility(event)
        assert set(seen.private) == keys | {GM_PART} and seen.private_audience == "gm"
    assert SYSTEM.engine.summary(demon_announced, ENGINE.fold([started, alfie_announced, demon_announced])) == \
        "Demon announces close combat at Alfie."
    assert demon_announced[GM_PART]["line"] == "Demon announces close combat at Alfie (1 die)."
    # a fight of player characters alone holds no GM's part
    state, events = run(new_state(), {"type": "start", "combatants": [ALFIE, {**DEMON, "side": "players"}]})
    assert all(GM_PART not in e for e in events) and SYSTEM.visibility(events[0]).private == {}


def test_an_npc_s_action_with_a_skill_of_its_own_names_it_to_the_gm_alone() -> None:
    """Found by the contract kit: the Demon announcing "anything else" with its own skill put the
    skill's name in the public part of the announcement and of its resolution."""
    state, _ = run(new_state(), {"type": "start", "combatants": [ALFIE, DEMON], "npcs": ["demon"]})
    state, _ = run(state, {"type": "announce", "combatant": "alfie", "kind": "other", "stat": "agility"})
    state, events = run(state, {"type": "announce", "combatant": "demon", "kind": "other",
                                "stat": "Gloomfang Bite", "against": "agility"})
    [said] = [e for e in events if e["type"] == "announced"]
    seen = screened(said)
    public = {k: v for k, v in said.items() if k not in seen.private}
    assert "Gloomfang" not in str(public) and "Gloomfang" in str(seen.private)
    state, events = run(state, {"type": "roll"}, ScriptedRng([5, 5, 5, 5, 5, 5]))
    for event in events:
        seen = screened(event)
        assert "Gloomfang" not in str({k: v for k, v in event.items() if k not in seen.private}), event["type"]


def test_a_task_against_an_npc_s_own_skill_names_it_to_the_gm_alone() -> None:
    """Found by the contract kit: "Alfie (Toughness 3) against Demon (Zqxv Rending)" reached
    every seat when the GM rolled Alfie's task against a skill of the Demon's own sheet."""
    from games.demon_city.audiences import secret_task, task_visibility

    data = {"kind": "opposed", "name": "Alfie", "stat": "toughness", "rating": 3, "other": "Demon",
            "other_stat": "Gloomfang Bite", "other_rating": 6,
            "roll": {"dice": [10], "best": 10, "outcome": "critical"},
            "other_roll": {"dice": [7], "best": 7, "outcome": "success"}}
    shown, line = secret_task(data, "the GM's whole line", mine=False, theirs=True)
    seen = task_visibility({**shown, "type": "task_rolled"})
    public = {k: v for k, v in shown.items() if k not in seen.private}
    assert "Gloomfang" not in line and "Gloomfang" not in str(public) and "a skill of its own" in line
    assert seen.private["other_stat"] == "Gloomfang Bite" and seen.private_summary == "the GM's whole line"
    assert public["rolled"]["other_roll"]["dice"] == [7]  # every die is public
