"""One card against a rank: the seed's table, its critical cards, the Wheel, A+ and F."""

from __future__ import annotations

import pytest

from games.report_card.errors import BadInput
from games.report_card.meanings import MINOR_MEANINGS, card_name, meaning
from games.report_card.draws import judge
from games.report_card.rules import (
    CRITICAL_FAILURE, CRITICAL_SUCCESS, FAILURE, RANKS, SUCCESS, card_class, easier, edge_of, outcome_of,
)
from games.report_card.sheet import major_number
from games.report_card.skills import SKILL, with_skill
from tests.unit.report_card.helpers import card

MINORS = [f"tarot:{s}:{v}" for s in ("cups", "pentacles", "swords", "wands") for v in range(1, 15)]
PLAIN_MAJORS = [f"tarot:major:{n}" for n in range(22) if n not in (0, 10, 13, 15, 16, 19, 21)]


def outcome(rank: str, name: str, own: int | None = None, second: str | None = None) -> str:
    return judge(rank, card(name), own, card(second) if second else None)["outcome"]


def test_ranks_run_from_automatic_to_impossible() -> None:
    """Seed: "Automatic ... Trivial ... Easy ... Medium ... Hard ... Unlikely ... Impossible"."""
    assert RANKS == ("automatic", "trivial", "easy", "medium", "hard", "unlikely", "impossible")


@pytest.mark.parametrize("token", MINORS + PLAIN_MAJORS + [card("M16"), card("M13"), card("M15")])
def test_automatic_cannot_fail(token: str) -> None:
    """Seed: "Automatic: The player can not fail this check." Even the Tower only succeeds."""
    assert judge("automatic", token, None)["outcome"] == SUCCESS


def test_automatic_still_takes_a_critical_success() -> None:
    """Seed: "On other checks, a Critical Success indicates that something about the success
    was a little bit extra good"."""
    assert outcome("automatic", "M19") == CRITICAL_SUCCESS


@pytest.mark.parametrize("token", MINORS + PLAIN_MAJORS)
def test_trivial_fails_only_on_a_critical_failure(token: str) -> None:
    """Seed: "Trivial: Only fails on a Critical Failure."."""
    assert judge("trivial", token, None)["outcome"] == SUCCESS
    assert outcome("trivial", "M16") == CRITICAL_FAILURE


@pytest.mark.parametrize(("rank", "line"), [("easy", 5), ("medium", 9), ("hard", 14)])
def test_easy_medium_and_hard_fail_on_minor_arcana_up_to_their_line(rank: str, line: int) -> None:
    """Seed: "Easy: Fails on any Minor Arcana <= 5, otherwise succeeds." "Medium: Fails on any
    Minor Arcana <= 9, otherwise succeeds." "Hard: Fails on any Minor Arcana, otherwise succeeds."."""
    for token in MINORS:
        value = int(token.rsplit(":", 1)[1])
        assert judge(rank, token, None)["outcome"] == (FAILURE if value <= line else SUCCESS), token
    for token in PLAIN_MAJORS:
        assert judge(rank, token, None)["outcome"] == SUCCESS


@pytest.mark.parametrize("token", MINORS + PLAIN_MAJORS)
def test_unlikely_succeeds_only_on_a_critical_success(token: str) -> None:
    """Seed: "Unlikely: Success on a Critical Success, otherwise fails"."""
    assert judge("unlikely", token, None)["outcome"] == FAILURE


def test_on_unlikely_a_critical_success_is_just_a_success() -> None:
    """Seed: "On an Unlikely check, a Critical Success is just a success: nothing special
    happens"."""
    for name in ("M0", "M19", "M21"):
        assert outcome("unlikely", name) == SUCCESS
    assert outcome("unlikely", "M3", own=3) == SUCCESS
    assert outcome("unlikely", "M16") == CRITICAL_FAILURE


def test_impossible_cannot_succeed() -> None:
    """Seed: "Impossible: The player can not succeed at this check." Not even the Fool."""
    for token in MINORS + PLAIN_MAJORS + [card("M0"), card("M19"), card("M21")]:
        assert judge("impossible", token, None)["outcome"] in (FAILURE,)
    assert outcome("impossible", "M13") == CRITICAL_FAILURE


@pytest.mark.parametrize("name", ["M0", "M21", "M19"])
@pytest.mark.parametrize("rank", ["trivial", "easy", "medium", "hard"])
def test_the_fool_the_world_and_the_sun_are_always_critical_successes(name: str, rank: str) -> None:
    """Seed: "A Fool is always a Critical Success", "The World is always a Critical Success",
    "The Sun is always a Critical Success"."""
    assert outcome(rank, name) == CRITICAL_SUCCESS


@pytest.mark.parametrize("name", ["M16", "M15", "M13"])
@pytest.mark.parametrize("rank", ["trivial", "easy", "medium", "hard", "unlikely", "impossible"])
def test_the_tower_the_devil_and_death_are_always_critical_failures(name: str, rank: str) -> None:
    """Seed: "A Tower is always a Critical Failure." "The Devil is always a Critical Failure."
    "Death is always a Critical Failure."."""
    assert outcome(rank, name) == CRITICAL_FAILURE


def test_ones_own_major_arcana_is_a_critical_success() -> None:
    """Seed: "The player's own Major Arcana card always triggers a Critical Success"."""
    assert outcome("hard", "M7", own=7) == CRITICAL_SUCCESS
    assert outcome("hard", "M7", own=8) == SUCCESS


@pytest.mark.parametrize("own", [16, 15, 13])
def test_critical_success_fires_before_critical_failure(own: int) -> None:
    """Seed: "The Critical Success conditions fire before the Critical Failure conditions." "If a
    card is a Critical Success, it can't be a Critical Failure." Own Tower, Devil or Death."""
    assert outcome("medium", f"M{own}", own=own) == CRITICAL_SUCCESS


def test_ones_own_wheel_is_a_critical_success_without_a_second_card() -> None:
    """Critical Success fires first (issue 14: "even if it is the Tower or the Wheel")."""
    assert card_class(card("M10"), 10) == "cs"
    assert judge("hard", card("M10"), 10)["outcome"] == CRITICAL_SUCCESS


@pytest.mark.parametrize("second", [f"{v}{s}" for v in ("A", 2, 3, 4, 5, 6, 7, 8, 9) for s in "CPSW"])
def test_the_wheel_then_an_ace_to_nine_is_a_critical_failure(second: str) -> None:
    """Seed: "Draw a second card: If the card is an Ace through a Nine: Critical Failure"."""
    assert outcome("easy", "M10", second=second) == CRITICAL_FAILURE


@pytest.mark.parametrize("second", [f"{v}{s}" for v in (10, "P", "N", "Q", "K") for s in "CPSW"]
                         + [f"M{n}" for n in range(22) if n != 10])
def test_the_wheel_then_a_ten_court_or_major_is_a_critical_success(second: str) -> None:
    """Seed: "If the card is a 10, Page, Knight, Queen, King, or Major Arcana: Critical
    Success" (any Major Arcana, the Tower too)."""
    assert outcome("hard", "M10", second=second) == CRITICAL_SUCCESS


def test_the_wheel_always_gives_a_critical() -> None:
    """Seed: "When a Wheel of Fortune is drawn, the player will either see a Critical Success or
    Critical Failure" (at ranks where a critical can show)."""
    assert {outcome("medium", "M10", second=s) for s in ("2C", "KW")} == {CRITICAL_FAILURE, CRITICAL_SUCCESS}


def test_the_wheel_needs_its_second_card() -> None:
    with pytest.raises(ValueError):
        outcome_of("medium", "wheel")


@pytest.mark.parametrize(("rank", "after"), [("impossible", "unlikely"), ("unlikely", "hard"), ("hard", "medium"),
                                             ("medium", "easy"), ("easy", "trivial"), ("trivial", "automatic"),
                                             ("automatic", "automatic")])
def test_one_rank_easier(rank: str, after: str) -> None:
    """Seed: "it becomes one step easier: an Unlikely check becomes merely Hard, a Hard check
    becomes Medium, etc."."""
    assert easier(rank) == after


def test_the_a_plus_skill_makes_a_check_one_rank_easier() -> None:
    """Seed: "Any Skill Check that the player performs against a Skill that they have chosen
    becomes easier by one rank: an Impossible check becomes Hard, a Hard check becomes Medium".
    Reading: one rank, so Impossible becomes Unlikely (the seed's own example skips a rank)."""
    assert with_skill("hard", "SCI", "SCI", "GYM") == ("medium", "A+ skill: one rank easier")
    assert with_skill("impossible", "SCI", "SCI", "GYM")[0] == "unlikely"
    assert with_skill("automatic", "SCI", "SCI", "GYM") == ("automatic", "")
    assert with_skill("hard", "LAW", "SCI", "GYM") == ("hard", "")


@pytest.mark.parametrize("rank", ["automatic", "trivial", "easy", "medium", "hard", "unlikely"])
def test_a_failed_skill_makes_the_check_unlikely(rank: str) -> None:
    """Seed: "Any skill check against a failed Skill becomes Unlikely for the player"."""
    assert with_skill(rank, "GYM", "SCI", "GYM") == ("unlikely", "F skill: Unlikely")


def test_a_failed_skill_never_makes_impossible_easier() -> None:
    """Reading: the F skill is one "the player is bad at"; it never helps."""
    assert with_skill("impossible", "GYM", "SCI", "GYM")[0] == "impossible"


def test_bonus_and_penalty_cancel_and_do_not_stack() -> None:
    """Seed: "Bonus and Penalty cancel one another out, and do not stack."."""
    assert edge_of(True, True) is None and edge_of(False, False) is None
    assert edge_of(True, False) == "bonus" and edge_of(False, True) == "penalty"


def test_the_rule_that_decided_is_said() -> None:
    assert judge("medium", card("7S"), None)["rule"] == "Medium fails on any Minor Arcana of 9 or less, otherwise succeeds."
    assert judge("unlikely", card("M0"), None)["rule"] == (
        "The Fool is always a Critical Success, but on an Unlikely check a Critical Success is just a success.")
    assert "Ace to Nine" in judge("hard", card("M10"), None, card("3C"))["rule"]
    assert judge("automatic", card("M16"), None)["rule"] == (
        "The Tower is always a Critical Failure, but an Automatic check cannot fail.")


def test_happenstance_marks_the_fool_and_the_wheel() -> None:
    """Seed: "When a Critical Success or Critical Failure is triggered by The Fool or the Wheel
    of Fortune: it should be made clear by the GM that ... this success (or failure) was
    powered by blind luck and happenstance"."""
    assert judge("hard", card("M0"), None)["happenstance"]
    assert judge("hard", card("M10"), None, card("2C"))["happenstance"]
    assert judge("hard", card("M10"), None, card("KC"))["happenstance"]
    assert not judge("hard", card("M19"), None)["happenstance"]
    assert not judge("hard", card("M16"), None)["happenstance"]
    assert not judge("impossible", card("M0"), None)["happenstance"]  # the luck did not carry it


def test_skills_and_their_abilities_are_the_seeds() -> None:
    """Seed: "FINAID ... (Fast / Lucky)", "ART ... (Charming / Fast)", "SCI ... (Clever /
    Charming)", "FREE ... (Clever / Fast)", "GYM ... (Strong / Fast)", "AID ... (Wise /
    Charming)", "SHOP ... (Wise / Strong)", "LAW ... (Wise / Clever)", "MISC ... (Lucky / Strong)"."""
    assert {k: s.abilities for k, s in SKILL.items()} == {
        "FINAID": ("fast", "lucky"), "ART": ("charming", "fast"), "SCI": ("clever", "charming"),
        "FREE": ("clever", "fast"), "GYM": ("strong", "fast"), "AID": ("wise", "charming"),
        "SHOP": ("wise", "strong"), "LAW": ("wise", "clever"), "MISC": ("lucky", "strong")}


@pytest.mark.parametrize(("given", "number"), [(16, 16), ("16", 16), ("XVI", 16), ("The Tower", 16), ("tower", 16),
                                               ("tarot:major:16", 16), ("Wheel of Fortune", 10), ("0", 0), ("", None)])
def test_a_major_arcana_is_read_by_number_numeral_name_or_id(given: object, number: int | None) -> None:
    assert major_number(given) == number


@pytest.mark.parametrize("given", ["22", "-1", "The Moose", "XXX"])
def test_what_names_no_major_arcana_is_refused(given: str) -> None:
    with pytest.raises(BadInput, match="not a Major Arcana"):
        major_number(given)


def test_a_card_from_another_deck_is_refused() -> None:
    with pytest.raises(BadInput, match="not a Tarot card"):
        judge("easy", "std:S:5", None)


def test_every_minor_arcana_has_a_meaning_and_majors_use_the_projects() -> None:
    assert all(len(v) == 14 for v in MINOR_MEANINGS.values())
    assert meaning(card("M7"))["meaning"].startswith("Control, will power")
    assert meaning("tarot:major:7/r")["reversed"] is True
    assert meaning(card("3C"))["influence"].startswith("Cups: Water")


def test_cards_are_named_as_a_sentence_says_them() -> None:
    assert card_name(card("7S")) == "the Seven of Swords"
    assert card_name(card("M7")) == "The Chariot"
    assert card_name(card("M13")) == "Death"
    assert card_name(card("M10")) == "the Wheel of Fortune"
    assert card_name("tarot:major:16/r") == "The Tower (reversed)"
