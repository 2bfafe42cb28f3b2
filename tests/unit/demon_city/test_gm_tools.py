"""The Host's tools during Action Rounds: newcomers, corrections, tables, difficulties."""

from __future__ import annotations

import copy
import random

import pytest

from games.core.engine import RuleError
from games.demon_city.state import current_pools, next_announcer

GM = {"is_gm": True}


def test_every_collected_die_is_shown_with_its_reason(fight):
    """Seed, step 2: "Figure out how many dice this character has for their action" --
    issue 4: "collected automatically and shown with the reason for each die"."""
    f = fight([{"id": "a", "agility": 1, "current_toughness": 2},
               {"id": "b", "agility": 6, "firearms": 8, "side": "x"}])
    f.send({"type": "set_condition", "combatant": "a", "field": "injured", "value": True})
    f.announce("a", "defend")
    f.announce("b", "shoot", "a")
    for event in (e for e in f.log if e["type"] == "announced"):
        assert event["pool"]["dice"], "a pool is never empty"
        assert all(d["reason"].strip() for d in event["pool"]["dice"])
    reasons = {d.kind: d.reason for d in current_pools(f.state)["b"].dice}
    assert "Firearms 8" in reasons["skill"] and "Agility 1" in reasons["skill"]
    assert "injured" in {d.kind: d.reason for d in current_pools(f.state)["a"].dice}["lost_injury"]


def test_situation_dice_can_go_to_both_sides_of_a_clash(fight):
    """Seed: "More than one of the entities involved in the Clash can get this Situation
    die."."""
    f = fight([{"id": "a", "agility": 1}, {"id": "b", "agility": 2, "side": "x"}])
    f.announce("a", "melee", "b")
    f.announce("b", "melee", "a")
    for who, why in (("a", "high ground"), ("b", "longer reach")):
        f.send({"type": "adjust_pool", "combatant": who, "die": "situation", "reason": why})
    pools = current_pools(f.state)
    assert pools["a"].count("situation") == pools["b"].count("situation") == 1


def test_a_car_chase_compares_the_skills_the_host_names(fight):
    """Seed: "A car chase can be, though, because cars can cut each other off" -- an
    'other' action names its stat and the stat it targets; the higher gets the Skill Die."""
    f = fight([{"id": "cop", "agility": 3, "skills": {"driving": 7}},
               {"id": "crook", "agility": 4, "side": "x", "skills": {"driving": 5}}])
    with pytest.raises(RuleError, match="flying"):
        f.decide({"type": "announce", "actor": GM, "combatant": "cop", "kind": "other",
                  "stat": "flying"}, random.Random(0))
    f.announce("cop", "other", "crook", stat="driving", against="driving",
               description="run him off the road")
    f.announce("crook", "other", "cop", stat="driving", against="driving")
    pools = current_pools(f.state)
    assert pools["cop"].count("skill") == 1 and pools["crook"].count("skill") == 0


def test_newcomers_join_in_agility_order_and_ties_are_placed_at_random(fight):
    """Seed: "(Ties are decided randomly)" -- also for someone who arrives mid-fight."""
    cast = [{"id": "a", "agility": 2}, {"id": "b", "agility": 5}]
    places = set()
    for seed in range(30):
        f = fight(cast)
        f.send({"type": "add_combatant", "combatant": {"id": "new", "agility": 2}},
               random.Random(seed))
        order = f.state["order"]
        assert order[-1] == "b" and set(order) == {"a", "b", "new"}
        places.add(order.index("new"))
    assert places == {0, 1}
    f = fight(cast)
    f.send({"type": "add_combatant", "combatant": {"id": "slowest", "agility": 0}})
    assert next_announcer(f.state) == "slowest"


def test_a_corrected_agility_moves_one_entity_and_keeps_decided_ties(fight, scripted):
    """Seed: "Resolve ties ... at the beginning of the game": a correction moves one entity
    (to a random place among new equals) but never redraws a tie already decided."""
    f = fight([{"id": "x", "agility": 3}, {"id": "y", "agility": 3}, {"id": "z", "agility": 5}],
              scripted(shuffles=[["y", "x"]]))
    assert f.state["order"] == ["y", "x", "z"]
    f.send({"type": "set_condition", "combatant": "z", "field": "agility", "value": 1})
    assert f.state["order"] == ["z", "y", "x"]
    f.send({"type": "set_condition", "combatant": "z", "field": "agility", "value": 3},
           scripted([1]))  # between y and x
    assert f.state["order"] == ["y", "z", "x"]
    f.send({"type": "set_condition", "combatant": "y", "field": "injured", "value": True})
    assert f.state["order"] == ["y", "z", "x"]  # no Agility change, no move


def test_the_host_can_replace_the_injury_table(fight, scripted, pick):
    """Issue 4: the Injury table is "GM-editable"."""
    f = fight([{"id": "a", "agility": 1, "toughness": 0}, {"id": "b", "agility": 2, "side": "x"}])
    table = [{"low": 1, "high": 10, "result": "Eaten", "dead": True, "conclusive": True,
              "description": "The Crysoloth feeds."}]
    f.send({"type": "set_injury_table", "table": table})
    f.announce("a", "defend")
    f.announce("b", "melee", "a")
    events = f.roll(scripted([2, 1, 9, 3, 5, 4]))
    (injury,) = pick(events, "injury_rolled")
    assert injury["entry"]["result"] == "Eaten" and f.person("a")["dead"]
    before = copy.deepcopy(f.state)
    with pytest.raises(RuleError):
        f.decide({"type": "set_injury_table", "actor": GM, "table": table[:0]}, random.Random(0))
    assert f.state == before


def test_difficulties_are_only_for_unresisted_actions(fight):
    """Seed, step 4 resolves unresisted actions "using the Task rules above if necessary";
    a Clash is decided by the Clash."""
    f = fight([{"id": "a", "agility": 1}, {"id": "b", "agility": 2, "side": "x"},
               {"id": "c", "agility": 3}])
    f.announce("a", "melee", "b")
    with pytest.raises(RuleError, match="once everyone has announced"):
        f.decide({"type": "set_difficulty", "actor": GM, "combatant": "c",
                  "target_number": 4}, random.Random(0))
    f.announce("b", "melee", "a")
    f.announce("c", "other", description="climb the fire escape")
    with pytest.raises(RuleError, match="Clash"):
        f.decide({"type": "set_difficulty", "actor": GM, "combatant": "a",
                  "target_number": 4}, random.Random(0))
    f.send({"type": "set_difficulty", "combatant": "c", "target_number": 4})
    assert f.state["difficulties"] == {"c": {"target_number": 4, "stat": "agility"}}


def test_only_the_host_allows_extra_targets_and_only_before_announcing(fight):
    """Seed: exceptions to one target "will be noted" -- by the Host."""
    f = fight([{"id": "a", "agility": 1}, {"id": "b", "agility": 2}, {"id": "c", "agility": 3}])
    allow = {"type": "allow_extra_targets", "combatant": "a"}
    with pytest.raises(RuleError, match="Only the GM can allow more than one target"):  # the core's check
        f.decide({**allow, "actor": {"controls": ["a"]}}, random.Random(0))
    f.announce("a", "defend")
    with pytest.raises(RuleError, match="already announced"):
        f.decide({**allow, "actor": GM}, random.Random(0))
