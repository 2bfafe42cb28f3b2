"""The Director's rulings in a fight (issue 27): check or challenge does not hang on who clicked
first, the Director decides it, and a Persona gets the one Action its Declaration allows."""

from __future__ import annotations

import pytest

from games.passages.errors import BadValue, NotNow
from tests.unit.passages.helpers import GARBO, TRAYER, Scene, persona, player

ANN = persona("c1", "Ann", combat_skill="Brawl", defense_skill="Brawl", weapon_damage=4)
BOB = persona("c2", "Bob", combat_skill="Brawl", defense_skill="Brawl", weapon_damage=4)


def _intimidate_after(first: str) -> dict:
    """Turn One of a fight where Trayer stays OUT to intimidate and Garbo attacks him, the
    Declarations made in the order ``first`` says, Trayer trying his roll between them (refused)
    and then rolling 9 on Intimidation 32."""
    scene = Scene()
    scene.fight(TRAYER, GARBO)
    declare = {"trayer": lambda: scene.out("c1", "intimidates Garbo"), "garbo": lambda: scene.attack("c2", "c1")}
    intimidate = {"type": "check", "combatant": "c1", "skill": "Intimidation"}
    declare[first]()
    if first == "trayer":
        with pytest.raises(NotNow):
            scene.send(intimidate, 9)
    declare["garbo" if first == "trayer" else "trayer"]()
    [checked] = scene.send(intimidate, 9)
    return checked


def test_a_persona_attacked_rolls_a_challenge_whatever_the_click_order() -> None:
    """Seed: "A Persona can be attacked (thus the object of COMBAT, without being subject to it.
    In these cases, they can still use non-combat Skills, but any such Action will be a
    CHALLENGE, not a CHECK." Trayer's 9 on Intimidation 32 is judged against its Core 7 (a
    Double Up) whether Garbo declared before or after him: it waits for every Declaration."""
    for first in ("trayer", "garbo"):
        checked = _intimidate_after(first)
        assert checked["forced"] and checked["check"]["challenge"], first
        assert checked["check"]["band"] == "double_up", first


def test_a_check_in_a_fight_waits_for_every_declaration(scene: Scene) -> None:
    """Seed: "DECLARATION - Each Persona in the Scene declares to be IN, or OUT", then "TIMING -
    Each conflict pairing resolves in order": who is attacked is known only once all have
    declared, so no check is rolled before."""
    scene.fight(TRAYER, GARBO)
    scene.out("c1", "intimidates Garbo")
    with pytest.raises(NotNow, match="every Declaration"):
        scene.send({"type": "check", "combatant": "c1", "skill": "Intimidation"})
    assert scene.state["checks"] == []


def test_the_director_decides_check_or_challenge(scene: Scene) -> None:
    """Seed: "Each Action is itself an exertion of skill, and each can be a Check OR a Challenge
    by choice of the Director"; "CHALLENGES are Actions hindered by certain circumstances, or
    specific Conditions decided on by the Director." A player cannot make the call; the
    Director can, for one roll or as a lasting Condition on a Persona."""
    scene.fight(ANN, BOB)
    scene.out("c1", "climbs the rigging")
    scene.out("c2", "bails water")
    with pytest.raises(BadValue, match="The Director decides"):
        scene.send({"type": "check", "combatant": "c1", "skill": "Stealth", "challenge": True}, actor=player("c1"))
    [plain] = scene.send({"type": "check", "combatant": "c1", "skill": "Stealth"}, 9, actor=player("c1"))
    assert not plain["check"]["challenge"]
    scene.send({"type": "set_status", "combatant": "c2", "status": "in the storm", "hindered": True})
    [hindered] = scene.send({"type": "check", "combatant": "c2", "skill": "Stealth"}, 9,
                            actor=player("c2", member=3))
    assert hindered["check"]["challenge"] and hindered["check"]["value"] == 8
    assert scene.person("c2")["hindered"], "the Condition lasts until the Director lifts it"


def test_one_action_a_turn_as_declared(scene: Scene) -> None:
    """Seed: "Combatants state their Intent and Timing. Non-combatants declare their Actions
    only": a Persona OUT with an Action makes that one check a Turn; one IN fights (its Combat
    Roll), one resting rests. Next Turn it may act again."""
    scene.fight(ANN, BOB, persona("c3", "Cal"))
    scene.out("c1", "picks a lock")
    scene.attack("c2", "c3")
    scene.rest("c3")
    scene.send({"type": "check", "combatant": "c1", "skill": "Stealth"}, 50)
    with pytest.raises(NotNow, match="already made"):
        scene.send({"type": "check", "combatant": "c1", "skill": "Stealth"}, 50)
    with pytest.raises(NotNow, match="already made"):
        scene.send({"type": "practice", "combatant": "c1", "skill": "Stealth"})
    with pytest.raises(NotNow, match="declared IN"):
        scene.send({"type": "check", "combatant": "c2", "skill": "Stealth"}, 50)
    with pytest.raises(NotNow, match="rests"):
        scene.send({"type": "check", "combatant": "c3", "skill": "Stealth"}, 50)
    scene.roll("c2", 1)
    scene.resolve()
    scene.out("c1", "picks it again")
    scene.out("c2", "watches")
    scene.out("c3", "hides")
    scene.send({"type": "practice", "combatant": "c1", "skill": "Stealth"})


def test_the_one_off_check_refuses_a_persona_in_a_fight(scene: Scene) -> None:
    """Seed: "A Persona can be attacked ... without being subject to it. In these cases, they can
    still use non-combat Skills, but any such Action will be a CHALLENGE": a Persona in the fight
    checks there, as its Action; the one-off route (which knows no fight) refuses it, so a
    hand-made request cannot skip the challenge or the Downed."""
    import random

    from games.contract import CheckRun, Member
    from games.passages.moves import CHECK_ROLL
    from tests.unit.passages.helpers import character
    scene.fight(ANN, BOB)
    people = {c.id: c for c in (character(ANN), character(BOB), character(persona("c3", "Cal")))}

    def roll(who: int) -> tuple[dict, str]:
        return CHECK_ROLL.run(CheckRun(member=Member(id=1, name="GM", is_gm=True), characters=people,
                                       args={"character": who, "skill": "Stealth", "mode": "check"},
                                       rng=random.Random(1), cards=None, state=scene.state))  # type: ignore[arg-type]
    with pytest.raises(NotNow, match="Ann is in the fight"):
        roll(1)
    assert roll(3)[0]


def test_a_party_to_a_contest_rolls_there_not_a_check_beside_it(scene: Scene) -> None:
    """Seed: "both actors ... make their independent Checks as directed": a party's roll is its
    contest roll, one a round; it cannot add checks beside the contest."""
    scene.contest(ANN, BOB, persona("c3", "Cal"))
    scene.send({"type": "contest_break_off", "combatant": "c3"})
    with pytest.raises(NotNow, match="rolls in the contest"):
        scene.send({"type": "check", "combatant": "c1", "skill": "Stealth"})
    scene.send({"type": "check", "combatant": "c3", "skill": "Stealth"}, 20)
