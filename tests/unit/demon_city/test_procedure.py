"""The Action Rounds state machine: turns, permissions, corrections, undo, replay."""

from __future__ import annotations

import copy
import json
import random

import pytest

from games.core.engine import RuleError
from games.demon_city import ENGINE
from games.demon_city.state import current_pools, next_announcer, ready_to_roll
from tests.support.engine import Play

GM = {"is_gm": True}
TRIO = [{"id": "slow", "agility": 1}, {"id": "mid", "agility": 4, "side": "x"},
        {"id": "fast", "agility": 7}]


def refused(f, command, rng=None) -> str:
    """Send a command that must be refused; check it changed nothing; return the message."""
    before = copy.deepcopy(f.state)
    with pytest.raises(RuleError) as caught:
        f.decide({"actor": GM, **command}, rng or random.Random(0))
    assert f.state == before
    return str(caught.value)


def test_slowest_announces_first_then_ascending_agility(fight):
    """Seed: "1-Whatever entity involved has the lowest Agility ... announces what they plan
    to do" and "3-Second-least Agile creature announces next ... then the third-least
    Agile, etc. until they're all announced."."""
    f = fight([TRIO[2], TRIO[0], TRIO[1]])
    assert f.state["order"] == ["slow", "mid", "fast"]
    seen = []
    while (who := next_announcer(f.state)) is not None:
        seen.append(who)
        f.announce(who, "defend")
    assert seen == ["slow", "mid", "fast"]
    assert ready_to_roll(f.state)


def test_nobody_announces_before_their_turn(fight):
    """Seed: the faster "get time to decide what to do" (comment) -- so nobody may announce
    early."""
    f = fight(TRIO)
    message = refused(f, {"type": "announce", "combatant": "fast", "kind": "defend"})
    assert "not 'fast'" in message and "'slow'" in message


def test_agility_ties_are_decided_once_and_kept_for_the_fight(fight, scripted):
    """Seed: "(Ties are decided randomly)" and "Resolve ties between player at the beginning
    of the game to make life simple."."""
    twins = [{"id": "a", "agility": 3}, {"id": "b", "agility": 3}, {"id": "c", "agility": 1}]
    f = fight(twins, scripted(shuffles=[["b", "a"]]))
    assert f.state["order"] == ["c", "b", "a"]
    assert f.log[0]["ties"] == [["b", "a"]]
    for _ in range(3):  # three rounds: the order never changes, and nobody reshuffles
        for who in ("c", "b", "a"):
            f.announce(who, "defend")
        f.roll(scripted())
        f.send({"type": "next_round"}, scripted())
        assert f.state["order"] == ["c", "b", "a"]


def test_random_tie_order_really_varies_with_the_rng(fight):
    """Ties are decided randomly: different seeds give both orders."""
    orders = {tuple(fight([{"id": "a"}, {"id": "b"}], random.Random(s)).state["order"])
              for s in range(30)}
    assert orders == {("a", "b"), ("b", "a")}


def test_players_announce_only_for_their_own_characters(fight):
    """Issue 4: "a player announces only for their own character ... the GM announces for
    NPCs"."""
    f = fight(TRIO)
    command = {"type": "announce", "combatant": "slow", "kind": "defend"}
    # the core's check of the sender, once, against the move's subject (issue 24)
    assert "only for the characters you control" in refused(f, {**command, "actor": {"controls": ["fast"]}})
    f.announce("slow", "defend", actor={"controls": ["slow"]})
    f.announce("mid", "melee", "slow", actor=GM)  # the GM runs the NPC
    assert [a["actor"] for a in f.state["actions"]] == ["slow", "mid"]


def test_one_target_only_unless_the_host_allows_an_exception(fight):
    """Seed: "(Actions can normally only target one foe at a time--exceptions will be noted
    when we get around to specific abilities and weapons.)"."""
    f = fight(TRIO)
    me = {"controls": ["slow"]}
    two = {"type": "announce", "combatant": "slow", "kind": "shoot", "targets": ["mid", "fast"]}
    assert "one foe at a time" in refused(f, {**two, "actor": me})
    f.send({"type": "allow_extra_targets", "combatant": "slow"})
    f.send({**two, "actor": me})
    assert f.state["actions"][0]["targets"] == ["mid", "fast"]


def test_an_announcement_is_one_decided_action(fight):
    """Seed: "This can't be an if-then, they gotta decide." One kind, fixed targets."""
    f = fight(TRIO)
    assert "Unknown action kind" in refused(
        f, {"type": "announce", "combatant": "slow", "kind": "shoot if he moves"})
    assert "needs a target" in refused(f, {"type": "announce", "combatant": "slow",
                                           "kind": "shoot"})
    assert "own actor" in refused(f, {"type": "announce", "combatant": "slow",
                                      "kind": "melee", "target": "slow"})


def test_host_only_commands_are_refused_to_players(fight):
    """The Host runs the procedure: pools, difficulties, the roll, rounds and undo."""
    f = fight(TRIO)
    player = {"is_gm": False, "controls": ["slow"]}
    for command in ({"type": "adjust_pool", "combatant": "slow", "die": "situation",
                     "reason": "high ground"},
                    {"type": "roll"}, {"type": "next_round"}, {"type": "end"},
                    {"type": "undo"}, {"type": "set_condition", "combatant": "slow",
                                       "field": "injured", "value": True}):
        assert "Only the GM can" in refused(f, {**command, "actor": player})  # the core's check


def test_the_roll_waits_for_every_announcement(fight):
    """Seed, step 5 comes after "until they're all announced"."""
    f = fight(TRIO)
    f.announce("slow", "defend")
    assert "'mid' has not announced" in refused(f, {"type": "roll"})


def test_host_corrects_a_pool_within_the_caps_before_the_roll(fight):
    """Seed: "Max 2 Situation Dice (for misc advantages incl. superior weapon & successful
    defense last round)" and "Miscellaneous Lost Dice (max 2)"; e.g. "if two characters
    are fighting under a twin bed, the combatant attacking with a knife or claws will get a
    Situation Die against a target using a longsword"."""
    f = fight(TRIO)
    f.announce("slow", "melee", "mid")
    grant = {"type": "adjust_pool", "combatant": "slow", "die": "situation"}
    f.send({**grant, "reason": "high ground"})
    f.send({**grant, "reason": "knife under the bed"})
    assert current_pools(f.state)["slow"].count("situation") == 2
    assert "most situation dice" in refused(f, {**grant, "reason": "third"})
    f.send({**grant, "change": "remove", "reason": "high ground"})
    assert [d.reason for d in current_pools(f.state)["slow"].dice
            if d.kind == "situation"] == ["knife under the bed"]
    lost = {"type": "adjust_pool", "combatant": "slow", "die": "lost"}
    f.send({**lost, "reason": "smoke"})
    f.send({**lost, "reason": "slippery roof"})
    assert "most lost dice" in refused(f, {**lost, "reason": "dark"})
    assert current_pools(f.state)["slow"].size == 1
    assert "why" in refused(f, {**grant, "reason": " "})


def test_successful_defence_earns_a_situation_die_next_round(fight, scripted, pick):
    """Seed: "If you successfully used a defensive action to dodge, or block, parry an
    attack in the previous round, you get a Situation Die in the round after, as you've
    improved your position."."""
    f = fight([{"id": "cece", "agility": 1}, {"id": "betty", "agility": 5, "side": "x"}])
    f.announce("cece", "defend")
    f.announce("betty", "shoot", "cece")
    events = f.roll(scripted([9, 2, 4, 3]))
    assert [e["combatant"] for e in pick(events, "defended")] == ["cece"]
    f.send({"type": "next_round"})
    f.announce("cece", "melee", "betty")
    reasons = [d.reason for d in current_pools(f.state)["cece"].dice if d.kind == "situation"]
    assert reasons == ["successful defence last round"]
    # It counts towards the cap of two.
    f.send({"type": "adjust_pool", "combatant": "cece", "die": "situation", "reason": "a"})
    assert "most situation dice" in refused(
        f, {"type": "adjust_pool", "combatant": "cece", "die": "situation", "reason": "b"})


def test_a_hit_costs_the_lost_die_for_injury_from_then_on(fight, scripted):
    """Seed: "Anyone who has taken at least one injury during the fight loses a single die
    (the Lost Die for Injury)"."""
    f = fight([{"id": "a", "agility": 2, "toughness": 5}, {"id": "b", "agility": 3, "side": "x"}])
    f.announce("a", "melee", "b")
    f.announce("b", "melee", "a")
    assert current_pools(f.state)["a"].count("lost_injury") == 0
    # a: Toughness 5 > 3, two dice; b: 3 > 2, two dice; b wins; five damage dice.
    f.roll(scripted([2, 1, 9, 3, 1, 4, 5, 6, 7]))
    assert f.person("a")["injured"] and f.person("a")["current_toughness"] == 4
    f.send({"type": "next_round"})
    f.announce("a", "melee", "b")
    f.announce("b", "defend")
    assert current_pools(f.state)["a"].count("lost_injury") == 1
    assert current_pools(f.state)["a"].size == 1  # base + Skill - injury
    assert current_pools(f.state)["b"].count("lost_injury") == 0


def test_out_of_the_fight_entities_do_not_announce_and_inconclusive_injuries_roll_again(
        fight, scripted, pick):
    """Seed: "8-Anyone who is present, out of the fight, still alive, and who needs to
    roll on the Injury table because their last roll wasn't conclusive does."."""
    f = fight([{"id": "victim", "agility": 1, "toughness": 0},
               {"id": "killer", "agility": 2, "side": "x"}, {"id": "other", "agility": 3}])
    f.announce("victim", "defend")
    f.announce("killer", "melee", "victim")
    f.announce("other", "defend")
    # victim 2 dice (Defense), killer 2 (Toughness 3 > Agility 1); 1 damage die;
    # Injury 2 = "Bleeding out", not conclusive.
    events = f.roll(scripted([3, 1, 8, 2, 4, 2]))
    assert pick(events, "injury_rolled")[0]["entry"]["conclusive"] is False
    assert f.person("victim")["out_of_fight"] and f.person("victim")["injury_pending"]
    f.send({"type": "next_round"})
    assert next_announcer(f.state) == "killer"  # the victim is skipped
    f.announce("killer", "defend")
    f.announce("other", "defend")
    events = f.roll(scripted([7]))  # both unresisted, no dice; step 8 rolls a 7
    (again,) = pick(events, "injury_rolled")
    assert again["combatant"] == "victim" and again["entry"]["conclusive"]
    assert not f.person("victim")["injury_pending"] and not f.person("victim")["dead"]
    f.send({"type": "next_round"})
    f.announce("killer", "defend")
    f.announce("other", "defend")
    assert not pick(f.roll(scripted()), "injury_rolled")  # conclusive: no more rolls


def test_massive_damage_through_the_round(fight, scripted, pick):
    """Seed: "roll one die for each point of the attacker's stat and take the highest"."""
    f = fight([{"id": "demon", "agility": 1, "hand_to_hand": 12, "supernatural": True,
                "side": "hell"}, {"id": "cop", "agility": 2, "toughness": 4, "armour": 2}])
    f.announce("demon", "melee", "cop", massive=True)
    f.announce("cop", "defend")
    dice = [9, 1, 2, 2] + [1] * 11 + [10] + [8]  # 12 Massive dice, then an Injury die
    events = f.roll(scripted(dice))
    (hit,) = pick(events, "damage_rolled")
    assert hit["massive"] and len(hit["dice"]) == 12 and hit["taken"] == 10
    assert f.person("cop")["current_toughness"] == 4 - 10


def test_a_won_grab_makes_the_foe_targeted_on_toughness(fight, scripted):
    """Seed: "Once a foe is grabbed, actions generally target a foe's Toughness."."""
    f = fight([{"id": "wrestler", "agility": 3, "hand_to_hand": 5, "side": "x"},
               {"id": "runner", "agility": 4, "toughness": 6}])
    f.announce("wrestler", "grab", "runner")
    f.announce("runner", "defend")
    f.roll(scripted([8, 2, 5, 3]))
    assert f.person("runner")["grabbed"]
    f.send({"type": "next_round"})
    f.announce("wrestler", "melee", "runner")
    f.announce("runner", "defend")
    assert current_pools(f.state)["wrestler"].count("skill") == 0  # 5 is not > Toughness 6


def test_new_rounds_start_at_one_until_the_host_ends_action_rounds(fight, scripted):
    """Seed: "9-If characters are still involved in Action after all that, start over at 1
    above."."""
    f = fight(TRIO)
    for who in ("slow", "mid", "fast"):
        f.announce(who, "defend")
    assert "'resolved'" in refused(f, {"type": "next_round"})
    f.roll(scripted())
    f.send({"type": "next_round"})
    assert (f.state["round"], f.state["actions"], next_announcer(f.state)) == (2, [], "slow")
    f.send({"type": "end"})
    assert f.state["phase"] == "ended"
    refused(f, {"type": "announce", "combatant": "slow", "kind": "defend"})


def test_undo_restores_the_state_before_the_last_step_and_is_logged(fight, scripted):
    """Issue 4: the GM "can undo the last step (undo recorded as an event)"."""
    f = fight(TRIO)
    f.announce("slow", "melee", "mid")
    f.announce("mid", "melee", "slow")
    f.announce("fast", "defend")
    before_roll = copy.deepcopy(f.state)
    f.roll(scripted([5, 5, 9, 1, 1, 1]))  # slow 1 die, mid 2 (Skill); 3 damage dice
    (undone,) = f.send({"type": "undo"})
    assert undone["type"] == "undone" and undone["undoes_step"] == before_roll["step"] + 1
    strip = lambda s: {k: v for k, v in s.items() if k not in ("step", "undo")}  # noqa: E731
    assert strip(f.state) == strip(before_roll)
    assert f.state["step"] > before_roll["step"]  # step numbers never repeat in a log
    f.send({"type": "undo"})
    assert [a["actor"] for a in f.state["actions"]] == ["slow", "mid"]
    with pytest.raises(RuleError, match="Nothing to undo"):
        Play(ENGINE).send("undo", {})


def test_replaying_the_log_rebuilds_the_state_and_everything_is_json(fight, scripted):
    """The project's rule: "return plain results ... that record every card and die, so a log can be
    replayed and audited"."""
    f = fight([{"id": "a", "agility": 1}, {"id": "b", "agility": 2, "side": "x"}])
    f.announce("a", "melee", "b")
    f.announce("b", "melee", "a")
    f.roll(scripted([6, 3, 9, 2, 5, 4, 8, 6]))  # b wins, a drops to -1, Injury roll
    f.send({"type": "undo"})
    f.roll(scripted([9, 1, 5, 3, 1, 1, 2]))  # the re-roll: a wins, b takes 1
    f.send({"type": "next_round"})
    replayed = ENGINE.fold(json.loads(json.dumps(f.log)))
    assert replayed == f.state
    assert json.loads(json.dumps(f.state)) == f.state
    dice_in_log = [d for e in f.log if e["type"] == "clash_rolled"
                   for r in e["rolls"].values() for d in r["dice"]]
    assert dice_in_log == [6, 3, 9, 2, 9, 1, 5, 3]
    assert replayed["combatants"]["a"]["current_toughness"] == 3  # the undone hit is gone
    assert replayed["combatants"]["b"]["current_toughness"] == 2


def test_refused_commands_change_nothing(fight):
    """Issue 4: "Commands raise a clear exception class ... on anything illegal, changing
    nothing"."""
    f = fight(TRIO)
    for command in ({"type": "fly"}, {"type": "roll", "actor": None},
                    {"type": "announce", "combatant": "ghost", "kind": "defend"},
                    {"type": "set_condition", "combatant": "slow", "field": "agility",
                     "value": 11},
                    {"type": "set_condition", "combatant": "slow", "field": "id", "value": "x"},
                    {"type": "start", "combatants": TRIO}):
        refused(f, command)
