"""Combat turns through the procedure (seed 001, COMBAT): Game State, Declaration, Timing,
pairings, and the Resolution Point with its Fatigue, Downed, Unconscious and recovery."""

from __future__ import annotations

import pytest

from games.core.engine import NotYourMove
from games.passages.errors import BadValue, CannotAct, NotNow
from games.passages.narrate import summary
from tests.unit.passages.helpers import GARBO, TRAYER, Scene, of_type, persona, player

ANN = persona("c1", "Ann", combat_skill="Brawl", defense_skill="Brawl", weapon_damage=4)
BOB = persona("c2", "Bob", combat_skill="Brawl", defense_skill="Brawl", weapon_damage=4)
CAL = persona("c3", "Cal", combat_skill="Brawl", defense_skill="Brawl", weapon_damage=4)


def turn_one(scene: Scene) -> list[dict]:
    scene.fight(TRAYER, GARBO)
    scene.attack("c1", "c2", intent="to wound")
    scene.attack("c2", "c1", intent="to put the hurt on the Swordsman")
    scene.roll("c1", 42)
    scene.roll("c2", 80)
    return scene.resolve()


def test_the_worked_example_turn_one(scene: Scene) -> None:
    """Seed: "At the end of Turn One, Trayer is at 99 Wounds and 94 Fatigue remaining. Garbo is
    slightly worse, at 98 Wounds and 93 Fatigue." (Each blow lands; brigantine halves Garbo's 3
    to 1, the hide takes 1 off Trayer's 3; "both suffer a 'one-tick' reduction in Fatigue".)"""
    events = turn_one(scene)
    assert scene.track("c1") == (99, 94)
    assert scene.track("c2") == (98, 93)
    [point] = of_type(events, "resolution_point")
    rows = {r["combatant"]: r for r in point["rows"]}
    assert (rows["c1"]["damage"], rows["c1"]["action"], rows["c1"]["drain"]) == (1, 5, 0)
    assert (rows["c2"]["damage"], rows["c2"]["action"], rows["c2"]["drain"]) == (2, 5, 0)
    rolls = {e["combatant"]: e for e in of_type(scene.log, "combat_rolled")}
    assert (rolls["c1"]["die"], rolls["c1"]["total"], rolls["c1"]["margin"]) == (42, 60, 35)
    assert (rolls["c2"]["die"], rolls["c2"]["total"], rolls["c2"]["margin"]) == (80, 105, 87)


def test_the_game_state_opens_each_turn(scene: Scene) -> None:
    """Seed: "The Game State is an overview or reminder of every General Conditions of the Scene,
    each Persona's Health, Fatigue, Combat Eligibility and Combat Status"; "the Game State is
    both the end of one and the beginning of the next.\""""
    scene.fight(TRAYER, GARBO, conditions="a duel in the yard")
    [started] = of_type(scene.log, "turn_started")
    assert started["turn"] == 1 and started["conditions"] == "a duel in the yard"
    assert started["game_state"][0] == {"combatant": "c1", "wounds": 100, "fatigue": 100, "untended": 0,
                                        "eligible": True, "downed": False, "unconscious": False,
                                        "status": "", "present": True}
    events = turn_one_after_start(scene)
    [next_turn] = of_type(events, "turn_started")
    assert next_turn["turn"] == 2
    assert [(r["wounds"], r["fatigue"]) for r in next_turn["game_state"]] == [(99, 94), (98, 93)]


def turn_one_after_start(scene: Scene) -> list[dict]:
    return scene.exchange("c1", "c2", 42, 80)


def test_untended_wounds_drain_every_turn_after_the_first(scene: Scene) -> None:
    """Seed: "The primary Consequence of untended wounds is the continued loss of Fatigue Points
    every Turn after the first." / "REMINDER: Each Untended Wound Point costs an additional point
    of Fatigue at the Resolution Point at the end of each Action Phase.\""""
    turn_one(scene)
    scene.out("c1", "lights a torch")
    scene.out("c2", "glowers")
    [point, _] = scene.resolve()
    rows = {r["combatant"]: r for r in point["rows"]}
    assert rows["c1"]["drain"] == 1 and rows["c2"]["drain"] == 2
    # then each regains one box for taking no Combat Action
    assert scene.track("c1") == (99, 94 - 1 + 5)
    assert scene.track("c2") == (98, 93 - 2 + 5)


def test_tending_stops_the_drain(scene: Scene) -> None:
    """Seed: "Wounds must be tended for the individual to regain so Fatigue and Wound Ticks".
    Each tends their own with a Success (Trayer's Campfire 33, Garbo's Two-Hander 25): no drain,
    a tick for the effort."""
    turn_one(scene)
    scene.send({"type": "tend", "combatant": "c1"})
    scene.send({"type": "tend", "combatant": "c2"})
    scene.send({"type": "tend", "combatant": "c1", "skill": "Campfire"}, 20)
    scene.send({"type": "tend", "combatant": "c2", "skill": "Two-Hander"}, 20)
    [point, _] = scene.resolve()
    assert all(r["drain"] == 0 and r["tended"] for r in point["rows"])
    assert scene.person("c1")["untended"] == 0 and scene.track("c1") == (99, 89)


def test_tending_another(scene: Scene) -> None:
    """Seed: "When your Wounds reach zero, you are prone, unconscious, and most likely will break
    the Injunction without the assistance of others": one Persona may tend another's Wounds."""
    scene.fight(persona("c1", "Ann", untended=10, wounds=90), BOB, persona("c3", "Medic"))
    scene.rest("c1")
    scene.rest("c2")
    scene.send({"type": "tend", "combatant": "c3", "patient": "c1"})
    scene.send({"type": "tend", "combatant": "c3", "skill": "Tracking"}, 20)
    [point, _] = scene.resolve()
    assert {r["combatant"]: r["tended"] for r in point["rows"]} == {"c1": 10, "c2": 0, "c3": 0}


def test_each_combat_action_costs_a_tick_and_a_failure_one_more(scene: Scene) -> None:
    """Seed: "any Combat Action causes the loss of at least one 'tick box,' or 5% of Fatigue";
    "Failure will mean an extra point of fatigue, whether the opponent succeeds or not."
    Brawl 30 against Defense 30 always lands, so a -100 Timing makes Bob miss."""
    scene.fight(ANN, BOB)
    scene.attack("c1", "c2")
    scene.attack("c2", "c1")
    scene.send({"type": "timing", "combatant": "c2", "modifier": -100, "reason": "blinded"})
    scene.roll("c1", 10)  # 40 > 30, not above 60: a Potential Wound
    events = scene.roll("c2", 50)  # 50 - 100 + 30 = -20: a miss
    [pairing] = of_type(events, "pairing_resolved")
    assert pairing["outcome"] == "one_succeeds" and pairing["resolves"] == ["c1"]
    assert pairing["fail_ticks"] == {"c1": 0, "c2": 1}
    scene.resolve()
    assert scene.track("c1") == (100, 95)
    assert scene.track("c2") == (96, 100 - 4 - 5 - 5)


def test_both_miss_costs_each_a_tick_at_the_resolution_point(scene: Scene) -> None:
    """Seed: "each suffers a Tick of Fatigue for the effort, which takes effect at the
    Resolution Point.\""""
    scene.fight(ANN, BOB)
    scene.attack("c1", "c2")
    scene.attack("c2", "c1")
    for who in ("c1", "c2"):
        scene.send({"type": "timing", "combatant": who, "modifier": -100})
    scene.roll("c1", 50)
    events = scene.roll("c2", 50)
    assert of_type(events, "pairing_resolved")[0]["outcome"] == "both_miss"
    assert scene.track("c1") == (100, 100), "nothing is taken before the Resolution Point"
    scene.resolve()
    assert scene.track("c1") == (100, 90) and scene.track("c2") == (100, 90)


def test_unequal_successes_wound_only_the_lesser(scene: Scene) -> None:
    """Seed: "the greater will not suffer injury, the lesser will suffer the injury"."""
    scene.fight(ANN, BOB)
    scene.attack("c1", "c2")
    scene.attack("c2", "c1")
    scene.roll("c1", 31)  # 61 > 60: double the Defense
    [_, pairing] = scene.roll("c2", 30)  # 60: a Potential Wound only
    assert pairing["outcome"] == "unequal" and [w["to"] for w in pairing["wounds"]] == ["c2"]
    scene.resolve()
    assert scene.track("c1") == (100, 95) and scene.track("c2") == (96, 91)


def test_recovery_one_box_then_half_then_all(scene: Scene) -> None:
    """Seed: "Personae / Opponents who DID NO Combat ACTION (including those who were 'Downed'
    regains one Fatigue box (5%) at the Resolution Point, Personae or Opponents that DID NO
    Combat ACTION for a subsequent turn recovers HALF of their eligible Fatigue. Personae or
    Opponents that DID NO Combat ACTION for three turns return to FULL eligible Fatigue.\""""
    scene.fight(persona("c1", "Ann", fatigue=40), BOB)
    for expected in (45, 45 + 55 // 2, 100):
        scene.rest("c1")
        scene.rest("c2")
        scene.resolve()
        assert scene.person("c1")["fatigue"] == expected


def test_a_combat_action_breaks_the_run_of_rest(scene: Scene) -> None:
    """Seed: "subsequent rounds of non-exertion releases even more"; "The second round of
    non-exertion regains half ... and a third sequential round regains all": the run is of
    turns in a row, so a Combat Action starts it again at one box."""
    scene.fight(persona("c1", "Ann", fatigue=40, combat_skill="Brawl", weapon_damage=0), BOB)
    scene.rest("c1")
    scene.rest("c2")
    scene.resolve()
    scene.attack("c1", "c2")
    scene.rest("c2")
    scene.roll("c1", 1)
    scene.resolve()
    assert scene.person("c1")["quiet_turns"] == 0
    scene.rest("c1")
    scene.rest("c2")
    scene.resolve()
    assert scene.person("c1")["fatigue"] == 40 + 5 - 5 + 5, "one box again, not half"


def test_untended_wounds_hold_back_recovery(scene: Scene) -> None:
    """Seed: "Wounds must be tended for the individual to regain so Fatigue and Wound Ticks";
    "three rounds return the Persona to available Fatigue levels". Our reading of "available" or
    "eligible" Fatigue: an untended Wound point holds back a Fatigue point."""
    scene.fight(persona("c1", "Ann", wounds=90, untended=10, fatigue=50), BOB)
    for _ in range(3):
        scene.rest("c1")
        scene.rest("c2")
        scene.resolve()
    assert scene.person("c1")["fatigue"] == 90


def test_fatigue_at_zero_is_downed_and_may_only_rest(scene: Scene) -> None:
    """Seed: "Persona whose Fatigue reduces by Damage, Consequences, or Results to zero is
    'Downed' and may only make a Resting Action in the next Turn."""
    scene.fight(persona("c1", "Ann", fatigue=5, combat_skill="Brawl", defense_skill="Brawl", weapon_damage=0), BOB)
    scene.attack("c1", "c2")
    scene.rest("c2")
    scene.roll("c1", 1)
    events = scene.resolve()
    assert scene.person("c1")["downed"] and scene.person("c1")["fatigue"] == 0
    [auto] = of_type(events, "turn_started")[0]["auto"]
    assert auto == {"combatant": "c1", "stance": "out", "action": "rest", "auto": True,
                    "defense_skill": "Brawl", "defense": 30}
    with pytest.raises(CannotAct, match="Downed and may only rest"):
        scene.attack("c1", "c2")
    with pytest.raises(CannotAct, match="may only rest"):
        scene.out("c1", "sneaks away")
    with pytest.raises(CannotAct, match="may only rest"):
        scene.send({"type": "check", "combatant": "c1", "skill": "Stealth"}, 5)
    with pytest.raises(CannotAct, match="may only rest"):
        scene.send({"type": "tend", "combatant": "c1"})
    scene.rest("c1")  # allowed: it is what they must do
    scene.rest("c2")
    scene.resolve()
    assert scene.person("c1")["fatigue"] == 5 and not scene.person("c1")["downed"]


def test_wounds_at_zero_are_unconscious_with_fatigue_zero(scene: Scene) -> None:
    """Seed: "Persona whose Wounds from Damage, Consequences, or Results fall to zero also have
    their Fatigue value also set to zero and are 'Downed' and 'Unconscious.' Such personae cannot
    perform any Actions until revived.\""""
    scene.fight(ANN, persona("c2", "Bob", wounds=3, defense_skill="Brawl"))
    scene.attack("c1", "c2")
    scene.rest("c2")
    scene.roll("c1", 1)
    events = scene.resolve()
    bob = scene.person("c2")
    assert (bob["wounds"], bob["fatigue"], bob["downed"], bob["unconscious"]) == (0, 0, True, True)
    assert of_type(events, "turn_started")[0]["auto"][0]["action"] == "unconscious"
    with pytest.raises(CannotAct, match="Unconscious"):
        scene.rest("c2")
    scene.rest("c1")
    scene.resolve()
    assert scene.person("c2")["fatigue"] == 0, "the Unconscious recover nothing"
    scene.send({"type": "correct", "combatant": "c2", "track": "wounds", "value": 20})
    assert not scene.person("c2")["unconscious"] and scene.person("c2")["downed"]


def test_ranged_weapons_roll_off_only_against_ranged(scene: Scene) -> None:
    """Seed: "NOTE: Range weapons do not create a Combat Sequence unless their Opponent is also
    using Ranged Weapons." An archer and a swordsman each make a lone attack."""
    scene.fight(persona("c1", "Archer", ranged=True, weapon_damage=0), BOB, persona("c3", "Slinger", ranged=True, weapon_damage=0))
    scene.attack("c1", "c2")
    scene.attack("c2", "c1")
    scene.out("c3")
    from games.passages.state import pairings
    assert [p["kind"] for p in pairings(scene.state)] == ["single", "single"]
    scene2 = Scene()
    scene2.fight(persona("c1", "Archer", ranged=True, weapon_damage=0), persona("c3", "Slinger", ranged=True, weapon_damage=0))
    scene2.attack("c1", "c3")
    scene2.attack("c3", "c1")
    assert [p["kind"] for p in pairings(scene2.state)] == ["mutual"]


def test_a_persona_under_attack_uses_non_combat_skills_as_challenges(scene: Scene) -> None:
    """Seed: "A Persona can be attacked (thus the object of COMBAT, without being subject to it.
    In these cases, they can still use non-combat Skills, but any such Action will be a
    CHALLENGE, not a CHECK.\""""
    scene.fight(ANN, BOB)
    scene.out("c2", "picks a lock")
    scene.attack("c1", "c2")
    [checked] = scene.send({"type": "check", "combatant": "c2", "skill": "Stealth"}, 8)
    assert checked["forced"] and checked["check"]["challenge"] and checked["check"]["value"] == 8
    assert checked["check"]["band"] == "success"


def test_timing_and_rolls_follow_the_sequence(scene: Scene) -> None:
    """Seed: "GAME STATE", then "DECLARATION - Each Persona in the Scene declares to be IN, or OUT
    of the combat sequence", then "TIMING - Each conflict pairing resolves in order, with a
    roll-off": no roll before every Persona has declared, no Resolution Point before every roll."""
    scene.fight(ANN, BOB, CAL)
    scene.attack("c1", "c2")
    with pytest.raises(NotNow, match="waiting for Bob, Cal"):
        scene.roll("c1", 50)
    scene.attack("c2", "c1")
    scene.out("c3")
    with pytest.raises(NotNow, match="declarations are fixed"):
        scene.out("c3", "changes mind")
    with pytest.raises(NotNow, match="declared OUT"):
        scene.roll("c3", 50)
    with pytest.raises(NotNow, match="waiting for Ann, Bob"):
        scene.resolve()
    scene.roll("c1", 50)
    with pytest.raises(NotNow, match="already rolled"):
        scene.roll("c1", 50)


def test_nobody_rolls_or_declares_for_anothers_persona(scene: Scene) -> None:
    """Issue 17: "a combat panel stepping through Game State, Declaration, pairings and the
    Resolution Point, enforced by the server (nobody rolls for another's Persona, a Downed
    Persona can only rest)". The Director runs the procedure and may act for anyone."""
    scene.fight(ANN, BOB)
    ann = player("c1")
    with pytest.raises(NotYourMove, match="You act only for the characters you control"):
        scene.send({"type": "declare", "combatant": "c2", "stance": "in", "target": "c1"}, actor=ann)
    scene.send({"type": "declare", "combatant": "c1", "stance": "in", "target": "c2"}, actor=ann)
    scene.send({"type": "declare", "combatant": "c2", "stance": "in", "target": "c1"}, actor=player("c2", member=3))
    with pytest.raises(NotYourMove):
        scene.send({"type": "combat_roll", "combatant": "c2"}, 50, actor=ann)
    scene.send({"type": "combat_roll", "combatant": "c1"}, 50, actor=ann)
    for command in ({"type": "resolve"}, {"type": "timing", "combatant": "c2", "modifier": 5},
                    {"type": "end"}, {"type": "combat_start", "combatants": [ANN, BOB]}):
        with pytest.raises(NotYourMove, match="Only the GM can"):
            scene.send(command, actor=ann)


def test_declarations_are_checked(scene: Scene) -> None:
    """Seed: "The intent is the statement of which enemy they are engaging"; Selected Combat
    and Defense are skills the Persona has ("Determine your Selected Defense and your Selected
    Combat skills")."""
    scene.fight(ANN, BOB)
    with pytest.raises(BadValue, match="themselves"):
        scene.attack("c1", "c1")
    with pytest.raises(BadValue, match="not a Persona in the fight under way"):
        scene.attack("c1", "c9")
    with pytest.raises(BadValue, match="no skill called"):
        scene.attack("c1", "c2", combat="Archery")
    with pytest.raises(BadValue, match="IN or OUT"):
        scene.send({"type": "declare", "combatant": "c1", "stance": "maybe"})


def test_events_record_the_dice_and_replay_to_the_same_state(scene: Scene) -> None:
    """Issue 17: "Every roll, band and track change live for everyone": each event carries its
    dice, and ``apply`` never rolls, so the log alone rebuilds the table."""
    from games.passages.state import new_state
    from games.passages.system import ENGINE
    turn_one(scene)
    replayed = new_state()
    for event in scene.log:
        replayed = ENGINE.apply(replayed, event)
    assert replayed == scene.state
    assert [e["die"] for e in of_type(scene.log, "combat_rolled")] == [42, 80]


def test_every_event_has_a_plain_english_line(scene: Scene) -> None:
    """Each event reads as a sentence in the log (the system registers no log templates)."""
    turn_one(scene)
    scene.send({"type": "set_conditions", "conditions": "rain"})
    scene.send({"type": "set_status", "combatant": "c1", "status": "on the stairs"})
    scene.send({"type": "correct", "combatant": "c1", "track": "fatigue", "value": 80})
    scene.send({"type": "end"})
    lines = [summary(e, scene.state) for e in scene.log]
    assert "Resolution Point, Turn 1: Trayer 99 Wounds / 94 Fatigue; Garbo 98 Wounds / 93 Fatigue." in lines
    assert "Trayer rolls 42 + Soldiery (Sword and Shield) 18 = 60 against Garbo's Defense 25: " \
           "a Potential Wound beating double the Defense." in lines
    assert all(line and "{" not in line for line in lines)


def test_the_end_writes_the_tracks_back(scene: Scene) -> None:
    """Seed: "Health and Fatigue are the current values of the Persona at the Resolution
    Point": when the fight ends, the sheets keep what it left."""
    from games.passages.writeback import writeback
    turn_one(scene)
    [ended] = scene.send({"type": "end"})
    assert writeback(ended, scene.state) == {
        "c1": {"wounds": 99, "fatigue": 94, "untended": 1, "magic": 100},
        "c2": {"wounds": 98, "fatigue": 93, "untended": 2, "magic": 100}}
    assert scene.state["mode"] == "idle"
    with pytest.raises(NotNow):
        scene.send({"type": "end"})


def test_a_persona_teleported_away_loses_combat_eligibility(scene: Scene) -> None:
    """Seed: "Combat Eligibility is the clarification of whether a Persona CAN continue the
    Combat into the next Turn. (Health or Fatigue at or below Zero, or the Persona is teleported
    away, for instance)"."""
    from games.passages.state import eligible
    scene.fight(ANN, BOB, CAL)
    scene.attack("c1", "c2")
    scene.send({"type": "set_status", "combatant": "c3", "status": "teleported away", "present": False})
    assert not eligible(scene.person("c3"))
    scene.attack("c2", "c1")
    assert scene.state["combat"]["phase"] == "timing", "nobody waits for the absent"
    scene.roll("c1", 10)
    scene.roll("c2", 10)
    events = scene.resolve()
    rows = of_type(events, "turn_started")[0]["game_state"]
    assert [(r["combatant"], r["eligible"]) for r in rows] == [("c1", True), ("c2", True), ("c3", False)]
