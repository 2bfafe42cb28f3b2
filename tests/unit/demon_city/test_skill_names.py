"""Issue 13, bug 8: a skill keeps the name the GM typed ("Driving" was saved as "driving")."""

from __future__ import annotations

import pytest

from games.demon_city.combatant import Combatant
from games.demon_city.sheet import clean_sheet, parse_skills
from games.sheets import SheetError


def test_a_skill_keeps_its_capitals_and_only_its_spaces_are_tidied() -> None:
    assert parse_skills("Driving: 6\nSafe  cracking: 3") == {"Driving": 6, "Safe cracking": 3}
    sheet = clean_sheet({"skills": "Driving: 6"})
    assert sheet["skills"] == {"Driving": 6}
    assert Combatant.from_dict({"id": "d", **sheet}).stat("Driving") == 6


def test_the_same_skill_twice_in_other_case_is_refused_by_name() -> None:
    with pytest.raises(SheetError) as twice:
        parse_skills("Driving: 6\ndriving: 2")
    assert twice.value.field == "skills" and "Driving and driving are the same skill" in twice.value.message


def test_a_skill_may_not_pass_for_one_of_the_sheet_s_stats() -> None:
    with pytest.raises(SheetError) as shadow:
        parse_skills("Hand to hand: 5")
    assert "one of the sheet's own stats" in shadow.value.message
