"""A fight's edges (issue 33): who is out, targets, the end of a fight, Injury results that stay
final, and ties in Agility kept until the Host settles them again.

Seed 003: "At Current Toughness -1 they are out of the fight and roll on the Injury table"; step 8:
"Anyone who is present, out of the fight, still alive, and who needs to roll on the Injury table
because their last roll wasn't conclusive does"; step 9: "If characters are still involved in
Action after all that, start over at 1 above"; step 1: "Ties are decided randomly" and "Resolve
ties between player at the beginning of the game to make life simple."
"""

from __future__ import annotations

import copy

import pytest

from games.core.engine import RuleError
from games.demon_city.edges import roster
from games.demon_city.panel import panel
from games.demon_city.task import task
from tests.unit.demon_city.conftest import GM, ScriptedRng

# Kemp and Ann tie in Agility (3) and in Toughness (3): one die each in a Clash, three damage dice
CAST = [{"id": "kemp", "name": "Kemp", "agility": 3, "toughness": 3, "side": "orderlies"},
        {"id": "ann", "name": "Ann", "agility": 3, "toughness": 3, "side": "players"},
        {"id": "lutz", "name": "Lutz", "agility": 5, "toughness": 3, "side": "orderlies"},
        {"id": "bob", "name": "Bob", "agility": 6, "toughness": 3, "side": "players"}]


def kemp_goes_down(fight, injury_die: int):
    """Round 1: Kemp and Ann trade punches, Ann rolls 9 to his 2 and her three damage dice are
    all 9: Kemp at -6, out of the fight, and his Injury die is ``injury_die``."""
    f = fight(CAST)
    assert f.state["order"] == ["kemp", "ann", "lutz", "bob"]
    f.announce("kemp", "melee", "ann")
    f.announce("ann", "melee", "kemp")
    f.announce("lutz", "defend")
    f.announce("bob", "defend")
    f.roll(ScriptedRng([2, 9, 9, 9, 9, injury_die]))
    assert f.person("kemp")["out_of_fight"] and f.person("kemp")["current_toughness"] == -6
    return f


def test_the_roster_says_sides_and_who_is_out(fight) -> None:
    f = kemp_goes_down(fight, 4)
    rows = {r.cid: r for r in roster(f.state)}
    assert [r.side for r in roster(f.state)] == ["orderlies", "players", "orderlies", "players"]
    assert rows["kemp"].out and rows["kemp"].why == "out of the fight" and not rows["lutz"].out
    f.send({"type": "end"})
    assert roster(f.state) == []  # no fight under way


def test_a_move_against_one_who_is_out_is_refused_and_changes_nothing(fight) -> None:
    """The decided reading "All systems, fights": "the out are not targets of a rule move"."""
    f = kemp_goes_down(fight, 4)
    f.send({"type": "next_round"})
    before = copy.deepcopy(f.state)
    for kind in ("melee", "grab", "shoot", "other"):
        with pytest.raises(RuleError, match="Kemp is out of the fight and cannot be targeted"):
            f.send({"type": "announce", "actor": GM, "combatant": "ann", "kind": kind, "target": "kemp"})
    assert f.state == before
    # the panel's target lists leave him out and start on a standing foe
    ann = next(e for e in panel(f.state)["order"] if e["id"] == "ann")
    assert [t["id"] for t in ann["targets"]] == ["lutz", "bob"] and ann["target_default"] == "lutz"


@pytest.mark.parametrize(("first", "result", "again"), [(4, "Broken", None), (2, "Bleeding out", 7)])
def test_step_8_rolls_again_only_a_result_that_was_not_conclusive(fight, first, result, again) -> None:
    """Seed, step 8: "who needs to roll on the Injury table because their last roll wasn't
    conclusive does": "Broken" stays; "Bleeding out" is rolled again next round."""
    f = kemp_goes_down(fight, first)
    assert f.person("kemp")["injury"] == result
    f.send({"type": "next_round"})
    for who in ("ann", "lutz", "bob"):
        f.announce(who, "defend")
    events = f.roll(ScriptedRng([] if again is None else [again]))
    rolled = [e for e in events if e["type"] == "injury_rolled"]
    assert [e["die"] for e in rolled] == ([] if again is None else [again])
    assert f.person("kemp")["injury"] == (result if again is None else "Knocked out")


def test_a_hit_never_reaches_one_taken_out_after_the_announcement(fight) -> None:
    """The Host takes Lutz out after Ann announced at him: her action rolls no damage and no
    Injury die on one who is out."""
    f = kemp_goes_down(fight, 4)
    f.send({"type": "next_round"})
    f.announce("ann", "melee", "lutz")
    f.announce("lutz", "melee", "ann")
    f.announce("bob", "defend")
    f.send({"type": "set_condition", "combatant": "lutz", "field": "out_of_fight", "value": True})
    events = f.roll(ScriptedRng([]))  # Lutz can no longer act: Ann's action is unresisted
    assert [e["combatant"] for e in events if e["type"] == "unresisted_resolved"] == ["ann", "bob"]
    assert not [e for e in events if e["type"] in ("damage_rolled", "injury_rolled")]


def test_a_fight_over_starts_no_round_and_its_end_restores_what_belongs_to_it(fight) -> None:
    """Step 9: a new round only "If characters are still involved in Action"; the decided reading
    "003, damage belongs to the fight": "Current Toughness returns to Base for everyone not out
    of it; "out of the fight" ends with the fight for the living. Who went out keeps the Injury
    result they rolled"."""
    f = kemp_goes_down(fight, 4)
    f.send({"type": "set_condition", "combatant": "bob", "field": "current_toughness", "value": 1})
    f.send({"type": "set_condition", "combatant": "lutz", "field": "out_of_fight", "value": True})
    before = copy.deepcopy(f.state)
    with pytest.raises(RuleError, match="The fight is over: the players' side stands: end the fight"):
        f.send({"type": "next_round"})
    assert f.state == before
    [ended] = f.send({"type": "end"})
    assert (ended["restored"], ended["back"]) == (["bob"], ["kemp", "lutz"])
    bob, kemp, lutz = f.person("bob"), f.person("kemp"), f.person("lutz")
    assert (bob["current_toughness"], bob["injured"]) == (3, False)
    assert (kemp["out_of_fight"], kemp["current_toughness"], kemp["injury"]) == (False, -6, "Broken")
    assert not lutz["out_of_fight"]


def test_a_dead_combatant_stays_out_when_the_fight_ends(fight) -> None:
    f = kemp_goes_down(fight, 1)  # "Killed"
    assert f.person("kemp")["dead"]
    [ended] = f.send({"type": "end"})
    assert "kemp" not in ended["back"] and f.person("kemp")["out_of_fight"]


def test_agility_ties_are_settled_once_and_kept_until_the_host_settles_them_again(fight) -> None:
    """Seed: "write down player characters' names in ascending order of Agility, so you can do
    this the same every time. Resolve ties between player at the beginning of the game"."""
    cast = [{"id": "x", "agility": 3}, {"id": "y", "agility": 3}, {"id": "z", "agility": 5}]
    f = fight(cast, ScriptedRng(shuffles=[["y", "x"]]))
    assert f.state["order"] == ["y", "x", "z"]
    f.send({"type": "end"})
    unused = ScriptedRng(shuffles=[["x", "y"]])
    f.send({"type": "start", "combatants": cast}, unused)
    assert f.state["order"] == ["y", "x", "z"] and unused.shuffles  # kept: no new draw
    # a newcomer who ties is placed at random once, then kept too
    f.send({"type": "add_combatant", "combatant": {"id": "w", "agility": 3}}, ScriptedRng([0]))
    assert f.state["order"] == ["w", "y", "x", "z"]
    f.send({"type": "end"})
    f.send({"type": "start", "combatants": [*cast, {"id": "w", "agility": 3}]}, ScriptedRng())
    assert f.state["order"] == ["w", "y", "x", "z"]
    # the Host settles them again: drawn now, before anyone announces
    [settled] = f.send({"type": "settle_ties"}, ScriptedRng(shuffles=[["x", "w", "y"]]))
    assert f.state["order"] == ["x", "w", "y", "z"] and settled["ties"] == [["x", "w", "y"]]
    f.announce("x", "defend")
    with pytest.raises(RuleError, match="before anyone announces"):
        f.send({"type": "settle_ties"})
    # between fights, settling again means the next fight draws afresh
    f.send({"type": "end"})
    f.send({"type": "settle_ties"})
    f.send({"type": "start", "combatants": cast}, ScriptedRng(shuffles=[["x", "y"]]))
    assert f.state["order"] == ["x", "y", "z"]


def test_a_situation_die_may_go_to_the_opponent_s_side() -> None:
    """Seed: "If a task has some other outside factor introduced that makes it more likely one
    side will win ... then that side gets another d10. This extra die is called the Situation
    Die"."""
    data, line = task({"agility": 4}, name="Ann", stat="agility", rng=ScriptedRng([3, 8, 2]),
                      other={"agility": 4}, other_name="Kemp", other_situation=("a head start",))
    assert [d["kind"] for d in data["other_roll"]["pool"]["dice"]] == ["base", "situation"]
    assert [d["kind"] for d in data["roll"]["pool"]["dice"]] == ["base"]
    assert "Kemp 8, 2 (best 8)" in line and "Ann fails" in line
    with pytest.raises(RuleError, match="no side to give a Situation Die"):
        task({"agility": 4}, name="Ann", stat="agility", rng=ScriptedRng(), target_number=3,
             other_situation=("a head start",))
