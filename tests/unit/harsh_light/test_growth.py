"""Harsh Light's Experiences spent (issue 36): the price of a purchase at the table's costs. The
decided reading quoted: "002, advancement: Beats as the World of Darkness games count them (a
Dramatic Failure, a session's end, a Storyteller's award); five Beats make an Experience;
Experiences buy dots (Attribute 4 a dot, Skill 2, Specialty 1: table options).\""""

from __future__ import annotations

from typing import Any

import pytest

from games.core import clock
from games.core.growth import Price
from games.harsh_light.campaign import CLOCK
from games.harsh_light.growth import ATTRIBUTE_EXPERIENCES, GROWTH, OPTIONS, SKILL_EXPERIENCES, SPECIALTY_EXPERIENCES
from games.harsh_light.sheet import clean_sheet, glance
from games.sheets import SheetError

ALFIE = {"wits": 2, "dexterity": 3, "strength": 2, "skills": {"Brawl": 2, "Firearms": 1}, "experiences": 12}


def price(after: dict[str, Any], before: dict[str, Any] | None = None, state: dict[str, Any] | None = None) -> Price:
    sheet = clean_sheet({**ALFIE, **(before or {})})
    return GROWTH.price(sheet, {**sheet, **after}, state or {})


def options(**costs: int) -> dict[str, Any]:
    """A state whose table options the Storyteller set (the clock's ``set_option`` folds so)."""
    return {"options_set": costs}


def test_the_pool_is_experiences_and_the_growth_events_are_beats() -> None:
    assert (GROWTH.pool, GROWTH.unit, GROWTH.kinds) == ("experiences", "Experiences", ("beats_gained",))


def test_attribute_4_a_dot_skill_2_specialty_1() -> None:
    """The decided reading: "Experiences buy dots (Attribute 4 a dot, Skill 2, Specialty 1...)"."""
    assert price({"wits": 3}) == Price(4, ("Wits 2 → 3: 4 Experiences",))
    assert price({"skills": {"Brawl": 3, "Firearms": 1}}) == Price(2, ("Brawl 2 → 3: 2 Experiences",))
    assert price({"specialties": "Firearms: Pistols"}) == Price(1, ("A Specialty, Firearms: Pistols: 1 Experience",))


def test_a_rise_of_two_dots_costs_both_and_a_new_skill_starts_from_none() -> None:
    assert price({"wits": 4}) == Price(8, ("Wits 2 → 4: 8 Experiences (4 + 4)",))
    assert price({"skills": {"Brawl": 4, "Firearms": 1, "Occult": 1}}) == Price(
        6, ("Occult 0 → 1: 2 Experiences", "Brawl 2 → 4: 4 Experiences (2 + 2)"))  # the sheet's order of Skills
    # a Skill and a Specialty in it, bought together
    assert price({"skills": {**ALFIE["skills"], "Occult": 1}, "specialties": "Occult: Ghosts"}).cost == 3


def test_the_costs_are_table_options() -> None:
    assert [(o.key, o.default) for o in OPTIONS] == [
        (ATTRIBUTE_EXPERIENCES, 4), (SKILL_EXPERIENCES, 2), (SPECIALTY_EXPERIENCES, 1)]
    assert {o.key for o in OPTIONS} <= {o.key for o in CLOCK.options}  # the Storyteller sets them
    assert all("decided reading" in o.why for o in OPTIONS)
    assert price({"wits": 3, "skills": {"Brawl": 3, "Firearms": 1}},
                 state=options(attribute_experiences=5, skill_experiences=3)).cost == 8
    with pytest.raises(SheetError, match="not for sale"):
        price({"specialties": "Brawl: Boxing"}, state=options(specialty_experiences=0))


def test_the_option_set_in_the_campaign_box_is_the_one_read() -> None:
    state: dict[str, Any] = {}
    for move in clock.moves(CLOCK):
        if move.name == clock.SET_OPTION:
            [event] = move.handle(state, {"option": ATTRIBUTE_EXPERIENCES, "value": 6}, None)  # type: ignore[arg-type]
            clock.FOLDS[event["type"]](state, event)
    assert price({"wits": 3}, state=state).cost == 6


def test_five_dots_is_a_mortals_most_and_blood_potency_lifts_it() -> None:
    with pytest.raises(SheetError, match="Brawl above 5 cannot be bought") as past:
        price({"skills": {"Brawl": 6, "Firearms": 1}}, before={"skills": {"Brawl": 5, "Firearms": 1}})
    assert past.value.field == "skills"
    with pytest.raises(SheetError, match="Wits above 5"):
        price({"wits": 6}, before={"wits": 5})
    assert price({"wits": 7}, before={"wits": 6, "blood_potency": 7, "vampire": True}).cost == 4


def test_what_is_not_bought_is_refused() -> None:
    with pytest.raises(SheetError, match="never lowers"):
        price({"dexterity": 2})
    with pytest.raises(SheetError, match="never lowers"):
        price({"skills": {"Brawl": 2}})  # Firearms dropped
    with pytest.raises(SheetError, match="a Specialty needs a dot in its Skill"):
        price({"specialties": "Occult: Ghosts"})
    with pytest.raises(SheetError, match="never gives up a Specialty"):
        price({"specialties": ""}, before={"specialties": "Brawl: Boxing"})
    for key, value in (("defence", 5), ("blood_potency", 1), ("again", 9), ("size", 6), ("vampire", True)):
        with pytest.raises(SheetError, match="not bought with experience") as refused:
            price({key: value})
        assert refused.value.field == key
    for key, value in (("experiences", 40), ("beats", 4), ("bashing", 0), ("willpower_points", 0)):
        with pytest.raises(SheetError, match="kept by the rules"):
            price({key: value}, before={"bashing": 1})


def test_a_weapon_is_gear_the_storyteller_allows_for_nothing() -> None:
    assert price({"weapon": "Knife", "weapon_damage": 1}) == Price(0, (
        "Weapon none → Knife: gear, the GM's to allow (free)", "Weapon damage none → 1: gear, the GM's to allow (free)"))


def test_specialties_are_on_the_sheet_and_its_card() -> None:
    sheet = clean_sheet({**ALFIE, "specialties": "firearms:  Pistols \nanimal ken: Dogs"})
    assert sheet["specialties"] == "Firearms: Pistols\nAnimal Ken: Dogs"
    assert ("Specialties", "Firearms (Pistols), Animal Ken (Dogs)") in glance(sheet).stats
    for bad in ("Flight: Soaring", "Brawl: " + "x" * 31, "Brawl: Boxing\nbrawl: boxing", "Brawl"):
        with pytest.raises(SheetError) as refused:
            clean_sheet({**ALFIE, "specialties": bad})
        assert refused.value.field == "specialties"
