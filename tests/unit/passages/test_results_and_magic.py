"""What the Resolution Point settles beyond the dice (issue 27): the Director's Results and
Consequences and a strenuous action's extra ticks, entered, logged and applied in the seed's
order; and magic in combat, on the Magical Combat and Defense Effects, spending Magical
Resources."""

from __future__ import annotations

import pytest

from games.contract import Seat
from games.core.engine import NotYourMove
from games.passages.errors import BadValue, CannotAct
from games.passages.narrate import public_line
from games.passages.panel import view
from tests.unit.passages.helpers import Scene, of_type, persona, player

ANN = persona("c1", "Ann", combat_skill="Brawl", defense_skill="Brawl", weapon_damage=4,
              skills={"Brawl": 30, "Fire Bolt": 40, "Warding": 35}, magic_combat="Fire Bolt",
              magic_defense="Warding")
BOB = persona("c2", "Bob", combat_skill="Brawl", defense_skill="Brawl", weapon_damage=4)


def test_results_and_consequences_are_the_directors_entries(scene: Scene) -> None:
    """Seed: "Consequences from Contested or Uncontested Non-combat Actions resolve." / "RESULTS
    from Contested Failures (CFs) or Critical Wounds (CWs) resolve before a new
    Turn/Stage/Scene."; "Some are more strenuous than others, exerting more Fatigue costs (by
    choice of the Director)". Each entry is logged when made and applied at the Resolution Point."""
    scene.fight(ANN, BOB)
    scene.out("c1", "hauls the gate shut")
    scene.out("c2", "watches")
    [strain] = scene.send({"type": "result", "combatant": "c1", "kind": "strain", "fatigue": 10,
                           "text": "the gate is heavy"})
    assert "the gate is heavy" in public_line(strain, scene.state)
    scene.send({"type": "result", "combatant": "c2", "kind": "critical_wound", "wounds": 15, "fatigue": 15,
                "text": "a shard in the eye"})
    with pytest.raises(NotYourMove):
        scene.send({"type": "result", "combatant": "c2", "kind": "consequence", "fatigue": 5}, actor=player("c2"))
    with pytest.raises(BadValue):
        scene.send({"type": "result", "combatant": "c2", "kind": "miracle", "fatigue": 5})
    [point, _] = scene.resolve()
    rows = {r["combatant"]: r for r in point["rows"]}
    assert (rows["c1"]["consequences"], rows["c2"]["results"]) == (10, 15)
    assert scene.track("c1") == (100, 95), "10 for the strain, then a box regained for no Combat Action"
    assert scene.track("c2") == (85, 85), "a Critical Wound is a Wound: untended, it holds back recovery"
    assert "a shard in the eye" in view(scene.state, Seat())["combat"]["last_resolution"]["rows"][1]["why"]


def test_magic_in_combat_uses_the_magical_effects_and_spends_magical_resources(scene: Scene) -> None:
    """Seed: "Magic Actions that are damage-dealing resolve into Magical Effects when the Attack
    Roll + Selected Combat > Selected Defense. Selected Defense is replaced by Magical Defense
    Effect when it applies, and Magical Combat Effect replaces Selected Combat when that
    applies." Reading: a magic attack's exertion is a tick of Magical Resources, not Fatigue."""
    scene.fight(ANN, BOB)
    scene.attack("c1", "c2", magic=True)
    scene.attack("c2", "c1")
    [mine] = of_type(scene.roll("c1", 10), "combat_rolled")
    assert (mine["combat_skill"], mine["combat"], mine["total"]) == ("Fire Bolt", 40, 50)
    scene.roll("c2", 10)
    [point, _] = scene.resolve()
    ann = {r["combatant"]: r for r in point["rows"]}["c1"]
    assert ann["magic_spent"] == 5 and ann["action"] == 0
    assert scene.person("c1")["magic"] == 95
    assert view(scene.state, Seat())["scene"]["c1"]["magic"]["value"] == 95


def test_a_magic_attack_meets_the_magical_defense_and_needs_resources(scene: Scene) -> None:
    """Seed: "Selected Defense is replaced by Magical Defense Effect when it applies": Bob's Fire
    Bolt meets Ann's Warding 35, not her Brawl 30. With no Magical Resources left, no spell."""
    bob = {**BOB, "skills": {"Brawl": 30, "Fire Bolt": 20}, "magic_combat": "Fire Bolt"}
    scene.fight(ANN, bob, persona("c3", "Cal", magic=0, magic_combat="Brawl", weapon_damage=1))
    scene.attack("c2", "c1", magic=True)
    with pytest.raises(CannotAct, match="Magical Resources"):
        scene.attack("c3", "c1", magic=True)
    scene.rest("c1")
    scene.rest("c3")
    [rolled] = of_type(scene.roll("c2", 10), "combat_rolled")
    assert (rolled["defense_skill"], rolled["defense"]) == ("Warding", 35)


def test_a_spells_odds_are_counted_against_the_magical_defense(scene: Scene) -> None:
    """Seed: "Selected Defense is replaced by Magical Defense Effect when it applies": the odds
    shown before the roll count Bob's spell (Fire Bolt 20) against Ann's Warding 35, not her
    Brawl 30: d100 + 20 > 35 on 85 faces of 100."""
    bob = {**BOB, "skills": {"Brawl": 30, "Fire Bolt": 20}, "magic_combat": "Fire Bolt"}
    scene.fight(ANN, bob)
    scene.rest("c1")
    scene.attack("c2", "c1", magic=True)
    [pairing] = view(scene.state, Seat("gm"))["combat"]["pairings"]
    assert pairing["odds"]["a_lands"] == 85
