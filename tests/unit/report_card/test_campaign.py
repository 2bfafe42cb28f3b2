"""Report Card over a campaign (issue 35): the clock's Days, a lasting Penalty read on every
check, and the GM's undo with every card of the personal decks in exactly one place.

Seed 004: "If the player has a significant, concrete disadvantage on a skill check - for
example, climbing a wall with a Splinted Leg, they get a "Penalty" on that check"; "Skill
Checks for a specific thing cannot be made more than once per Day. ... You can't go back and
try again (until a Day has passed)." The decided reading: "the GM moves the table's clock on
(the scene ends, a night passes, a week passes)"; "Report Card keeps its rechoose after three
Corruption Points".
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.contract import SPECTATOR_SEAT, Member
from games.core import clock as time
from games.core.engine import RuleError, Turn
from games.report_card import ENGINE, SYSTEM
from games.report_card.draws import deck_title, on_the_table
from games.report_card.panel import view
from games.report_card.state import last
from tests.unit.report_card.conftest import Table, of_type
from tests.unit.report_card.helpers import GM, card, player, report
from tests.unit.report_card.test_properties import PEOPLE, Tabled, command

SPLINT = {"type": "add_condition", "character": ["c1"], "name": "Splinted Leg", "effect": "penalty", "lasts": "removed"}


def lasting_penalty(table: Table, **extra: Any) -> None:
    table.send({**SPLINT, **extra})


# ------------------------------------------------------------------------------- lasting Penalty

def test_a_splinted_leg_gives_its_penalty_on_every_check_without_a_tick(two: dict[str, Any]) -> None:
    """Seed: "climbing a wall with a Splinted Leg, they get a "Penalty" on that check": the
    condition lasts, so every check draws two cards and the GM keeps the worse, named on the
    line and in the working, with no Penalty ticked on the call."""
    table = Table(two, {"c1": ["KS", "3C", "8W", "QW"]})
    lasting_penalty(table)
    table.call("c1", "GYM", "easy", task="climb the wall")
    drawn = of_type(table.log, "drawn")[-1]
    assert drawn["lasting"] == {"penalty": ["Splinted Leg"]} and drawn["attempt"]["edge"] == "penalty"
    assert drawn["attempt"]["pending"] == "gm" and len(drawn["attempt"]["draws"]) == 2
    assert table.lines[-1] == ("Marieta draws the King of Swords and the Three of Cups against Unlikely "
                               "with Penalty (lasting: Splinted Leg): the GM chooses the worse.")
    made = ENGINE.working(drawn, table.state)
    assert "Penalty from a lasting condition: Splinted Leg" in made.steps
    assert made.rule.startswith("While they have Penalty, they draw two cards")
    table.send({"type": "pick", "character": "c1", "index": 1}, GM)
    table.send({"type": "accept", "character": "c1"}, GM)
    # the next check reads it again, nobody ticking it
    table.call("c1", "LAW", "easy", task="read the file")
    assert of_type(table.log, "drawn")[-1]["attempt"]["edge"] == "penalty"


def test_a_lasting_penalty_and_a_bonus_cancel_and_two_penalties_do_not_stack(two: dict[str, Any]) -> None:
    """Seed: "Bonus and Penalty cancel one another out, and do not stack"."""
    table = Table(two, {"c1": ["KS", "3C", "8W"]})
    lasting_penalty(table)
    table.call("c1", "LAW", "easy", bonus=True)
    drawn = of_type(table.log, "drawn")[-1]
    assert drawn["attempt"]["edge"] is None and len(drawn["attempt"]["draws"]) == 1
    assert "(Splinted Leg's lasting Penalty, cancelled)" in table.lines[-2]
    made = ENGINE.working(drawn, table.state)
    assert "Bonus and Penalty cancel out" in made.steps and made.rule.startswith("Bonus and Penalty cancel")
    table.send({**SPLINT, "name": "Sprained Wrist"})
    table.call("c1", "LAW", "easy", task="again", penalty=True)
    drawn = of_type(table.log, "drawn")[-1]
    assert drawn["lasting"] == {"penalty": ["Splinted Leg", "Sprained Wrist"]}
    assert len(drawn["attempt"]["draws"]) == 2  # one Penalty: two cards, not three


def test_a_penalty_lasting_a_night_ends_with_it_and_the_next_check_draws_one_card(two: dict[str, Any]) -> None:
    table = Table(two)
    lasting_penalty(table, lasts="night")
    table.send({"type": "pass_time", "span": "night"})
    assert table.state["conditions"] == []
    assert "Marieta is no longer Splinted Leg: a night passed." in table.lines
    table.call("c1", "LAW", "easy")
    assert "lasting" not in of_type(table.log, "drawn")[-1]


def test_the_panel_shows_the_lasting_penalty_and_counts_the_odds_with_it(two: dict[str, Any]) -> None:
    table = Table(two, auto_draw=False)
    lasting_penalty(table)
    table.call("c1", "GYM", "easy", task="climb the wall")
    [part] = view(table.state, table.seat())["check"]["parts"]
    assert part["edge"] == "Penalty (Splinted Leg, lasting)"
    assert part["lasting"] == "Splinted Leg's lasting Penalty"
    plain = Table(two, auto_draw=False)
    plain.call("c1", "GYM", "easy", task="climb the wall", penalty=True)
    [ticked] = view(plain.state, plain.seat())["check"]["parts"]
    assert ticked["edge"] == "Penalty" and ticked["odds"] == part["odds"]


def test_the_clock_declares_what_its_conditions_do() -> None:
    assert ENGINE.clock is not None and set(ENGINE.clock.effects) == {"penalty", "bonus"}
    assert set(ENGINE.clock.says) == {time.SCENE, time.NIGHT, time.WEEK, time.SESSION}
    # the decided reading: "the GM awards experience at a session's close, with a reason, logged"
    assert ENGINE.clock.says[time.SESSION] == "The GM awards experience to the player characters, with a reason."
    # the seed has no rule for a session's close: a close with no award makes nothing
    assert ENGINE.clock.closing is not None
    assert ENGINE.clock.closing(ENGINE.new_state(), {}, Turn(member=Member(1, "GM", True))) == []


# ------------------------------------------------------------------------------- Days

def test_a_night_starts_a_new_day_and_the_day_move_is_the_same_night(two: dict[str, Any]) -> None:
    """Seed: "You can't go back and try again (until a Day has passed)": a night passing is a
    Day, so the check may be made again; the GM's "Start a new Day" moves the clock the same."""
    table = Table(two)
    table.call("c1", "LAW", "automatic", task="open the door")
    first = table.closed["id"]
    table.send({"type": "pass_time", "span": "scene"})
    assert table.state["day"] == 1 and len(table.state["today"]) == 1  # the scene ends, the Day goes on
    table.send({"type": "pass_time", "span": "night"})
    assert table.state["day"] == 2 and table.state["today"] == []
    assert table.lines[-1] == "Day 2 begins: checks made on earlier Days may be made again."
    with pytest.raises(RuleError, match="not made today"):
        table.call("c1", "LAW", "easy", task="open the door", same_as=first)
    table.send({"type": "new_day"})
    assert table.state["day"] == 3 and time.now(table.state)["day"] == 2  # the clock counts nights from 0
    assert of_type(table.log, "time_passed")[-1]["span"] == "night"


def test_a_week_is_seven_days() -> None:
    table = Table({"c1": report("Marieta", 7)})
    table.send({"type": "pass_time", "span": "week"})
    assert table.state["day"] == 8 and time.now(table.state)["day"] == 7
    assert table.lines[-1] == "Day 8 begins (7 Days pass): checks made on earlier Days may be made again."


# ------------------------------------------------------------------------------- undo

def where(table: Table, cid: str) -> dict[str, list[str]]:
    """A deck's cards by place: draw pile, discard pile, face up (card ids)."""
    deck = table.deck(cid)
    cards = table.cards
    face_up = [t for (d, t), w in cards._where.items() if d == deck and w[2] == "play"]
    return {"draw": [t.split("/")[0] for t in cards.decks[deck]],
            "discard": [t.split("/")[0] for t in cards.discards[deck]],
            "play": [t.split("/")[0] for t in face_up]}


def assert_sound(table: Table) -> None:
    """Every card in exactly one place; every card face up is one the state shows; none the state
    shows face up is in a draw pile (so none can come off twice); the log folds to the state."""
    shown = {p["cid"]: [t.split("/")[0] for t in on_the_table(last(p))]
             for p in (table.state["check"] or {}).get("parts", ())}
    for cid in table.people:
        places = where(table, cid)
        ids = [t for pile in places.values() for t in pile]
        assert len(ids) == 78 and len(set(ids)) == 78
        assert set(places["play"]) <= set(shown.get(cid, []))
        assert not set(shown.get(cid, [])) & set(places["draw"])
    assert ENGINE.fold(table.log) == table.state


def test_nothing_to_take_back_is_refused_in_words(two: dict[str, Any]) -> None:
    with pytest.raises(RuleError, match="There is nothing to take back."):
        Table(two).send({"type": "undo"})
    with pytest.raises(RuleError, match="Only the GM"):
        Table(two).send({"type": "undo"}, player(7, "c1"))


def test_undoing_a_call_takes_the_check_back_off_the_day(two: dict[str, Any]) -> None:
    table = Table(two, auto_draw=False)
    table.call("c1", "LAW", "easy", task="the door")
    table.send({"type": "undo"})
    assert table.state["check"] is None and table.state["today"] == []
    assert table.lines[-1] == ("The GM takes back the last step (The GM calls a check for 'the door': "
                               "Marieta (LAW, Easy)).")
    assert_sound(table)


def test_a_draw_taken_back_lies_on_the_discard_and_the_draw_again_is_a_new_card(two: dict[str, Any]) -> None:
    """The decided reading: only the rules move a personal deck's cards. A card once seen is not
    hidden again: taken back, it lies on the discard pile, and the draw made again is the next."""
    table = Table(two, {"c1": ["KS", "3C", "8W"]}, auto_draw=False)
    table.call("c1", "LAW", "easy", task="the door")
    table.send({"type": "draw", "character": "c1"})  # a success closes the check: the King is discarded
    assert table.closed["outcome"] == "success"
    table.send({"type": "undo"})
    assert table.state["check"] is not None and table.state["check"]["parts"][0]["attempts"] == []
    assert where(table, "c1")["discard"] == [card("KS")] and where(table, "c1")["play"] == []
    assert "The card it drew (the King of Swords) lies on the discard pile" in table.lines[-1]
    assert_sound(table)
    table.send({"type": "draw", "character": "c1"})  # a failure waits face up for a retry
    assert where(table, "c1")["play"] == [card("3C")]
    table.send({"type": "undo"})
    assert where(table, "c1")["play"] == [] and where(table, "c1")["discard"] == [card("KS"), card("3C")]
    assert_sound(table)
    table.send({"type": "draw", "character": "c1"})
    assert table.part("c1")["attempts"][-1]["draws"][0]["card"] == card("8W")
    assert_sound(table)


def test_a_penalty_draw_taken_back_sends_both_cards_to_the_discard(two: dict[str, Any]) -> None:
    table = Table(two, {"c1": ["3C", "KS", "8W"]}, auto_draw=False)
    table.call("c1", "LAW", "easy", penalty=True)
    table.send({"type": "draw", "character": "c1"})
    assert sorted(where(table, "c1")["play"]) == sorted([card("3C"), card("KS")])
    table.send({"type": "undo"})
    assert where(table, "c1")["play"] == [] and sorted(where(table, "c1")["discard"]) == sorted([card("3C"), card("KS")])
    assert_sound(table)


def test_a_retry_taken_back_gives_the_corruption_point_back(two: dict[str, Any]) -> None:
    """Seed: "The player can take 1 Corruption Point to retry the check": taken back, the point
    is off the Report Card again and the failure is there to retry or let stand."""
    table = Table(two, {"c1": ["3C", "KS"]})
    table.call("c1", "LAW", "easy")
    table.send({"type": "retry", "character": "c1"}, player(7, "c1"))
    assert table.people["c1"]["corruption"] == 1 and table.closed["outcome"] == "success"
    table.send({"type": "undo"})
    assert table.people["c1"]["corruption"] == 0
    assert table.part("c1")["attempts"][-1]["outcome"] == "failure" and table.state["check"] is not None
    assert "The Report Card is as it was before it." in table.lines[-1]
    assert_sound(table)
    # the failure's card lies on the discard now (the retry had put it there): a retry made
    # again discards nothing twice, and the check closes as the rules say
    table.send({"type": "accept", "character": "c1"}, player(7, "c1"))
    assert table.closed["outcome"] == "failure"
    assert_sound(table)


def test_new_skills_taken_back_are_the_old_ones_again(two: dict[str, Any]) -> None:
    two["c1"]["corruption"] = 3
    table = Table(two)
    table.send({"type": "rechoose", "character": "c1", "a_plus": "SCI", "f_skill": "ART"}, player(7, "c1"))
    assert table.people["c1"]["a_plus"] == "SCI" and table.people["c1"]["corruption"] == 0
    table.send({"type": "undo"})
    assert (table.people["c1"]["a_plus"], table.people["c1"]["f_skill"], table.people["c1"]["corruption"]) == (
        "FREE", "GYM", 3)


def test_a_close_taken_back_reopens_the_group_check_with_its_cards(two: dict[str, Any]) -> None:
    table = Table(two, {"c1": ["3C"], "c2": ["KS"]}, auto_draw=False)
    table.send({"type": "call_group", "characters": ["c1", "c2"], "mode": "everyone", "skill": "LAW",
                "rank": "easy", "task": "sneak past"})
    table.send({"type": "draw", "character": "c1"})
    table.send({"type": "close"})
    table.send({"type": "undo"})
    assert table.state["check"] is not None and table.part("c1")["attempts"][-1]["draws"][0]["card"] == card("3C")
    assert_sound(table)
    table.send({"type": "draw", "character": "c2"})
    table.send({"type": "accept", "character": "c1"})
    assert table.closed["outcome"] == "failure"
    assert_sound(table)


def test_a_night_taken_back_is_the_same_day_again(two: dict[str, Any]) -> None:
    table = Table(two)
    lasting_penalty(table, lasts="night")
    table.send({"type": "pass_time", "span": "night"})
    table.send({"type": "undo"})
    assert table.state["day"] == 1 and time.now(table.state)["day"] == 0
    assert [c["name"] for c in table.state["conditions"]] == ["Splinted Leg"]
    assert table.lines[-1] == "The GM takes back the last step (A night passes)."


def test_the_undo_is_everyones_and_the_panel_names_the_step(two: dict[str, Any]) -> None:
    table = Table(two, auto_draw=False)
    table.call("c1", "LAW", "easy", task="the door")
    assert view(table.state, table.seat())["undo"].startswith("The GM calls a check for 'the door'")
    table.send({"type": "undo"})
    assert SYSTEM.visibility(table.log[-1]) is not None
    assert SYSTEM.visibility(table.log[-1]) == SYSTEM.visibility({"type": "drawn"})


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), data=st.data(), steps=st.integers(1, 40))
def test_with_undos_every_card_stays_in_exactly_one_place(seed: int, data: st.DataObject, steps: int) -> None:
    """Random checks, days and undos over shuffled decks (a long run cycles each deck through
    its discard): no card lost, none face up twice, the log folds to the state."""
    tabled = Tabled(seed)
    played = Table({cid: dict(person) for cid, person in PEOPLE.items()}, auto_draw=False)
    played.cards = tabled.cards
    rng = random.Random(seed)
    for _ in range(steps):
        if rng.random() < 0.3:
            sent, actor = {"type": "undo"}, GM
        else:
            sent, actor = command(data, played.state, played.people)
        before = len(tabled.cards.placed)
        try:
            played.send(sent, actor)
        except RuleError:
            assert len(tabled.cards.placed) == before, "a refusal moved a card"
            continue
        tabled.note()
        tabled.assert_conserved()
        # every card face up is one the open check shows; none it shows is in a draw pile
        check = played.state["check"]
        shown = Counter((deck_title(p["name"]), t) for p in (check["parts"] if check else ())
                        for t in on_the_table(last(p)))
        face_up = Counter((d, t) for d, tokens in tabled.play.items() for t in tokens)
        assert not face_up - shown
        for (deck, token) in shown:
            assert token not in tabled.cards.decks[deck]
        assert ENGINE.fold(played.log) == played.state
        view(played.state, played.seat(SPECTATOR_SEAT))


def test_a_retry_after_an_undo_may_draw_the_card_it_replaces_and_keeps_it_face_up(two: dict[str, Any]) -> None:
    """The retry taken back had put the failed card on the discard pile; retried again with the
    draw pile empty, the discard is shuffled back in (the decided reading: "an empty draw pile
    reshuffles the discard under a new seal") and the same card may come off: it lies face up
    for the new attempt, not on the discard."""
    table = Table(two, {"c1": ["3C", "KS"]}, fill=False, auto_draw=False)
    table.call("c1", "LAW", "easy", hold=True)  # the GM holds the rank: a retry stays Easy
    table.send({"type": "draw", "character": "c1"})
    table.send({"type": "retry", "character": "c1"}, player(7, "c1"))
    table.send({"type": "undo"})
    assert table.cards.decks[table.deck("c1")] == [] and table.people["c1"]["corruption"] == 0
    table.send({"type": "retry", "character": "c1"}, player(7, "c1"))
    attempt = table.part("c1")["attempts"][-1]
    assert attempt["draws"][0]["card"] == card("3C") and "discarded" not in of_type(table.log, "drawn")[-1]
    assert attempt["outcome"] == "failure" and table.state["check"] is not None
    assert where(table, "c1") == {"draw": [card("KS")], "discard": [], "play": [card("3C")]}
    assert ENGINE.fold(table.log) == table.state
