"""Growth, written once (games/core/growth.py, issue 36): the experience the GM awards, as a move
and at a session's close, and the pieces every system's price of a purchase is made of. The
decided reading quoted: "000, 003, 004, advancement (the seeds give none): the GM awards
experience at a session's close, with a reason, logged; what it buys and at what cost are table
options with documented defaults; a purchase is a request the GM approves."

The system is a toy with a clock and awards (a sheet of "grit" and experience), so the core is
tested without any one system's rules."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from games.contract import GM_ONLY, PUBLIC, GameSystem, Panel, Sample, Sheet
from games.core import clock, growth
from games.core.engine import Engine, NotYourMove, RuleError, Undo
from games.registry import check_registration
from games.sheets import SheetError
from tests.support.growth import ANN, GM, WATCHER, Grown, form

CLOCK = growth.with_awards(clock.Clock(closing=lambda state, args, turn: [{"type": "kept"}],
                                       says={clock.SESSION: "A card is kept."}))
ENGINE = Engine(new_state=lambda: {"step": 0, "undo": []}, moves=(), folds={"kept": lambda s, e: None},
                summary=lambda event, state: event["type"], undo=Undo(), clock=CLOCK, awards=growth.AWARDS)
SYSTEM = check_registration(GameSystem(
    key="toy", name="Toy", blurb="A toy.", engine=ENGINE,
    sheet=Sheet(fields=(growth.xp_field(),), clean=dict), samples=(Sample("Alfie", {}), Sample("Ghoul", {}, npc=True)),
    panel=Panel(view=lambda state, seat: {}, template="toy.html#panel", notice="toy.html#notice"),
    audiences={"kept": PUBLIC, "undone": PUBLIC}))


def table(**ann_sheet: Any) -> Grown:
    return Grown(SYSTEM, {"c1": ("Alfie", {"grit": 2, **ann_sheet}), "c2": ("Ghoul", {"grit": 1}),
                          "c3": ("Betty", {"grit": 3})}, npcs=("c2",))


def award(t: Grown, who: Any = 1, amount: Any = 3, reason: Any = "survived the mill", member=GM):
    return t.send(member, growth.AWARD, form(character=who, amount=amount, reason=reason))


def test_the_gm_awards_experience_with_a_reason_logged_for_everyone_and_written_to_the_sheet() -> None:
    """The decided reading: "the GM awards experience ... with a reason, logged"."""
    t = table()
    [event] = award(t)
    assert event["type"] == growth.AWARDED and (event["was"], event["now"]) == (0, 3)
    assert t.line(event) == "The GM awards Alfie 3 experience: survived the mill."
    assert t.seen(event) == PUBLIC
    assert t.sheet("c1")["xp"] == 3
    [again] = award(t, amount=50, reason="  the  bridge held. ")
    assert t.line(again) == "The GM awards Alfie 50 experience: the bridge held."
    assert t.sheet("c1")["xp"] == 53
    assert growth.whose(again) == ("c1",)


@pytest.mark.parametrize("member", [ANN, WATCHER])
def test_a_player_and_a_spectator_may_not_award(member) -> None:
    t = table()
    with pytest.raises(NotYourMove):
        award(t, member=member)
    assert t.sheet("c1").get("xp") is None and t.play.log == []


@pytest.mark.parametrize(("who", "amount", "reason", "says"), [
    (1, 0, "fine", "from 1 to 50"), (1, 51, "fine", "from 1 to 50"), (1, "three", "fine", "from 1 to 50"),
    (1, "", "fine", "from 1 to 50"), (1, "-2", "fine", "from 1 to 50"), (1, "٣", "fine", "from 1 to 50"),
    (1, 3, "", "Say why"), (1, 3, "   ", "Say why"), (1, 3, "x" * 81, "at most 80"),
    (2, 3, "fine", "player character"), (99, 3, "fine", "player character"), ("c1", 3, "fine", "player character"),
])
def test_a_bad_award_is_refused_and_changes_nothing(who, amount, reason, says) -> None:
    t = table()
    with pytest.raises(RuleError, match=says):
        award(t, who=who, amount=amount, reason=reason)
    assert t.sheet("c1").get("xp") is None and t.play.log == [] and t.sheet("c2").get("xp") is None


def test_an_award_never_takes_experience_past_its_most() -> None:
    t = table(xp=990)
    with pytest.raises(RuleError, match="at most 999"):
        award(t, amount=10)
    assert t.sheet("c1")["xp"] == 990


def test_the_gm_takes_an_award_back_and_the_experience_comes_off_the_sheet() -> None:
    t = table(xp=4)
    award(t, amount=10)
    assert t.sheet("c1")["xp"] == 14
    [undone] = t.send(GM, "undo", {})
    assert t.sheet("c1")["xp"] == 4
    assert undone[growth.TAKEN_BACK] == {"c1": {"xp": 4}}


def test_an_award_taken_back_after_some_was_spent_leaves_no_less_than_nothing() -> None:
    t = table()
    award(t, amount=10)
    t.characters["c1"] = replace(t.characters["c1"], sheet={"xp": 3})  # 7 of the 10 spent since
    t.send(GM, "undo", {})
    assert t.sheet("c1")["xp"] == 0


def test_the_close_form_awards_each_player_character_present_with_one_reason() -> None:
    """The decided reading: "the GM awards experience at a session's close, with a reason"."""
    t = table(xp=2)
    events = t.close({"xp_1": ["3"], "xp_3": ["1"], "xp_2": ["9"], "xp_reason": ["found the map"]})
    assert [e["type"] for e in events] == ["kept", growth.AWARDED, growth.AWARDED]
    assert [t.line(e) for e in events[1:]] == ["The GM awards Alfie 3 experience: found the map.",
                                               "The GM awards Betty 1 experience: found the map."]
    assert all(e["at_close"] for e in events[1:])
    assert (t.sheet("c1")["xp"], t.sheet("c3")["xp"]) == (5, 1)
    assert t.sheet("c2").get("xp") is None  # an NPC's amount is never read


def test_a_close_with_no_award_gives_none_and_needs_no_reason() -> None:
    t = table()
    assert [e["type"] for e in t.close({"xp_1": [""], "xp_3": ["0"], "xp_reason": [""]})] == ["kept"]
    assert CLOCK.closing_parse({}, t.facts()) == {}


@pytest.mark.parametrize(("posted", "says"), [
    ({"xp_1": ["3"]}, "Say why"), ({"xp_1": ["51"], "xp_reason": ["x"]}, "from 1 to 50"),
    ({"xp_1": ["lots"], "xp_reason": ["x"]}, "from 1 to 50"),
])
def test_a_bad_close_award_refuses_the_close(posted, says) -> None:
    t = table()
    with pytest.raises(RuleError, match=says):
        t.close(posted)
    assert t.play.log == [] and t.sheet("c1").get("xp") is None


def test_the_close_says_it_awards_and_lists_the_player_characters() -> None:
    assert CLOCK.says[clock.SESSION] == ("A card is kept; the GM awards experience to the player characters, "
                                         "with a reason.")
    t = table(xp=7)
    assert CLOCK.closing_view({}, t.characters) == [{"id": 1, "cid": "c1", "name": "Alfie", "xp": 7},
                                                   {"id": 3, "cid": "c3", "name": "Betty", "xp": 0}]
    assert CLOCK.closing_fields == growth.CLOSE_FIELDS


def test_the_award_is_a_move_the_campaign_box_posts() -> None:
    assert growth.AWARD in clock.MOVE_NAMES
    assert ENGINE.move(growth.AWARD).sender == "gm"
    assert SYSTEM.visibility({"type": growth.AWARDED}) == PUBLIC
    assert SYSTEM.visibility({"type": "no such"}) == GM_ONLY


def test_the_experience_field_is_kept_by_the_rules_and_ranged() -> None:
    spec = growth.xp_field()
    assert (spec.key, spec.label, spec.rules) == ("xp", "Experience", "kept")
    assert "GM awards" in spec.help
    assert [growth.clean_xp(v) for v in (None, "", "0", 12, "999")] == [0, 0, 0, 12, 999]
    for bad in (-1, 1000, "many", True):
        with pytest.raises(SheetError):
            growth.clean_xp(bad)
    assert (growth.clean_xp(-5, stored=True), growth.clean_xp(5000, stored=True)) == (0, 999)


def test_a_bill_prices_each_step_and_refuses_what_no_purchase_makes() -> None:
    bill = growth.Bill("Experiences")
    bill.rise("brawl", "Brawl", 2, 4, lambda v: 2)
    bill.rise("wits", "Wits", 1, 2, lambda v: 4)
    bill.rise("dots", "Unchanged", 3, 3, lambda v: 99)
    bill.gear("Weapon", "", "Knife")
    assert bill.price() == growth.Price(8, ("Brawl 2 → 4: 4 Experiences (2 + 2)", "Wits 1 → 2: 4 Experiences",
                                            "Weapon none → Knife: gear, the GM's to allow (free)"))
    one = growth.Bill("Experiences")
    one.rise("x", "Occult", 0, 1, lambda v: 1)
    assert one.price().lines == ("Occult 0 → 1: 1 Experience",)
    with pytest.raises(SheetError, match="never lowers") as lowered:
        growth.Bill("XP").rise("agility", "Agility", 4, 3, lambda v: v)
    assert lowered.value.field == "agility"
    with pytest.raises(SheetError, match="Skills above 5 cannot be bought"):
        growth.Bill("XP").rise("skills", "Skills", 4, 6, lambda v: v, 5)
    with pytest.raises(SheetError, match="not for sale"):
        growth.Bill("XP").rise("body", "Body", 4, 5, lambda v: 0)


def test_what_the_rules_keep_is_never_bought() -> None:
    fields = (growth.xp_field(),)
    growth.kept(fields, {"xp": 3, "notes": "a"}, {"xp": 3, "notes": "b"})
    with pytest.raises(SheetError, match="Experience is kept by the rules"):
        growth.kept(fields, {"xp": 3}, {"xp": 30})


def test_a_system_that_sells_nothing_prices_every_change_at_nothing() -> None:
    assert growth.free({"a": 1}, {"a": 2}, {}) == growth.Price(0)
    assert growth.whose({"type": "skills_advanced", "rows": [{"combatant": "c2"}, {"combatant": "c1"},
                                                             {"combatant": "c2"}]}) == ("c2", "c1")
    assert growth.whose({"type": "skills_rechosen", "cid": "c4"}) == ("c4",)
