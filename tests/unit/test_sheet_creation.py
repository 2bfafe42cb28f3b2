"""Every system's creation limits and "read" fields as the platform uses them (issue 36, "Sheets
in play"): a system's ``Sheet.creation`` names only fields of its sheet, with a plain sentence a
player reads; the sample player characters the contract kit makes as players are within the
limits; a player making a character may set every field the rules read, on the sheet form too;
Freeform, whose sheet is free text, reads nothing and limits nothing."""

from __future__ import annotations

import pytest

from games import registry
from games.registry import get
from tabletop.forms import CharacterForm

SYSTEMS = [get(key) for key in registry.PACKAGES]
# A sheet past every system's limits, in the words its form would send (what a player typed).
PAST = {
    "shadows": {"quickness": 20, "immunities": "fire", "skills": "Melee: 40"},
    "passages": {"skills": "Swords: 95", "combat_skill": "Swords"},
    "harsh_light": {"strength": 6, "defence": 4, "again": 8, "skills": "Firearms: 6"},
    "demon_city": {"supernatural": True, "agility": 9, "toughness": 12, "armour": 50, "skills": "Flight: 9"},
}


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.key)
def test_every_sample_player_character_is_within_its_system_s_creation_limits(system) -> None:
    """The contract kit makes the sample player characters as players."""
    for sample in system.samples:
        if not sample.npc:
            assert system.sheet.creation(system.clean_sheet(dict(sample.sheet))) == [], sample.name


@pytest.mark.parametrize("key", sorted(PAST))
def test_a_sheet_past_the_limits_names_fields_of_the_sheet_in_plain_sentences(key: str) -> None:
    system = get(key)
    found = system.sheet.creation(system.clean_sheet(PAST[key]))
    keys = {f.key for f in system.sheet_fields}
    assert found and all(field in keys for field, _ in found)
    assert all(why.endswith(".") and "seed" not in why.lower() for _, why in found)
    # the fields it names are all "read": what a player sets when making a character
    rules = {f.key: f.rules for f in system.sheet_fields}
    assert {rules[field] for field, _ in found} == {"read"}


@pytest.mark.parametrize("key", sorted(PAST))
def test_the_character_made_with_the_fields_named_at_their_defaults_is_within_the_limits(key: str) -> None:
    """What the platform makes for a player whose sheet is past the limits cleans, and passes."""
    system = get(key)
    cleaned = system.clean_sheet(PAST[key])
    defaults = {f.key: f.default for f in system.sheet_fields}
    made = system.clean_sheet({**cleaned, **{field: defaults[field] for field, _ in system.sheet.creation(cleaned)}})
    assert system.sheet.creation(made) == []


def test_freeform_reads_nothing_and_limits_nothing() -> None:
    freeform = get("freeform")
    assert {f.rules for f in freeform.sheet_fields} == {""}
    sheet = freeform.clean_sheet({"stats": "Agility: 99\nFlight: 9\nSupernatural: yes", "notes": "anything"})
    assert freeform.sheet.creation(sheet) == []


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.key)
def test_a_player_making_a_character_may_set_every_field_the_rules_read_on_the_form(system) -> None:
    """The sheet form a player makes a character with leaves each "read" field open (the
    platform asks the GM for those past the creation limits, not the form); on the form a
    player edits with, it is open too until the character is in play (the platform then turns a
    change into a request)."""
    read = [f for f in system.sheet_fields if f.rules == "read"]
    for making in (True, False):
        form = CharacterForm(system=system.key, player_making=making)
        assert all(not form.fields[f"sheet_{f.key}"].disabled for f in read)
    kept = [f for f in system.sheet_fields if f.rules == "kept"]
    form = CharacterForm(system=system.key, player_making=True)
    assert all(form.fields[f"sheet_{f.key}"].disabled for f in kept)
