"""``FOLDS``: how each event kind changes the state (the engine hands each fold a copy). A fold
never draws: every card is in the events already, so the log folds back into the state.

Events (each a dict with ``type``; the engine adds ``step``):
    check_called      {check (mode, task, skill, rank, parts...), by_gm}; each part records its
                      character as the check found it (name, deck, major, corruption)
    drawn             {check, part, cid, deck, retry, attempt: {rank, edge, draws, chosen,
                      pending, suggested, outcome}}; ``deck`` the deck's name as it drew; each draw
                      {card, second, trigger, critical, outcome, happenstance, rule, closeness};
                      ``help`` when a helper's result granted the main check Bonus or Penalty;
                      ``discarded``: a retry's tokens of the attempt it replaces, now discarded
    picked            {check, part, cid, index, by ("player" | "gm"), outcome}; ``discarded``
                      (the tokens not kept, now discarded)
    retried           {check, part, cid, corruption (after), rank, held}
    accepted          {check, part, cid}
    check_closed      {check, task, outcome, winners, reason, by ("rules" | "gm")}; ``discarded``:
                      {cid: tokens} the check's cards still face up, now on their discard piles
    check_approved    {check, rank, faced, note, bonus, penalty}: the GM's difficulty and Bonus or
                      Penalty for a check a player called (``faced``, ``note``: the rank its
                      character's A+ or F makes of it)
    hold_set          {check, hold}
    day_started       {day, days}: a new Day, ``days`` after the last (a night 1, a week 7: the
                      clock's, campaign.passes)
    player_calls_set  {allowed}
    skills_rechosen   {cid, name, a_plus, f_skill, was} (the circles empty; ``was`` the A+, F
                      and circles before, for an undo)
The clock's events (time_passed, condition_added, condition_ended) fold in the core, and an
undo (``undone``) folds the log again without the step it takes back (games/core/engine.py).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from games.report_card.state import HISTORY

State = dict[str, Any]
Event = Mapping[str, Any]


def _called(state: State, event: Event) -> None:
    check = state["check"] = event["check"]
    state["next_check"] = check["id"] + 1
    drawing = [p for p in check["parts"] if p["role"] != "helper"]
    state["today"].append({"task": check["task"], "check": check["id"], "same_as": check.get("same_as"),
                           "by": [p["cid"] for p in drawing], "names": [p["name"] for p in drawing],
                           "outcome": None})


def _part(state: State, event: Event) -> dict[str, Any]:
    check = state["check"]
    if check is None or check["id"] != event["check"]:
        raise ValueError(f"event for check {event['check']} but the open check is {check and check['id']}")
    return check["parts"][event["part"]]


def _drawn(state: State, event: Event) -> None:
    part = _part(state, event)
    if "help" in event:
        part["help"] = event["help"]
    part["attempts"].append(event["attempt"])
    part["accepted"] = False
    # the deck by the name it drew under (a character renamed since the call renames its deck)
    part["deck"] = event.get("deck", part["deck"])


def _picked(state: State, event: Event) -> None:
    attempt = _part(state, event)["attempts"][-1]
    attempt.update(chosen=event["index"], pending=None, outcome=event["outcome"])


def _retried(state: State, event: Event) -> None:
    _part(state, event)["corruption"] = event["corruption"]


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
    if check.get("approved") is False:  # a call the GM did not approve was never made
        state["today"] = [e for e in state["today"] if e["check"] != check["id"]]


def _approved(state: State, event: Event) -> None:
    check = state["check"]
    check.update(approved=True, rank=event["rank"])
    for part in check["parts"]:
        if part["role"] == "main":
            part.update(base_rank=event["rank"], rank=event["faced"], note=event["note"], bonus=event["bonus"],
                        penalty=event["penalty"])


def _hold(state: State, event: Event) -> None:
    state["check"]["hold"] = bool(event["hold"])


def _day(state: State, event: Event) -> None:
    state["day"] = event["day"]
    state["today"] = []


def _calls(state: State, event: Event) -> None:
    state["players_call"] = bool(event["allowed"])


def _rechosen(state: State, event: Event) -> None:
    """The circles empty: a check under way counts them again from none."""
    for part in (state["check"] or {}).get("parts", ()):
        if part["cid"] == event["cid"]:
            part["corruption"] = 0


FOLDS: dict[str, Callable[[State, Event], None]] = {
    "check_called": _called, "drawn": _drawn, "picked": _picked, "retried": _retried,
    "accepted": _accepted, "check_closed": _closed, "hold_set": _hold, "day_started": _day,
    "player_calls_set": _calls, "skills_rechosen": _rechosen, "check_approved": _approved,
}


def folded(state: Mapping[str, Any], event: Event) -> State:
    """The state after ``event``, for a handler that reads its own events as it makes them
    (``flow.Step``); the engine folds them again when they are logged."""
    new = copy.deepcopy(dict(state))
    FOLDS[event["type"]](new, dict(event))
    return new

