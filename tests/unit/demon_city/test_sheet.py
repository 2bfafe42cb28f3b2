"""The Demon City sheet: field description and the Combatant built from it."""

from __future__ import annotations

import json

import pytest

from games.core.engine import RuleError
from games.demon_city.combatant import SHEET_FIELDS, STAT_NAMES, Combatant, derived_values


def test_sheet_fields_describe_every_stat_skill_and_toughness_as_plain_data():
    """Issue 4: "stats ranked 0-9 ... Agility, Toughness, skills such as Hand-to-Hand,
    Firearms, Exotic Weapons ... Base and Current Toughness; armour ... injured or not;
    out of the fight or not; side"."""
    names = [f["name"] for f in SHEET_FIELDS]
    for wanted in (*STAT_NAMES, "current_toughness", "armour", "injured", "out_of_fight",
                   "side", "skills"):
        assert wanted in names
    assert json.loads(json.dumps(SHEET_FIELDS)) == SHEET_FIELDS
    for spec in SHEET_FIELDS:
        assert {"name", "label", "kind", "default", "min", "max"} <= set(spec)


def test_defaults_from_sheet_fields_build_a_valid_combatant():
    """Every default in SHEET_FIELDS is accepted by the Combatant it describes."""
    data = {f["name"]: f["default"] for f in SHEET_FIELDS}
    person = Combatant.from_dict({**data, "id": "x"})
    assert person.current_toughness == person.toughness
    assert Combatant.from_dict(person.to_dict()) == person


@pytest.mark.parametrize("stat", STAT_NAMES)
def test_stats_are_ranked_0_to_9(stat):
    """Seed: "All character stats are ranked from 0-9"."""
    assert Combatant.from_dict({"id": "x", stat: 9}).stat(stat) == 9
    with pytest.raises(RuleError):
        Combatant.from_dict({"id": "x", stat: 10})
    with pytest.raises(RuleError):
        Combatant.from_dict({"id": "x", stat: -1})


def test_supernatural_stats_have_no_maximum():
    """Seed: "(or possibly more, with no maximum, if the supernatural is involved)"."""
    demon = Combatant.from_dict({"id": "crysoloth", "supernatural": True, "toughness": 14,
                                 "agility": 11, "skills": {"devour": 20}})
    assert (demon.agility, demon.toughness, demon.stat("devour")) == (11, 14, 20)


def test_gm_added_skills_are_ratings_too():
    """Issue 4: "the GM can add more" skills; an absent skill rates 0."""
    driver = Combatant.from_dict({"id": "d", "skills": {"driving": 6}})
    assert driver.stat("driving") == 6 and driver.has_stat("driving")
    assert driver.stat("lockpicking") == 0 and not driver.has_stat("lockpicking")
    with pytest.raises(RuleError):
        Combatant.from_dict({"id": "d", "skills": {"agility": 4}})


def test_kevlar_raises_base_toughness_for_damage_only():
    """Seed: "Kevlar and other protection raises your Base Toughness for these purposes"."""
    cop = Combatant.from_dict({"id": "cop", "toughness": 3, "armour": 2})
    assert cop.damage_toughness == 5
    assert cop.toughness == 3 and cop.current_toughness == 3


def test_bad_values_are_refused_with_a_rule_error():
    """A sheet with a typo or a wrong type never becomes a combatant."""
    for bad in ({"id": "x", "agilty": 3}, {"id": "x", "agility": True},
                {"id": "x", "agility": "3"}, {"id": ""}, {"id": "x", "armour": -1},
                {"id": "x", "toughness": 2, "current_toughness": 3}):
        with pytest.raises(RuleError):
            Combatant.from_dict(bad)


def test_derived_values_show_the_damage_dice_a_hit_rolls():
    """Seed: "They take a number of d10s equal to the target's Base Toughness ... If their
    Toughness is 0 you still roll one die" and "Kevlar ... raises your Base Toughness"."""
    assert derived_values({"toughness": 3})["damage_dice"] == 3
    assert derived_values({"toughness": 0})["damage_dice"] == 1
    assert derived_values({"toughness": 2, "armour": 3})["damage_dice"] == 5
    assert derived_values({"injured": True})["lost_die_for_injury"] is True


def test_current_toughness_may_go_below_zero():
    """Seed: "The actual negative number past -1 doesn't matter" -- but it is recorded."""
    person = Combatant.from_dict({"id": "x", "toughness": 2, "current_toughness": -6})
    assert person.current_toughness == -6


def test_able_means_present_in_the_fight_and_alive():
    """Only an able entity announces and rolls."""
    assert Combatant.from_dict({"id": "x"}).able
    for flag in ({"out_of_fight": True}, {"present": False}, {"dead": True}):
        assert not Combatant.from_dict({"id": "x", **flag}).able
