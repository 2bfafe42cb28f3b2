"""Slow Motion step 2: which dice each announced action collects, and why."""

from __future__ import annotations

from typing import Any

import pytest

from games.core.engine import RuleError
from games.demon_city.actions import Action
from games.demon_city.combatant import Combatant
from games.demon_city.pools import all_pools

ALFIE = {"id": "alfie", "name": "Alfie", "agility": 6, "firearms": 9}
BETTY = {"id": "betty", "name": "Betty", "agility": 5, "firearms": 5, "side": "hostiles"}
CECE = {"id": "cece", "name": "CeCe", "agility": 1}


def pools(people: list[dict[str, Any]], actions: list[dict[str, Any]], **grants: Any):
    """Pools for ``actions`` (in announcement order) among ``people``."""
    cast = {p["id"]: Combatant.from_dict(p) for p in people}
    return all_pools(cast, [Action.from_dict(a) for a in actions],
                     grants.get("situation"), grants.get("lost"))


def kinds(pool) -> list[str]:
    return sorted(d.kind for d in pool.dice)


def test_alfie_betty_cece_chain_skill_distraction_and_defense_dice():
    """Seed: "If Alfie (Firearms: 9) is trying to shoot Betty (Agility: 5, Firearms: 5),
    who is trying to shoot CeCe (Alfie's friend, trying to flee with Agility 1)), both
    shooters have a higher stat than their targets, and Alfie and Betty will both get a
    Skill Die ... CeCe will also get a Defense Die (only running away)." and "If Betty
    targets CeCe, both Alfie and Betty get a Skill Die but Alfie gets a Distraction Die
    too, keeping him at least one up on Betty"."""
    got = pools([ALFIE, BETTY, CECE], [
        {"actor": "cece", "kind": "defend"},
        {"actor": "betty", "kind": "shoot", "target": "cece"},
        {"actor": "alfie", "kind": "shoot", "target": "betty"},
    ])
    assert kinds(got["cece"]) == ["base", "defense"]
    assert kinds(got["betty"]) == ["base", "skill"]
    assert kinds(got["alfie"]) == ["base", "distraction", "skill"]
    assert got["alfie"].size == got["betty"].size + 1
    assert "Firearms 9" in next(d.reason for d in got["alfie"].dice if d.kind == "skill")


def test_alfie_and_betty_shooting_each_other_only_alfie_gets_the_skill_die():
    """Seed: "So if he and Betty try to shoot each other, he gets a Skill Die and she
    doesn't." (Alfie's Agility is not given; it must be at least Betty's Firearms 5.)"""
    got = pools([ALFIE, BETTY], [
        {"actor": "betty", "kind": "shoot", "target": "alfie"},
        {"actor": "alfie", "kind": "shoot", "target": "betty"},
    ])
    assert kinds(got["alfie"]) == ["base", "skill"]
    assert kinds(got["betty"]) == ["base"]


def test_close_combat_relies_on_agility_or_toughness_whichever_is_higher():
    """Seed: "Most close combat actions ... rely on Agility or Toughness, whatever is
    higher"."""
    brute = {"id": "brute", "agility": 2, "toughness": 7, "side": "hostiles"}
    victim = {"id": "victim", "agility": 5}
    got = pools([brute, victim], [{"actor": "brute", "kind": "melee", "target": "victim"}])
    assert got["brute"].count("skill") == 1
    assert "Toughness 7" in got["brute"].dice[1].reason
    weaker = {**brute, "toughness": 5}
    assert pools([weaker, victim], [{"actor": "brute", "kind": "melee",
                                     "target": "victim"}])["brute"].count("skill") == 0


def test_close_combat_uses_hand_to_hand_if_they_have_it():
    """Seed: "or Hand To Hand if they have it"."""
    boxer = {"id": "boxer", "agility": 3, "toughness": 3, "hand_to_hand": 8, "side": "x"}
    got = pools([boxer, {"id": "mark", "agility": 6}],
                [{"actor": "boxer", "kind": "melee", "target": "mark"}])
    assert "Hand-to-Hand 8" in got["boxer"].dice[1].reason


def test_close_combat_targets_the_foes_hand_to_hand_if_they_have_it():
    """Seed: "and target the foe's Agility or, if they have it, the foe's Hand-to-Hand
    combat skill"."""
    attacker = {"id": "a", "agility": 6, "side": "x"}
    clumsy_fighter = {"id": "f", "agility": 4, "hand_to_hand": 7}
    plain = {"id": "f", "agility": 4}
    melee = [{"actor": "a", "kind": "melee", "target": "f"}]
    assert pools([attacker, clumsy_fighter], melee)["a"].count("skill") == 0
    assert pools([attacker, plain], melee)["a"].count("skill") == 1


def test_shooting_relies_on_agility_or_firearms_or_exotic_weapons_and_targets_agility():
    """Seed: "All shooting relies on Agility (or Firearms or Exotic Weapons if applicable)
    and targets Agility." A foe's Hand-to-Hand does not help against a bullet."""
    brawler = {"id": "b", "agility": 3, "hand_to_hand": 9}
    gunman = {"id": "g", "agility": 2, "firearms": 4, "side": "x"}
    archer = {"id": "g", "agility": 2, "exotic_weapons": 4, "side": "x"}
    assert pools([gunman, brawler], [{"actor": "g", "kind": "shoot",
                                      "target": "b"}])["g"].count("skill") == 1
    assert pools([archer, brawler], [{"actor": "g", "kind": "exotic",
                                      "target": "b"}])["g"].count("skill") == 1
    # Firearms do not help with an exotic weapon, nor the reverse.
    assert pools([gunman, brawler], [{"actor": "g", "kind": "exotic",
                                      "target": "b"}])["g"].count("skill") == 0


def test_a_grabbed_foe_is_targeted_on_toughness():
    """Seed: "Once a foe is grabbed, actions generally target a foe's Toughness."."""
    attacker = {"id": "a", "agility": 4, "side": "x"}
    foe = {"id": "f", "agility": 2, "toughness": 6}
    melee = [{"actor": "a", "kind": "melee", "target": "f"}]
    assert pools([attacker, foe], melee)["a"].count("skill") == 1
    held = pools([attacker, {**foe, "grabbed": True}], melee)["a"]
    assert held.count("skill") == 0
    weaker = {**foe, "grabbed": True, "toughness": 3}
    assert pools([attacker, weaker], melee)["a"].count("skill") == 1


def test_defense_die_only_for_only_defending():
    """Seed: "If you are only actively defending in a round, you get an extra die, the
    Defense Die."."""
    got = pools([{"id": "a", "side": "x"}, {"id": "d"}], [
        {"actor": "a", "kind": "melee", "target": "d"},
        {"actor": "d", "kind": "defend", "target": "a"},
    ])
    assert got["d"].count("defense") == 1
    assert got["a"].count("defense") == 0


def test_second_and_later_attackers_of_a_foe_get_the_distraction_die():
    """Seed: "The second and subsequent characters to target a given foe in the same clash
    get an extra d10, the Distraction Die. The first character to attack that foe doesn't."."""
    people = [{"id": "foe", "side": "monsters"}, {"id": "p1"}, {"id": "p2"}, {"id": "p3"}]
    got = pools(people, [
        {"actor": "foe", "kind": "melee", "target": "p1"},
        {"actor": "p1", "kind": "melee", "target": "foe"},
        {"actor": "p2", "kind": "melee", "target": "foe"},
        {"actor": "p3", "kind": "shoot", "target": "foe"},
    ])
    assert got["p1"].count("distraction") == 0
    assert got["p2"].count("distraction") == 1
    assert got["p3"].count("distraction") == 1
    assert "no. 3" in next(d.reason for d in got["p3"].dice if d.kind == "distraction")


def test_helping_an_ally_is_not_teaming_up_on_a_foe():
    """Seed: "There's a bonus for teaming up on someone" -- on a foe, so Cassie helping
    Ann up earns no Distraction Die, and does not make Bill's attack a second one."""
    people = [{"id": "ann"}, {"id": "cassie"}, {"id": "bill", "side": "thugs"}]
    got = pools(people, [
        {"actor": "cassie", "kind": "other", "target": "ann", "description": "help up"},
        {"actor": "bill", "kind": "melee", "target": "ann"},
        {"actor": "ann", "kind": "melee", "target": "bill"},
    ])
    assert got["cassie"].count("distraction") == 0
    assert got["bill"].count("distraction") == 0


def test_a_foe_who_does_not_know_you_are_there_gives_the_distraction_die():
    """Seed: "someone who is distracted ... or doesn't know they're there"."""
    got = pools([{"id": "a", "side": "x"}, {"id": "b", "unaware": True}],
                [{"actor": "a", "kind": "melee", "target": "b"}])
    assert got["a"].count("distraction") == 1


def test_injury_costs_a_single_lost_die_down_to_one():
    """Seed: "Anyone who has taken at least one injury during the fight loses a single die
    (the Lost Die for Injury)--down to a minimum of one die."."""
    hurt = {"id": "h", "agility": 7, "injured": True, "current_toughness": 0}
    foe = {"id": "f", "agility": 2, "side": "x"}
    got = pools([hurt, foe], [{"actor": "h", "kind": "shoot", "target": "f"},
                              {"actor": "f", "kind": "melee", "target": "h"}])
    assert got["h"].count("lost_injury") == 1
    assert got["h"].size == 1  # base + skill - injury
    alone = pools([hurt, foe], [{"actor": "h", "kind": "defend"}])
    assert alone["h"].size == 1  # base + defense - injury


def test_situation_dice_cap_at_two_including_the_defence_bonus():
    """Seed: "Nobody in a Clash can get more than 2 Situation dice."."""
    people = [{"id": "a", "defended_last_round": True}, {"id": "b", "side": "x"}]
    act = [{"actor": "a", "kind": "melee", "target": "b"}]
    got = pools(people, act, situation={"a": ["high ground"]})
    assert got["a"].count("situation") == 2
    with pytest.raises(RuleError):
        pools(people, act, situation={"a": ["high ground", "better weapon"]})


def test_miscellaneous_lost_dice_cap_at_two():
    """Seed: "Nobody able to act in a Clash can lose more than 2 Miscellaneous Lost Dice
    this way or go below a minimum of one die."."""
    people = [{"id": "a"}, {"id": "b", "side": "x"}]
    act = [{"actor": "a", "kind": "melee", "target": "b"}]
    assert pools(people, act, lost={"a": ["smoke", "slippery"]})["a"].size == 1
    with pytest.raises(RuleError):
        pools(people, act, lost={"a": ["smoke", "slippery", "dark"]})


def test_the_most_anyone_rolls_is_five():
    """Seed: "So the maximum dice anyone could roll would be 5: A d10 to start + 1
    Distraction Die or Defense Die + 1 Skill Die + 2 Situation Dice + no Lost Dice."."""
    people = [{"id": "ace", "firearms": 9, "defended_last_round": True},
              {"id": "mook", "agility": 1, "side": "x", "unaware": True}]
    got = pools(people, [{"actor": "ace", "kind": "shoot", "target": "mook"}],
                situation={"ace": ["better weapon"]})
    assert got["ace"].size == 5
    assert kinds(got["ace"]) == ["base", "distraction", "situation", "situation", "skill"]
