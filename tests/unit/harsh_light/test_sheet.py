"""The sheet: World of Darkness Attributes and Skills, Willpower, Defence, Speed, again."""

from __future__ import annotations

import pytest

from games.harsh_light import sheet as sh
from games.harsh_light.pools import build
from games.sheets import SheetError, SheetField


def test_the_sheet_names_the_resistance_traits_and_the_rest() -> None:
    """Seed: "a Resistance trait (Resolve, Stamina, or Composure)"; "a pool of Attribute + Skill";
    the issue: "Willpower, Defence, Speed" and "8-again" or "9-again" on the sheet."""
    keys = [f.key for f in sh.FIELDS]
    assert all(isinstance(f, SheetField) for f in sh.FIELDS)
    for key in ("resolve", "stamina", "composure", "intelligence", "wits", "strength", "dexterity",
                "presence", "manipulation", "skills", "willpower", "willpower_points", "defence",
                "speed", "again"):
        assert key in keys
    assert len(sh.ATTRIBUTES) == 9 and len(sh.SKILLS) == 24
    assert sh.RESISTANCE == ("resolve", "stamina", "composure")


def test_a_blank_sheet_cleans_to_one_dot_and_derived_traits() -> None:
    clean = sh.clean_sheet({})
    assert clean["wits"] == 1 and clean["skills"] == {} and clean["again"] == 10
    assert clean["defence"] is None and clean["willpower"] is None
    assert sh.defence(clean) == 1 and sh.willpower_dots(clean) == 2 and sh.speed(clean) == 7


def test_derived_traits_follow_the_world_of_darkness() -> None:
    """Defence the lower of Wits and Dexterity, Speed Strength + Dexterity + 5, Willpower Resolve +
    Composure, initiative Dexterity + Composure (the issue: "Dexterity + Composure + a pull")."""
    clean = sh.clean_sheet({"wits": "3", "dexterity": 2, "strength": 3, "resolve": 2, "composure": 4})
    assert sh.defence(clean) == 2 and sh.speed(clean) == 10 and sh.willpower_dots(clean) == 6
    assert sh.willpower_points(clean) == 6 and sh.initiative_modifier(clean) == 6
    assert ("Defence", "2") in sh.glance(clean).stats and ("Willpower", 6, 6) in sh.glance(clean).tracks


def test_a_typed_derived_trait_overrides() -> None:
    clean = sh.clean_sheet({"defence": 4, "speed": 12, "willpower": 5, "willpower_points": 3})
    assert (sh.defence(clean), sh.speed(clean), sh.willpower_dots(clean), sh.willpower_points(clean)) == (4, 12, 5, 3)


def test_skills_are_read_from_lines_by_their_names() -> None:
    clean = sh.clean_sheet({"skills": "firearms: 3\nAnimal ken: 1\nStealth: 0"})
    assert clean["skills"] == {"Firearms": 3, "Animal Ken": 1}
    assert sh.skill(clean, "animal_ken") == 1 and sh.skill(clean, "stealth") == 0
    assert sh.clean_sheet(clean)["skills"] == clean["skills"]  # a stored sheet cleans to itself


@pytest.mark.parametrize(("data", "field", "words"), [
    ({"wits": 0}, "wits", "Wits must be from 1 to 10"),
    ({"wits": "lots"}, "wits", "whole number"),
    ({"skills": "Hacking: 2"}, "skills", "not a World of Darkness Skill"),
    ({"skills": "Firearms: x"}, "skills", "whole number"),
    ({"skills": "Firearms: 2\nfirearms: 3"}, "skills", "listed twice"),
    ({"skills": "no colon"}, "skills", "Name: value"),
    ({"again": 7}, "again", "10, 9 or 8"),
    ({"willpower": 3, "willpower_points": 4}, "willpower_points", "cannot be more"),
    ({"defence": -1}, "defence", "Defence must be"),
])
def test_clean_sheet_refuses_with_a_clear_message(data: dict, field: str, words: str) -> None:
    with pytest.raises(SheetError) as raised:
        sh.clean_sheet(data)
    assert raised.value.field == field and words in raised.value.message


def test_a_pool_is_attribute_plus_skill_each_part_named() -> None:
    """Seed: "a pool of Attribute + Skill"."""
    person = sh.clean_sheet({"dexterity": 3, "skills": "Firearms: 2"})
    pool = build(person, "dexterity", "firearms", modifier=-1, reason="cover")
    assert pool.size == 4 and pool.describe() == "Dexterity 3 + Firearms 2 - cover 1 = 4"


def test_a_pool_may_be_two_attributes() -> None:
    """Resisting, World of Darkness pools Resolve + Composure; the seed's Resistance traits."""
    person = sh.clean_sheet({"resolve": 3, "composure": 2})
    assert build(person, "resolve", "composure").size == 5


def test_an_untrained_skill_costs_as_in_the_world_of_darkness() -> None:
    """The decided reading: the World of Darkness penalty (-3 Mental, -1 Physical and Social) "is a
    table option the Storyteller turns on, off by default, and shown in the pool's breakdown when on"."""
    person = sh.clean_sheet({"intelligence": 2, "dexterity": 2})
    assert build(person, "intelligence", "occult").parts == (("Intelligence", 2), ("Occult", 0))
    assert build(person, "intelligence", "occult", untrained=True).parts[-1] == ("untrained Mental Skill", -3)
    assert build(person, "dexterity", "stealth", untrained=True).size == 1
