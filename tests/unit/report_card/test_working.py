"""Each log line unfolds to its working (issue 23): the card against the rank and why it succeeded
or failed, the rank's path (A+, F, a retry), Bonus and Penalty, a group's verdict, in the seed's
words."""

from __future__ import annotations

from typing import Any

from games.contract import Working
from games.report_card import ENGINE
from games.report_card import working as w
from tests.unit.report_card.conftest import Table
from tests.unit.report_card.helpers import player
from tests.unit.report_card.test_groups import three  # noqa: F401 (a fixture)

MARIETA = player(7, "c1")


def workings(table: Table) -> list[tuple[str, str, Working | None]]:
    """Each event's type, line and working, the working made from the state that event left."""
    state, out = ENGINE.new_state(), []
    for event, line in zip(table.log, table.lines):
        state = ENGINE.apply(state, event)
        out.append((event["type"], line, w.working(event, state)))
    return out


def of(table: Table, kind: str, nth: int = -1) -> tuple[str, Working]:
    found = [(line, made) for k, line, made in workings(table) if k == kind]
    line, made = found[nth]
    assert made is not None
    return line, made


def test_a_minor_card_is_read_against_the_rank_it_faces(two: dict[str, Any]) -> None:
    """Seed: "Medium: Fails on any Minor Arcana <= 9, otherwise succeeds." and "Any Skill Check that
    the player performs against a Skill that they have chosen becomes easier by one rank"."""
    table = Table(two, {"c1": ["7S"]})
    table.call("c1", "FREE", "hard")
    line, made = of(table, "check_called")
    assert made.steps == ("Marieta: FREE at Hard", "Marieta: A+ skill: Medium") and made.rule == w.A_PLUS[0]
    line, made = of(table, "drawn")
    assert line == "Marieta draws the Seven of Swords against Medium: failure, not close: it needed a 10 or better."
    assert made.steps == ("FREE at Hard", "A+ skill: Medium", "the Seven of Swords: a Minor Arcana of 7",
                          "Medium fails on 9 or less: 7 ≤ 9", "against Medium: failure",
                          "not close: it needed a 10 or better")
    assert made.rule == "Medium: Fails on any Minor Arcana <= 9, otherwise succeeds."
    assert made.source == "Resolving a Skill Check"


def test_a_retry_costs_a_corruption_point_and_comes_one_rank_easier(two: dict[str, Any]) -> None:
    """Seed: "The player can take 1 Corruption Point to retry the check. Each time the player attempts
    to re-try the check, it becomes one step easier"; "A Fool is always a Critical Success"."""
    table = Table(two, {"c1": ["7S", "M0"]})
    table.call("c1", "FREE", "hard")
    table.send({"type": "retry", "character": "c1"}, MARIETA)
    _, made = of(table, "retried")
    assert made.steps == ("Corruption 0 + 1 = 1 of 3", "one rank easier: Easy") and made.rule == w.RETRY[0]
    line, made = of(table, "drawn")
    assert line.endswith("critical success by happenstance (blind luck, not skill).")
    assert made.steps == ("a retry, at Easy", "The Fool: critical success, whatever the rank",
                          "against Easy: critical success (blind luck, not skill)")
    assert made.rule == "A Fool is always a Critical Success" and made.source == "Critical Success"


def test_the_gm_holding_the_rank_quotes_the_discretion(two: dict[str, Any]) -> None:
    """Seed: "At the GM's discretion, a check can remain at its current difficulty level during a retry"."""
    table = Table(two, {"c1": ["7S", "3S"]})
    table.call("c1", "FREE", "hard", hold=True)
    table.send({"type": "retry", "character": "c1"}, MARIETA)
    _, made = of(table, "retried")
    assert made.steps[1] == "the GM holds the rank: Medium" and made.rule == w.HELD[0]


def test_the_wheel_draws_a_second_card_and_an_f_skill_makes_it_unlikely(two: dict[str, Any]) -> None:
    """Seed: "Any skill check against a failed Skill becomes Unlikely for the player."; the Wheel:
    "Draw a second card: If the card is an Ace through a Nine: Critical Failure"."""
    table = Table(two, {"c1": ["M10", "5C"]})
    table.call("c1", "GYM", "easy")
    _, made = of(table, "check_called")
    assert made.rule == w.F_SKILL[0]
    _, made = of(table, "drawn")
    assert made.steps[2:] == ("the Wheel of Fortune: draw a second card",
                              "second card: the Five of Cups: critical failure",
                              "against Unlikely: critical failure (blind luck, not skill)")
    assert made.rule.startswith("Draw a second card: If the card is an Ace through a Nine: Critical Failure")


def test_bonus_draws_two_and_the_kept_card_is_read(two: dict[str, Any]) -> None:
    """Seed: "While they have Bonus, they draw two cards and use whichever of the two cards they would
    prefer."; "Hard: Fails on any Minor Arcana, otherwise succeeds.\""""
    table = Table(two, {"c1": ["3C", "KC"]})
    table.call("c1", "LAW", "hard", bonus=True)
    table.send({"type": "pick", "character": "c1", "index": 1}, MARIETA)
    _, made = of(table, "drawn")
    assert made.steps[-3:] == ("the Three of Cups: failure", "the King of Cups: failure",
                               "two cards: the player keeps the one preferred")
    assert made.rule == w.BONUS[0]
    line, made = of(table, "picked")
    assert line == "Marieta keeps the King of Cups: failure, a near miss: it needed a Major Arcana."
    assert made.steps[0] == "the King of Cups kept by the player (Bonus); set aside: the Three of Cups"
    assert "Hard fails on any Minor Arcana" in made.steps
    assert made.rule == f"{w.BONUS[0]} Hard: Fails on any Minor Arcana, otherwise succeeds."


def test_bonus_and_penalty_cancel(two: dict[str, Any]) -> None:
    """Seed: "Bonus and Penalty cancel one another out, and do not stack.\""""
    table = Table(two, {"c1": ["KC"]})
    table.call("c1", "LAW", "medium", bonus=True, penalty=True)
    _, made = of(table, "check_called")
    assert "Marieta: Bonus and Penalty cancel out" in made.steps and w.CANCEL in made.rule


def test_a_group_check_names_each_result_and_the_mode_s_rule(three: dict[str, Any]) -> None:
    """Seed, "Only One Player Needs to Succeed": "whichever player draws the highest card succeeds
    "the most" and is the player who actually accomplishes the task at hand"."""
    table = Table(three, {"c1": ["QC"], "c2": ["KW"], "c3": ["3S"]})
    table.send({"type": "call_group", "mode": "only_one", "characters": ["c1", "c2", "c3"], "skill": "FINAID",
                "rank": "medium", "task": "search the room"})
    line, made = of(table, "check_closed")
    assert line == "The check for 'search the room' ends: success; Jo drew the highest card and accomplishes it."
    assert made.steps == ("Marieta: success", "Jo: success", "Sam: failure", "success")
    assert made.rule == w.ONLY_ONE[0]
    called = [line for kind, line, _ in workings(table) if kind == "check_called"][0]
    assert called.startswith("The GM calls a group check (only one needs to succeed) for 'search the room': ")


def test_an_inconsequential_check_granted_quotes_the_seed(two: dict[str, Any]) -> None:
    """Seed: "They can even skip the check itself and grant automatic failure or success.\""""
    table = Table(two)
    table.call("c1", "LAW", "hard", inconsequential=True, grant="success")
    _, made = of(table, "check_closed")
    assert made.steps == ("granted: success, no card drawn",) and made.rule == w.GRANTED[0]


def test_bookkeeping_has_no_working(two: dict[str, Any]) -> None:
    table = Table(two)
    table.send({"type": "new_day"})
    table.send({"type": "allow_player_calls", "allowed": True})
    # a new Day is a night on the clock: the clock's line, then the Day's
    assert [made for _, _, made in workings(table)] == [None, None, None]


def test_an_a_plus_on_an_impossible_check_cites_the_decided_reading(two: dict[str, Any]) -> None:
    """The decided reading: "A+ on an Impossible check: one rank easier, as the rule says ("easier by one
    rank"), so Unlikely; its example ("an Impossible check becomes Hard") skips a rank and is not
    followed"."""
    table = Table(two, {"c1": ["7S"]})
    table.call("c1", "FREE", "impossible")
    _, made = of(table, "check_called")
    assert made.steps == ("Marieta: FREE at Impossible", "Marieta: A+ skill: Unlikely")
    assert made.rule == w.A_PLUS_IMPOSSIBLE[0] and made.source == "The decided reading, on Choose a Skill"


def test_a_critical_failure_fails_everyone_s_check(three: dict[str, Any]) -> None:
    """Seed, "Every Player Needs to Succeed": "only two players need to succeed at the check. If any
    player gets a Critical Success, they succeed for everyone. If any player gets a Critical Failure,
    they fail for everyone." (the decided reading: no retry buys it off)."""
    table = Table(three, {"c1": ["QC"], "c2": ["M16"], "c3": ["KS"]})
    table.send({"type": "call_group", "mode": "everyone", "characters": ["c1", "c2", "c3"], "skill": "FINAID",
                "rank": "medium", "task": "sneak past"})
    line, made = of(table, "check_closed")
    assert line.startswith("The check for 'sneak past' ends: critical failure; Jo's Critical Failure fails for "
                           "everyone")
    assert made.steps == ("Marieta: success", "Jo: critical failure", "Sam: success", "critical failure")
    assert made.rule.startswith(w.EVERYONE[0]) and "no retry buys it off" in made.rule
