"""Every worked example of seed 004, played at a table of stacked decks."""

from __future__ import annotations

from typing import Any

import pytest

from games.core.cards import card_by_id
from games.report_card.meanings import meaning
from games.report_card.draws import judge
from games.report_card.rules import closeness
from tests.unit.report_card.conftest import Table
from tests.unit.report_card.helpers import GM, card, player, report

MARIETA = player(7, "c1")


@pytest.fixture
def table() -> Table:
    """Marieta: Fast and Clever, A+ FREE, F GYM, her own card the Star."""
    return Table({"c1": report("Marieta", 7), "c2": report("Jo", 8, abilities=("clever",), a_plus="SCI",
                                                           f_skill="GYM", major=5)},
                 {"c1": ["KC", "QC", "3C", "2C", "M19", "8W"], "c2": ["M0", "5C", "KS"]})


def test_an_impossible_check_on_the_a_plus_skill_is_one_rank_easier(table: Table) -> None:
    """Seed: "an Impossible check becomes Hard, a Hard check becomes Medium, and so on."
    Reading: one rank, as the rule says ("easier by one rank"), so Impossible becomes
    Unlikely; the example's "Hard" skips the Unlikely rank the seed lists."""
    table.call("c1", "FREE", "impossible", task="pick the vault")
    assert table.part("c1")["rank"] == "unlikely"
    table.send({"type": "close"})
    table.call("c1", "FREE", "hard", task="pick the padlock")
    assert table.part("c1")["rank"] == "medium"


def test_an_unlikely_retry_becomes_hard_then_medium() -> None:
    """Seed: "an Unlikely check becomes merely Hard, a Hard check becomes Medium, etc." GYM is
    Marieta's F: "Any skill check against a failed Skill becomes Unlikely"."""
    table = Table({"c1": report("Marieta", 7)}, {"c1": ["2C", "3C", "KC"]})
    table.call("c1", "GYM", "easy", task="climb the wall")
    for _ in range(2):
        table.send({"type": "retry", "character": "c1"}, MARIETA)
    attempts = table.closed["parts"][0]["attempts"]
    assert [(a["rank"], a["outcome"]) for a in attempts] == [
        ("unlikely", "failure"), ("hard", "failure"), ("medium", "success")]
    assert table.people["c1"]["corruption"] == 2


def test_jumping_from_the_moon_to_the_earth_stays_impossible() -> None:
    """Seed: "jumping from the Moon to the Earth is Impossible and no matter how many times a
    player tries to accomplish it, it will remain Impossible."."""
    table = Table({"c1": report("Marieta", 7)}, {"c1": ["M19", "M21", "KC"]})
    table.call("c1", "MISC", "impossible", task="jump from the Moon to the Earth", hold=True)
    for _ in range(2):
        table.send({"type": "retry", "character": "c1"}, MARIETA)
    attempts = table.part("c1")["attempts"]
    assert [a["rank"] for a in attempts] == ["impossible"] * 3
    assert [a["outcome"] for a in attempts] == ["failure"] * 3  # not even the Sun or the World
    assert table.people["c1"]["corruption"] == 2


def test_breathing_is_automatic_and_making_toast_trivial() -> None:
    """Seed: "Automatic: Breathing. Walking." "Trivial: Making toast." Automatic "can not fail";
    Trivial "Only fails on a Critical Failure"."""
    table = Table({"c1": report("Marieta", 7)}, {"c1": ["M16", "2C", "M16"]})
    table.call("c1", "MISC", "automatic", task="breathe")
    assert table.closed["outcome"] == "success"  # the Tower, and still she breathes
    table.call("c1", "SHOP", "trivial", task="make toast")
    assert table.closed["outcome"] == "success"  # the Two of Cups
    table.call("c1", "SHOP", "trivial", task="make more toast")
    assert table.state["check"] is not None and table.part("c1")["attempts"][0]["outcome"] == "critical_failure"


def test_an_inconsequential_hack_is_still_hard(table: Table) -> None:
    """Seed: '"hacking into a computer that doesn't have any useful secrets on it" is Hard but
    Inconsequential'."""
    called = table.call("c2", "SCI", "hard", task="hack the empty computer", inconsequential=True)[0]
    assert called["check"]["inconsequential"] and called["check"]["parts"][0]["base_rank"] == "hard"
    assert "It is Inconsequential." in table.lines[0]


def test_the_empty_room_is_searched_without_a_draw(table: Table) -> None:
    """Seed: '"You quickly and successfully search the empty room. There is nothing here. It is
    an empty room."' (the GM can "grant automatic failure or success")."""
    table.call("c1", "LAW", "easy", task="search the empty room", inconsequential=True, grant="success")
    assert table.closed["outcome"] == "success" and table.cards.placed == []


def test_an_aced_chemistry_course_gives_bonus() -> None:
    """Seed: "deciphering a lab result when they have recently aced a chemistry course covering
    that exact topic, they get a "Bonus" on that check. While they have Bonus, they draw two
    cards and use whichever of the two cards they would prefer."."""
    table = Table({"c2": report("Jo", 8, abilities=("clever",), a_plus="SCI", f_skill="GYM", major=5)},
                  {"c2": ["4C", "M7"]})
    [_, drawn] = table.call("c2", "SCI", "unlikely", task="decipher the lab result", bonus=True)
    assert drawn["attempt"]["rank"] == "hard"  # her A+
    table.send({"type": "pick", "character": "c2", "index": 1}, player(8, "c2"))
    assert table.closed["outcome"] == "success"


def test_a_splinted_leg_gives_penalty() -> None:
    """Seed: "climbing a wall with a Splinted Leg, they get a "Penalty" on that check. While they
    have Penalty, they draw two cards and use whichever card the GM decides is the worse"."""
    table = Table({"c1": report("Marieta", 7, a_plus="FREE", f_skill="LAW")}, {"c1": ["KC", "2C"]})
    [_, drawn] = table.call("c1", "GYM", "easy", task="climb the wall", penalty=True)
    assert drawn["attempt"]["pending"] == "gm" and drawn["attempt"]["suggested"] == 1
    table.send({"type": "pick", "character": "c1", "index": 1}, GM)
    assert table.part("c1")["attempts"][0]["outcome"] == "failure"


def test_a_nine_or_ten_is_a_closer_failure_than_a_one_or_two() -> None:
    """Seed: "If the player needed a face card or Major Arcana to succeed, and they drew a 9, or a
    10, that's a closer failure than if they had drawn a 1 or a 2."."""
    def margin(rank: str, name: str) -> int:
        found = closeness(rank, card_by_id(card(name)), "failure")
        assert found is not None
        return found["margin"]
    assert margin("hard", "9C") < margin("hard", "2C") and margin("hard", "10C") < margin("hard", "AC")
    assert closeness("medium", card_by_id(card("9C")), "failure") == {
        "needed": "a 10 or better", "margin": 1, "near": True, "text": "a near miss: it needed a 10 or better"}


def test_a_magician_is_a_closer_success_than_a_judgement() -> None:
    """Seed: "If they needed to draw a Major Arcana and they draw a Magician (2), that's a closer
    success than if they had drawn a Judgement (20)." (The Magician is card 1 of the Major
    Arcana; see tests/unit/core/test_card_decks.py.)"""
    magician = judge("hard", card("M1"), None)["closeness"]
    judgement = judge("hard", card("M20"), None)["closeness"]
    assert magician["margin"] < judgement["margin"] and magician["near"] and not judgement["near"]


@pytest.mark.parametrize(("name", "words"), [("M7", "victory"), ("M1", "skill"), ("7S", "greed"), ("9S", "panic")])
def test_the_cards_meaning_is_there_to_weave_in(name: str, words: str) -> None:
    """Seed: "if the player draws a Chariot and succeeds ... thanks to help from the player's
    allies", "If they draw a Magician and succeed, then the task was technically difficult
    but possible thanks to the player's skill", "If they draw a Seven of Swords, and fail, it
    was because they got too greedy", "If they draw a Nine of Swords, and fail, it was because
    they panicked"."""
    assert words in meaning(card(name))["meaning"].lower()


def test_the_fool_during_a_hacking_check_is_blind_luck(table: Table) -> None:
    """Seed: "If, for example, the player draws The Fool during a Hacking check, maybe they just
    find the password ... on a post-it note"."""
    table.call("c2", "SCI", "hard", task="hack the computer")
    draw = table.closed["parts"][0]["attempts"][0]["draws"][0]
    assert (draw["outcome"], draw["happenstance"]) == ("critical_success", True)
    assert "by happenstance (blind luck, not skill)" in table.lines[1]


@pytest.mark.parametrize(("rank", "outcome", "lucky"), [("unlikely", "success", True), ("impossible", "failure", False)])
def test_the_fool_during_major_surgery(rank: str, outcome: str, lucky: bool) -> None:
    """Seed: "If the player draws The Fool while attempting major surgery (note that the
    difficulty of attempting major surgery, as a teenager, is going to be Unlikely or
    Impossible) ... in an unlikely twist of fate actually kills what would otherwise have been a
    fatal infection." On Unlikely the Fool is a success by luck; Impossible cannot succeed."""
    draw = judge(rank, card("M0"), None)
    assert (draw["outcome"], draw["happenstance"]) == (outcome, lucky)


def test_searching_a_room_sneaking_and_pulling_a_lever_are_the_three_group_checks(table: Table) -> None:
    """Seed: "Only One Player Needs to Succeed ("Searching a Room")", "Every Player Needs to
    Succeed ("Sneaking Past Some Executare")", "One Player Helps Another ("Pulling a Lever")"."""
    base: dict[str, Any] = {"characters": ["c1", "c2"], "skill": "FREE", "rank": "easy"}
    table.send({"type": "call_group", "mode": "only_one", "task": "search a room", **base})
    assert table.closed["mode"] == "only_one"
    table.send({"type": "call_group", "mode": "everyone", "task": "sneak past some Executare", **base})
    if table.state["check"] is not None:
        table.send({"type": "close"})
    table.call("c1", "GYM", "medium", task="pull the lever", helper="c2", helper_skill="GYM",
               helper_rank="medium")
    assert (table.state["check"] or table.closed)["mode"] == "help"
