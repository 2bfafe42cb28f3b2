"""What a new Harsh Light character may start with (Sheet.creation), and which fields the rules
read (SheetField rules "read"): a player's change to one of those, once the character is in play,
is a request the Storyteller approves (issue 36, "Sheets in play": "Harsh Light (a Defence
override, Again 8)").

The rules make no characters of their own: they are "converting the mechanics found in Vampire:
The Requiem and World of Darkness to a single card-pull system", so a new character is made as
those rulebooks make one (Attributes 5/4/3 dots past the first, Skills 11/7/4, no trait past 5
dots, the derived traits as the rulebook derives them, a newly Embraced vampire's Blood Potency
1, a grown human's Size 5); and "A pull of 10 (or, with certain powers and/or equipment, even 8
or 9) allows you pull a second card"."""

from __future__ import annotations

import pytest

from games.harsh_light.samples import SAMPLES
from games.harsh_light.sheet import ATTRIBUTES, FIELDS, clean_sheet, creation
from games.registry import get

SHEET = get("harsh_light").sheet
DEFAULTS = {f.key: f.default for f in FIELDS}
# 5, 4 and 3 dots past the first, and 11, 7 and 4 Skill dots: the most a new character spends.
AT_THE_LIMIT = {
    "strength": 3, "dexterity": 3, "stamina": 2,  # Physical: 2 + 2 + 1 = 5 dots past the first
    "intelligence": 2, "wits": 3, "resolve": 2,  # Mental: 1 + 2 + 1 = 4
    "presence": 2, "manipulation": 2, "composure": 2,  # Social: 3
    "skills": "Brawl: 5\nAthletics: 3\nStealth: 3\n"  # Physical 11
              "Investigation: 4\nOccult: 3\n"  # Mental 7
              "Empathy: 2\nStreetwise: 2",  # Social 4
}


def past(data: dict) -> list[tuple[str, str]]:
    return SHEET.creation(clean_sheet(data))


def fields(data: dict) -> list[str]:
    return [key for key, _ in past(data)]


def made(data: dict) -> dict:
    """The character the platform makes for a player whose sheet is past the limits: the fields
    named at their defaults."""
    cleaned = clean_sheet(data)
    return clean_sheet({**cleaned, **{key: DEFAULTS[key] for key, _ in SHEET.creation(cleaned)}})


def test_the_registration_carries_the_creation_limits() -> None:
    assert SHEET.creation is creation


def test_a_character_spending_every_dot_a_new_one_has_passes() -> None:
    assert past(AT_THE_LIMIT) == []


def test_an_attribute_past_five_dots_is_named() -> None:
    assert past({**AT_THE_LIMIT, "strength": 6, "dexterity": 1, "stamina": 1}) == [
        ("strength", "Strength 6: a new character's Attributes are 1 to 5 dots.")]


def test_a_skill_past_five_dots_is_named() -> None:
    assert past({"skills": "Brawl: 6"}) == [("skills", "Brawl 6: a new character's Skills are 0 to 5 dots.")]


@pytest.mark.parametrize(("key", "typed", "words"), [
    ("defence", 5, "Defence 5: a new character's Defence is the lower of Wits and Dexterity (3); "
                   "another figure is the Storyteller's to grant."),
    ("speed", 15, "Speed 15: a new character's Speed is Strength + Dexterity + 5 (11)"),
    ("willpower", 8, "Willpower 8: a new character's Willpower is Resolve + Composure (4)"),
])
def test_a_typed_over_derived_trait_is_named(key: str, typed: int, words: str) -> None:
    """The issue: "Harsh Light (a Defence override ...)"."""
    found = past({**AT_THE_LIMIT, key: typed})
    assert [k for k, _ in found] == [key] and found[0][1].startswith(words)


def test_a_typed_derived_trait_equal_to_the_rule_passes() -> None:
    assert past({**AT_THE_LIMIT, "defence": 3, "speed": 11, "willpower": 4}) == []


def test_a_typed_trait_is_judged_against_the_attributes_the_character_is_made_with() -> None:
    """Dexterity 6 is asked of the Storyteller, so the character is made with 1: a Defence of 3
    is no longer the lower of Wits and Dexterity."""
    assert fields({"wits": 3, "dexterity": 6, "defence": 3}) == ["dexterity", "defence"]


@pytest.mark.parametrize("again", [9, 8])
def test_nine_and_eight_again_are_the_storyteller_s(again: int) -> None:
    """"A pull of 10 (or, with certain powers and/or equipment, even 8 or 9)"; the issue's
    "Again 8"."""
    assert past({"again": again}) == [
        ("again", f"Again {again}: only certain powers or equipment let a pull of {again} pull a second card; "
                  "the Storyteller grants them.")]


def test_blood_potency_past_a_newly_embraced_vampire_s_is_named() -> None:
    """"Vampires will often add their Blood Potency to their Resistance traits"."""
    assert fields({"vampire": True, "blood_potency": 1}) == []
    assert fields({"vampire": True, "blood_potency": 2}) == ["blood_potency"]


def test_a_size_past_a_grown_human_s_is_named() -> None:
    assert fields({"size": 5}) == [] and fields({"size": 4}) == []
    assert past({"size": 6}) == [("size", "Size 6: a grown human is Size 5; a larger new character is the "
                                          "Storyteller's to grant.")]


def test_being_a_vampire_and_the_weapon_have_no_creation_limit() -> None:
    assert past({"vampire": True, "weapon": "Shotgun", "weapon_damage": 5}) == []


def test_the_issue_s_character_is_named_field_by_field_and_made_within_the_limits() -> None:
    data = {**AT_THE_LIMIT, "dexterity": 7, "defence": 9, "again": 8, "skills": "Firearms: 9", "size": 8}
    assert fields(data) == ["dexterity", "skills", "defence", "again", "size"]
    character = made(data)
    assert SHEET.creation(character) == []
    assert (character["dexterity"], character["skills"], character["defence"], character["again"]) == (1, {}, None, 10)
    assert character["strength"] == 3  # what was within the limits stays as typed


def test_every_sample_player_character_is_within_the_limits() -> None:
    players = [s for s in SAMPLES if not s.npc]
    assert players and all(past(dict(s.sheet)) == [] for s in players)


def test_the_group_budgets_of_the_world_of_darkness_are_left_to_the_table() -> None:
    """The rules convert the World of Darkness's tests, not its making of a character: Physical
    Attributes 6 dots past the first, or Physical Skills 12 dots, are a group's own to keep to."""
    assert fields({"strength": 4, "dexterity": 3, "stamina": 2, "skills": "Brawl: 4\nAthletics: 4\nStealth: 4"}) == []


# Every field the rules read, and which rule reads it.
READ = {
    **{key: "\"a pool of Attribute + Skill\"" for key in ATTRIBUTES},
    "skills": "\"a pool of Attribute + Skill\"",
    "willpower": "the dots a Willpower spend draws on",
    "defence": "\"Nearly all attack rolls will be resisted by Defence\"",
    "speed": "\"All characters may move their Speed in steps\"",
    "again": "\"A pull of 10 (or, with certain powers and/or equipment, even 8 or 9)\"",
    "blood_potency": "\"Vampires will often add their Blood Potency to their Resistance traits\"",
    "size": "Health is Stamina + Size",
    "vampire": "how a vampire's harm is marked (The Requiem)",
    "weapon": "an attack made with it",
    "weapon_damage": "the damage it adds to a hit",
    "specialties": "a Specialty that applies adds 1 to the pool (the World of Darkness's, bought with Experiences)",
}


def test_the_fields_the_rules_read_are_marked_read() -> None:
    assert {f.key for f in FIELDS if f.rules == "read"} == set(READ)


def test_what_the_rules_keep_stays_theirs() -> None:
    assert {f.key for f in FIELDS if f.rules == "kept"} == {
        "willpower_points", "bashing", "lethal", "aggravated", "unconscious", "beats", "experiences"}


@pytest.mark.parametrize("spec", [f for f in FIELDS if f.rules == "read"], ids=lambda f: f.key)
def test_a_player_making_a_character_sets_every_field_the_rules_read(spec) -> None:
    assert spec.player_sets(making=True) and spec.asked
    assert not spec.player_sets(making=False, in_play=True)
