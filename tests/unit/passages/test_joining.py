"""Reinforcements (issue 27): a Persona joins a fight at the next Turn's Declarations, a contest
at its next round, without ending either."""

from __future__ import annotations

import pytest

from games.core.engine import NotYourMove
from games.passages.errors import NotNow
from games.passages.state import waiting_to_declare
from tests.unit.passages.helpers import Scene, of_type, persona, player

ANN = persona("c1", "Ann", combat_skill="Brawl", defense_skill="Brawl", weapon_damage=4)
BOB = persona("c2", "Bob", combat_skill="Brawl", defense_skill="Brawl", weapon_damage=4)
CAL = persona("c3", "Cal", combat_skill="Brawl", defense_skill="Brawl", weapon_damage=4)


def test_a_persona_joins_a_fight_at_the_next_turns_declarations(scene: Scene) -> None:
    """Seed: "GAME STATE- The director outlines the details, conditions, and positions of all
    known opponents and extras on the Scene at the beginning of the Stage or Turn", then
    "DECLARATION - Each Persona in the Scene declares": one who arrives mid-Turn is in the next
    Turn's Game State and declares then; the fight goes on."""
    scene.fight(ANN, BOB)
    scene.attack("c1", "c2")
    scene.seat(CAL)
    scene.send({"type": "join", "combatants": ["c3"]})
    assert waiting_to_declare(scene.state) == ["c2"], "Cal joins next Turn"
    with pytest.raises(NotNow, match="already"):
        scene.send({"type": "join", "combatants": ["c3"]})
    scene.attack("c2", "c1")
    scene.roll("c1", 10)
    scene.roll("c2", 10)
    events = scene.resolve()
    [opened] = of_type(events, "turn_started")
    assert [r["combatant"] for r in opened["game_state"]] == ["c1", "c2", "c3"]
    assert scene.state["mode"] == "combat" and waiting_to_declare(scene.state) == ["c1", "c2", "c3"]
    scene.attack("c1", "c3")


def test_a_persona_joins_a_contest_at_its_next_round(scene: Scene) -> None:
    """Seed: "both actors (or more than two, if the opposing actions are different enough to
    justify it) make their independent Checks as directed."""
    scene.contest(ANN, BOB)
    scene.contest_roll("c1", "Stealth", 30)
    scene.seat(CAL)
    scene.send({"type": "join", "combatants": ["c3"]})
    assert scene.state["contest"]["active"] == ["c1", "c2"]
    scene.contest_roll("c2", "Stealth", 30)
    assert scene.state["contest"]["active"] == ["c1", "c2", "c3"] and scene.state["contest"]["round"] == 2


def test_only_the_director_brings_in_reinforcements(scene: Scene) -> None:
    """The Director sets the Scene; a player cannot add a Persona to it."""
    scene.fight(ANN, BOB)
    scene.seat(CAL, owner=2)
    with pytest.raises(NotYourMove):
        scene.send({"type": "join", "combatants": ["c3"]}, actor=player("c3"))
