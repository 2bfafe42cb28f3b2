"""The Report Card sheet: what the seed forbids is refused, naming the field."""

from __future__ import annotations

from typing import Any

import pytest

from games.report_card.sheet import FIELDS, clean_sheet, derived
from games.sheets import SheetError, SheetField


def sheet(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"charming": "on", "fast": "", "a_plus": "art", "f_skill": "GYM", "corruption": "",
                            "major": "The Star"}
    return {**base, **changes}


def test_the_sheet_has_six_abilities_two_marks_three_circles_and_ones_own_card() -> None:
    """Issue 14: "the six Abilities (Charming, Fast, Clever, Strong, Wise, Lucky) ... exactly one
    A+ skill ... exactly one F skill, the three Corruption circles, and the character's own
    Major Arcana card"."""
    assert all(isinstance(f, SheetField) for f in FIELDS)
    assert [f.key for f in FIELDS] == ["charming", "fast", "clever", "strong", "wise", "lucky", "a_plus",
                                       "f_skill", "corruption", "major", "xp"]  # the experience the GM awards
    assert [f.kind for f in FIELDS[:6]] == ["bool"] * 6


def test_a_clean_sheet_is_what_the_engine_reads() -> None:
    assert clean_sheet(sheet()) == {"charming": True, "fast": False, "clever": False, "strong": False,
                                    "wise": False, "lucky": False, "a_plus": "ART", "f_skill": "GYM",
                                    "corruption": 0, "major": 17, "xp": 0}


def test_a_skill_needs_one_of_its_abilities() -> None:
    """Seed: "They can only choose a Skill if they have at least one of the associated
    Abilities: For example: if you are not Charming or Fast, you cannot choose" ART
    (the seed's example names "Deception, Theft & Stealth", which its list does not have;
    ART is the Charming / Fast skill)."""
    with pytest.raises(SheetError) as refused:
        clean_sheet(sheet(charming="", fast=""))
    assert refused.value.field == "a_plus" and "Charming or Fast" in refused.value.message
    assert clean_sheet(sheet(charming="", fast="on"))["a_plus"] == "ART"


def test_a_player_must_choose_one_skill_and_fail_one() -> None:
    """Seed: "A player must choose 1 Skill" and "A player must fail 1 skill"."""
    for field in ("a_plus", "f_skill"):
        with pytest.raises(SheetError) as refused:
            clean_sheet(sheet(**{field: ""}))
        assert refused.value.field == field


def test_exactly_one_a_plus() -> None:
    """Issue 14: "exactly one A+ skill"."""
    with pytest.raises(SheetError, match="Only one A\\+"):
        clean_sheet(sheet(a_plus="ART, SCI"))


def test_one_skill_cannot_be_both_a_plus_and_f() -> None:
    with pytest.raises(SheetError) as refused:
        clean_sheet(sheet(f_skill="art"))
    assert refused.value.field == "f_skill"


def test_an_unknown_skill_is_refused() -> None:
    with pytest.raises(SheetError, match="not a skill"):
        clean_sheet(sheet(f_skill="DECEPTION"))


@pytest.mark.parametrize("filled", ["-1", "4", "many", True])
def test_there_are_three_corruption_circles(filled: object) -> None:
    """Seed: "When all three of the Corruption Circles are filled"."""
    with pytest.raises(SheetError) as refused:
        clean_sheet(sheet(corruption=filled))
    assert refused.value.field == "corruption"


@pytest.mark.parametrize("major", ["", "23", "The Moose"])
def test_the_character_has_its_own_major_arcana(major: str) -> None:
    """Seed: "The player's own Major Arcana card always triggers a Critical Success"."""
    with pytest.raises(SheetError) as refused:
        clean_sheet(sheet(major=major))
    assert refused.value.field == "major"


def test_a_stored_sheet_cleans_to_itself() -> None:
    stored = clean_sheet(sheet(corruption="2", major="XVI"))
    assert clean_sheet(stored) == stored


def test_derived_shows_what_the_marked_skills_cover_and_when_the_circles_are_full() -> None:
    """Seed: "ART - Performance, Disguise & Forgery"; "When all three of the Corruption Circles
    are filled, you may gain a new Skill, and fail a new skill". (The marks themselves, the
    circles and the card are the character card's glance: ``table.glance``.)"""
    shown = dict(derived(clean_sheet(sheet(corruption=3, major=16))))
    assert shown["A+ ART"] == "Performance, Disguise & Forgery"
    assert len(shown) == 3 and "choose a new A+" in shown["Corruption"]
    assert "Corruption" not in dict(derived(clean_sheet(sheet(corruption=2, major=16))))
    assert derived({"a_plus": "nonsense"}) == []
