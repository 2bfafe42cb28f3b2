"""Demon City grows (issue 36): the Host awards experience, by a move or at a session's close, and
a player's purchase is priced at the table's costs. The decided reading quoted: "000, 003, 004,
advancement (the seeds give none): the GM awards experience at a session's close, with a reason,
logged; what it buys and at what cost are table options with documented defaults; a purchase is
a request the GM approves.\""""

from __future__ import annotations

import pytest

from games.contract import PUBLIC
from games.core.engine import NotYourMove, RuleError
from games.core.growth import AWARDED, Price
from games.demon_city.combatant import Combatant
from games.demon_city.growth import OPTIONS, SKILL_XP, STAT_XP
from games.demon_city.healing import CLOCK
from games.demon_city.sheet import clean_sheet, glance
from games.demon_city.system import SYSTEM
from games.sheets import SheetError
from tests.support.growth import ANN, GM, Grown, form

AGNES = {"agility": 3, "toughness": 3, "firearms": 4, "skills": {"Driving": 6}}


def table(**sheet) -> Grown:
    return Grown(SYSTEM, {"c1": ("Agnes", clean_sheet({**AGNES, **sheet})),
                          "c2": ("Ghoul", clean_sheet({"agility": 4}))}, npcs=("c2",))


def test_the_host_awards_agnes_experience_logged_and_on_her_sheet_and_card() -> None:
    """The decided reading: "the GM awards experience ... with a reason, logged"."""
    t = table()
    [event] = t.send(GM, "award", form(character=1, amount=3, reason="survived the mill"))
    assert t.line(event) == "The GM awards Agnes 3 experience: survived the mill."
    assert SYSTEM.visibility(event) == PUBLIC
    assert t.sheet("c1")["xp"] == 3
    assert ("Experience", "3") in glance(t.sheet("c1")).stats
    assert not any(label == "Experience" for label, _ in glance(clean_sheet(AGNES)).stats)
    # a fight reads the sheet as before: experience is no figure of a Combatant
    assert Combatant.from_dict({"id": "c1", **t.sheet("c1")}).agility == 3


def test_a_player_may_not_award_and_a_bad_award_changes_nothing() -> None:
    t = table()
    with pytest.raises(NotYourMove):
        t.send(ANN, "award", form(character=1, amount=3, reason="I was brave"))
    for posted in (form(character=1, amount=51, reason="x"), form(character=1, amount=2, reason=" "),
                   form(character=2, amount=2, reason="the ghoul was brave")):
        with pytest.raises(RuleError):
            t.send(GM, "award", posted)
    assert t.sheet("c1")["xp"] == 0 and t.play.log == []


def test_the_sessions_close_awards_experience() -> None:
    t = table()
    events = t.close(form(xp_1=5, xp_reason="got out of the mill"))
    assert [e["type"] for e in events] == [AWARDED]
    assert t.line(events[0]) == "The GM awards Agnes 5 experience: got out of the mill."
    assert t.sheet("c1")["xp"] == 5


def test_what_experience_buys_at_the_default_costs() -> None:
    t = table(xp=100)
    assert t.price({"agility": 5}) == Price(18, ("Agility 3 → 5: 18 XP (8 + 10)",))
    assert t.price({"toughness": 4}) == Price(8, ("Toughness 3 → 4: 8 XP",))
    assert t.price({"firearms": 5, "hand_to_hand": 1}) == Price(6, ("Hand-to-Hand 0 → 1: 1 XP", "Firearms 4 → 5: 5 XP"))
    # the Host's added skills, told apart without case; a new one from nothing
    assert t.price({"skills": {"driving": 7, "Exorcism": 2}}) == Price(
        10, ("driving 6 → 7: 7 XP", "Exorcism 0 → 2: 3 XP (1 + 2)"))
    assert t.price({"armour": 2}) == Price(0, ("Armour none → 2: gear, the GM's to allow (free)",))


def test_the_costs_are_table_options() -> None:
    assert [(o.key, o.default) for o in OPTIONS] == [(STAT_XP, 2), (SKILL_XP, 1)]
    assert {o.key for o in OPTIONS} <= {o.key for o in CLOCK.options}
    t = table()
    t.set_option(STAT_XP, 1)  # "a stat +1 costs the new value"
    assert t.price({"agility": 4}).cost == 4
    t.set_option(SKILL_XP, 0)
    with pytest.raises(SheetError, match="not for sale"):
        t.price({"firearms": 5})


def test_nine_is_the_most_but_for_the_supernatural() -> None:
    """Seed: "All character stats are ranked from 0-9 (or possibly more, with no maximum, if the
    supernatural is involved)"."""
    t = table(firearms=9)
    with pytest.raises(SheetError) as past:
        t.price({"firearms": 10})
    assert past.value.field == "firearms"
    uncanny = table(firearms=9, supernatural=True)
    assert uncanny.price({"firearms": 10}).cost == 10


def test_lowering_and_what_is_not_bought_are_refused() -> None:
    t = table()
    with pytest.raises(SheetError, match="never lowers"):
        t.price({"agility": 2})
    with pytest.raises(SheetError, match="never lowers"):
        t.price({"skills": {}})
    with pytest.raises(SheetError, match="Supernatural is not bought") as nature:
        t.price({"supernatural": True})
    assert nature.value.field == "supernatural"
    with pytest.raises(SheetError, match="Side is not bought"):
        t.price({"side": "ghouls"})
    with pytest.raises(SheetError, match="kept by the rules"):
        t.price({"injury": "Battered"})
    with pytest.raises(SheetError, match="Experience is kept"):
        t.price({"xp": 9})


def test_the_hosts_undo_takes_an_award_back_off_the_sheet() -> None:
    t = table(xp=2)
    t.send(GM, "award", form(character=1, amount=7, reason="a slip of the hand"))
    assert t.sheet("c1")["xp"] == 9
    t.send(GM, "undo", {})
    assert t.sheet("c1")["xp"] == 2
