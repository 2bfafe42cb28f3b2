"""``apply(state, event) -> state``: folds one event into a new state. Never draws a card: every
card is in the events already, so replaying a log from ``new_state()`` rebuilds the state.

Events (each a dict with ``type``):
    check_called      {check (mode, task, skill, rank, parts...), characters, by, by_gm, decks:
                      {cid: {deck, unseen, odds}} (``reading``: each deck as the check is called)}
    drawn             {check, part, cid, deck, retry, attempt: {rank, edge, draws, chosen,
                      pending, suggested, outcome}, reading (the deck after the draw)}; each draw
                      {card, second, trigger, critical, outcome, happenstance, rule, closeness};
                      ``help`` when a helper's result granted the main check Bonus or Penalty;
                      ``discarded``: a retry's tokens of the attempt it replaces, now discarded
    picked            {check, part, cid, index, by ("player" | "gm"), outcome}; ``discarded``
                      (the tokens not kept, now discarded) and ``reading`` (the deck after)
    retried           {check, part, cid, corruption (after), rank, held}
    accepted          {check, part, cid}
    check_closed      {check, task, outcome, winners, reason, by ("rules" | "gm")}; ``discarded``:
                      {cid: tokens} the check's cards still face up, now on their discard piles
    hold_set          {check, hold}
    day_started       {day}
    player_calls_set  {allowed}
    skills_rechosen   {cid, person (the character after: a_plus, f_skill, corruption 0)}
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from games.report_card.state import HISTORY

State = dict[str, Any]
Event = Mapping[str, Any]


def _called(state: State, event: Event) -> None:
    state["characters"].update(copy.deepcopy(dict(event["characters"])))
    state.setdefault("decks", {}).update(copy.deepcopy(dict(event.get("decks") or {})))
    check = copy.deepcopy(dict(event["check"]))
    state["check"] = check
    state["next_check"] = check["id"] + 1
    state["today"].append({"key": check["key"], "task": check["task"], "check": check["id"],
                           "by": [p["cid"] for p in check["parts"] if p["role"] != "helper"],
                           "outcome": None})


def _part(state: State, event: Event) -> dict[str, Any]:
    check = state["check"]
    if check is None or check["id"] != event["check"]:
        raise ValueError(f"event for check {event['check']} but the open check is "
                         f"{check and check['id']}")
    return check["parts"][event["part"]]


def _drawn(state: State, event: Event) -> None:
    part = _part(state, event)
    if "help" in event:
        part["help"] = event["help"]
    part["attempts"].append(copy.deepcopy(dict(event["attempt"])))
    part["accepted"] = False
    if event.get("reading"):
        state.setdefault("decks", {})[event["cid"]] = copy.deepcopy(dict(event["reading"]))


def _picked(state: State, event: Event) -> None:
    attempt = _part(state, event)["attempts"][-1]
    attempt.update(chosen=event["index"], pending=None, outcome=event["outcome"])
    if event.get("reading"):
        state.setdefault("decks", {})[event["cid"]] = copy.deepcopy(dict(event["reading"]))


def _retried(state: State, event: Event) -> None:
    _part(state, event)
    state["characters"][event["cid"]]["corruption"] = event["corruption"]


def _accepted(state: State, event: Event) -> None:
    _part(state, event)["accepted"] = True


def _closed(state: State, event: Event) -> None:
    check = state["check"]
    if check is None or check["id"] != event["check"]:
        raise ValueError("closing a check that is not open")
    check.update(outcome=event["outcome"], winners=list(event["winners"]), reason=event["reason"])
    state["history"] = [*state["history"], check][-HISTORY:]
    for entry in state["today"]:
        if entry["check"] == check["id"]:
            entry["outcome"] = event["outcome"]
    state["check"] = None


def _hold(state: State, event: Event) -> None:
    state["check"]["hold"] = bool(event["hold"])


def _day(state: State, event: Event) -> None:
    state["day"] = event["day"]
    state["today"] = []


def _calls(state: State, event: Event) -> None:
    state["players_call"] = bool(event["allowed"])


def _rechosen(state: State, event: Event) -> None:
    state["characters"][event["cid"]] = copy.deepcopy(dict(event["person"]))


APPLY: dict[str, Callable[[State, Event], None]] = {
    "check_called": _called, "drawn": _drawn, "picked": _picked, "retried": _retried,
    "accepted": _accepted, "check_closed": _closed, "hold_set": _hold, "day_started": _day,
    "player_calls_set": _calls, "skills_rechosen": _rechosen,
}
EVENT_TYPES = tuple(APPLY)


def apply(state: Mapping[str, Any], event: Event) -> State:
    """A new state with ``event`` folded in; ``state`` itself is left alone."""
    new = copy.deepcopy(dict(state))
    APPLY[event["type"]](new, event)
    return new
