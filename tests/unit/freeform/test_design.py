"""A Freeform sheet's design and the rolls that read it (games/core/designs.py): no database.

The rules here are the table's own (a Freeform table has no rule text): the GM's design is the
sheet, so each refusal says, in a sentence, what in the design or the sheet is wrong."""

from __future__ import annotations

import pytest

from games.core import designs
from games.freeform import sheet
from games.sheets import SheetError

SHEET = {
    "fields": [
        {"key": "str", "label": "Strength", "kind": "number", "min": "-3", "max": "5"},
        {"key": "hp", "label": "Hit points", "kind": "track", "max": "12"},
        {"key": "skill", "label": "Skills", "kind": "group"},
        {"key": "stealth", "label": "Stealth", "kind": "number"},
        {"key": "lucky", "label": "Lucky", "kind": "checkbox"},
        {"key": "motto", "label": "Motto", "kind": "text"},
    ],
    "rolls": [{"label": "Sneak", "notation": "1d20+@skill.stealth"}],
}


def test_a_group_s_fields_read_group_dot_key_and_bounds_are_numbers() -> None:
    cleaned = designs.clean_design(SHEET)
    assert [f["full"] for f in designs.valued(cleaned)] == ["str", "hp", "skill.stealth", "skill.lucky", "skill.motto"]
    assert cleaned["fields"][0]["min"] == -3 and cleaned["fields"][0]["max"] == 5
    assert cleaned["fields"][1]["max"] == 12


@pytest.mark.parametrize(("row", "said"), [
    ({"key": "1str", "label": "S", "kind": "number"}, "Field 1: a key is letters, digits, dots and underscores"),
    ({"key": "str", "label": "S", "kind": "dice"}, "Field 1: choose its kind"),
    ({"key": "str", "label": "S", "kind": "number", "min": "5", "max": "2"}, "Field 1: its minimum 5 is above its maximum 2."),
    ({"key": "str", "label": "S", "kind": "number", "min": "lots"}, "Field 1's minimum must be a whole number."),
    ({"key": "hp", "label": "H", "kind": "track", "max": "0"}, "Field 1: a track's maximum is at least 1."),
])
def test_a_faulty_field_is_refused_in_a_sentence(row: dict, said: str) -> None:
    with pytest.raises(SheetError) as refused:
        designs.clean_design({"fields": [row]})
    assert said in refused.value.message and refused.value.field == "field-1"


def test_a_key_used_twice_and_a_roll_reading_no_field_are_refused() -> None:
    with pytest.raises(SheetError, match="the key str is used twice"):
        designs.clean_design({"fields": [{"key": "str", "kind": "number"}, {"key": "str", "kind": "text"}]})
    with pytest.raises(SheetError, match=r"Saved roll 1 \(Hit\) reads @dex, which is no field of this sheet."):
        designs.clean_design({"fields": [{"key": "str", "kind": "number"}], "rolls": [{"label": "Hit", "notation": "1d20+@dex"}]})


def test_values_are_checked_against_their_kinds() -> None:
    design = designs.clean_design(SHEET)
    values = designs.clean_values(design, {"str": "3", "hp": {"now": "7", "of": "12"}, "skill.lucky": "on"})
    assert values == {"str": 3, "hp": {"now": 7, "of": 12}, "skill.stealth": 0, "skill.lucky": True, "skill.motto": ""}
    with pytest.raises(SheetError, match="Strength runs from -3 to 5; 9 is outside it."):
        designs.clean_values(design, {"str": "9"})
    with pytest.raises(SheetError, match="Hit points runs from 0 to its maximum 12; 13 is outside it."):
        designs.clean_values(design, {"hp": {"now": "13", "of": "12"}})
    with pytest.raises(SheetError, match="Strength must be a whole number."):
        designs.clean_values(design, {"str": "strong"})


def test_a_new_design_keeps_the_values_of_fields_that_stay() -> None:
    old = designs.clean_design(SHEET)
    values = designs.clean_values(old, {"str": "4", "hp": {"now": "5", "of": "12"}, "skill.stealth": "2"})
    new = designs.clean_design({"fields": [SHEET["fields"][1], {"key": "str", "label": "Might", "kind": "number",
                                                                 "min": "0", "max": "3"}, {"key": "wits", "kind": "number"}]})
    kept = designs.carried_over(new, values)
    # hp stays; str stays but 4 is past its new maximum, so it starts again; wits is new
    assert kept == {"hp": {"now": 5, "of": 12}, "str": 0, "wits": 0}


def test_a_roll_reads_the_sheet_at_the_moment_of_rolling() -> None:
    design = designs.clean_design(SHEET)
    values = designs.clean_values(design, {"str": "-2", "hp": {"now": "7", "of": "12"}, "skill.stealth": "4",
                                           "skill.lucky": "on"})
    resolved, reads = designs.resolve("1d20+@str+@skill.stealth+@skill.lucky", design, values)
    assert resolved == "1d20+(-2)+4+1"
    assert designs.shown_reads(reads) == "@str -2, @skill.stealth +4, @skill.lucky +1"
    assert designs.resolve("@hp+@hp.max", design, values)[0] == "7+12"  # a track reads its current value


def test_an_unknown_reference_or_a_word_is_a_refusal_in_a_sentence() -> None:
    design = designs.clean_design(SHEET)
    with pytest.raises(designs.BadReference, match=r"@dex is not on this sheet \(it has @str, @hp, @skill.stealth, @skill.lucky\)."):
        designs.resolve("1d20+@dex", design, {})
    with pytest.raises(designs.BadReference, match="@skill.motto is Motto, a text: a roll reads only numbers, tracks and checkboxes."):
        designs.resolve("1d20+@skill.motto", design, {})


def test_the_freeform_sheet_cleans_a_designed_sheet_and_keeps_free_stats_without_one() -> None:
    free = sheet.clean({"stats": "Wits: 3"})
    assert "design" not in free and free["stats"] == [["Wits", "3"]]
    designed = sheet.clean({"design": SHEET, "values": {"hp": {"now": 3, "of": 12}}})
    assert designed["values"]["hp"] == {"now": 3, "of": 12}
    glance = sheet.glance(designed)
    assert glance.tracks == (("Hit points", 3, 12),) and ("Strength", "0") in glance.stats
    assert sheet.npc_glance(glance).tracks == ()  # a secret NPC's card shows none of its sheet


def test_every_built_in_template_is_a_valid_design() -> None:
    for key, (name, design) in designs.BUILT_IN.items():
        assert designs.clean_design(design)["rolls"] == design["rolls"], name
