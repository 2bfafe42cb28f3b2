"""What a new Persona may start with (Sheet.creation), and which fields the rules read
(SheetField rules "read"): a player's change to one of those, once the Persona is in play, is a
request the Director approves (issue 36, "Sheets in play": "Passages (skills to 95)").

The rules: "Persona advance over time from their lowest values in the first session, and
constantly improve toward the goal of Mastering the assorted Skills they choose to pursue"; a
Mastered skill is 95 ("This applies even to Mastered Skills (95%)")."""

from __future__ import annotations

import pytest

from games.passages.samples import SAMPLES
from games.passages.sheet import FIELDS, clean_sheet, creation
from games.registry import get

SHEET = get("passages").sheet
DEFAULTS = {f.key: f.default for f in FIELDS}


def past(data: dict) -> list[tuple[str, str]]:
    return SHEET.creation(clean_sheet(data))


def made(data: dict) -> dict:
    """The Persona the platform makes for a player whose sheet is past the limits: the fields
    named at their defaults."""
    cleaned = clean_sheet(data)
    return {**cleaned, **{key: DEFAULTS[key] for key, _ in SHEET.creation(cleaned)}}


def test_the_registration_carries_the_creation_limits() -> None:
    assert SHEET.creation is creation


def test_a_mastered_skill_is_past_what_a_new_persona_starts_with() -> None:
    """"Persona advance over time from their lowest values in the first session, and constantly
    improve toward the goal of Mastering"; "Mastered Skills (95%)"."""
    assert past({"skills": "Swords: 95\nCampfire: 33"}) == [
        ("skills", "Swords 95: a new Persona starts below Mastered (95) and works toward it.")]


def test_a_skill_just_below_mastered_passes() -> None:
    """The rules give no figure for "their lowest values": no lower ceiling is made up."""
    assert past({"skills": "Swords: 94\nCampfire: 1"}) == []


def test_each_mastered_skill_is_named() -> None:
    found = past({"skills": "Swords: 95\nSailing: 95\nCampfire: 33"})
    assert [why.split(":")[0] for _, why in found] == ["Swords 95", "Sailing 95"]
    assert {f for f, _ in found} == {"skills"}


def test_a_choice_naming_a_skill_asked_of_the_director_is_asked_with_it() -> None:
    """A Persona made without its skills could not have chosen one of them: the choices go with
    them, and the Persona made cleans and is within the limits."""
    data = {"skills": "Swords: 95\nWard: 40", "combat_skill": "Swords", "defense_skill": "Swords",
            "magic_defense": "Ward", "weapon": "Sabre", "weapon_damage": 4}
    found = past(data)
    assert [f for f, _ in found] == ["skills", "combat_skill", "defense_skill", "magic_defense"]
    assert found[1][1] == "Selected Combat (Swords): it names one of the skills asked of the Director."
    persona = made(data)
    assert clean_sheet(persona) == persona and SHEET.creation(persona) == []
    assert (persona["weapon"], persona["weapon_damage"]) == ("Sabre", 4)


def test_choices_are_not_asked_when_no_skill_is() -> None:
    assert past({"skills": "Swords: 60", "combat_skill": "Swords", "defense_skill": "Swords"}) == []


def test_weapon_damage_and_armour_have_no_creation_limit() -> None:
    """"Most Weapons do a set amount of Damage"; "Armor can Increase, Decrease, Halve, or Double
    the damage": the rules bound neither (and a blow deals no more than the attacker's skill)."""
    assert past({"skills": "Swords: 30", "weapon_damage": 95, "armour_effect": "halve, then -10"}) == []


def test_every_sample_player_character_is_within_the_limits() -> None:
    players = [s for s in SAMPLES if not s.npc]
    assert players and all(past(dict(s.sheet)) == [] for s in players)


def test_the_sample_npc_is_checked_too() -> None:
    """The Director's characters are never limited; Garbo (Two-Hander 25) is within them anyway."""
    assert [past(dict(s.sheet)) for s in SAMPLES if s.npc] == [[]]


# Every field the rules read, and which rule reads it.
READ = {
    "skills": "every Check, Challenge, Contest and combat roll is against a skill's BASE or Core",
    "combat_skill": "Selected Combat: the skill a combat roll adds",
    "defense_skill": "Selected Defense: what an attack must beat",
    "magic_combat": "\"Magical Combat Effect replaces Selected Combat when that applies\"",
    "magic_defense": "\"Selected Defense is replaced by Magical Defense Effect when it applies\"",
    "weapon": "\"Timing is altered by Weapons mismatches\": the Director weighs the weapon named",
    "weapon_damage": "\"Most Weapons do a set amount of Damage\"",
    "weapon_type": "armour treats each Damage Type as it says",
    "ranged": "\"Range weapons do not create a Combat Sequence unless their Opponent is also using Ranged Weapons\"",
    "armour": "the armour whose \"characteristics\" its effect stands for",
    "armour_effect": "\"Armor can Increase, Decrease, Halve, or Double the damage\"",
}


def test_the_fields_the_rules_read_are_marked_read() -> None:
    assert {f.key for f in FIELDS if f.rules == "read"} == set(READ)


def test_the_tracks_stay_the_rules() -> None:
    assert {f.key for f in FIELDS if f.rules == "kept"} == {"wounds", "fatigue", "untended", "magic"}
    assert {f.key for f in FIELDS if f.rules == ""} == set()


@pytest.mark.parametrize("spec", [f for f in FIELDS if f.rules == "read"], ids=lambda f: f.key)
def test_a_player_making_a_persona_sets_every_field_the_rules_read(spec) -> None:
    assert spec.player_sets(making=True) and spec.asked
    assert not spec.player_sets(making=False, in_play=True)
