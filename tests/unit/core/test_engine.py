"""The one engine every system runs on (games/core/engine.py): dispatch through the move table,
the sender checked once, every event of a move stamped with one step, folding, and undo as a
fold of the log without the step taken back (issue 24)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from games.contract import Character, Member
from games.core.engine import Engine, Move, NotYourMove, RuleError, Turn, Undo, UnknownEvent, players_move
from tests.support.engine import GM, Play

ANN = Member(id=7, name="Ann", is_gm=False, controls=("c1",))
TABLE = {"c1": Character(id=1, cid="c1", name="Alfie", sheet={"luck": 3}, owner=7),
         "c2": Character(id=2, cid="c2", name="Bea", sheet={"luck": 1}, owner=8)}


def roll(state: Any, args: dict[str, Any], turn: Turn) -> list[dict[str, Any]]:
    who = turn.character(args["character"])
    assert who is not None and turn.rng is not None
    if state["rolls"] and state["rolls"][-1][0] == who.cid:
        raise RuleError(f"{who.name} rolled last.")
    die = turn.rng.randint(1, 6)
    return [{"type": "rolled", "cid": who.cid, "die": die}, {"type": "scored", "cid": who.cid,
                                                            "points": die + who.sheet["luck"]}]


def reset(state: Any, args: dict[str, Any], turn: Turn) -> list[dict[str, Any]]:
    return [{"type": "reset"}]


def rolled(state: dict[str, Any], event: dict[str, Any]) -> None:
    state["rolls"].append([event["cid"], event["die"]])


def scored(state: dict[str, Any], event: dict[str, Any]) -> None:
    state["score"][event["cid"]] = state["score"].get(event["cid"], 0) + event["points"]


def cleared(state: dict[str, Any], event: dict[str, Any]) -> None:
    state["rolls"].clear()


def no_form(form: Any, table: Any) -> dict[str, Any]:
    return {}


ENGINE = Engine(
    new_state=lambda: {"rolls": [], "score": {}, "step": 0, "undo": []},
    moves=(players_move("roll", "Roll", no_form, roll),
           Move("reset", "Reset the rolls", no_form, reset)),
    folds={"rolled": rolled, "scored": scored, "reset": cleared},
    summary=lambda event, state: f"{event['type']} {event.get('cid', '')}".strip(),
    undo=Undo(label="Take back a step", nothing="There is nothing to take back.", depth=3),
)


def play() -> Play:
    return Play(ENGINE)


def send(p: Play, name: str, args: dict[str, Any], sender: Member = GM, seed: int = 1) -> list[dict[str, Any]]:
    return p.send(name, args, sender, rng=random.Random(seed), table=TABLE)


def test_every_event_of_one_move_carries_one_step_and_the_step_only_grows() -> None:
    p = play()
    first = send(p, "roll", {"character": "c1"})
    second = send(p, "roll", {"character": "c2"})
    assert [e["step"] for e in first] == [1, 1] and [e["step"] for e in second] == [2, 2]
    assert p.state["step"] == 2


def test_a_handler_reads_the_sheet_the_turn_hands_it_not_a_copy_in_the_state() -> None:
    p = play()
    events = send(p, "roll", {"character": "c1"})
    assert events[1]["points"] == events[0]["die"] + 3 and "luck" not in str(p.state)


def test_the_sender_is_checked_once_against_the_move_s_subject() -> None:
    p = play()
    assert send(p, "roll", {"character": "c1"}, ANN)
    with pytest.raises(NotYourMove, match="You act only for the characters you control") as refused:
        send(p, "roll", {"character": "c2"}, ANN)
    assert refused.value.forbidden
    with pytest.raises(NotYourMove, match="Only the GM can reset the rolls") as refused:
        send(p, "reset", {}, ANN)
    assert not refused.value.forbidden
    with pytest.raises(NotYourMove):  # a character not at the table is nobody's
        send(p, "roll", {"character": "c9"}, ANN)


def test_a_refusal_changes_nothing_and_an_unknown_move_is_refused() -> None:
    p = play()
    send(p, "roll", {"character": "c1"})
    before = (dict(p.state), list(p.log))
    with pytest.raises(RuleError, match="Alfie rolled last"):
        send(p, "roll", {"character": "c1"})
    with pytest.raises(RuleError, match="no such command"):
        send(p, "explode", {})
    assert (p.state, p.log) == before


def test_an_event_no_fold_knows_is_a_fault_not_a_refusal() -> None:
    with pytest.raises(UnknownEvent):
        ENGINE.apply(ENGINE.new_state(), {"type": "teleported"})


def test_the_log_folds_back_into_the_state() -> None:
    p = play()
    for seed, who in enumerate(["c1", "c2", "c1", "c2"]):
        send(p, "roll", {"character": who}, seed=seed)
    send(p, "reset", {})
    assert ENGINE.fold(p.log) == p.state


def test_undo_takes_back_the_last_step_whole_by_folding_the_log_without_it() -> None:
    p = play()
    send(p, "roll", {"character": "c1"}, seed=1)
    after_one = dict(p.state)
    send(p, "roll", {"character": "c2"}, seed=2)
    [undone] = send(p, "undo", {})
    assert undone["type"] == "undone" and undone["undoes_step"] == 2 and undone["what"] == "rolled c2"
    assert p.state["rolls"] == after_one["rolls"] and p.state["score"] == after_one["score"]
    assert p.state["step"] == 3  # steps only grow: the undo was step 3
    assert [u["step"] for u in p.state["undo"]] == [1]
    assert ENGINE.fold(p.log) == p.state
    send(p, "undo", {})
    assert p.state["rolls"] == [] and p.state["undo"] == []
    with pytest.raises(RuleError, match="There is nothing to take back"):
        send(p, "undo", {})
    with pytest.raises(NotYourMove):
        send(play(), "undo", {}, ANN)


def test_the_undo_list_keeps_the_last_steps_only() -> None:
    p = play()
    for seed, who in enumerate(["c1", "c2", "c1", "c2", "c1"]):
        send(p, "roll", {"character": who}, seed=seed)
    assert [u["step"] for u in p.state["undo"]] == [3, 4, 5]


def test_undo_says_what_the_rules_want_said_from_the_state_before_the_step() -> None:
    said: list[tuple[Any, Any]] = []

    def says(before: Any, now: Any) -> dict[str, Any]:
        said.append((before, now))
        return {"restores": sorted(set(now["score"]) - set(before["score"]))}

    p = Play(replace(ENGINE, undo=Undo(says=says)))
    send(p, "roll", {"character": "c1"})
    send(p, "roll", {"character": "c2"})
    [undone] = send(p, "undo", {})
    assert undone["restores"] == ["c2"] and said[0][0]["score"].keys() == {"c1"}
