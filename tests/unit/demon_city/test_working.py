"""Issue 23: each log line unfolds to its working, the dice step by step and the seed's own
words for the rule applied (games/demon_city/working.py)."""

from __future__ import annotations

from games.demon_city.system import SYSTEM
from games.demon_city.task import task
from games.demon_city.quotes import CLASH_RULES, DAMAGE_RULE, INJURY_RULE
from games.demon_city.working import pool_step, task_working
from tests.unit.demon_city.conftest import ScriptedRng
from tests.unit.demon_city.test_round_examples import ALFIE, BETTY, CECE, FOREMAN, HYDER, PFISTER


def working(event, state):
    return SYSTEM.engine.working(event, state)


def test_alfie_s_clash_unfolds_to_each_pool_each_die_and_the_high_roller(fight, scripted, pick):
    """Seed: "Whoever rolls highest in a Clash takes their action"; "Their official roll for
    the purposes of deciding the contest is whichever of their rolls is highest." The
    comment's example: "Alfie rolls 8 and Betty rolls 6 and CeCe rolls 5. So, Alfie
    definitely shoots Betty." """
    f = fight([ALFIE, BETTY, CECE])
    f.announce("cece", "defend")
    f.announce("betty", "shoot", "cece")
    f.announce("alfie", "shoot", "betty")
    events = f.roll(scripted([5, 2, 6, 3, 8, 1, 4, 4, 6, 2]))
    (clash,) = pick(events, "clash_rolled")
    w = working(clash, f.state)
    assert w.steps[2] == ("Alfie: the d10 everyone rolls + Skill Die (Alfie's Firearms 9 > Betty's Agility 5) + "
                          "Distraction Die (Betty is busy with CeCe) = 3 dice")
    assert w.steps[3:] == ("CeCe rolls 5, 2: best 5", "Betty rolls 6, 3: best 6", "Alfie rolls 8, 1, 4: best 8",
                           "Alfie's 8 is the highest: Alfie acts")
    assert w.rule.startswith("Their official roll for the purposes of deciding the contest is whichever")
    assert w.rule.endswith(CLASH_RULES["winner"])
    # "take the lowest, and the target subtracts that number from their Current Toughness"
    (hit,) = pick(events, "damage_rolled")
    w = working(hit, f.state)
    assert w.steps == ("3 d10s: Betty's Base Toughness, with any armour (at least one)",
                       "rolls 4, 6, 2: the lowest is 2", "Current Toughness 3 - 2 = 1")
    assert w.rule == DAMAGE_RULE


def test_an_opposing_tie_quotes_the_tie_rule(fight, scripted, pick):
    """Seed: "If it's a tie between characters on opposing sides the situation stays mostly
    the same as it was before the Clash and nobody's action takes"."""
    f = fight([{**PFISTER, "agility": 4}, {**FOREMAN, "agility": 4}])
    f.announce(f.state["order"][0], "melee", f.state["order"][1])
    f.announce(f.state["order"][1], "melee", f.state["order"][0])
    (clash,) = pick(f.roll(scripted([6, 6])), "clash_rolled")
    w = working(clash, f.state)
    assert w.steps[-1].endswith("tie at 6 on opposing sides: nobody's action takes")
    assert w.rule.endswith(CLASH_RULES["opposing_tie"])


def test_a_critical_in_a_clash_is_named(fight, scripted, pick):
    """Seed: "If a character rolls a 10 and wins (ie not a tie), they have a critical
    success, if their best roll is a 1, they fumble." """
    f = fight([{**PFISTER, "agility": 4}, {**FOREMAN, "agility": 4}])
    f.announce(f.state["order"][0], "melee", f.state["order"][1])
    f.announce(f.state["order"][1], "melee", f.state["order"][0])
    (clash,) = pick(f.roll(scripted([10, 1, 5, 5, 5, 8])), "clash_rolled")
    w = working(clash, f.state)
    assert "a 10 that wins: a critical success" in w.steps
    assert any(s.endswith("best die is a 1: a fumble") for s in w.steps)
    assert "If a character rolls a 10 and wins (ie not a tie), they have a critical success" in w.rule


def test_a_knockout_hit_and_its_injury_roll_unfold(fight, scripted, pick):
    """Seed: "At Current Toughness -1 they are out of the fight and roll on the Injury table
    (that'll be in a later entry)"; the table is the tabletop's own, and says so."""
    f = fight([{**PFISTER, "agility": 4, "toughness": 1}, {**FOREMAN, "agility": 3, "toughness": 1}])
    f.announce(f.state["order"][0], "melee", f.state["order"][1])
    f.announce(f.state["order"][1], "melee", f.state["order"][0])
    # Foreman 1 die, Pfister 2 (Agility 4 > 3: the Skill Die); one damage die (Toughness 1); the injury
    events = f.roll(scripted([2, 9, 7, 7, 4]))
    (hit,) = pick(events, "damage_rolled")
    w = working(hit, f.state)
    assert w.steps[-2:] == ("Current Toughness 1 - 7 = -6", "-6 is -1 or below: out of the fight, a roll on the "
                                                            "Injury table")
    (injury,) = pick(events, "injury_rolled")
    w = working(injury, f.state)
    assert w.steps[0].endswith("rolls a d10 on the Injury table: 4") and w.steps[1].startswith("4-5: Broken.")
    assert w.rule == INJURY_RULE and "the tabletop's own" in w.rule


def test_hyder_s_jump_unfolds_to_the_task_rules(fight, scripted, pick):
    """Seed: "then Hyder's player and the Host just roll off-Agility vs a difficulty number
    decided by the Host"; "if their best roll is a 1, they fumble"."""
    f = fight([PFISTER, FOREMAN, HYDER])
    f.announce("hyder", "other", description="jump off the roof")
    f.announce("pfister", "melee", "foreman")
    f.announce("foreman", "melee", "pfister")
    f.send({"type": "set_difficulty", "combatant": "hyder", "target_number": 1})
    events = f.roll(scripted([1, 1, 9, 2, 8, 2, 5, 6]))
    (hyder,) = pick(events, "unresisted_resolved")
    w = working(hyder, f.state)
    assert w.steps[1:] == ("rolls 1, 1: best 1", "a best die of 1 against difficulty 1: a fumble")
    assert w.rule.startswith("Any action that couldn't interfere with anyone else's action")


def test_a_task_against_a_number_and_against_the_host(fight):
    """Seed: "If the stat number is higher than the Target number, the player gets to roll an
    extra die and use the better of their two rolls (the "Skill Die")"; opposed, "whichever
    has the higher stat gets to roll an extra die"."""
    data, line = task({"agility": 5}, name="Marty", stat="agility", rng=ScriptedRng([2, 7]), target_number=3)
    assert line == "Marty tries Agility 5 against difficulty 3: rolls 2, 7 (best 7): Marty succeeds."
    w = task_working(data)
    assert w.steps == ("Marty: the d10 everyone rolls + Skill Die (Agility 5 > difficulty 3) = 2 dice",
                       "rolls 2, 7: best 7", "7 against difficulty 3 (Agility 5): must roll over it: a success")
    assert "use the better of their two rolls" in w.rule and w.source == "Task Resolution"
    data, line = task({"agility": 2}, name="Marty", stat="agility", rng=ScriptedRng([6, 4, 9]),
                      other={"agility": 5}, other_name="the Host's thug")
    assert line == ("Marty (Agility 2) against the Host's thug (Agility 5): Marty rolls 6 (best 6), "
                    "the Host's thug 4, 9 (best 9): Marty fails.")
    w = task_working(data)
    assert w.steps[-1] == "Marty (Agility 2) 6 against the Host's thug (Agility 5) 9: a failure for Marty"
    assert SYSTEM.checks[0].working is task_working


def test_a_pool_step_takes_lost_dice_away():
    """Seed: "Anyone who has taken at least one injury during the fight loses a single die
    (the Lost Die for Injury)--down to a minimum of one die." """
    pool = {"dice": [{"kind": "base", "reason": "the d10 everyone rolls", "sign": 1},
                     {"kind": "lost_injury", "reason": "hurt earlier", "sign": -1}], "size": 1}
    assert pool_step("Ann", pool) == "Ann: the d10 everyone rolls - Lost Die for Injury (hurt earlier) = 1 die"


def test_an_announcement_unfolds_to_its_pool_and_the_rule_of_each_die(fight):
    """Seed, step 2: "Figure out how many dice this character has for their action"; "As with
    simple Tasks, a character with a higher Stat than the Stat they're targeting gets to roll an
    extra die--the Skill Die." """
    f = fight([ALFIE, BETTY])
    announced = f.announce("betty", "shoot", "alfie")
    w = working(announced, f.state)
    assert w.steps == ("Betty: the d10 everyone rolls = 1 die",)
    assert w.rule == "2-Figure out how many dice this character has for their action"
    announced = f.announce("alfie", "shoot", "betty")
    w = working(announced, f.state)
    assert w.steps == ("Alfie: the d10 everyone rolls + Skill Die (Alfie's Firearms 9 > Betty's Agility 5) = 2 dice",)
    assert w.rule.endswith("gets to roll an extra die--the Skill Die.")


def test_a_successful_defence_and_a_grab_say_what_they_earn(fight, scripted, pick):
    """Seed: "If you successfully used a defensive action to dodge, or block, parry an attack in
    the previous round, you get a Situation Die in the round after"; "Once a foe is grabbed,
    actions generally target a foe's Toughness." """
    f = fight([{**PFISTER, "agility": 4}, {**FOREMAN, "agility": 3}])
    f.announce("foreman", "grab", "pfister")
    f.announce("pfister", "defend")
    events = f.roll(scripted([2, 9, 3]))  # Foreman 1 die; Pfister 2 (Defense Die), and acts
    (defended,) = pick(events, "defended")
    w = working(defended, f.state)
    assert w.steps == ("Agent Pfister's defence succeeded", "next round: a Situation Die for Agent Pfister")
    assert w.rule.startswith("If you successfully used a defensive action to dodge")
    f.send({"type": "next_round"})
    f.announce("foreman", "grab", "pfister")
    f.announce("pfister", "melee", "foreman")
    events = f.roll(scripted([9, 2, 3, 4]))  # Foreman 9 wins; Pfister's 2 dice (Situation Die)
    (grabbed,) = pick(events, "grabbed")
    w = working(grabbed, f.state)
    assert w.steps[0] == "Agent Foreman holds Agent Pfister" and w.rule == \
        "Once a foe is grabbed, actions generally target a foe's Toughness."


def test_a_round_beginning_has_no_working(fight):
    """A round beginning is bookkeeping: no dice, no rule to unfold."""
    f = fight([ALFIE, BETTY])
    assert working(f.log[0], f.state) is None
