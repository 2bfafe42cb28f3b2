"""What a new Shadows of Humanity character may start with (Sheet.creation), and which fields
its rules read (SheetField rules "read"): a player's change to one of those, once the character
is in play, is a request the GM approves (issue 36, "Sheets in play").

The rules have no chapter on making a character. They bound Quickness through Action Points
("The normal maximum is 13 AP's (5 + Qu/2) for an extremely quick character while the normal
minimum is 6 AP's for an extremely slow character") and tie resistances and immunities to a
being's kind ("Such capabilities are usually based on the type of Eldritch race that they
belong to and are thus balanced with other Eldritch races in some way")."""

from __future__ import annotations

import pytest

from games.registry import get
from games.shadows.combat import action_points
from games.shadows.samples import SAMPLES
from games.shadows.sheet import FIELDS, clean_sheet, creation

SHEET = get("shadows").sheet


def past(data: dict) -> list[tuple[str, str]]:
    """What the registered creation limits say of a sheet, as the platform calls them."""
    return SHEET.creation(clean_sheet(data))


def test_the_registration_carries_the_creation_limits() -> None:
    assert SHEET.creation is creation


@pytest.mark.parametrize("quickness", [17, 20, 0])
def test_quickness_past_the_normal_action_points_is_named(quickness: int) -> None:
    """"The normal maximum is 13 AP's (5 + Qu/2) ... the normal minimum is 6 AP's": Quickness 17
    gives 14 AP, Quickness 0 gives 5."""
    assert not 6 <= action_points(quickness) <= 13
    assert past({"quickness": quickness}) == [
        ("quickness", f"Quickness {quickness}: a new character's Quickness is 1 to 16, "
                      "for the normal 6 to 13 Action Points.")]


@pytest.mark.parametrize("quickness", [1, 16])
def test_quickness_at_the_edges_of_the_normal_passes(quickness: int) -> None:
    assert action_points(quickness) in (6, 13)
    assert past({"quickness": quickness}) == []


@pytest.mark.parametrize("key", ["resistances", "immunities"])
def test_a_new_character_s_resistances_and_immunities_are_the_gm_s_to_grant(key: str) -> None:
    """"Such capabilities are usually based on the type of Eldritch race that they belong to and
    are thus balanced with other Eldritch races in some way": the GM balances them."""
    found = past({key: "fire, silver"})
    assert [f for f, _ in found] == [key]
    assert "fire, silver" in found[0][1] and "GM" in found[0][1]


def test_vulnerabilities_only_cost_and_a_player_names_them() -> None:
    """"any attacks of this type cause double damage": a drawback, not balanced by anyone."""
    assert past({"vulnerabilities": "silver, cold iron"}) == []


def test_the_rest_has_no_creation_limit_beyond_the_sheet_s_ranges() -> None:
    """The rules give no scale for the other attributes, skills, tracks, armour or protection,
    and no points to share: the sheet's top figures pass (its ranges refuse beyond them)."""
    top = {"body": 20, "physical": 20, "mind": 20, "mental": 20, "spirit": 20, "emotional": 20,
           "intuition": 20, "discipline": 20, "quickness": 16, "skills": "Melee: 40\nFlight: 40",
           "health": 999, "life": 999, "aessence": 999, "armour": 40, "protection": 40}
    assert past(top) == []


def test_every_limit_is_named_at_once() -> None:
    found = past({"quickness": 20, "resistances": "fire", "immunities": "poison"})
    assert [f for f, _ in found] == ["quickness", "resistances", "immunities"]
    assert all("seed" not in why.lower() for _, why in found)


def test_every_sample_player_character_is_within_the_limits() -> None:
    players = [s for s in SAMPLES if not s.npc]
    assert players and all(past(dict(s.sheet)) == [] for s in players)


def test_the_sample_npcs_are_checked_too() -> None:
    """The GM's characters are never limited; the sample Ghoul happens to be within them (its
    silver is a vulnerability)."""
    assert [past(dict(s.sheet)) for s in SAMPLES if s.npc] == [[]]


# Every field the rules read, and which rule reads it.
READ = {
    "body": "a Physical focus's hand: Body + half Physical",
    "physical": "the same hand",
    "mind": "a Mental focus's hand: Mind + half Mental",
    "mental": "the same hand",
    "spirit": "a Spiritual focus's hand: Spirit + half Emotional",
    "emotional": "the same hand",
    "quickness": "Action Points, and Defence against physical attacks",
    "intuition": "Defence against spiritual magic",
    "discipline": "Defence against mana magic",
    "skills": "a check's and an attack's value: card + skill + attribute",
    "health": "the whole Health a fight wears down and a night restores",
    "life": "the whole Life",
    "aessence": "the whole Æssence a scene's end restores",
    "armour": "damage \"may be reduced or modified by armor\"",
    "protection": "\"Any armor or other protective equipment can further modify this Defensive value\"",
    "vulnerabilities": "double damage",
    "resistances": "half damage",
    "immunities": "no damage",
}


def test_the_fields_the_rules_read_are_marked_read() -> None:
    assert {f.key for f in FIELDS if f.rules == "read"} == set(READ)


def test_what_no_rule_reads_stays_the_player_s_and_the_tracks_in_play_the_rules() -> None:
    owners = {f.key: f.rules for f in FIELDS}
    assert owners["notes"] == ""
    assert {k for k, v in owners.items() if v == "kept"} == {"health_now", "life_now", "aessence_now", "xp"}


def test_a_player_making_a_character_sets_every_field_the_rules_read() -> None:
    read = [f for f in FIELDS if f.rules == "read"]
    assert all(f.player_sets(making=True) and f.asked for f in read)
    assert not any(f.player_sets(making=False, in_play=True) for f in read)


def test_the_character_made_with_the_fields_named_at_their_defaults_is_within_the_limits() -> None:
    """The platform makes a player's character past the limits with the fields named at their
    defaults: that sheet cleans, and nothing in it is past them."""
    defaults = {f.key: f.default for f in FIELDS}
    cleaned = clean_sheet({"quickness": 20, "body": 8, "resistances": "fire", "immunities": "poison"})
    made = {**cleaned, **{key: defaults[key] for key, _ in creation(cleaned)}}
    again = clean_sheet(made)
    assert creation(again) == [] and (again["quickness"], again["body"], again["immunities"]) == (5, 8, "")
