"""Tending in a fight (issue 27): the tender's skill check, made once every Declaration is in,
for one patient, costing the tender a tick; it tends the Wounds of earlier Turns only."""

from __future__ import annotations

import pytest

from games.passages.errors import BadValue, NotNow
from tests.unit.passages.helpers import GARBO, TRAYER, Scene, player
from tests.unit.passages.test_combat_turns import turn_one


def _trayer_tends_under_attack(scene: Scene, die: int) -> dict:
    turn_one(scene)  # Trayer 99 / 94, 1 untended; Garbo 98 / 93, 2 untended
    scene.send({"type": "tend", "combatant": "c1"})
    with pytest.raises(NotNow, match="every Declaration"):
        scene.send({"type": "tend", "combatant": "c1", "skill": "Campfire"}, die)
    scene.attack("c2", "c1")
    [rolled] = scene.send({"type": "tend", "combatant": "c1", "skill": "Campfire"}, die)
    scene.roll("c2", 80)
    [point, _] = scene.resolve()
    return {"rolled": rolled, "rows": {r["combatant"]: r for r in point["rows"]}}


def test_a_tending_is_a_roll_that_costs_the_tender_a_tick(scene: Scene) -> None:
    """Seed: "Wounds must be tended for the individual to regain so Fatigue and Wound Ticks";
    "A Persona can be attacked ... without being subject to it. In these cases, they can still
    use non-combat Skills, but any such Action will be a CHALLENGE". Trayer, attacked, tends
    with Campfire 33 as a challenge (Core 7): 5 is a Success and tends his 1 untended point;
    Garbo's new blow (1 after brigantine) stays untended; the tending exerts him a tick and he
    regains nothing: 94 - 1 - 5 = 88."""
    done = _trayer_tends_under_attack(scene, 5)
    assert done["rolled"]["check"]["challenge"] and done["rolled"]["check"]["band"] == "success"
    trayer = done["rows"]["c1"]
    assert (trayer["tended"], trayer["drain"], trayer["tending"], trayer["recovered"]) == (1, 0, 5, 0)
    assert scene.track("c1") == (98, 88) and scene.person("c1")["untended"] == 1


def test_a_failed_tending_tends_nothing(scene: Scene) -> None:
    """Reading: a failure tends no point; the untended Wound still drains and the effort is spent."""
    done = _trayer_tends_under_attack(scene, 90)
    trayer = done["rows"]["c1"]
    assert (trayer["tended"], trayer["drain"], trayer["tending"]) == (0, 1, 5)
    assert scene.person("c1")["untended"] == 2


def test_one_tending_a_turn_and_the_director_calls_a_challenge(scene: Scene) -> None:
    """One patient, one roll a Turn; "by choice of the Director" a challenge, never a player's."""
    scene.fight(TRAYER, GARBO)
    scene.send({"type": "tend", "combatant": "c1", "patient": "c2"}, actor=player("c1"))
    scene.send({"type": "tend", "combatant": "c2"})
    with pytest.raises(BadValue, match="The Director decides"):
        scene.send({"type": "tend", "combatant": "c1", "skill": "Campfire", "challenge": True}, actor=player("c1"))
    scene.send({"type": "tend", "combatant": "c1", "skill": "Campfire"}, 50, actor=player("c1"))
    with pytest.raises(NotNow, match="already made"):
        scene.send({"type": "tend", "combatant": "c1", "skill": "Campfire"}, 50, actor=player("c1"))


def test_a_tending_in_a_fight_revives_the_unconscious(scene: Scene) -> None:
    """Seed: "When your Wounds reach zero, you are prone, unconscious, and most likely will break
    the Injunction without the assistance of others"; "Such personae cannot perform any Actions
    until revived". As between fights (recovery.py), a tending that tends any point wakes the
    patient with one Wound tick."""
    from tests.unit.passages.helpers import persona
    scene.fight(persona("c1", "Ann", wounds=0, untended=30), persona("c2", "Medic", skills={"First Aid": 40}))
    assert scene.person("c1")["unconscious"]
    scene.send({"type": "tend", "combatant": "c2", "patient": "c1"})
    scene.send({"type": "tend", "combatant": "c2", "skill": "First Aid"}, 30)
    scene.resolve()
    ann = scene.person("c1")
    assert (ann["wounds"], ann["untended"], ann["unconscious"]) == (5, 0, False)
