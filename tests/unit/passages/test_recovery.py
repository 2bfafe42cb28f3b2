"""Recovery and healing outside a fight (issue 27): a rest, the Director's correction of a sheet,
and tending, each on the sheets the table keeps."""

from __future__ import annotations

import pytest

from games.contract import GM_PART
from games.passages.checks import roll_check
from games.passages.errors import BadValue, CannotAct
from games.passages.narrate import public_line
from tests.unit.passages.helpers import Dice, Scene, persona, player

HURT = persona("c1", "Ann", wounds=80, untended=10, fatigue=30, skills={"First Aid": 40, "Brawl": 30})
MEDIC = persona("c2", "Bob", skills={"First Aid": 40})


def test_a_rest_after_a_fight_restores_eligible_fatigue(scene: Scene) -> None:
    """Seed: "Recovery of Fatigue occurs when the Persona rests, exits the Scene, or has some
    Effect restore it"; "three rounds return the Persona to available Fatigue levels". Reading:
    a rest outside a fight is the whole rest: Fatigue to 100 less the untended points. It heals
    no Wound (the decided reading: "Fatigue recovers when the Persona rests")."""
    scene.seat(HURT, owner=2)
    [rested] = scene.send({"type": "rest", "combatant": "c1"}, actor=player("c1"))
    assert rested["after"]["fatigue"] == 90 and rested["after"]["wounds"] == 80
    assert (scene.sheet("c1")["fatigue"], scene.sheet("c1")["wounds"]) == (90, 80)
    assert public_line(rested, scene.state) == "Ann rests: Fatigue 30 → 90."


def test_a_persona_at_fatigue_0_rests_and_may_check_again(scene: Scene) -> None:
    """Seed: "When your Fatigue reaches zero, you cannot continue to take Actions other than
    rest": the rest is there to take, and after it the Persona checks again."""
    scene.seat(persona("c1", "Ann", fatigue=0))
    with pytest.raises(CannotAct):
        roll_check(scene.sheet("c1"), name="Ann", skill="Brawl", mode="check", rng=Dice(5))
    scene.send({"type": "rest", "combatant": "c1"})
    data, _ = roll_check(scene.sheet("c1"), name="Ann", skill="Brawl", mode="check", rng=Dice(5))
    assert data["band"] == "double_down"


def test_the_director_corrects_a_sheet_outside_a_scene(scene: Scene) -> None:
    """Seed: "or has some Effect restore it": the Director sets a track between scenes too."""
    scene.seat(persona("c1", "Ann", wounds=0, fatigue=0))
    [corrected] = scene.send({"type": "correct", "combatant": "c1", "track": "wounds", "value": 40})
    assert scene.sheet("c1")["wounds"] == 40
    assert public_line(corrected, scene.state) == "The Director sets Ann's Wounds from 0 to 40."


def test_tending_is_a_check_with_a_cost_for_one_patient(scene: Scene) -> None:
    """Seed: "Wounds must be tended for the individual to regain so Fatigue and Wound Ticks".
    Reading: a skill check of the tender's; a Success tends every untended point, a Double Up
    half, a failure none; the tender spends a Fatigue tick whatever the roll."""
    scene.seat(HURT, owner=2)
    scene.seat(MEDIC, owner=3)
    bob = player("c2", member=3)
    [failed] = scene.send({"type": "tend", "combatant": "c2", "patient": "c1", "skill": "First Aid"}, 90, actor=bob)
    assert failed["points"] == 0 and scene.sheet("c1")["untended"] == 10 and scene.sheet("c2")["fatigue"] == 95
    [half] = scene.send({"type": "tend", "combatant": "c2", "patient": "c1", "skill": "First Aid"}, 60, actor=bob)
    assert half["check"]["band"] == "double_up" and half["points"] == 5 and scene.sheet("c1")["untended"] == 5
    scene.send({"type": "tend", "combatant": "c2", "patient": "c1", "skill": "First Aid"}, 30, actor=bob)
    assert scene.sheet("c1")["untended"] == 0 and scene.sheet("c2")["fatigue"] == 85
    with pytest.raises(BadValue, match="no untended Wounds"):
        scene.send({"type": "tend", "combatant": "c2", "patient": "c1", "skill": "First Aid"}, actor=bob)
    with pytest.raises(BadValue, match="The Director decides"):
        scene.send({"type": "tend", "combatant": "c1", "skill": "First Aid", "challenge": True}, actor=player("c1"))


def test_the_unconscious_are_revived_only_by_anothers_tending(scene: Scene) -> None:
    """Seed: "When your Wounds reach zero, you are prone, unconscious, and most likely will break
    the Injunction without the assistance of others"; "Such personae cannot perform any Actions
    until revived"."""
    scene.seat(persona("c1", "Ann", wounds=0, untended=20, fatigue=0))
    scene.seat(MEDIC)
    with pytest.raises(CannotAct):
        scene.send({"type": "rest", "combatant": "c1"})
    scene.send({"type": "tend", "combatant": "c2", "patient": "c1", "skill": "First Aid"}, 30)
    assert (scene.sheet("c1")["wounds"], scene.sheet("c1")["untended"]) == (5, 0)
    scene.send({"type": "rest", "combatant": "c1"})
    assert scene.sheet("c1")["fatigue"] == 100


def test_an_npc_tenders_figures_stay_behind_the_screen(scene: Scene) -> None:
    """The decided reading: "an NPC's sheet is the GM's unless the GM shows it": its BASE in a
    tending goes to the Director's part; the roll and its band are everyone's."""
    scene.seat(HURT)
    scene.seat({**MEDIC, "npc": True})
    [tended] = scene.send({"type": "tend", "combatant": "c2", "patient": "c1", "skill": "First Aid"}, 30)
    assert "check" in tended[GM_PART]["keys"] and "BASE" in tended[GM_PART]["line"]
    line = public_line(tended, scene.state)
    assert "BASE" not in line and "rolls 30" in line


def test_downed_means_a_rest_in_the_next_turn_not_a_trap(scene: Scene) -> None:
    """Seed: "Persona whose Fatigue reduces by Damage, Consequences, or Results to zero is
    'Downed' and may only make a Resting Action in the next Turn." Reading: the rest the rules
    force ends with that Turn; the drain of untended Wounds during it does not Down the Persona
    again, so with the box it regains it may tend its own wounds the Turn after."""
    bob = persona("c2", "Bob")
    scene.fight(persona("c1", "Ann", wounds=50, untended=50, fatigue=0, skills={"First Aid": 40}), bob)
    assert scene.state["combat"]["declared"]["c1"]["auto"], "Downed: its rest is declared for it"
    scene.rest("c2")
    scene.resolve()
    ann = scene.person("c1")
    assert (ann["fatigue"], ann["downed"]) == (5, False)
    assert "c1" not in scene.state["combat"]["declared"], "Ann declares for herself this Turn"
    scene.send({"type": "tend", "combatant": "c1"})
    scene.rest("c2")
    scene.send({"type": "tend", "combatant": "c1", "skill": "First Aid"}, 30)
    scene.resolve()
    assert scene.person("c1")["untended"] == 0


def test_leaving_the_scene_recovers_fatigue(scene: Scene) -> None:
    """Seed: "Recovery of Fatigue occurs when the Persona rests, exits the Scene, or has some
    Effect restore it": one the Director sends from the Scene recovers to its eligible level,
    and the sheet keeps it when the fight ends."""
    scene.fight(persona("c1", "Ann", fatigue=40, wounds=90, untended=10), persona("c2", "Bob"))
    [left] = scene.send({"type": "set_status", "combatant": "c1", "status": "fled below deck", "present": False})
    assert left["recovered"] == 90 and scene.person("c1")["fatigue"] == 90
    assert "recovers Fatigue to 90" in public_line(left, scene.state)
    scene.send({"type": "end"})
    assert scene.sheet("c1")["fatigue"] == 90


def test_the_director_takes_back_a_rest_and_the_sheet_follows(scene: Scene) -> None:
    """The Director's undo takes back a step outside a fight too: the sheets go back to what they
    held before it (a rest, a tending, a correction)."""
    scene.seat(HURT)
    scene.seat(MEDIC)
    scene.send({"type": "rest", "combatant": "c1"})
    assert scene.sheet("c1")["fatigue"] == 90
    scene.send({"type": "tend", "combatant": "c2", "patient": "c1", "skill": "First Aid"}, 30)
    assert (scene.sheet("c1")["untended"], scene.sheet("c2")["fatigue"]) == (0, 95)
    [undone] = scene.send({"type": "undo"})
    assert (scene.sheet("c1")["untended"], scene.sheet("c2")["fatigue"]) == (10, 100)
    scene.send({"type": "undo"})
    assert (scene.sheet("c1")["fatigue"], scene.sheet("c1")["wounds"]) == (30, 80)
