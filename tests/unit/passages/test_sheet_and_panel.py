"""The Persona sheet (skills with DU / DD / Core, the two tracks), the panel's view, the
one-off check outside a procedure, and the writeback."""

from __future__ import annotations

import json

import pytest

from games.passages import tracks
from games.passages.errors import CannotAct
from games.passages.checks import roll_check
from games.passages.panel import panel
from games.passages.sheet import FIELDS, clean_sheet, derived
from games.sheets import SheetError, SheetField
from tests.unit.passages.helpers import GARBO, TRAYER, Dice, Scene


def test_the_sheet_holds_skills_and_both_tracks() -> None:
    """Issue 17: "Persona sheets with skills (BASE values, each showing DU / DD / Core) and the
    two 100-point tracks"."""
    assert all(isinstance(f, SheetField) for f in FIELDS)
    keys = [f.key for f in FIELDS]
    for wanted in ("skills", "wounds", "fatigue", "untended", "magic", "combat_skill", "defense_skill",
                   "weapon_damage", "ranged", "armour_effect"):
        assert wanted in keys
    assert {f.key: f.default for f in FIELDS}["wounds"] == 100


def test_a_sheet_cleans_its_skills_text() -> None:
    """The sheet form sends skills as 'Skill: BASE' lines; a name keeps its spelling."""
    cleaned = clean_sheet({"skills": "Soldiery (Sword and Shield): 18\nLock-picking: 32\n\n",
                           "wounds": None, "fatigue": 94, "armour_effect": "Halve"})
    assert cleaned["skills"] == {"Soldiery (Sword and Shield)": 18, "Lock-picking": 32}
    assert (cleaned["wounds"], cleaned["fatigue"], cleaned["armour_effect"]) == (100, 94, "halve")
    assert clean_sheet(cleaned) == cleaned
    assert json.loads(json.dumps(cleaned)) == cleaned


@pytest.mark.parametrize(("data", "field"), [
    ({"skills": "Stealth: 96"}, "skills"), ({"skills": "Stealth: 0"}, "skills"),
    ({"skills": "no base here"}, "skills"), ({"skills": "Stealth: 5\nstealth: 6"}, "skills"),
    ({"wounds": 101}, "wounds"), ({"fatigue": -1}, "fatigue"), ({"fatigue": "lots"}, "fatigue"),
    ({"wounds": 90, "untended": 20}, "untended"), ({"armour_effect": "chainmail"}, "armour_effect"),
    ({"skills": "Brawl: 20", "combat_skill": "Archery"}, "combat_skill"),
])
def test_a_bad_sheet_names_the_field_at_fault(data: dict, field: str) -> None:
    """Skills run 1-95 ("Mastered Skills (95%)"); each track 0-100."""
    with pytest.raises(SheetError) as raised:
        clean_sheet(data)
    assert raised.value.field == field


def test_the_card_derives_each_skills_du_dd_and_core() -> None:
    """Seed: "the Lock-picking skill was at 32 ... DU partial success at 64 ... (DD Wild success
    at 16%) ... The Lock Pick Skill Core would be 7"."""
    assert derived({"skills": {"Lock-picking": 32}, "fatigue": 0}) == [("Lock-picking", "DU 64, DD 16, Core 7")]


def test_a_track_is_drawn_as_twenty_boxes_of_five() -> None:
    """Seed: "Wounds and Fatigue each has a track of 20 5% spaces"; decided: 100 points."""
    drawn = tracks.boxes(94)
    assert len(drawn) == 20 and sum(b["points"] for b in drawn) == 94
    assert [b["state"] for b in drawn[17:]] == ["full", "partial", "empty"]
    assert all(b["state"] == "empty" for b in tracks.boxes(0))
    assert all(b["state"] == "full" for b in tracks.boxes(100))


def test_the_panel_is_plain_data_with_tracks_skills_and_odds(scene: Scene) -> None:
    scene.fight(TRAYER, GARBO)
    scene.attack("c1", "c2")
    scene.attack("c2", "c1")
    view = panel(scene.state)
    assert json.loads(json.dumps(view)) == view
    trayer = view["scene"]["c1"]
    assert trayer["name"] == "Trayer" and len(trayer["wounds"]["boxes"]) == 20
    campfire = next(row for row in trayer["skills"] if row["name"] == "Campfire")
    assert {k: campfire[k] for k in ("base", "du", "dd", "core", "core_du", "core_dd")} == {
        "base": 33, "du": 66, "dd": 16, "core": 7, "core_du": 14, "core_dd": 3}
    # the odds beside each roll, best band first: DD 1-16, Success 17-33, DU 34-66, Blown 67-99, 100
    assert campfire["check"] == {"bands": [16, 17, 33, 33, 1], "success": 66}
    assert campfire["challenge"] == {"bands": [3, 4, 7, 85, 1], "success": 14}
    [pairing] = view["combat"]["pairings"]
    assert pairing["kind"] == "mutual" and pairing["odds"]["a_lands"] == 93 and pairing["odds"]["b_lands"] == 100
    assert view["combat"]["waiting_to_roll"] == ["Trayer", "Garbo"]


def test_the_idle_panel_shows_no_scene() -> None:
    from games.passages.state import new_state
    view = panel(new_state())
    assert view["mode"] == "idle" and view["scene"] == {} and len(view["bands"]) == 5


def test_a_one_off_check_a_challenge_and_a_practice() -> None:
    """Checks "occur in the story when their success/failure affects the Conditions of a scene";
    challenges use the Core; practice needs no roll."""
    sheet = {"skills": {"Lock-picking": 32}}
    data, line = roll_check(sheet, name="Ann", skill="lock-picking", mode="check", rng=Dice(43))
    assert data["band"] == "double_up" and data["roll"] == 43
    assert line == "Ann checks Lock-picking (BASE 32): rolls 43, Double Up success."
    data, line = roll_check(sheet, name="Ann", skill="Lock-picking", mode="challenge", rng=Dice(7))
    assert data["band"] == "success" and "Core 7" in line
    data, _ = roll_check(sheet, name="Ann", skill="Lock-picking", mode="practice", rng=Dice())
    assert data["roll"] is None and data["band"] == "success"


def test_a_downed_or_unconscious_persona_cannot_check() -> None:
    """Seed: "When your Fatigue reaches zero, you cannot continue to take Actions other than
    rest"; the Unconscious "cannot perform any Actions until revived"."""
    with pytest.raises(CannotAct, match="Downed"):
        roll_check({"skills": {"Brawl": 5}, "fatigue": 0}, name="Ann", skill="Brawl", mode="check", rng=Dice(5))
    with pytest.raises(CannotAct, match="Unconscious"):
        roll_check({"skills": {"Brawl": 5}, "wounds": 0}, name="Ann", skill="Brawl", mode="check", rng=Dice(5))
