"""Modifiers that last (issue 27): a Status or the Conditions carry a modifier to the Combat Roll
that stays, Turn after Turn, until the Director changes it."""

from __future__ import annotations

from games.contract import Seat
from games.passages.panel import view
from tests.unit.passages.helpers import GARBO, TRAYER, Scene, of_type


def test_a_status_modifier_lasts_until_the_director_changes_it(scene: Scene) -> None:
    """Seed: "Conditional Advantages might be fighting from a tower, shooting from behind cover";
    "because of the torch fire, the Director determines that if he attacks, he has a Condition
    modifier of -20 ... He rolls a 33. After reducing it by the Director's modifier of -20, it
    is still a 13." The torch burns on into the next Turn: so does the -20."""
    scene.fight(TRAYER, GARBO)
    scene.send({"type": "set_status", "combatant": "c2", "status": "fears the torch", "modifier": -20})
    for _ in range(2):
        scene.rest("c1")
        scene.attack("c2", "c1")
        [rolled] = of_type(scene.roll("c2", 33), "combat_rolled")
        assert (rolled["timing"], rolled["total"]) == (-20, 38)
        scene.resolve()
    scene.send({"type": "set_status", "combatant": "c2", "status": "the torch is out", "modifier": 0})
    scene.rest("c1")
    scene.attack("c2", "c1")
    [rolled] = of_type(scene.roll("c2", 33), "combat_rolled")
    assert rolled["timing"] == 0


def test_conditions_carry_a_modifier_for_everyone(scene: Scene) -> None:
    """Seed: "Timing is a result of Combat Status, and modifies the Combat roll"; the Director
    "adds any changes to the Conditions of the Engagement". Rain on the deck: -5 to every Combat
    Roll, with this Turn's Timing on top; shown to every seat."""
    scene.fight(TRAYER, GARBO)
    scene.send({"type": "set_conditions", "conditions": "rain on the deck", "modifier": -5})
    scene.attack("c1", "c2")
    scene.attack("c2", "c1")
    scene.send({"type": "timing", "combatant": "c1", "modifier": 10, "reason": "the high ground"})
    assert view(scene.state, Seat())["conditions_modifier"] == -5
    [mine] = of_type(scene.roll("c1", 42), "combat_rolled")
    [theirs] = of_type(scene.roll("c2", 42), "combat_rolled")
    assert (mine["timing"], theirs["timing"]) == (5, -5)
