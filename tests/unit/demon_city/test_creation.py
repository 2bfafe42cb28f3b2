"""What a new Demon City character may start with (Sheet.creation), and which fields the rules
read (SheetField rules "read"): a player's change to one of those, once the character is in play,
is a request the Host approves (issue 36, "Sheets in play": "a player made Sister Agnes
Supernatural with Agility 9, Toughness 12, Armour 50 and an invented 'Flight 9', all accepted,
though the help text says 'Skills the GM adds'").

The rules: "All character stats are ranked from 0-9 (or possibly more, with no maximum, if the
supernatural is involved)"; "Humans generally have a Toughness between 0 (feeble pensioner or
newborn baby) and 5 (world-class athlete)"; "Kevlar and other protection raises your Base
Toughness for these purposes". They give no points to share among the stats: Agility 9 is a
human's."""

from __future__ import annotations

import pytest

from games.demon_city.samples import SAMPLES
from games.demon_city.sheet import FIELDS, clean_sheet, creation
from games.registry import get

SHEET = get("demon_city").sheet
DEFAULTS = {f.key: f.default for f in FIELDS}
SISTER_AGNES = {"supernatural": True, "agility": 9, "toughness": 12, "armour": 50, "skills": "Flight: 9"}


def past(data: dict) -> list[tuple[str, str]]:
    return SHEET.creation(clean_sheet(data))


def fields(data: dict) -> list[str]:
    return [key for key, _ in past(data)]


def test_the_registration_carries_the_creation_limits() -> None:
    assert SHEET.creation is creation


def test_sister_agnes_is_named_field_by_field_and_made_a_human_with_agility_9() -> None:
    """The issue's character: everything past a new human is asked of the Host; Agility 9 is
    within "ranked from 0-9" and stays as typed."""
    found = past(SISTER_AGNES)
    assert found == [
        ("supernatural", "Supernatural: whether the supernatural is involved is the Host's to say and grant."),
        ("toughness", "Toughness 12: humans run from 0 (feeble) to 5 (world-class athlete); more is the "
                      "Host's to grant."),
        ("armour", "Armour 50: armour raises Base Toughness, at most 9 with it for a new character "
                   "(Toughness 3, so armour up to 6)."),
        ("skills", "Flight 9: the Host adds a character's other skills."),
    ]
    made = clean_sheet({**clean_sheet(SISTER_AGNES), **{key: DEFAULTS[key] for key, _ in found}})
    assert SHEET.creation(made) == []
    assert (made["supernatural"], made["agility"], made["toughness"], made["armour"], made["skills"]) == (
        False, 9, 3, 0, {})


def test_supernatural_is_the_host_s_to_grant() -> None:
    """"or possibly more, with no maximum, if the supernatural is involved"."""
    assert fields({"supernatural": True}) == ["supernatural"]


@pytest.mark.parametrize("key", ["agility", "hand_to_hand", "firearms", "exotic_weapons"])
def test_a_stat_past_9_is_named(key: str) -> None:
    """"All character stats are ranked from 0-9": past 9 only with the supernatural."""
    assert fields({"supernatural": True, key: 10}) == ["supernatural", key]
    assert fields({key: 9}) == []


def test_toughness_past_a_world_class_athlete_s_is_named() -> None:
    """"Humans generally have a Toughness between 0 (feeble pensioner or newborn baby) and 5
    (world-class athlete)"."""
    assert fields({"toughness": 6}) == ["toughness"]
    assert fields({"toughness": 5}) == [] and fields({"toughness": 0}) == []


def test_armour_is_at_most_what_keeps_toughness_with_it_a_human_stat() -> None:
    """"Kevlar and other protection raises your Base Toughness for these purposes"."""
    assert fields({"toughness": 5, "armour": 4}) == []
    assert past({"toughness": 5, "armour": 5}) == [
        ("armour", "Armour 5: armour raises Base Toughness, at most 9 with it for a new character "
                   "(Toughness 5, so armour up to 4).")]


def test_other_skills_are_the_host_s_to_add() -> None:
    """The sheet's "Skills the GM adds"; the rules' own are Hand-to-Hand, Firearms and Exotic
    Weapons. A skill at 0 is one the character does not have."""
    assert fields({"hand_to_hand": 9, "firearms": 9, "exotic_weapons": 9}) == []
    assert past({"skills": "Driving: 6\nFlight: 0"}) == [
        ("skills", "Driving 6: the Host adds a character's other skills.")]


def test_every_sample_player_character_is_within_the_limits() -> None:
    players = [s for s in SAMPLES if not s.npc]
    assert players and all(past(dict(s.sheet)) == [] for s in players)


def test_the_sample_demon_is_past_them_and_the_host_s_is_never_limited() -> None:
    """The Demon is supernatural with a skill of its own: a player's new character would ask the
    Host for both; the Host's NPC is made as typed."""
    assert [fields(dict(s.sheet)) for s in SAMPLES if s.npc] == [["supernatural", "skills"]]


# Every field the rules read, and which rule reads it.
READ = {
    "side": "\"If it's a tie between two characters on the same side ... the winner is decided randomly\"",
    "supernatural": "\"or possibly more, with no maximum, if the supernatural is involved\"",
    "agility": "the slowest announces first; shooting \"targets Agility\"",
    "toughness": "damage dice: \"a number of d10s equal to the target's Base Toughness\"",
    "armour": "\"Kevlar and other protection raises your Base Toughness\"",
    "hand_to_hand": "\"Hand To Hand if they have it\"",
    "firearms": "\"Agility (or Firearms or Exotic Weapons if applicable)\"",
    "exotic_weapons": "the same",
    "skills": "the Skill Die: \"a character with a higher Stat than the Stat they're targeting\"",
}


def test_the_fields_the_rules_read_are_marked_read() -> None:
    assert {f.key for f in FIELDS if f.rules == "read"} == set(READ)


def test_what_the_rules_keep_stays_theirs_and_nothing_is_left_unread() -> None:
    owners = {f.key: f.rules for f in FIELDS}
    assert {k for k, v in owners.items() if v == "kept"} == {"current_toughness", "injured", "out_of_fight", "injury", "xp"}
    assert {k for k, v in owners.items() if v == ""} == set()


@pytest.mark.parametrize("spec", [f for f in FIELDS if f.rules == "read"], ids=lambda f: f.key)
def test_a_player_making_a_character_sets_every_field_the_rules_read(spec) -> None:
    assert spec.player_sets(making=True) and spec.asked
    assert not spec.player_sets(making=False, in_play=True)
