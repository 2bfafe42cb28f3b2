"""Issue 13 (Demon City at the table): "A grab never ends: it survives the grabber going out of
the fight, a successful defence, and later rounds; attacks on that target keep targeting
Toughness."

Seed 003: "Once a foe is grabbed, actions generally target a foe's Toughness." A grab lasts
while someone holds it: it ends when the grabber is out of the fight ("At Current Toughness -1
they are out of the fight"), when the grabbed foe breaks free with a successful defence ("Only
defend (dodge, block, parry, run away)"; "If you successfully used a defensive action to dodge,
or block, parry an attack"), or when the Host ends it.
"""

from __future__ import annotations

from games.demon_city.narrate import names_of, summary
from games.demon_city.state import current_pools

WRESTLER = {"id": "wrestler", "name": "Wrestler", "agility": 3, "toughness": 1, "hand_to_hand": 5,
            "side": "thugs"}
RUNNER = {"id": "runner", "name": "Runner", "agility": 4, "toughness": 6, "side": "players"}
THUG = {"id": "thug", "name": "Thug", "agility": 5, "hand_to_hand": 5, "side": "thugs"}


def grabbed_runner(fight, scripted):
    """Round 1: the Wrestler (Hand-to-Hand 5 > Agility 4: two dice) grabs the Runner, who
    only defends (two dice) and loses, 8 against 5; the Thug stands by."""
    f = fight([WRESTLER, RUNNER, THUG])
    f.announce("wrestler", "grab", "runner")
    f.announce("runner", "defend")
    f.announce("thug", "defend")
    f.roll(scripted([8, 2, 5, 3]))
    assert f.person("runner")["grabbed"] and f.person("runner")["grabbed_by"] == ["wrestler"]
    f.send({"type": "next_round"})
    return f


def thug_skill_die_on_runner(f) -> int:
    """Thug's Hand-to-Hand 5 earns a Skill Die against the Runner's Agility 4, never against
    a held Runner's Toughness 6."""
    return current_pools(f.state)["thug"].count("skill")


def test_a_grab_lasts_while_it_is_held(fight, scripted):
    f = grabbed_runner(fight, scripted)
    f.announce("wrestler", "melee", "runner")
    f.announce("runner", "defend")
    f.announce("thug", "defend")
    f.roll(scripted([9, 4, 2, 3, 2, 5, 6, 7, 8]))  # the Wrestler hits; six damage dice
    f.send({"type": "next_round"})
    assert f.person("runner")["grabbed"]
    f.announce("wrestler", "defend")
    f.announce("runner", "defend")
    f.announce("thug", "melee", "runner")
    assert thug_skill_die_on_runner(f) == 0  # "target a foe's Toughness"


def test_the_grab_ends_when_the_grabber_is_out_of_the_fight(fight, scripted, pick):
    f = grabbed_runner(fight, scripted)
    f.announce("wrestler", "melee", "runner")  # 5 is not > Toughness 6: one die
    f.announce("runner", "melee", "wrestler")  # Toughness 6 > Hand-to-Hand 5: two dice
    f.announce("thug", "defend")
    events = f.roll(scripted([2, 9, 1, 5, 8]))  # Runner acts; 1 damage die: 1 - 5 = -4; Injury 8
    (ended,) = pick(events, "grab_ended")
    assert summary(ended, names_of(f.state)) == "Wrestler is out of the fight and lets go of Runner."
    assert not f.person("runner")["grabbed"] and f.person("runner")["grabbed_by"] == []
    f.send({"type": "next_round"})
    f.announce("runner", "defend")
    f.announce("thug", "melee", "runner")
    assert thug_skill_die_on_runner(f) == 1  # Agility 4 again, not Toughness


def test_a_successful_defence_breaks_free(fight, scripted, pick):
    f = grabbed_runner(fight, scripted)
    f.announce("wrestler", "melee", "runner")  # one die against Toughness 6
    f.announce("runner", "defend")  # Defense Die: two dice
    f.announce("thug", "defend")
    events = f.roll(scripted([3, 7, 2]))
    assert [e["type"] for e in events if e["type"] in ("defended", "grab_ended")] == [
        "defended", "grab_ended"]
    (ended,) = pick(events, "grab_ended")
    assert summary(ended, names_of(f.state)) == "Runner breaks free of Wrestler."
    assert not f.person("runner")["grabbed"]
    f.send({"type": "next_round"})
    f.announce("wrestler", "defend")
    f.announce("runner", "defend")
    f.announce("thug", "melee", "runner")
    assert thug_skill_die_on_runner(f) == 1


def test_a_defence_nobody_opposes_gets_away(fight, scripted):
    """Seed, step 4: "nobody named him as a target and he has no target ... so Hyder gets
    away": a held foe whose defence is unresisted is free."""
    f = grabbed_runner(fight, scripted)
    f.announce("wrestler", "defend")
    f.announce("runner", "defend")
    f.announce("thug", "defend")
    f.roll(scripted([]))
    assert not f.person("runner")["grabbed"]


def test_a_lost_defence_does_not_break_free(fight, scripted):
    f = grabbed_runner(fight, scripted)
    f.announce("wrestler", "grab", "runner")
    f.announce("runner", "defend")
    f.announce("thug", "defend")
    f.roll(scripted([9, 4, 2]))
    assert f.person("runner")["grabbed"] and f.person("runner")["grabbed_by"] == ["wrestler"]


def test_the_host_ends_a_grab(fight, scripted):
    f = grabbed_runner(fight, scripted)
    (ended,) = f.send({"type": "set_condition", "combatant": "runner", "field": "grabbed",
                       "value": False})
    assert ended["type"] == "grab_ended"
    assert summary(ended, names_of(f.state)) == "The Host ends the grab on Runner."
    assert not f.person("runner")["grabbed"] and f.person("runner")["grabbed_by"] == []
    f.announce("wrestler", "defend")
    f.announce("runner", "defend")
    f.announce("thug", "melee", "runner")
    assert thug_skill_die_on_runner(f) == 1


def test_the_host_taking_the_grabber_out_ends_its_grab(fight, scripted):
    f = grabbed_runner(fight, scripted)
    events = f.send({"type": "set_condition", "combatant": "wrestler", "field": "out_of_fight",
                     "value": True})
    assert [e["type"] for e in events] == ["condition_set", "grab_ended"]
    assert not f.person("runner")["grabbed"]
    assert summary(events[0], names_of(f.state)) == "The Host marks Wrestler out of the fight."


def test_a_grab_two_hold_lasts_until_both_let_go(fight, scripted):
    f = grabbed_runner(fight, scripted)
    f.announce("wrestler", "defend")
    f.announce("runner", "melee", "thug")  # Toughness 6 > Hand-to-Hand 5: two dice
    f.announce("thug", "grab", "runner")  # 5 is not > the held Runner's Toughness 6: one die
    f.roll(scripted([3, 2, 8]))  # the Thug rolls highest and grabs too
    assert f.person("runner")["grabbed_by"] == ["wrestler", "thug"]
    f.send({"type": "set_condition", "combatant": "wrestler", "field": "out_of_fight", "value": True})
    assert f.person("runner")["grabbed"] and f.person("runner")["grabbed_by"] == ["thug"]
