"""Skill checks as a state machine: who may do what, what each step draws, what it records."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.core.engine import NotYourMove, RuleError
from games.report_card import ENGINE
from games.report_card.draws import deck_title
from games.report_card.panel import view
from games.report_card.errors import AlreadyToday, BadInput, NotNow, NotYours
from games.report_card.skills import ABILITIES
from games.report_card.writeback import writeback
from tests.unit.report_card.conftest import Table, of_type
from tests.unit.report_card.helpers import GM, card, player, report

MARIETA, JO, STRANGER = player(7, "c1"), player(8, "c2"), player(9)


def test_each_character_draws_the_top_card_of_its_own_deck(two: dict[str, Any]) -> None:
    """Seed: "Skill checks are resolved by having the player draw the top card from their
    decks." The card lands face up in the play area and the event records its token; the check
    closed, it goes to the deck's discard pile (the decided reading 004: "a check's card goes to
    the discard when the check closes")."""
    table = Table(two, {"c1": ["KC"], "c2": ["2C"]})
    [called, drawn, closed] = table.call("c1", "LAW", "medium")
    assert drawn["deck"] == deck_title("Marieta") == "Marieta's Tarot"
    assert drawn["attempt"]["draws"][0]["card"] == card("KC")
    assert table.cards.placed == [(deck_title("Marieta"), card("KC"), "play", None),
                                  (deck_title("Marieta"), card("KC"), "discard", None)]
    assert closed["discarded"] == {"c1": [card("KC")]} and table.cards.discards[deck_title("Marieta")] == [card("KC")]
    assert closed["outcome"] == "success" and table.state["check"] is None
    assert table.drawn("c2") == []


def test_the_state_keeps_no_copy_of_a_sheet(two: dict[str, Any]) -> None:
    """Issue 24: "No state mirrors platform data": a rule reads the sheet as it is now (the
    ``Turn``'s characters); a check keeps only what it recorded of its character when it was
    called (the name its lines say, its deck, its own card, the circles its retries fill)."""
    table = Table(two, {"c1": ["7S", "KC"]})
    table.call("c1", "LAW", "hard")
    table.send({"type": "retry", "character": "c1"}, MARIETA)
    assert "characters" not in table.state
    assert not any(f'"{ability}"' in json.dumps(table.state) for ability in ABILITIES)
    part = table.part("c1")
    assert {k: part[k] for k in ("name", "deck", "major", "corruption")} == {
        "name": "Marieta", "deck": "Marieta's Tarot", "major": 17, "corruption": 1}


def test_only_the_gm_calls_checks_unless_the_gm_allows_players(two: dict[str, Any]) -> None:
    """Issue 14: "the GM (or the player, if the GM allows) calls a check"."""
    table = Table(two, {"c1": ["KC", "KW"]})
    with pytest.raises(NotYours, match="Only the GM calls checks"):
        table.call("c1", "LAW", "medium", actor=MARIETA)
    with pytest.raises(NotYourMove):
        table.send({"type": "allow_player_calls", "allowed": True}, MARIETA)
    table.send({"type": "allow_player_calls", "allowed": True})
    with pytest.raises(NotYourMove, match="only for the characters you control"):
        table.call("c2", "LAW", "medium", actor=MARIETA)
    for option in ({"repeat": True}, {"hold": True}, {"helper": "c2", "helper_skill": "LAW", "helper_rank": "easy"},
                   {"grant": "success", "inconsequential": True}):
        with pytest.raises(NotYours, match="Only the GM"):
            table.call("c1", "LAW", "medium", actor=MARIETA, **option)
    assert table.cards.placed == []
    table.call("c1", "LAW", "medium", actor=MARIETA)
    table.send({"type": "approve", "rank": "medium"})
    assert table.closed["outcome"] == "success"


def test_the_gm_approves_the_difficulty_and_any_bonus_of_a_players_call_before_the_draw(two: dict[str, Any]) -> None:
    """Issue 26: "when the GM lets players call their own checks, the GM approves the
    difficulty and any Bonus before the draw". Seed: "If the player has a significant, concrete
    advantage on a skill check ... they get a 'Bonus'"; the difficulty is the GM's to set
    ("Determining the Difficulty of a Skill Check")."""
    table = Table(two, {"c1": ["7C", "KC"]}, auto_draw=False)
    table.send({"type": "allow_player_calls", "allowed": True})
    [called] = table.call("c1", "FREE", "easy", actor=MARIETA, bonus=True, task="pick the lock")
    assert not called["check"]["approved"]
    assert table.lines[-1].endswith("The GM approves the difficulty and any Bonus before the draw.")
    shown = view(table.state, table.seat())
    assert shown["turn"]["gm"] and not shown["check"]["approved"] and not shown["check"]["parts"][0]["may_draw"]
    assert not shown["check"]["parts"][0]["waits"]  # for the GM's approval, not for help
    with pytest.raises(NotNow, match="The GM approves the difficulty and any Bonus of this check before"):
        table.send({"type": "draw", "character": "c1"}, MARIETA)
    with pytest.raises(NotYourMove):
        table.send({"type": "approve", "rank": "trivial", "bonus": True}, MARIETA)
    assert table.cards.placed == []
    # the GM makes it Hard (Medium for her A+ FREE) and takes the Bonus away
    [approved] = table.send({"type": "approve", "rank": "hard"})
    assert table.lines[-1] == "The GM approves the check for 'pick the lock': Hard, Medium by the A+ skill."
    part = table.state["check"]["parts"][0]
    assert (part["base_rank"], part["rank"], part["bonus"], table.state["check"]["rank"]) == (
        "hard", "medium", False, "hard")
    with pytest.raises(NotNow, match="needs no approval"):
        table.send({"type": "approve", "rank": "easy"})
    [drawn] = table.send({"type": "draw", "character": "c1"}, MARIETA)[:1]
    assert len(drawn["attempt"]["draws"]) == 1 and drawn["attempt"]["rank"] == "medium"
    assert drawn["attempt"]["outcome"] == "failure"  # the Seven of Cups fails at Medium


def test_a_call_the_gm_does_not_approve_is_never_made(two: dict[str, Any]) -> None:
    table = Table(two, auto_draw=False)
    table.send({"type": "allow_player_calls", "allowed": True})
    table.call("c1", "FREE", "easy", actor=MARIETA, task="pick the lock")
    [closed] = table.send({"type": "close"})
    assert closed["reason"] == "unapproved" and table.state["today"] == []
    assert table.lines[-1].endswith("the GM did not approve it, so it was never made.")
    assert table.cards.placed == []


def test_a_refused_command_draws_no_card_and_changes_nothing(two: dict[str, Any]) -> None:
    table = Table(two)
    before = table.state
    for bad in ({"skill": "DECEPTION"}, {"rank": "tricky"}, {"task": "  "}, {"character": "c9"}):
        command = {"type": "call_check", "character": "c1", "skill": "LAW", "rank": "easy", "task": "x", **bad}
        with pytest.raises(BadInput):
            table.send(command)
    assert table.cards.placed == [] and table.state == before


def test_a_bonus_draws_two_and_only_the_player_picks(two: dict[str, Any]) -> None:
    """Seed: "While they have Bonus, they draw two cards and use whichever of the two cards they
    would prefer." Issue 14: "only that person can make it"."""
    table = Table(two, {"c1": ["3C", "KC"]})
    [_, drawn] = table.call("c1", "LAW", "hard", bonus=True)
    assert drawn["attempt"]["pending"] == "player" and drawn["attempt"]["suggested"] == 1
    with pytest.raises(NotYours, match="Marieta's player chooses"):
        table.send({"type": "pick", "character": "c1", "index": 1}, GM)
    for someone in (JO, STRANGER):  # who plays no part of it: the engine refuses them first
        with pytest.raises(NotYourMove, match="only for the characters you control"):
            table.send({"type": "pick", "character": "c1", "index": 1}, someone)
    with pytest.raises(BadInput):
        table.send({"type": "pick", "character": "c1", "index": 2}, MARIETA)
    [picked] = table.send({"type": "pick", "character": "c1", "index": 0}, MARIETA)
    assert picked["outcome"] == "failure"  # her choice, even if the King would have done
    assert of_type(table.log, "check_closed") == []  # she may still retry
    table.send({"type": "accept", "character": "c1"}, MARIETA)
    assert table.closed["outcome"] == "failure"


def test_with_a_penalty_the_gm_picks_the_worse(two: dict[str, Any]) -> None:
    """Seed: "While they have Penalty, they draw two cards and use whichever card the GM
    decides is the worse of the two"."""
    table = Table(two, {"c1": ["KC", "3C"]})
    [_, drawn] = table.call("c1", "LAW", "medium", penalty=True)
    assert drawn["attempt"]["pending"] == "gm" and drawn["attempt"]["suggested"] == 1
    with pytest.raises(NotYours, match="the GM chooses"):
        table.send({"type": "pick", "character": "c1", "index": 0}, MARIETA)
    table.send({"type": "pick", "character": "c1", "index": 1}, GM)  # the Three of Cups
    assert table.part("c1")["attempts"][0]["outcome"] == "failure"


def test_nobody_plays_the_character_so_the_gm_picks_its_bonus() -> None:
    table = Table({"c3": report("Unclaimed", None)}, {"c3": ["3C", "KC"]})
    table.call("c3", "FREE", "hard", bonus=True)
    table.send({"type": "pick", "character": "c3", "index": 1}, GM)
    assert table.closed["outcome"] == "success"


def test_bonus_and_penalty_together_draw_one_card(two: dict[str, Any]) -> None:
    """Seed: "Bonus and Penalty cancel one another out, and do not stack."."""
    table = Table(two, {"c1": ["KC", "3C"]})
    [_, drawn, _] = table.call("c1", "LAW", "medium", bonus=True, penalty=True)
    assert len(drawn["attempt"]["draws"]) == 1 and table.drawn("c1") == [card("KC")]


def test_a_wheel_among_two_cards_draws_its_own_second_card(two: dict[str, Any]) -> None:
    """Issue 14: "A Wheel among them draws its own second card at once"; the two cards come
    off first, then the Wheel's second."""
    table = Table(two, {"c1": ["M10", "5C", "2S"]})
    [_, drawn] = table.call("c1", "LAW", "medium", bonus=True)
    first, second = drawn["attempt"]["draws"]
    assert (first["card"], first["second"], first["outcome"]) == (card("M10"), card("2S"), "critical_failure")
    assert (second["card"], second["second"], second["outcome"]) == (card("5C"), None, "failure")
    assert table.drawn("c1") == [card("M10"), card("5C"), card("2S")]


def test_a_failure_is_retried_one_rank_easier_for_a_corruption_point(two: dict[str, Any]) -> None:
    """Seed: "The player can take 1 Corruption Point to retry the check. Each time the player
    attempts to re-try the check, it becomes one step easier"."""
    table = Table(two, {"c1": ["7S", "4C", "8W"]})
    table.call("c1", "LAW", "hard")
    assert table.part("c1")["attempts"][0]["rank"] == "hard"
    with pytest.raises(NotYours, match="Only Marieta's player decides to retry"):
        table.send({"type": "retry", "character": "c1"}, GM)
    [retried, drawn] = table.send({"type": "retry", "character": "c1"}, MARIETA)
    assert (retried["corruption"], retried["rank"]) == (1, "medium")
    assert writeback(retried, table.state) == {"c1": {"corruption": 1}}
    assert table.people["c1"]["corruption"] == 1 and table.part("c1")["corruption"] == 1
    assert drawn["attempt"]["rank"] == "medium" and drawn["attempt"]["outcome"] == "failure"
    table.send({"type": "retry", "character": "c1"}, MARIETA)
    assert table.part("c1")["attempts"][-1]["rank"] == "easy"
    assert table.closed["outcome"] == "success"  # the Eight of Wands makes Easy


def test_the_gm_may_hold_the_rank_on_a_retry(two: dict[str, Any]) -> None:
    """Seed: "At the GM's discretion, a check can remain at its current difficulty level during a
    retry"."""
    table = Table(two, {"c1": ["7S", "4C"]})
    table.call("c1", "LAW", "hard")
    with pytest.raises(NotYourMove, match="Only the GM can hold the rank on a retry"):
        table.send({"type": "hold", "hold": True}, MARIETA)
    table.send({"type": "hold", "hold": True})
    [retried, _] = table.send({"type": "retry", "character": "c1"}, MARIETA)
    assert retried["rank"] == "hard" and retried["held"]


def test_a_success_or_a_standing_failure_cannot_be_retried(two: dict[str, Any]) -> None:
    table = Table(two, {"c1": ["7S"]})
    table.call("c1", "LAW", "hard")
    table.send({"type": "accept", "character": "c1"}, MARIETA)
    with pytest.raises(NotNow, match="No check is open"):
        table.send({"type": "retry", "character": "c1"}, MARIETA)
    with pytest.raises(NotNow):
        table.send({"type": "accept", "character": "c1"}, MARIETA)


def test_only_the_player_or_the_gm_lets_a_failure_stand(two: dict[str, Any]) -> None:
    table = Table(two, {"c1": ["7S"]})
    table.call("c1", "LAW", "hard")
    with pytest.raises(NotYourMove):
        table.send({"type": "accept", "character": "c1"}, JO)
    [accepted, closed] = table.send({"type": "accept", "character": "c1"}, GM)
    assert closed["outcome"] == "failure" and closed["by"] == "rules"


def test_three_corruption_points_let_the_player_choose_a_new_a_plus_and_f() -> None:
    """Seed: "When all three of the Corruption Circles are filled, you may gain a new Skill, and
    fail a new skill." Issue 14: "(the circles then empty)"."""
    people = {"c1": report("Marieta", 7, corruption=2)}
    table = Table(people, {"c1": ["7S", "4C"]})
    with pytest.raises(NotNow, match="2 of 3"):
        table.send({"type": "rechoose", "character": "c1", "a_plus": "SCI", "f_skill": "ART"}, MARIETA)
    table.call("c1", "LAW", "hard")
    table.send({"type": "retry", "character": "c1"}, MARIETA)
    assert table.people["c1"]["corruption"] == 3
    with pytest.raises(NotNow, match="All three of Marieta's Corruption Circles are filled"):
        table.send({"type": "retry", "character": "c1"}, MARIETA)
    table.send({"type": "accept", "character": "c1"}, MARIETA)
    with pytest.raises(BadInput, match="Wise or Charming"):  # AID: she is neither
        table.send({"type": "rechoose", "character": "c1", "a_plus": "AID", "f_skill": "ART"}, MARIETA)
    with pytest.raises(NotYourMove):
        table.send({"type": "rechoose", "character": "c1", "a_plus": "SCI", "f_skill": "ART"}, JO)
    [chosen] = table.send({"type": "rechoose", "character": "c1", "a_plus": "SCI", "f_skill": "ART"}, MARIETA)
    assert writeback(chosen, table.state) == {"c1": {"a_plus": "SCI", "f_skill": "ART", "corruption": 0}}
    assert table.people["c1"]["corruption"] == 0


def test_one_check_at_a_time_and_the_gm_may_close_it(two: dict[str, Any]) -> None:
    table = Table(two, {"c1": ["3C", "KC"]})
    table.call("c1", "LAW", "hard", bonus=True)
    with pytest.raises(NotNow, match="still open"):
        table.call("c2", "LAW", "hard", task="read the file")
    with pytest.raises(NotYourMove):
        table.send({"type": "close"}, MARIETA)
    [closed] = table.send({"type": "close"})
    assert (closed["outcome"], closed["reason"], closed["by"]) == (None, "unsettled", "gm")
    with pytest.raises(NotNow):
        table.send({"type": "close"})


def test_the_gm_closing_a_failed_check_lets_the_failure_stand(two: dict[str, Any]) -> None:
    table = Table(two, {"c1": ["3C"]})
    table.call("c1", "LAW", "hard")
    [closed] = table.send({"type": "close"})
    assert closed["outcome"] == "failure"


def test_an_inconsequential_check_may_be_granted_without_a_draw(two: dict[str, Any]) -> None:
    """Seed: for an Inconsequential check the GM "can even skip the check itself and grant
    automatic failure or success"."""
    table = Table(two)
    with pytest.raises(BadInput, match="Only an Inconsequential check"):
        table.call("c1", "LAW", "easy", task="search the empty room", grant="success")
    [called, closed] = table.call("c1", "LAW", "easy", task="search the empty room", grant="success",
                                  inconsequential=True)
    assert called["check"]["inconsequential"] and closed["outcome"] == "success"
    assert table.cards.placed == []


def test_the_gm_says_which_earlier_check_of_the_day_a_new_one_repeats(two: dict[str, Any]) -> None:
    """Seed: "Skill Checks for a specific thing cannot be made more than once per Day. If you
    fail a skill check, it stays failed." "a Skill Check can only be attempted by one player".
    the decided reading 004: "the GM says which checks are the same task (the table offers the
    Day's earlier checks to pick from); the wording of a task decides nothing"."""
    table = Table(two, {"c1": ["3C"], "c2": ["KC", "KW", "QW"]})
    table.call("c1", "FREE", "hard", task="climb the wall")
    table.send({"type": "accept", "character": "c1"}, MARIETA)
    first = table.closed["id"]
    # "the wall" named as the same task: refused, whoever draws it, whatever its words
    with pytest.raises(AlreadyToday, match="Marieta already made the check for 'climb the wall' today"):
        table.call("c1", "FREE", "hard", task="the wall", same_as=first)
    with pytest.raises(AlreadyToday):
        table.call("c2", "LAW", "easy", task="get over it", same_as=first)
    with pytest.raises(BadInput, match="not made today"):
        table.call("c2", "LAW", "easy", task="the gate", same_as=first + 7)
    # the same words, not named as the same task: a new task, which the GM alone decides
    table.call("c2", "LAW", "easy", task="Climb the wall")
    assert table.closed["same_as"] is None
    table.call("c2", "LAW", "easy", task="the wall again", same_as=first, repeat=True)  # "Unless otherwise specified"
    assert table.lines[-3].endswith("It repeats today's 'climb the wall', which the GM lets them make again.")
    with pytest.raises(NotYourMove):
        table.send({"type": "new_day"}, MARIETA)
    [day] = of_type(table.send({"type": "new_day"}), "day_started")
    assert day["day"] == 2 and table.state["today"] == []
    with pytest.raises(BadInput, match="not made today"):
        table.call("c2", "LAW", "easy", task="climb the wall", same_as=first)


def test_a_player_calling_a_check_does_not_say_what_it_repeats(two: dict[str, Any]) -> None:
    """The Day's bookkeeping is the GM's say (the decided reading 004)."""
    table = Table(two)
    table.send({"type": "allow_player_calls", "allowed": True})
    table.call("c1", "LAW", "automatic", task="the door")
    with pytest.raises(NotYours, match="say which earlier check"):
        table.call("c1", "LAW", "easy", task="the door", actor=MARIETA, same_as=table.closed["id"])


def test_unknown_commands_are_refused(two: dict[str, Any]) -> None:
    with pytest.raises(RuleError, match="no such command"):
        Table(two).send({"type": "explode"})


def test_the_log_replays_without_drawing(two: dict[str, Any]) -> None:
    """Issue 14: "The engine's events record the card ids it used, so a log replays without
    drawing again"."""
    table = Table(two, {"c1": ["M10", "KC", "3S", "9W"], "c2": ["5C"]})
    table.call("c1", "FREE", "medium", bonus=True)
    table.send({"type": "pick", "character": "c1", "index": 1}, MARIETA)
    table.send({"type": "new_day"})
    table.send({"type": "call_group", "mode": "only_one", "characters": ["c1", "c2"], "skill": "LAW",
                "rank": "easy", "task": "search the room"})
    assert ENGINE.fold(table.log) == table.state
    recorded = [t for e in of_type(table.log, "drawn") for d in e["attempt"]["draws"]
                for t in (d["card"], d["second"]) if t]
    assert sorted(recorded) == sorted(token for _, token, to, _ in table.cards.placed if to == "play")


def test_log_lines_are_plain_english(two: dict[str, Any]) -> None:
    table = Table(two, {"c1": ["7S", "M0"]})
    table.call("c1", "FREE", "hard")
    table.send({"type": "retry", "character": "c1"}, MARIETA)
    assert table.lines == [
        "The GM calls a check for 'pick the lock': Marieta (FREE, Hard made Medium by the A+ skill).",
        "Marieta draws the Seven of Swords against Medium: failure, not close: it needed a 10 or better.",
        "Marieta takes a Corruption Point (1 of 3) to retry at Easy, one rank easier.",
        "Marieta draws The Fool against Easy on a retry: critical success by happenstance (blind luck, not "
        "skill).",
        "The check for 'pick the lock' ends: critical success for Marieta.",
    ]
