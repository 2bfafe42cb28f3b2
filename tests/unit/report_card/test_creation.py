"""What a new Report Card character may start with (Sheet.creation), and who owns each field
(issue 36, "Sheets in play"). Every field is one the rules read; none is "read" (changed by a
player's request in play): the Abilities, the A+ and F skills and one's own card are "chosen"
when the character is made and then the rules' and the GM's, the circles "kept" by the rules.
What the rules allow a new character ("A player must choose 1 Skill", "A player must fail 1
skill", "They can only choose a Skill if they have at least one of the associated Abilities")
the sheet refuses outright; they set no number of Abilities and let any card be one's own."""

from __future__ import annotations

import pytest

from games.registry import get
from games.report_card.samples import SAMPLES
from games.report_card.sheet import FIELDS, clean_sheet, creation
from games.report_card.skills import ABILITIES
from games.sheets import SheetError

SHEET = get("report_card").sheet


def test_the_registration_carries_the_creation_limits() -> None:
    assert SHEET.creation is creation


def test_every_ability_and_any_card_pass_the_rules_setting_no_number_of_them() -> None:
    """"Each player starts with a Report Card, which is where we define player Abilities and
    Skills": no count of Abilities; "The player's own Major Arcana card always triggers a
    Critical Success", whichever it is (Death too: "The Critical Success conditions fire before
    the Critical Failure conditions")."""
    every = {**{a: "on" for a in ABILITIES}, "a_plus": "SCI", "f_skill": "GYM"}
    for major in ("The Fool", "Death", "The Wheel of Fortune", "21"):
        assert SHEET.creation(clean_sheet({**every, "major": major})) == []


@pytest.mark.parametrize(("data", "field"), [
    ({"fast": "on", "a_plus": "", "f_skill": "GYM", "major": "1"}, "a_plus"),  # "must choose 1 Skill"
    ({"fast": "on", "a_plus": "FREE, ART", "f_skill": "GYM", "major": "1"}, "a_plus"),
    ({"fast": "on", "a_plus": "FREE", "f_skill": "", "major": "1"}, "f_skill"),  # "must fail 1 skill"
    ({"wise": "on", "a_plus": "FREE", "f_skill": "GYM", "major": "1"}, "a_plus"),  # "at least one of ..."
])
def test_a_report_card_past_what_the_rules_allow_is_refused_not_asked(data: dict, field: str) -> None:
    """"They can only choose a Skill if they have at least one of the associated Abilities":
    such a card is no Report Card, refused with the field named before any creation limit."""
    with pytest.raises(SheetError) as caught:
        clean_sheet(data)
    assert caught.value.field == field


def test_every_sample_character_is_within_the_limits() -> None:
    assert all(SHEET.creation(clean_sheet(dict(s.sheet))) == [] for s in SAMPLES)
    assert any(not s.npc for s in SAMPLES)


def test_every_field_is_the_rules_and_a_chosen_one_changes_by_request() -> None:
    owners = {f.key: f.rules for f in FIELDS}
    # the Abilities (an A+ needs one), the A+ ("one rank easier"), the F ("becomes Unlikely"),
    # one's own card (a Critical Success): chosen when made; the circles: kept by the rules
    assert owners == {**{a: "chosen" for a in ABILITIES}, "a_plus": "chosen", "f_skill": "chosen",
                      "major": "chosen", "corruption": "kept", "xp": "kept"}  # experience: the GM awards it (growth)
    chosen = [f for f in FIELDS if f.rules == "chosen"]
    # once made, a player asks the GM to change what was chosen (a purchase, a correction)
    assert all(f.player_sets(making=True) and not f.player_sets(making=False) and f.asked for f in chosen)
