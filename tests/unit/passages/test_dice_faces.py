"""Issue 23, "Dice as dice": every d100 roll on the Passages panel is drawn as the table throws
it, two d10s (tens and units: games/core/dice.py ``faces``), an NPC's too (every roll is made in
the open); a practice rolls nothing and shows no die."""

from __future__ import annotations

from games.passages.panel import panel
from tests.unit.passages.helpers import GARBO, TRAYER, Scene, persona


def labels(die: dict) -> list[str]:
    return [f["label"] for f in die["faces"]]


def test_a_combat_roll_is_two_d10s_tens_and_units(scene: Scene) -> None:
    """Seed: "Use percentile dice to roll against the skill"; Turn One: "The Die roll is a 42"."""
    scene.fight(TRAYER, {**GARBO, "npc": True})
    scene.attack("c1", "c2")
    scene.attack("c2", "c1")
    scene.roll("c1", 42)
    for hidden in (frozenset(), frozenset({"c2"})):
        [trayer, garbo] = panel(scene.state, hidden)["combat"]["rows"]
        assert trayer["die"]["value"] == 42 and labels(trayer["die"]) == ["40", "2"]
        assert [f["part"] for f in trayer["die"]["faces"]] == ["tens", "units"]
        assert all(f["sides"] == 10 and f["kept"] for f in trayer["die"]["faces"])
        assert garbo["die"] is None  # not rolled yet


def test_a_contest_roll_and_a_check_are_drawn_and_100_reads_double_ought(scene: Scene) -> None:
    """Seed: "a roll of double-ought(100%) would be a Critical Failure"."""
    scene.contest(persona("c1", "Ann"), persona("c2", "Bob"), persona("c3", "Cal"))
    scene.contest_roll("c1", "Stealth", 100)
    view = panel(scene.state, frozenset({"c1"}))  # Ann's sheet behind the screen: her roll is open
    [ann, _, _] = view["contest"]["parties"]
    assert labels(ann["rolled"]["die"]) == ["00", "0"] and ann["rolled"]["die"]["value"] == 100
    scene.send({"type": "contest_break_off", "combatant": "c3"})  # Cal checks beside the contest
    scene.send({"type": "check", "combatant": "c3", "skill": "Tracking"}, 7)
    assert labels(panel(scene.state)["checks"][0]["die"]) == ["00", "7"]


def test_a_practice_shows_no_die(scene: Scene) -> None:
    """Seed: "There is no need to roll dice; you just do it." """
    scene.contest(persona("c1", "Ann"), persona("c2", "Bob"), persona("c3", "Cal"))
    scene.send({"type": "contest_break_off", "combatant": "c3"})
    scene.send({"type": "practice", "combatant": "c3", "skill": "Brawl"})
    assert panel(scene.state)["checks"][0]["die"] is None
