"""Armour against Damage Types (issue 27): a weapon deals a type, armour has an effect per type,
effects combine in order, and a weapon with no damage set is refused when declared."""

from __future__ import annotations

import pytest

from games.passages.combat import damage, parse_armour
from games.passages.errors import BadValue
from games.passages.sheet import clean
from tests.unit.passages.helpers import GARBO, TRAYER, Scene, of_type, persona


def test_armour_compares_against_the_damage_type() -> None:
    """Seed: "The Damage that Trayer did to Garbo compares against the Damage Type of the
    Urgluch's Armor." A mail shirt halves Slashing, takes 1 off Shattering, and leaves any other
    type as it is."""
    mail = parse_armour("Slashing: halve; Shattering: -1; none")
    assert damage(6, 50, mail, "Slashing").dealt == 3
    assert damage(6, 50, mail, "shattering").dealt == 5
    assert damage(6, 50, mail, "Piercing").dealt == 6
    assert damage(6, 50, mail, "").dealt == 6
    assert mail.label == "Slashing: halve; Shattering: -1"


def test_armour_effects_combine_in_order() -> None:
    """Seed: "Armor can Increase, Decrease, Halve, or Double the damage, based on its
    characteristics": one armour may do more than one ("halve, then -1")."""
    assert damage(7, 50, parse_armour("halve, then -1")).dealt == 2
    assert damage(7, 50, parse_armour("-1 then halve")).dealt == 3
    assert parse_armour("Halve, then -1").label == "halve, then -1"
    with pytest.raises(BadValue):
        parse_armour("Slashing: chainmail")


def test_turn_one_with_damage_types(scene: Scene) -> None:
    """Seed: "landing Damage a 3 point Slashing Wound"; "The Urgluch Attack landed a 3-point
    Shattering Wound to Trayer"; "At the end of Turn One, Trayer is at 99 Wounds and 94 Fatigue
    remaining. Garbo is slightly worse, at 98 Wounds and 93 Fatigue." Brigantine halves
    Shattering; the hide takes 1 off Slashing."""
    trayer = {**TRAYER, "weapon_type": "Slashing", "armour_effect": "Shattering: halve; Slashing: halve"}
    garbo = {**GARBO, "weapon_type": "Shattering", "armour_effect": "Slashing: -1"}
    scene.fight(trayer, garbo)
    scene.attack("c1", "c2")
    scene.attack("c2", "c1")
    scene.roll("c1", 42)
    [_, pairing] = scene.roll("c2", 80)
    types = {w["to"]: w["damage"]["type"] for w in pairing["wounds"]}
    assert types == {"c1": "Shattering", "c2": "Slashing"}
    scene.resolve()
    assert (scene.track("c1"), scene.track("c2")) == ((99, 94), (98, 93))


def test_a_weapon_with_no_damage_set_is_refused_when_declared(scene: Scene) -> None:
    """Seed: "Most Weapons do a set amount of Damage": a blank damage is not a silent 0; the
    Declaration may name it (0 for a shove)."""
    assert clean({"skills": {"Brawl": 30}})["weapon_damage"] is None
    scene.fight(persona("c1", "Ann", combat_skill="Brawl"), persona("c2", "Bob", weapon_damage=2))
    with pytest.raises(BadValue, match="no damage set"):
        scene.attack("c1", "c2")
    [declared] = of_type(scene.attack("c1", "c2", damage=0), "declared")
    assert declared["declaration"]["damage"] == 0
