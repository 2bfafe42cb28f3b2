"""Report Card grows (issue 36): the GM awards experience, by a move or at a session's close, and a
player's purchase (a new A+, a new F, an Ability) is priced at the table's costs; the seed's
rechoose stays. The decided reading quoted: "000, 003, 004, advancement (the seeds give none):
the GM awards experience at a session's close, with a reason, logged; what it buys and at what
cost are table options with documented defaults; a purchase is a request the GM approves. Report
Card keeps its rechoose after three Corruption Points.\""""

from __future__ import annotations

import pytest

from games.contract import PUBLIC
from games.core.engine import NotYourMove, RuleError
from games.core.growth import AWARDED, Price
from games.report_card.campaign import CLOCK
from games.report_card.growth import A_PLUS_XP, ABILITY_XP, F_XP, GROWTH, OPTIONS
from games.report_card.sheet import clean_sheet, glance
from games.report_card.system import SYSTEM
from games.sheets import SheetError
from tests.support.growth import ANN, GM, Grown, form

MARIETA = {"charming": True, "clever": True, "a_plus": "SCI", "f_skill": "GYM", "major": 17}


def table(**sheet) -> Grown:
    return Grown(SYSTEM, {"c1": ("Marieta", clean_sheet({**MARIETA, **sheet})),
                          "c2": ("Cashier", clean_sheet({**MARIETA, "a_plus": "LAW", "wise": True}))}, npcs=("c2",))


def test_the_gm_awards_marieta_experience_logged_and_on_her_report_card() -> None:
    """The decided reading: "the GM awards experience ... with a reason, logged"."""
    t = table()
    [event] = t.send(GM, "award", form(character=1, amount=2, reason="aced the chemistry test"))
    assert t.line(event) == "The GM awards Marieta 2 experience: aced the chemistry test."
    assert SYSTEM.visibility(event) == PUBLIC
    assert t.sheet("c1")["xp"] == 2
    assert ("Experience", "2") in glance(t.sheet("c1")).stats
    assert not any(label == "Experience" for label, _ in glance(clean_sheet(MARIETA)).stats)


def test_a_player_may_not_award_and_a_bad_award_changes_nothing() -> None:
    t = table()
    with pytest.raises(NotYourMove):
        t.send(ANN, "award", form(character=1, amount=3, reason="I was brave"))
    for posted in (form(character=1, amount="2.5", reason="x"), form(character=1, amount=2),
                   form(character=2, amount=2, reason="the cashier helped")):
        with pytest.raises(RuleError):
            t.send(GM, "award", posted)
    assert t.sheet("c1")["xp"] == 0 and t.play.log == []


def test_the_sessions_close_awards_experience_and_the_gm_may_take_an_award_back() -> None:
    t = table()
    [event] = t.close(form(xp_1=3, xp_reason="snuck past the Executare"))
    assert event["type"] == AWARDED and t.sheet("c1")["xp"] == 3
    assert CLOCK.says["session"] == "The GM awards experience to the player characters, with a reason."
    t.send(GM, "award", form(character=1, amount=5, reason="a slip of the hand"))
    assert t.sheet("c1")["xp"] == 8
    t.send(GM, "undo", {})
    assert t.sheet("c1")["xp"] == 3


def test_what_experience_buys_at_the_default_costs() -> None:
    t = table(xp=40)
    assert t.price({"a_plus": "ART"}) == Price(5, ("A+ SCI → ART: 5 XP",))
    assert t.price({"f_skill": "MISC"}) == Price(5, ("F GYM → MISC: 5 XP",))
    # the F made the A+ is two steps up, both paid (a new F with it: a player "must fail 1 skill")
    assert t.price({"wise": True, "a_plus": "GYM", "f_skill": "SCI", "strong": True}) == Price(
        30, ("A new Ability, Strong: 10 XP", "A new Ability, Wise: 10 XP", "A+ SCI → GYM: 5 XP", "F GYM → SCI: 5 XP"))
    assert t.price({}) == Price(0)


def test_the_costs_are_table_options() -> None:
    assert [(o.key, o.default) for o in OPTIONS] == [(A_PLUS_XP, 5), (F_XP, 5), (ABILITY_XP, 10)]
    assert {o.key for o in OPTIONS} <= {o.key for o in CLOCK.options}
    t = table()
    t.set_option(ABILITY_XP, 12)
    assert t.price({"lucky": True}) == Price(12, ("A new Ability, Lucky: 12 XP",))
    t.set_option(A_PLUS_XP, 0)
    with pytest.raises(SheetError, match="not for sale") as off:
        t.price({"a_plus": "ART"})
    assert off.value.field == "a_plus"


def test_what_is_not_bought_is_refused() -> None:
    t = table()
    # seed: "They can only choose a Skill if they have at least one of the associated Abilities"
    with pytest.raises(SheetError, match="SHOP needs a character who is Wise or Strong"):
        t.price({"a_plus": "SHOP"})
    with pytest.raises(SheetError, match="cannot be both"):
        t.price({"a_plus": "GYM", "strong": True})  # the F made A+ needs a new F too
    with pytest.raises(SheetError, match="Clever is not given up") as given_up:
        t.price({"clever": False})
    assert given_up.value.field == "clever"
    with pytest.raises(SheetError, match="Your own Major Arcana is not bought"):
        t.price({"major": 3})
    with pytest.raises(SheetError, match="kept by the rules"):
        t.price({"corruption": 0 if t.sheet("c1")["corruption"] else 2})


def test_the_rechoose_after_three_corruption_points_stays_and_is_growth() -> None:
    """Seed: "When all three of the Corruption Circles are filled, you may gain a new Skill, and
    fail a new skill": the panel's move, free, and a growth event of the character's history."""
    rechoose = SYSTEM.command("rechoose")
    assert rechoose is not None and rechoose.sender == "controller"
    assert GROWTH.kinds == (AWARDED, "skills_rechosen") and GROWTH.pool == "xp" and GROWTH.unit == "XP"
