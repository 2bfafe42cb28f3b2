"""Whole Action Rounds through decide/apply: the seed's worked examples, die by die."""

from __future__ import annotations

ALFIE = {"id": "alfie", "name": "Alfie", "agility": 6, "firearms": 9}
BETTY = {"id": "betty", "name": "Betty", "agility": 5, "firearms": 5, "side": "hostiles"}
CECE = {"id": "cece", "name": "CeCe", "agility": 1}
HYDER = {"id": "hyder", "name": "Lt. Hyder", "agility": 2, "side": "police"}
PFISTER = {"id": "pfister", "name": "Agent Pfister", "agility": 4, "side": "fbi"}
FOREMAN = {"id": "foreman", "name": "Agent Foreman", "agility": 5, "side": "cult"}


def test_alfie_saves_cece_only_the_high_roller_acts(fight, scripted, pick):
    """Seed comment: "Alfie rolls 8 and Betty rolls 6 and CeCe rolls 5. So, Alfie definitely
    shoots Betty. And probably Betty doesn't shoot CeCe, because she just got shot?" --
    "Yep, Cece gets away, since Betty got hit before she could act." Rule 7: "No other
    action in that Clash occurs"."""
    f = fight([ALFIE, BETTY, CECE])
    assert f.state["order"] == ["cece", "betty", "alfie"]
    f.announce("cece", "defend", actor={"controls": ["cece"]})
    f.announce("betty", "shoot", "cece")
    f.announce("alfie", "shoot", "betty", actor={"controls": ["alfie", "cece"]})
    # CeCe 2 dice, Betty 2, Alfie 3 (Skill + Distraction); then Betty's 3 damage dice.
    events = f.roll(scripted([5, 2, 6, 3, 8, 1, 4, 4, 6, 2]))
    (clash,) = pick(events, "clash_rolled")
    assert {c: r["best"] for c, r in clash["rolls"].items()} == {"cece": 5, "betty": 6, "alfie": 8}
    assert clash["winner"] == "alfie"
    (damage,) = pick(events, "damage_rolled")
    assert (damage["attacker"], damage["target"], damage["taken"]) == ("alfie", "betty", 2)
    assert f.person("betty")["current_toughness"] == 1
    assert f.person("cece")["current_toughness"] == 3  # Betty's shot never happened
    assert not pick(events, "defended")  # CeCe's flight was not what happened either


def test_cece_shooting_betty_too_still_gives_one_action_per_clash(fight, scripted, pick):
    """Seed comment (which pre-dates the March 23rd edit): "if Cece had been trying to
    shoot Betty ... would get a successful shot off at Betty." The revised rules win:
    "The Clash only resolves one action at a time, even if the entangled actions aren't
    opposed." Alfie, announcing after CeCe, is now the second attacker of Betty."""
    f = fight([ALFIE, BETTY, {**CECE, "firearms": 3}])
    f.announce("cece", "shoot", "betty")
    f.announce("betty", "shoot", "cece")
    f.announce("alfie", "shoot", "betty")
    (announced,) = [e for e in pick(f.log, "announced") if e["action"]["actor"] == "alfie"]
    assert [d["kind"] for d in announced["pool"]["dice"]] == ["base", "skill", "distraction"]
    # CeCe 1 die (Firearms 3 is not > 5), Betty 2, Alfie 3; 3 damage dice; an Injury die.
    events = f.roll(scripted([3, 6, 2, 8, 5, 1, 7, 7, 9, 5]))
    assert [e["attacker"] for e in pick(events, "damage_rolled")] == ["alfie"]
    assert f.person("betty")["current_toughness"] == 3 - 7
    assert f.person("cece")["current_toughness"] == 3


def test_hyder_gets_away_while_pfister_and_foreman_punch(fight, scripted, pick):
    """Seed: "Since nobody named him as a target and he has no target, nothing Hyder is
    doing will affect who punches who first or hardest, so Hyder gets away." and "Any
    action that couldn't interfere with anyone else's action ... is resolved"."""
    f = fight([PFISTER, FOREMAN, HYDER])
    f.announce("hyder", "defend", description="get away")
    f.announce("pfister", "melee", "foreman")
    f.announce("foreman", "melee", "pfister")
    # Pfister 1 die (4 is not > 5), Foreman 2 (Skill); damage 3 dice; an Injury die.
    events = f.roll(scripted([3, 7, 2, 5, 6, 4, 9]))
    (hyder,) = pick(events, "unresisted_resolved")
    assert (hyder["combatant"], hyder["succeeded"], hyder["task"]) == ("hyder", True, None)
    types = [e["type"] for e in events]
    assert types.index("unresisted_resolved") < types.index("clash_rolled")
    (clash,) = pick(events, "clash_rolled")
    assert clash["members"] == ["pfister", "foreman"] and clash["winner"] == "foreman"
    assert f.person("pfister")["current_toughness"] == -1
    assert f.person("pfister")["out_of_fight"]
    (injury,) = pick(events, "injury_rolled")
    assert injury["combatant"] == "pfister" and injury["die"] == 9


def test_hyder_jumping_off_the_roof_rolls_agility_against_the_hosts_difficulty(
        fight, scripted, pick):
    """Seed: "If Hyder had announced he wanted to escape by jumping off the roof, then
    Hyder's player and the Host just roll off-Agility vs a difficulty number decided by
    the Host--to land safely on the ground."."""
    f = fight([PFISTER, FOREMAN, HYDER])
    f.announce("hyder", "other", description="jump off the roof")
    f.announce("pfister", "melee", "foreman")
    f.announce("foreman", "melee", "pfister")
    f.send({"type": "set_difficulty", "combatant": "hyder", "target_number": 1})
    # Agility 2 > 1: Skill Die. Hyder rolls 1 and 1: a fumble, he lands badly. Then the
    # Clash (Pfister 1 die, Foreman 2) and Foreman's 3 damage dice.
    events = f.roll(scripted([1, 1, 9, 2, 8, 2, 5, 6]))
    (hyder,) = pick(events, "unresisted_resolved")
    assert hyder["task"]["dice"] == [1, 1] and hyder["task"]["stat"] == "agility"
    assert hyder["task"]["outcome"] == "fumble" and not hyder["succeeded"]


def test_ann_kicks_bill_and_cassie_must_wait_to_help_her_up(fight, scripted, pick):
    """Seed: "7-No other action in that Clash occurs--even if, say Ann successfully kicks
    Bill and Cassie just wants to help Ann up off the ground, we have to wait until the
    next Clash to see if Cassie manages to do that."."""
    f = fight([{"id": "ann", "agility": 4}, {"id": "bill", "agility": 3, "side": "thugs"},
               {"id": "cassie", "agility": 2}])
    f.announce("cassie", "other", "ann", description="help Ann up")
    f.announce("bill", "melee", "ann")
    f.announce("ann", "melee", "bill", description="kick")
    events = f.roll(scripted([2, 5, 9, 3, 6, 2, 8]))
    (clash,) = pick(events, "clash_rolled")
    assert set(clash["members"]) == {"ann", "bill", "cassie"}
    assert clash["winner"] == "ann"
    assert not pick(events, "unresisted_resolved")  # Cassie's help is in the Clash
    hits = [(e["attacker"], e["target"]) for e in pick(events, "damage_rolled")]
    assert hits == [("ann", "bill")]


def test_two_clashes_in_one_round_each_have_their_own_high_roller(fight, scripted, pick):
    """Seed: "If there is more than one Clash involved in the Round ... it is resolved as
    in 6, with the highest roller acting."."""
    f = fight([{"id": "eve", "agility": 2}, {"id": "fifi", "agility": 2, "side": "x"},
               {"id": "gus", "agility": 3}, {"id": "hal", "agility": 3, "side": "x"}])
    for who, target in (("eve", "fifi"), ("fifi", "eve"), ("gus", "hal"), ("hal", "gus")):
        f.announce(who, "melee", target)
    # Eve and Fifi have Toughness 3 > Agility 2: a Skill Die each. Gus and Hal: one die.
    events = f.roll(scripted([4, 3, 9, 1, 2, 2, 2, 1, 1]))
    clashes = pick(events, "clash_rolled")
    assert [c["winner"] for c in clashes] == ["fifi", None]
    assert clashes[1]["outcome"] == "both_fumble"
    assert [e["target"] for e in pick(events, "damage_rolled")] == ["eve"]


def test_same_side_tie_for_first_is_broken_at_random_and_only_the_winner_acts(
        fight, scripted, pick):
    """Seed: "If it's a tie between two characters on the same side ... then the winner is
    decided randomly"."""
    f = fight([{"id": "thing", "agility": 1, "side": "monsters"},
               {"id": "p1", "agility": 2}, {"id": "p2", "agility": 3}])
    f.announce("thing", "melee", "p1")
    f.announce("p1", "melee", "thing")
    f.announce("p2", "melee", "thing")  # second attacker: Distraction Die
    # Toughness 3 beats every Agility here: thing 2 dice, p1 2, p2 3; then 3 damage dice.
    events = f.roll(scripted([3, 2, 9, 1, 9, 2, 1, 1, 5, 6], choices=["p2"]))
    (clash,) = pick(events, "clash_rolled")
    assert clash["outcome"] == "same_side_tie"
    assert (clash["tied"], clash["winner"]) == (["p1", "p2"], "p2")
    assert [e["attacker"] for e in pick(events, "damage_rolled")] == ["p2"]


def test_tie_between_opposing_sides_changes_nothing_but_prompts_the_host(fight, scripted, pick):
    """Seed: "the situation stays mostly the same as it was before the Clash and nobody's
    action takes, but the Host changes something in the situation that affects everyone in
    the Clash, like: the roof could begin to collapse from all the weight on it."."""
    f = fight([{**PFISTER, "agility": 4}, {**FOREMAN, "agility": 4}])
    f.announce(f.state["order"][0], "melee", f.state["order"][1])
    f.announce(f.state["order"][1], "melee", f.state["order"][0])
    before = {c: dict(p) for c, p in f.state["combatants"].items()}
    events = f.roll(scripted([6, 6]))
    (clash,) = pick(events, "clash_rolled")
    assert clash["outcome"] == "opposing_tie" and clash["winner"] is None
    assert "Host" in clash["prompt"]
    assert f.state["combatants"] == before


def test_fixing_the_antenna_while_the_crysoloth_attacks_is_a_clash(fight, scripted, pick):
    """Seed: "it could also apply to, say, trying to fix a radio antenna before a
    metastasizing Crysoloth destroys the building it's in". The fixer is busy, so the
    Crysoloth's attack on her earns the Distraction Die; if she rolls highest, the fix
    happens and nothing else does."""
    f = fight([{"id": "tech", "agility": 2, "skills": {"electronics": 6}},
               {"id": "crysoloth", "agility": 4, "side": "monsters", "supernatural": True,
                "toughness": 12}])
    f.announce("tech", "other", description="fix the antenna", stat="electronics")
    f.announce("crysoloth", "melee", "tech")
    pools = pick(f.log, "announced")[-1]["pool"]
    assert [d["kind"] for d in pools["dice"]] == ["base", "skill", "distraction"]
    events = f.roll(scripted([10, 9, 3, 2]))
    (clash,) = pick(events, "clash_rolled")
    assert clash["winner"] == "tech" and clash["critical"]
    assert not pick(events, "damage_rolled")
