"""The sheet keeps its figures in range (issue 22): a figure outside is refused, naming the
field and the range; a sheet already stored out of range (saved before the ranges, or by an
older fight) is read as the nearest figure in range, so the engine never refuses a table's
own character.

Seed 000: "The normal maximum is 13 AP's (5 + Qu/2) for an extremely quick character while the
normal minimum is 6 AP's for an extremely slow character" (Quickness 1 to 16; the sheet takes 0
to 20, room for the not so normal); skills are added to a card against successes up to
"Absurd ... 70+"; damage "may be reduced ... by armor" and protective equipment "can further
modify this Defensive value" (both protect, never below nothing); the seed gives damage past
nothing no meaning, so what a fight leaves of a track ("now") is 0 to the whole."""

from __future__ import annotations

import pytest

from games.shadows.profile import profile
from games.shadows.sheet import FIELDS, clean_sheet
from games.sheets import SheetError


@pytest.mark.parametrize(("data", "field", "message"), [
    ({"health": -5}, "health", "Health is from 1 to 999; -5 is not."),
    ({"life": 0}, "life", "Life is from 1 to 999; 0 is not."),
    ({"aessence": 1000}, "aessence", "Æssence is from 1 to 999; 1000 is not."),
    ({"health": 25, "health_now": -17}, "health_now", "Health now is from 0 to 25 (the Health); -17 is not."),
    ({"life": 15, "life_now": 16}, "life_now", "Life now is from 0 to 15 (the Life); 16 is not."),
    ({"aessence_now": -1}, "aessence_now", "Æssence now is from 0 to 20 (the Æssence); -1 is not."),
    ({"quickness": 21}, "quickness", "Quickness is from 0 to 20; 21 is not."),
    ({"body": -1}, "body", "Body is from 0 to 20; -1 is not."),
    ({"armour": -2}, "armour", "Armour is from 0 to 40; -2 is not."),
    ({"protection": 41}, "protection", "Protective equipment is from 0 to 40; 41 is not."),
    ({"skills": "Melee: 6\nClaws: 41"}, "skills", "The skill Claws is from 0 to 40; 41 is not."),
    ({"skills": "Melee: -1"}, "skills", "The skill Melee is from 0 to 40; -1 is not."),
])
def test_a_figure_out_of_its_range_is_refused_naming_the_field_and_the_range(data, field, message) -> None:
    with pytest.raises(SheetError) as caught:
        clean_sheet(data)
    assert (caught.value.field, caught.value.message) == (field, message)


def test_every_figure_of_the_sheet_has_a_range() -> None:
    """Each whole-number field refuses one past each end of its range (no field is left open)."""
    for spec in FIELDS:
        if spec.kind != "int":
            continue
        with pytest.raises(SheetError):
            clean_sheet({spec.key: -1})
        with pytest.raises(SheetError):
            clean_sheet({spec.key: 1000})


def test_the_edges_of_each_range_are_taken() -> None:
    sheet = clean_sheet({"quickness": 0, "body": 20, "health": 1, "health_now": 0, "life": 999, "life_now": 999,
                         "armour": 40, "protection": 0, "skills": "Melee: 0\nClaws: 40"})
    assert (sheet["quickness"], sheet["body"], sheet["health"], sheet["health_now"]) == (0, 20, 1, 0)
    assert (sheet["life_now"], sheet["armour"], sheet["skills"]) == (999, 40, {"melee": 0, "claws": 40})


def test_a_sheet_stored_out_of_range_is_read_as_the_nearest_figure_in_range() -> None:
    """The issue's Ghoul, saved at "Health -17 of 25 and Life -27 of 15", reads as nothing left."""
    ghoul = profile({"id": "c3", "name": "Ghoul", "health": 25, "health_now": -17, "life": 15, "life_now": -27,
                     "armour": -3, "skills": {"claws": 55}})
    assert (ghoul["health"], ghoul["life"], ghoul["armour"], ghoul["skills"]) == (0, 0, 0, {"claws": 40})
