"""Issue 23: each log line unfolds to its working, the arithmetic step by step and the seed's
own words for the rule applied (games/passages/working.py)."""

from __future__ import annotations

from games.passages import rules, working
from games.passages.system import SYSTEM
from games.passages.checks import roll_check
from tests.unit.passages.helpers import GARBO, TRAYER, Dice, Scene, of_type, persona



def test_a_check_s_working_shows_the_bands_and_quotes_the_band_rule() -> None:
    """Seed, CHECKS: "A player's Persona with a BASE value of 26 ... the DU (Double UP) to be 52
    and the Double Down to be 13 ... a roll of 43 would be a DU Success"; "DOUBLE UP SUCCESS: A
    roll higher than the Skill BASE and lower than or equal to double the Skill BASE results as a
    DU. The Action partially succeeds." """
    check = rules.CheckResult("Tracking", rules.thresholds(26), 43, rules.band(26, 43)).to_dict()
    w = working.check_working(check)
    assert w.steps == ("Tracking BASE 26", "Double Up = double 26 = 52; Double Down = half, rounded down = 13",
                       "d100 roll: 43", "43 is above BASE 26 and at most Double Up 52: a Double Up success")
    assert w.rule.startswith("DOUBLE UP SUCCESS: A roll higher than the Skill BASE and lower than or equal")
    assert w.source == "Checks"


def test_a_challenge_s_working_reads_the_core_value() -> None:
    """Seed, CHALLENGES: "Challenges use the Skill's Core Value." ... "Under the Stormy
    Conditions, The Lock Pick Skill Core would be 7, so opening the chest would need a DU
    success of 14, a Success of 7, and a DD success would be only 3." """
    check = rules.CheckResult("Lock-picking", rules.thresholds(32, challenge=True), 5,
                              rules.band(32, 5, challenge=True)).to_dict()
    w = working.check_working(check)
    assert w.steps[0] == "Lock-picking BASE 32; a challenge uses its Core: 32 / 5, rounded up = 7"
    assert w.steps[1] == "Double Up = double 7 = 14; Double Down = half, rounded down = 3"
    assert w.steps[-1] == "5 is at most Core 7 and above Double Down 3: a Success"
    assert "Challenges use the Skill's Core Value." in w.rule and w.rule.startswith("SKILLS SUCCESS")


def test_every_band_quotes_its_own_sentence() -> None:
    """Seed: "CRITICAL FAIL: A roll of precisely 100% means the Action fails"; "BLOWN ROLL: A
    roll higher than the Double Up value. The Action Fails."; "DOUBLE DOWN SUCCESS: A roll equal
    to or less than 1/2 Skills BASE value." """
    for roll, start, last in ((100, "CRITICAL FAIL", "100 exactly: a Critical Fail"),
                              (54, "BLOWN ROLL", "54 is above Double Up 52: a Blown Roll"),
                              (13, "DOUBLE DOWN SUCCESS", "13 is at most Double Down 13: a Double Down wild success")):
        check = rules.CheckResult("Tracking", rules.thresholds(26), roll, rules.band(26, roll)).to_dict()
        w = working.check_working(check)
        assert w.rule.startswith(start) and w.steps[-1] == last


def test_practice_needs_no_roll() -> None:
    """Seed: "A player may 'practice' any skill, but they will automatically succeed." """
    w = working.check_working(rules.practice("Brawl", 30).to_dict())
    assert w.steps == ("Brawl (BASE 30) practised: no roll, it succeeds",)
    assert "they will automatically succeed" in w.rule


def test_the_one_off_check_is_registered_with_its_working() -> None:
    """The one-off check (outside a scene) unfolds like any other: Campfire 33 rolled 13 is a
    Double Down ("13 or below would result in a Double Down Wild Success" at 26; at 33, 16)."""
    data, line = roll_check({"skills": {"Campfire": 33}}, name="Trayer", skill="Campfire", mode="check",
                            rng=Dice(13))
    assert line == "Trayer checks Campfire (BASE 33): rolls 13, Double Down wild success."
    w = SYSTEM.checks[0].working(data)
    assert w.steps[-1] == "13 is at most Double Down 16: a Double Down wild success"


def test_turn_one_of_the_worked_example_unfolds(scene: Scene) -> None:
    """Seed, EXAMPLE of Skills and Combat: "The Die roll is a 42, so the Combined Attack is 60.
    The Urgluch ... has 25 Selected Combat and Selected Defense"; "Roll your Combat Roll and add
    your Selected Combat value. Compare the sum with the Selected Defense of the Opponent."
    Then "Trayer's armor, brigantine, halves the weapon damage" and Garbo's hide "reduced by 1"."""
    scene.fight(TRAYER, GARBO)
    scene.attack("c1", "c2")
    scene.attack("c2", "c1")
    [rolled] = scene.roll("c1", 42)
    w = SYSTEM.engine.working(rolled, scene.state)
    assert w.steps == ("Combat Roll (d100): 42", "+ Selected Combat (Soldiery (Sword and Shield)) 18 = 60",
                       "60 is above double Garbo's Selected Defense (Two-Hander) 25 (50): "
                       "a Potential Wound, the greater success")
    assert w.rule.startswith(working.ATTACK_RULE) and "Reading (the tabletop's)" in w.rule
    events = scene.roll("c2", 80)
    pairing = of_type(events, "pairing_resolved")[0]
    w = SYSTEM.engine.working(pairing, scene.state)
    assert "Trayer's Long Blade damage 3, no more than their Skill: 3; Garbo's armour (-1): 2 off Wounds " \
           "and Fatigue" in w.steps
    assert "Garbo's flail damage 3, no more than their Skill: 3; Trayer's armour (halve): 1 off Wounds " \
           "and Fatigue" in w.steps
    assert w.rule.startswith("If Both succeed equally, neither Condition will resolve")
    [point, _] = scene.resolve()
    w = SYSTEM.engine.working(point, scene.state)
    # "At the end of Turn One, Trayer is at 99 Wounds and 94 Fatigue remaining"
    assert w.steps[0] == ("Trayer: damage 1 off Wounds and Fatigue, 5 Fatigue for a Combat Action: "
                          "Wounds 100 to 99, Fatigue 100 to 94")
    assert w.source == "Wounds, Fatigue, and the Effects of Damage"


def test_timing_is_a_named_step(scene: Scene) -> None:
    """Seed: "a Condition modifier of -20 ... He rolls a 33. After reducing it by the
    Director's modifier of -20, it is still a 13." """
    scene.fight(TRAYER, GARBO)
    scene.attack("c1", "c2")
    scene.attack("c2", "c1")
    scene.send({"type": "timing", "combatant": "c2", "modifier": -20, "reason": "the torch"})
    [rolled] = scene.roll("c2", 33)
    assert SYSTEM.engine.working(rolled, scene.state).steps[:2] == ("Combat Roll (d100): 33", "Timing -20: 13")
    assert SYSTEM.engine.summary(rolled, scene.state).startswith("Garbo rolls 33 with Timing -20 + Two-Hander")


def test_a_contest_round_quotes_the_case_it_applied(scene: Scene) -> None:
    """Seed, CONTESTS: "IF ANY PARTY in the Contest rolls a lower level of success (DD over
    Success over DU), they suffer one Tick of Fatigue. (2 if DD over DU)" """
    scene.contest(persona("c1", "Ann"), persona("c2", "Bob"))
    scene.contest_roll("c1", "Stealth", 10)  # Double Down at 40
    events = scene.contest_roll("c2", "Stealth", 60)  # Double Up
    [judged] = of_type(events, "contest_round")
    w = SYSTEM.engine.working(judged, scene.state)
    assert w.steps == ("Ann: Double Down wild success", "Bob: Double Up success", "Bob: 2 ticks, 10 Fatigue, now 90")
    assert w.rule.startswith("IF ANY PARTY in the Contest rolls a lower level of success")


def test_bookkeeping_has_no_working(scene: Scene) -> None:
    """A fight beginning is no arithmetic and applies no rule worth unfolding."""
    [started, *_] = scene.fight(TRAYER, GARBO)
    assert SYSTEM.engine.working(started, scene.state) is None
