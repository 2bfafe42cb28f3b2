"""The passing of time and lasting conditions, written once for every system (games/core/clock.py,
issue 35): the GM moves the clock on, a system's ``passes`` says what that does to its tracks,
and a condition lasts until removed, some rounds, the scene, the session, a night or a week, and
ends by itself with a line of its own. The decided reading quoted: "the GM moves the table's
clock on (the scene ends, a night passes, a week passes) and opens and closes sessions"."""

from __future__ import annotations

from typing import Any

import pytest

from games.contract import GM_ONLY, PUBLIC, Character, GameSystem, Member, Sheet, Sample
from games.core import clock
from games.core.engine import Engine, Move, RuleError, Turn, Undo
from games.core.facts import Table

GM = Member(id=1, name="Gail", is_gm=True)
ANN = Member(id=7, name="Ann", is_gm=False, controls=("c1",))
ALFIE = Character(id=1, cid="c1", name="Alfie", sheet={"grit": 2}, owner=7)
GHOUL = Character(id=2, cid="c2", name="Ghoul", sheet={"grit": 1}, owner=None, is_npc=True)
PEOPLE = {"c1": ALFIE, "c2": GHOUL}
TABLE = Table(characters=(ALFIE, GHOUL), read_id=lambda raw: int(raw) if str(raw).isdigit() else None)


def rested(state: Any, span: str, turn: Turn) -> list[dict[str, Any]]:
    """A toy system's recovery: grit back by one a night, seven a week, none at a scene's end."""
    back = {clock.NIGHT: 1, clock.WEEK: 7}.get(span, 0)
    return [{"type": "recovered", "back": back}] if back else []


def fight(state: Any, args: dict[str, Any], turn: Turn) -> list[dict[str, Any]]:
    return [{"type": "round_started"}]


def stop(state: Any, args: dict[str, Any], turn: Turn) -> list[dict[str, Any]]:
    return [{"type": "fight_over"}]


def closing(state: Any, args: dict[str, Any], turn: Turn) -> list[dict[str, Any]]:
    return [{"type": "kept", "card": args.get("card", "")}]


CLOCK = clock.Clock(passes=rested, says={clock.NIGHT: "grit +1"}, effects={"penalty": "a Penalty on every roll"},
                    round=lambda state: state["round"], closing=closing,
                    closing_parse=lambda form, table: {"card": (form.get("card") or [""])[-1]})


def _round(state: dict[str, Any], event: Any) -> None:
    state["round"] += 1


def _over(state: dict[str, Any], event: Any) -> None:
    state["round"] = 0


def _recovered(state: dict[str, Any], event: Any) -> None:
    state["grit"] += event["back"]


def _kept(state: dict[str, Any], event: Any) -> None:
    state["kept"].append(event["card"])


ENGINE = Engine(
    new_state=lambda: {"round": 0, "grit": 0, "kept": [], "step": 0, "undo": []},
    moves=(Move("round", "New round", lambda f, t: {}, fight), Move("stop", "End the fight", lambda f, t: {}, stop)),
    folds={"round_started": _round, "fight_over": _over, "recovered": _recovered, "kept": _kept},
    summary=lambda event, state: event["type"],
    undo=Undo(),
    clock=CLOCK,
)


def turn(member: Member = GM) -> Turn:
    return Turn(member=member, characters=PEOPLE)


def run(state: dict[str, Any], name: str, args: dict[str, Any], member: Member = GM) -> tuple[dict[str, Any], list]:
    return ENGINE.run(state, name, args, turn(member))


def form(**fields: str) -> dict[str, list[str]]:
    return {k: [v] for k, v in fields.items()}


def add(state: dict[str, Any], **fields: str) -> dict[str, Any]:
    move = ENGINE.move("add_condition")
    assert move is not None
    state, _ = run(state, "add_condition", move.parse(form(**fields), TABLE))
    return state


def test_a_clock_gives_the_gm_its_moves_and_folds_its_events() -> None:
    names = [m.name for m in ENGINE.all_moves]
    assert {"pass_time", "add_condition", "end_condition", "undo"} <= set(names)
    assert clock.EVENTS <= ENGINE.events
    assert all(m.sender == "gm" for m in ENGINE.all_moves if m.name in ("pass_time", "add_condition", "end_condition"))


def test_only_the_gm_moves_the_clock() -> None:
    with pytest.raises(RuleError):
        run(ENGINE.new_state(), "pass_time", {"span": "night"}, ANN)


@pytest.mark.parametrize("span, day, grit", [("scene", 0, 0), ("night", 1, 1), ("week", 7, 7)])
def test_time_passes_and_the_system_says_what_it_restores(span: str, day: int, grit: int) -> None:
    state, events = run(ENGINE.new_state(), "pass_time", {"span": span})
    assert events[0] == {"type": "time_passed", "span": span, "step": 1}
    assert clock.now(state) == {"day": day, "scene": 1}
    assert state["grit"] == grit
    assert ENGINE.line(events[0], state) == clock.SPANS[span] + "."


def test_a_span_is_one_of_three() -> None:
    parse = ENGINE.move("pass_time").parse  # type: ignore[union-attr]
    with pytest.raises(RuleError, match="how much time passes"):
        parse(form(span="year"), TABLE)
    assert parse(form(span="week"), TABLE) == {"span": "week"}


def test_once_per_span_reads_the_clock() -> None:
    state = ENGINE.new_state()
    stamp = clock.now(state)
    assert clock.same_span(stamp, state)
    state, _ = run(state, "pass_time", {"span": "scene"})
    assert not clock.same_span(stamp, state)
    assert clock.when(state) == "Day 1, scene 2"


@pytest.mark.parametrize("lasts, span, ends", [
    ("scene", "scene", True), ("scene", "night", True), ("night", "scene", False), ("night", "night", True),
    ("night", "week", True), ("week", "night", False), ("week", "week", True), ("removed", "week", False),
    ("session", "week", False),
])
def test_a_condition_ends_with_the_span_it_lasts(lasts: str, span: str, ends: bool) -> None:
    state = add(ENGINE.new_state(), character="1", name="Splinted leg", effect="penalty", amount="-1", lasts=lasts)
    assert clock.modifier(state, "c1", "penalty") == -1
    state, events = run(state, "pass_time", {"span": span})
    assert bool(clock.conditions(state, "c1")) is not ends
    gone = [e for e in events if e["type"] == clock.CONDITION_ENDED]
    assert len(gone) == int(ends)
    if ends:
        assert ENGINE.line(gone[0], state) == f"Alfie is no longer Splinted leg: {clock.WHY_ENDED[span]}."


def test_a_condition_lasting_the_session_ends_when_it_closes_with_the_systems_rules() -> None:
    state = add(ENGINE.new_state(), character="1", name="Shaken", lasts="session")
    events = ENGINE.close_session(state, CLOCK.closing_parse(form(card="The Fool"), TABLE), turn())
    assert [e["type"] for e in events] == ["kept", "condition_ended"]
    assert {e["step"] for e in events} == {state["step"] + 1}
    for event in events:
        state = ENGINE.apply(state, event)
    assert state["kept"] == ["The Fool"] and clock.conditions(state) == []


def test_a_condition_lasting_rounds_ends_when_its_rounds_are_over_or_the_fight_ends() -> None:
    state, _ = run(ENGINE.new_state(), "round", {})
    with pytest.raises(RuleError, match="how many rounds"):
        ENGINE.move("add_condition").parse(form(character="1", name="Dazed", lasts="rounds"), TABLE)  # type: ignore[union-attr]
    state = add(state, character="1", name="Dazed", lasts="rounds", rounds="2")
    assert clock.badge(clock.conditions(state)[0], CLOCK.effects, state["round"])["lasts"] == "2 more rounds"
    state, events = run(state, "round", {})
    assert clock.conditions(state) and [e["type"] for e in events] == ["round_started"]
    state, events = run(state, "round", {})
    assert [e["type"] for e in events] == ["round_started", "condition_ended"]
    assert events[1]["why"] == "rounds" and not clock.conditions(state)
    state = add(state, character="1", name="Dazed", lasts="rounds", rounds="5")
    state, events = run(state, "stop", {})
    assert [e["why"] for e in events if e["type"] == "condition_ended"] == ["fight"]


def test_rounds_only_in_a_fight() -> None:
    with pytest.raises(RuleError, match="only in a fight"):
        add(ENGINE.new_state(), character="1", name="Dazed", lasts="rounds", rounds="2")


def test_a_condition_on_an_npc_is_the_gms_unless_shown() -> None:
    parse = ENGINE.move("add_condition").parse  # type: ignore[union-attr]
    assert parse(form(character="2", name="Wounded"), TABLE)["seen"] == "gm"
    assert parse(form(character="2", name="Wounded", seen="everyone"), TABLE)["seen"] == "everyone"
    assert parse(form(character="1", name="Wounded"), TABLE)["seen"] == "everyone"
    state = add(ENGINE.new_state(), character="2", name="Wounded")
    made = clock.conditions(state)[0]
    assert not clock.shown(made, gm=False) and clock.shown(made, gm=True)
    system = GameSystem(key="toy", name="Toy", blurb="", sheet=Sheet(clean=dict),
                        samples=(Sample("A", {}), Sample("B", {}, npc=True)), engine=ENGINE,
                        audiences={"round_started": PUBLIC, "fight_over": PUBLIC, "recovered": PUBLIC, "kept": PUBLIC})
    added = {"type": "condition_added", "condition": made}
    assert system.visibility(added) == GM_ONLY
    assert system.visibility({"type": "condition_added", "condition": {**made, "seen": "everyone"}}) == PUBLIC
    assert system.visibility({"type": "time_passed", "span": "night"}) == PUBLIC


@pytest.mark.parametrize("fields, says", [
    ({"name": ""}, "Name the condition"),
    ({"name": "x" * 41}, "at most 40"),
    ({"name": "Ok", "effect": "flying"}, "from the list"),
    ({"name": "Ok", "effect": "penalty", "amount": "99"}, "between"),
    ({"name": "Ok", "amount": "two"}, "whole number"),
    ({"name": "Ok", "lasts": "forever"}, "how long"),
    ({"name": "Ok", "note": "n" * 201}, "at most 200"),
])
def test_a_bad_condition_is_refused_with_a_clear_reason(fields: dict[str, str], says: str) -> None:
    parse = ENGINE.move("add_condition").parse  # type: ignore[union-attr]
    with pytest.raises(RuleError, match=says):
        parse(form(character="1", **fields), TABLE)


def test_the_gm_ends_a_condition_and_undo_brings_it_back() -> None:
    state = add(ENGINE.new_state(), character="1", name="Grabbed", effect="penalty", amount="-2")
    made = clock.conditions(state)[0]
    log: list[dict[str, Any]] = []
    state, events = ENGINE.run(state, "end_condition", {"condition": made["id"]}, turn())
    assert not clock.conditions(state) and events[0]["why"] == "removed"
    with pytest.raises(RuleError, match="no such condition"):
        run(state, "end_condition", {"condition": 99})
    # the whole log folds back to the same state, and an undo takes the end back
    first = ENGINE.move("add_condition").parse(form(character="1", name="Grabbed", effect="penalty", amount="-2"), TABLE)  # type: ignore[union-attr]
    s0 = ENGINE.new_state()
    s1, e1 = run(s0, "add_condition", first)
    log += e1
    s2, e2 = run(s1, "end_condition", {"condition": clock.conditions(s1)[0]["id"]})
    log += e2
    assert ENGINE.fold(log) == s2
    s3, e3 = ENGINE.run(s2, "undo", {}, turn(), history=log)
    assert clock.modifier(s3, "c1", "penalty") == -2


OPTIONED = Engine(new_state=dict, moves=(), folds={"kept": _kept}, summary=lambda e, s: e["type"],
                  clock=clock.Clock(options=(clock.Option("per_night", "Willpower a night", 1, 0, 5, why="one a night"),
                                             clock.Option("all_at_close", "All back at a session's close", 0, yes_no=True))))


def test_a_table_option_has_its_default_until_the_gm_sets_it() -> None:
    assert OPTIONED.clock is not None
    state: dict[str, Any] = OPTIONED.new_state()
    assert OPTIONED.clock.option(state, "per_night") == 1
    parse = OPTIONED.move("set_option").parse  # type: ignore[union-attr]
    state, events = OPTIONED.run(state, "set_option", parse(form(option="per_night", value="3"), TABLE), turn())
    assert OPTIONED.clock.option(state, "per_night") == 3
    assert OPTIONED.line(events[0], state) == "The GM sets the table option Willpower a night: 3."
    with pytest.raises(RuleError, match="already 3"):
        OPTIONED.run(state, "set_option", {"option": "per_night", "value": 3}, turn())
    for bad in (form(option="per_night", value="9"), form(option="per_night", value="x"), form(option="nope", value="1")):
        with pytest.raises(RuleError):
            parse(bad, TABLE)
    assert parse(form(option="all_at_close", value="on"), TABLE) == {"option": "all_at_close", "value": 1}
    with pytest.raises(RuleError):
        OPTIONED.run(state, "set_option", {"option": "per_night", "value": 1}, turn(ANN))
