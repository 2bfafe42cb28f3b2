"""Shadows of Humanity grows (issue 36): the GM awards experience, by a move or at a session's
close, and a player's purchase is priced at the table's costs. The decided reading quoted: "000,
003, 004, advancement (the seeds give none): the GM awards experience at a session's close, with a
reason, logged; what it buys and at what cost are table options with documented defaults; a
purchase is a request the GM approves.\""""

from __future__ import annotations

import pytest

from games.contract import PUBLIC
from games.core import clock
from games.core.engine import NotYourMove, RuleError
from games.core.growth import AWARDED, Price
from games.shadows.campaign import CLOCK
from games.shadows.growth import ATTRIBUTE_XP, OPTIONS, SKILL_XP, TRACK_XP
from games.shadows.sheet import clean_sheet, glance
from games.shadows.system import SYSTEM
from games.sheets import SheetError
from tests.support.growth import ANN, GM, Grown, form

ANN_SHEET = {"body": 5, "quickness": 15, "skills": {"melee": 8}, "health": 20, "armour": 0}


def table(**sheet) -> Grown:
    return Grown(SYSTEM, {"c1": ("Ann", clean_sheet({**ANN_SHEET, **sheet})),
                          "c2": ("Orc", clean_sheet({"skills": "Claws: 9"}))}, npcs=("c2",))


def test_the_gm_awards_ann_experience_logged_and_on_her_sheet_and_card() -> None:
    """The decided reading: "the GM awards experience ... with a reason, logged"."""
    t = table()
    [event] = t.send(GM, "award", form(character=1, amount=3, reason="survived the mill"))
    assert t.line(event) == "The GM awards Ann 3 experience: survived the mill."
    assert SYSTEM.visibility(event) == PUBLIC
    assert t.sheet("c1")["xp"] == 3
    assert ("Experience", "3") in glance(t.sheet("c1")).stats
    assert not any(label == "Experience" for label, _ in glance(clean_sheet(ANN_SHEET)).stats)  # shown once nonzero


def test_a_player_may_not_award_and_a_bad_award_changes_nothing() -> None:
    t = table()
    with pytest.raises(NotYourMove):
        t.send(ANN, "award", form(character=1, amount=3, reason="I was brave"))
    for posted in (form(character=1, amount=0, reason="x"), form(character=1, amount=3, reason=""),
                   form(character=2, amount=3, reason="the orc was brave")):
        with pytest.raises(RuleError):
            t.send(GM, "award", posted)
    assert t.sheet("c1")["xp"] == 0 and t.play.log == []


def test_the_sessions_close_awards_experience_beside_the_major_arcana_kept() -> None:
    """The close runs the seed's "up to one Major Arcana to be carried over" and the awards."""
    t = table()
    events = t.close(form(xp_1=4, xp_reason="found the cellar"))
    assert [e["type"] for e in events] == ["session_ended", AWARDED]
    assert t.line(events[1]) == "The GM awards Ann 4 experience: found the cellar."
    assert t.sheet("c1")["xp"] == 4
    assert "the GM awards experience" in CLOCK.says[clock.SESSION]


def test_what_experience_buys_at_the_default_costs() -> None:
    t = table(xp=100)
    # an attribute: each point its new value times 2
    assert t.price({"body": 7}) == Price(26, ("Body 5 → 7: 26 XP (12 + 14)",))
    # a skill: each point its new value; a new skill from nothing
    assert t.price({"skills": {"melee": 9, "stealth": 2}}) == Price(
        12, ("The skill Melee 8 → 9: 9 XP", "The skill Stealth 0 → 2: 3 XP (1 + 2)"))
    # Health, Life, Æssence: 2 a point of the whole
    assert t.price({"health": 23}) == Price(6, ("Health 20 → 23: 6 XP (2 + 2 + 2)",))
    # gear the GM allows for nothing; notes cost nothing and say nothing
    assert t.price({"armour": 3, "notes": "A new coat."}) == Price(0, ("Armour none → 3: gear, the GM's to allow (free)",))
    assert t.price({}) == Price(0)


def test_the_costs_are_table_options() -> None:
    assert [(o.key, o.default) for o in OPTIONS] == [(ATTRIBUTE_XP, 2), (SKILL_XP, 1), (TRACK_XP, 2)]
    assert {o.key for o in OPTIONS} <= {o.key for o in CLOCK.options}  # set in the GM's campaign box
    t = table()
    t.set_option(ATTRIBUTE_XP, 3)
    t.set_option(SKILL_XP, 2)
    assert t.price({"body": 6, "skills": {"melee": 9}}).cost == 18 + 18
    t.set_option(TRACK_XP, 0)
    with pytest.raises(SheetError, match="not for sale"):
        t.price({"life": 21})


def test_maximums_lowering_and_what_is_not_for_sale_are_refused() -> None:
    t = table()
    with pytest.raises(SheetError, match="Quickness above 16 cannot be bought") as fast:
        t.price({"quickness": 17})  # seed: "The normal maximum is 13 AP's (5 + Qu/2)"
    assert fast.value.field == "quickness"
    assert t.price({"quickness": 16}).cost == 32
    with pytest.raises(SheetError, match="never lowers"):
        t.price({"skills": {"melee": 7}})
    with pytest.raises(SheetError, match="never lowers"):
        t.price({"skills": {}})  # a skill dropped is a skill lowered to nothing
    with pytest.raises(SheetError, match="nature"):
        t.price({"immunities": "silver"})
    with pytest.raises(SheetError, match="kept by the rules") as kept:
        t.price({"health_now": 5})
    assert kept.value.field == "health_now"
    with pytest.raises(SheetError, match="Experience is kept"):
        t.price({"xp": 50})
    with pytest.raises(SheetError):  # past the sheet's own range
        t.price({"skills": {"melee": 41}})
