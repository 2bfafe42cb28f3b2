"""The whole Game State (issue 27): each Persona's Combat Status and presence, in the Turn's
opening line and on every seat's panel; one who has left is no target."""

from __future__ import annotations

import pytest

from games.contract import Seat
from games.core.engine import RuleError
from games.passages.narrate import public_line
from games.passages.panel import view
from games.passages.sides import over, roster
from tests.unit.passages.helpers import Scene, of_type, persona, platform_id

ANN = persona("c1", "Ann", combat_skill="Brawl", defense_skill="Brawl", weapon_damage=4)
BOB = persona("c2", "Bob", combat_skill="Brawl", defense_skill="Brawl", weapon_damage=4)
CAL = persona("c3", "Cal", combat_skill="Brawl", defense_skill="Brawl", weapon_damage=4, npc=True)
DAN = persona("c4", "Dan", combat_skill="Brawl", defense_skill="Brawl", weapon_damage=4, npc=True)


def _turn_one(scene: Scene) -> list[dict]:
    scene.fight(ANN, BOB, CAL, DAN)  # Dan stays: the NPCs' side still stands, the fight goes on
    scene.send({"type": "set_status", "combatant": "c1", "status": "on the stairs, bleeding"})
    scene.send({"type": "set_status", "combatant": "c3", "status": "teleported away", "present": False})
    scene.send({"type": "rest", "combatant": "c4"})
    return scene.exchange("c1", "c2", 10, 10)


def test_the_game_state_lists_combat_status_and_who_has_left(scene: Scene) -> None:
    """Seed: "The Game State is an overview or reminder of every General Conditions of the Scene,
    each Persona's Health, Fatigue, Combat Eligibility and Combat Status"; "Combat Eligibility
    is the clarification of whether a Persona CAN continue the Combat into the next Turn.
    (Health or Fatigue at or below Zero, or the Persona is teleported away, for instance)"."""
    events = _turn_one(scene)
    [opened] = of_type(events, "turn_started")
    rows = {r["combatant"]: r for r in opened["game_state"]}
    assert rows["c1"]["status"] == "on the stairs, bleeding" and rows["c1"]["present"]
    assert rows["c3"]["present"] is False and rows["c3"]["eligible"] is False
    assert rows["c3"]["status"] == "teleported away"
    line = public_line(opened, scene.state)
    assert "Ann" in line and "on the stairs, bleeding" in line
    assert "Cal has left the Scene (teleported away)" in line


@pytest.mark.parametrize("seat", [Seat("gm"), Seat("player", member=2, controls=frozenset({"c1"}),
                                                    hidden=frozenset({"c3"})), Seat(hidden=frozenset({"c3"}))])
def test_every_seat_sees_status_and_presence_and_no_departed_target(scene: Scene, seat: Seat) -> None:
    """Seed: "GAME STATE- The director outlines the details, conditions, and positions of all
    known opponents and extras on the Scene at the beginning of the Stage or Turn." A Persona
    who has left is shown gone, and nobody is offered it as a target."""
    _turn_one(scene)
    fight = view(scene.state, seat)["combat"]
    rows = {r["id"]: r for r in fight["rows"]}
    assert rows["c1"]["status"] == "on the stairs, bleeding"
    assert rows["c3"]["gone"] and rows["c3"]["status"] == "teleported away"
    assert [t["id"] for t in fight["targets"]] == ["c1", "c2", "c4"]
    assert "c3" not in [t["id"] for t in rows["c1"]["targets"]]
    with pytest.raises(RuleError, match="Cal is gone from the Scene and cannot be attacked"):
        scene.attack("c1", "c3")


def test_the_roster_says_who_is_out_as_combat_eligibility_does(scene: Scene) -> None:
    """Seed: "Combat Eligibility is the clarification of whether a Persona CAN continue the
    Combat into the next Turn. (Health or Fatigue at or below Zero, or the Persona is teleported
    away, for instance)". The Downed, the Unconscious and one gone are out; reinforcements
    called in stand on their side; PCs and NPCs are the sides unless the Director moves one."""
    eve = persona("c5", "Eve", combat_skill="Brawl", defense_skill="Brawl", weapon_damage=4, npc=True)
    scene.seat(eve)
    scene.fight({**ANN, "fatigue": 0}, {**BOB, "wounds": 0}, CAL, DAN)
    scene.send({"type": "set_status", "combatant": "c3", "status": "teleported away", "present": False})
    scene.send({"type": "join", "combatants": ["c5"]})
    rows = {f.cid: (f.side, f.out, f.why) for f in roster(scene.state)}
    assert rows == {"c1": ("PCs", True, "Downed"), "c2": ("PCs", True, "Unconscious"),
                    "c3": ("NPCs", True, "gone from the Scene"), "c4": ("NPCs", False, ""),
                    "c5": ("NPCs", False, "")}
    assert over(scene.state) == (True, "NPCs")
    scene.send({"type": "set_side", "character": platform_id("c4"), "side": "PCs"})
    assert [f.side for f in roster(scene.state)][3] == "PCs" and over(scene.state) == (False, None)
