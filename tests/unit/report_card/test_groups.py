"""Several players making a skill check together, and one player helping another."""

from __future__ import annotations

from typing import Any

import pytest

from games.core.engine import NotYourMove
from games.report_card.errors import BadInput, NotNow
from games.report_card.panel import view
from tests.unit.report_card.conftest import Table, of_type
from tests.unit.report_card.helpers import GM, card, player, report

MARIETA, JO, SAM = player(7, "c1"), player(8, "c2"), player(9, "c3")


@pytest.fixture
def three() -> dict[str, dict[str, Any]]:
    return {"c1": report("Marieta", 7), "c2": report("Jo", 8, abilities=("wise",), a_plus="LAW", f_skill="ART", major=5),
            "c3": report("Sam", 9, abilities=("strong",), a_plus="GYM", f_skill="SCI", major=8)}


def group(table: Table, mode: str, cids: list[str], rank: str = "medium", skill: str = "FINAID",
          task: str = "search the room", **extra: Any) -> list[dict[str, Any]]:
    return table.send({"type": "call_group", "mode": mode, "characters": cids, "skill": skill, "rank": rank,
                       "task": task, **extra})


def test_only_the_gm_calls_a_group_check_of_two_or_more(three: dict[str, Any]) -> None:
    table = Table(three)
    with pytest.raises(NotYourMove, match="Only the GM can call a group check"):
        table.send({"type": "call_group", "mode": "only_one", "characters": ["c1", "c2"], "skill": "LAW",
                    "rank": "easy", "task": "x"}, MARIETA)
    with pytest.raises(BadInput, match="at least two"):
        group(table, "only_one", ["c1", "c1"])
    with pytest.raises(BadInput, match="only one needs to succeed"):
        group(table, "someone", ["c1", "c2"])
    assert table.cards.placed == []


def test_only_one_needs_to_succeed_and_the_highest_card_accomplishes_it(three: dict[str, Any]) -> None:
    """Seed, "Only One Player Needs to Succeed ("Searching a Room")": "whichever player draws
    the highest card succeeds "the most" and is the player who actually accomplishes the task
    at hand"."""
    table = Table(three, {"c1": ["QC"], "c2": ["KW"], "c3": ["3S"]})
    events = group(table, "only_one", ["c1", "c2", "c3"])
    assert [e["cid"] for e in of_type(events, "drawn")] == ["c1", "c2", "c3"]  # everyone draws, each their own deck
    assert (table.closed["outcome"], table.closed["winners"]) == ("success", ["c2"])
    assert table.lines[-1] == ("The check for 'search the room' ends: success; Jo drew the highest card and "
                               "accomplishes it.")


def test_a_critical_success_succeeds_the_most_and_the_group_result_keeps_it(three: dict[str, Any]) -> None:
    """Issue 26: "a group result keeps 'critical' (an 'only one' won on the Sun reads 'critical
    success')". Seed: "The Sun is always a Critical Success"."""
    table = Table(three, {"c1": ["M19"], "c2": ["KW"], "c3": ["M20"]})
    group(table, "only_one", ["c1", "c2", "c3"])
    assert table.closed["winners"] == ["c1"] and table.closed["outcome"] == "critical_success"
    assert table.lines[-1].startswith("The check for 'search the room' ends: critical success; Marieta drew")
    assert table.state["today"][-1]["outcome"] == "critical_success"


def test_only_one_fails_when_nobody_succeeds(three: dict[str, Any]) -> None:
    """Seed: "If no player succeeds, the whole task fails." Each may still retry first."""
    table = Table(three, {"c1": ["3C", "KC"], "c2": ["4C"]})
    group(table, "only_one", ["c1", "c2"])
    assert table.state["check"] is not None
    table.send({"type": "accept", "character": "c2"}, JO)
    table.send({"type": "retry", "character": "c1"}, MARIETA)
    assert (table.closed["outcome"], table.closed["winners"]) == ("success", ["c1"])


def test_only_one_with_every_failure_standing(three: dict[str, Any]) -> None:
    table = Table(three, {"c1": ["3C"], "c2": ["4C"]})
    group(table, "only_one", ["c1", "c2"])
    table.send({"type": "accept", "character": "c2"}, JO)
    table.send({"type": "accept", "character": "c1"}, MARIETA)
    assert (table.closed["outcome"], table.closed["reason"]) == ("failure", "nobody")


def test_everyone_needs_to_succeed_but_two_successes_are_enough(three: dict[str, Any]) -> None:
    """Seed, "Every Player Needs to Succeed ("Sneaking Past Some Executare")": "only two
    players need to succeed at the check"."""
    table = Table(three, {"c1": ["KC"], "c2": ["QW"], "c3": ["2S"]})
    group(table, "everyone", ["c1", "c2", "c3"], task="sneak past the Executare")
    assert (table.closed["outcome"], table.closed["reason"]) == ("success", "two")


def test_everyone_fails_with_fewer_than_two_successes(three: dict[str, Any]) -> None:
    table = Table(three, {"c1": ["KC"], "c2": ["3W"]})
    group(table, "everyone", ["c1", "c2"])
    table.send({"type": "accept", "character": "c2"}, JO)
    assert (table.closed["outcome"], table.closed["reason"]) == ("failure", "fewer_than_two")


def test_a_critical_success_succeeds_for_everyone(three: dict[str, Any]) -> None:
    """Seed: "If any player gets a Critical Success, they succeed for everyone"."""
    table = Table(three, {"c1": ["M21"], "c2": ["2C"], "c3": ["3C"]})
    group(table, "everyone", ["c1", "c2", "c3"])
    assert (table.closed["outcome"], table.closed["winners"], table.closed["reason"]) == (
        "critical_success", ["c1"], "critical_success")


def test_a_critical_failure_fails_for_everyone_and_no_retry_buys_it_off(three: dict[str, Any]) -> None:
    """Seed: "If any player gets a Critical Failure, they fail for everyone", and "once the card
    is drawn, the results are final". The decided reading 004: "a Critical Failure fails the task
    for everyone, and no retry buys it off"."""
    table = Table(three, {"c1": ["KC"], "c2": ["KW"], "c3": ["M16", "KS"]})
    group(table, "everyone", ["c1", "c2", "c3"])
    assert (table.closed["outcome"], table.closed["winners"], table.closed["reason"]) == (
        "critical_failure", ["c3"], "critical_failure")
    assert table.lines[-1].endswith("Sam's Critical Failure fails for everyone.")


def test_a_critical_failure_drawn_first_cannot_be_retried_while_the_others_draw(three: dict[str, Any]) -> None:
    """The Tower is down before the others draw: its player is offered no retry (today: a retry
    for 1 point, and the group succeeds), and the check fails once every card is down."""
    table = Table(three, {"c1": ["M16", "KS"], "c2": ["KW"], "c3": ["QS"]}, auto_draw=False)
    group(table, "everyone", ["c1", "c2", "c3"])
    table.send({"type": "draw", "character": "c1"}, MARIETA)
    shown = view(table.state, table.seat())
    assert shown["check"]["parts"][0]["final"] and not shown["check"]["parts"][0]["may_retry"]
    assert shown["turn"]["waiting"] == ["c2", "c3"]
    with pytest.raises(NotNow, match="no retry buys it off"):
        table.send({"type": "retry", "character": "c1"}, MARIETA)
    table.send({"type": "draw", "character": "c2"}, JO)
    table.send({"type": "draw", "character": "c3"}, SAM)
    assert (table.closed["outcome"], table.closed["reason"]) == ("critical_failure", "critical_failure")
    assert table.people["c1"]["corruption"] == 0


def test_a_critical_success_outweighs_a_critical_failure(three: dict[str, Any]) -> None:
    """Reading: as on one card, "The Critical Success conditions fire before the Critical
    Failure conditions"."""
    table = Table(three, {"c1": ["M0"], "c2": ["M13"]})
    group(table, "everyone", ["c1", "c2"])
    assert table.closed["outcome"] == "critical_success"


def test_an_unlikely_critical_success_is_not_one_for_everyone(three: dict[str, Any]) -> None:
    """Seed: "On an Unlikely check, a Critical Success is just a success". Sam's F is SCI."""
    table = Table(three, {"c3": ["M19"], "c1": ["2C"]})
    group(table, "everyone", ["c3", "c1"], skill="SCI")
    assert table.part("c3")["rank"] == "unlikely" and table.part("c3")["attempts"][0]["outcome"] == "success"
    assert table.state["check"] is not None


def test_each_member_faces_the_rank_their_own_skills_give(three: dict[str, Any]) -> None:
    table = Table(three)
    group(table, "everyone", ["c1", "c2", "c3"], skill="LAW", rank="hard", bonus=["c1"], penalty=["c1", "c3"])
    check = table.state["check"] or table.closed
    assert [p["rank"] for p in check["parts"]] == ["hard", "medium", "hard"]
    assert [len(p["attempts"][0]["draws"]) for p in check["parts"]] == [1, 1, 2]


def test_a_helper_who_succeeds_grants_bonus(three: dict[str, Any]) -> None:
    """Seed, "One Player Helps Another ("Pulling a Lever")": "If the helping player can make an
    argument for how, exactly, they're helping ... and they succeed at whatever they're doing,
    grant the player making the check Bonus"."""
    table = Table(three, {"c2": ["KC"], "c1": ["3C", "QW"]})
    events = table.call("c1", "FREE", "hard", task="rob the shopkeeper blind", helper="c2", helper_skill="LAW",
                        helper_rank="medium", helper_task="distract the shopkeeper")
    helper, main = of_type(events, "drawn")
    assert (helper["cid"], helper["attempt"]["outcome"]) == ("c2", "success")
    assert (main["cid"], main["help"], main["attempt"]["pending"]) == ("c1", "bonus", "player")
    table.send({"type": "pick", "character": "c1", "index": 1}, MARIETA)
    assert table.closed["outcome"] == "success" and table.closed["winners"] == ["c1"]


def test_a_helper_who_fails_brings_penalty(three: dict[str, Any]) -> None:
    """Seed: "If they fail at whatever they're doing to help, grant the player making the check
    Penalty." The helper may first retry, as any failure."""
    table = Table(three, {"c2": ["2C"], "c1": ["KC", "3C"]})
    events = table.call("c1", "FREE", "hard", helper="c2", helper_skill="LAW", helper_rank="hard")
    assert len(of_type(events, "drawn")) == 1  # the main check waits for the help to settle
    [_, main] = table.send({"type": "accept", "character": "c2"}, JO)
    assert (main["help"], main["attempt"]["pending"]) == ("penalty", "gm")
    table.send({"type": "pick", "character": "c1", "index": 1}, GM)
    table.send({"type": "accept", "character": "c1"}, MARIETA)
    assert table.closed["outcome"] == "failure"


def test_help_and_the_main_checks_own_penalty_cancel(three: dict[str, Any]) -> None:
    """Seed: "Bonus and Penalty cancel one another out, and do not stack."."""
    table = Table(three, {"c2": ["KC"], "c1": ["QC"]})
    events = table.call("c1", "FREE", "hard", penalty=True, helper="c2", helper_skill="LAW", helper_rank="easy")
    main = of_type(events, "drawn")[1]
    assert main["help"] == "bonus" and len(main["attempt"]["draws"]) == 1


def test_nobody_helps_themselves(three: dict[str, Any]) -> None:
    with pytest.raises(BadInput, match="cannot help"):
        Table(three).call("c1", "FREE", "hard", helper="c1", helper_skill="LAW", helper_rank="easy")


def test_a_group_draws_one_card_from_each_deck(three: dict[str, Any]) -> None:
    table = Table(three, {"c1": ["KC"], "c2": ["KW"], "c3": ["KS"]})
    group(table, "everyone", ["c1", "c2", "c3"])
    assert [table.drawn(c) for c in ("c1", "c2", "c3")] == [[card("KC")], [card("KW")], [card("KS")]]


def test_the_gm_lets_two_characters_help_and_their_grants_cancel(three: dict[str, Any]) -> None:
    """Issue 26: "more than one helper where the GM allows". Seed: each helper who succeeds
    grants "Bonus", each who fails "Penalty", and "Bonus and Penalty cancel one another out, and
    do not stack": one success and one failure leave the main check plain."""
    table = Table(three, {"c2": ["KC"], "c3": ["2C"], "c1": ["QC", "2S"]}, auto_draw=False)
    table.call("c1", "FREE", "hard", task="pull the lever", helper=["c2", "c3"], helper_skill=["LAW", "GYM"],
               helper_rank=["medium", "hard"], helper_task=["push", "pull"])
    check = table.state["check"]
    assert [(p["cid"], p["role"]) for p in check["parts"]] == [("c2", "helper"), ("c3", "helper"), ("c1", "main")]
    with pytest.raises(NotNow, match="Marieta draws once Jo and Sam's help is settled"):
        table.send({"type": "draw", "character": "c1"}, MARIETA)
    table.send({"type": "draw", "character": "c2"}, JO)
    table.send({"type": "draw", "character": "c3"}, SAM)
    assert view(table.state, table.seat())["check"]["parts"][2]["waits"]  # Sam may still retry
    table.send({"type": "accept", "character": "c3"}, SAM)
    [main] = table.send({"type": "draw", "character": "c1"}, MARIETA)[:1]
    assert main["help"] == "both" and main["attempt"]["edge"] is None and len(main["attempt"]["draws"]) == 1
    assert "one helper's Bonus and another's Penalty cancel" in table.lines[-2]
    assert table.closed["outcome"] == "success"


def test_two_helpers_who_both_succeed_grant_one_bonus(three: dict[str, Any]) -> None:
    """Seed: "Bonus and Penalty ... do not stack": two successes give one Bonus (two cards)."""
    table = Table(three, {"c2": ["KC"], "c3": ["KS"], "c1": ["QC", "2S"]})
    events = table.call("c1", "FREE", "hard", helper=["c2", "c3"], helper_skill=["LAW", "GYM"],
                        helper_rank=["medium", "medium"])
    main = of_type(events, "drawn")[-1]
    assert main["help"] == "bonus" and len(main["attempt"]["draws"]) == 2


def test_a_member_of_a_group_check_may_be_helped(three: dict[str, Any]) -> None:
    """Issue 26: "helpers on group checks". Sam distracts the guard for Jo: Jo draws once the
    help is settled, with the Bonus it earns; Marieta draws at once; the helper's card is not
    one of the group's results."""
    table = Table(three, {"c3": ["KS"], "c1": ["QC"], "c2": ["3C", "KW"]}, auto_draw=False)
    group(table, "everyone", ["c1", "c2"], task="sneak past the Executare", helper=["c3"], helper_skill=["GYM"],
          helper_rank=["easy"], helper_task=["distract the guard"], helps=["c2"])
    assert view(table.state, table.seat())["turn"]["waiting"] == ["c3", "c1"]
    assert table.lines[-1] == ("The GM calls a group check (everyone needs to succeed) for 'sneak past the "
                               "Executare': Sam to help Jo (GYM, Easy made Trivial by the A+ skill), Marieta (FINAID, "
                               "Medium), Jo (FINAID, Medium).")
    assert view(table.state, table.seat())["check"]["parts"][0]["helps"] == "Jo"
    table.send({"type": "draw", "character": "c3"}, SAM)
    table.send({"type": "draw", "character": "c1"}, MARIETA)
    [jo] = table.send({"type": "draw", "character": "c2"}, JO)[:1]
    assert jo["help"] == "bonus" and jo["attempt"]["pending"] == "player"
    table.send({"type": "pick", "character": "c2", "index": 1}, JO)
    assert (table.closed["outcome"], table.closed["winners"], table.closed["reason"]) == (
        "success", ["c1", "c2"], "two")
    assert [e["by"] for e in table.state["today"]] == [["c1", "c2"]]


def test_a_helper_is_not_one_of_those_drawing_and_helps_once(three: dict[str, Any]) -> None:
    with pytest.raises(BadInput, match="cannot help a check they draw for themselves"):
        group(Table(three), "everyone", ["c1", "c2"], helper=["c2"], helper_skill=["LAW"], helper_rank=["easy"],
              helps=["c1"])
    with pytest.raises(BadInput, match="helps once"):
        Table(three).call("c1", "FREE", "hard", helper=["c2", "c2"], helper_skill=["LAW", "LAW"],
                          helper_rank=["easy", "easy"])
