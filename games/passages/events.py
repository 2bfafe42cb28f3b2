"""``apply(state, event) -> state``: the only way the Passages state changes.

Events are plain dicts with a ``type`` and the ``step`` of the command that made them; every
die rolled and every track change is in them, so replaying a log through ``apply`` rebuilds
the state exactly. ``apply`` never rolls and never computes a rule: the numbers it writes
are the event's.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from games.passages.narrate import summary
from games.passages.state import (
    COMBAT, CONTEST, DECLARE, IDLE, KEEP_CHECKS, TIMING, UNDO_DEPTH, State, npcs, present,
)

Event = Mapping[str, Any]


def _person(state: State, cid: str) -> dict[str, Any]:
    person: dict[str, Any] = state["personae"][cid]
    return person


def _scene(state: State, e: Event) -> None:
    state["personae"] = {p["id"]: dict(p) for p in e["personae"]}
    state["order"] = [p["id"] for p in e["personae"]]
    state["checks"] = []


def _checked(state: State, e: Event) -> None:
    state["checks"] = (state["checks"] + [{"combatant": e["combatant"], **e["check"]}])[-KEEP_CHECKS:]


def _contest_started(state: State, e: Event) -> None:
    _scene(state, e)
    state["mode"], state["combat"] = CONTEST, None
    state["contest"] = {"round": 1, "parties": [p["id"] for p in e["personae"]],
                        "active": [p["id"] for p in e["personae"]], "challenge": list(e["challenge"]),
                        "magic": e["magic"], "cost": e["cost"], "rolls": {}, "history": [], "result": None}


def _contest_rolled(state: State, e: Event) -> None:
    state["contest"]["rolls"][e["combatant"]] = dict(e["check"])


def _contest_round(state: State, e: Event) -> None:
    contest = state["contest"]
    resource = e["resource"]
    for cid, value in e["after"].items():
        person = _person(state, cid)
        person[resource] = value
        if resource == "fatigue":
            person["downed"] = value == 0
    contest["history"] = contest["history"] + [{k: e[k] for k in (
        "round", "bands", "ticks", "costs", "after", "outcome", "winners", "collapsed")}]
    contest["active"] = [cid for cid in contest["active"] if cid not in e["collapsed"]]
    contest["rolls"], contest["round"] = {}, e["round"] + 1


def _contest_cost(state: State, e: Event) -> None:
    state["contest"]["cost"] = e["cost"]


def _broken_off(state: State, e: Event) -> None:
    contest = state["contest"]
    contest["active"] = [cid for cid in contest["active"] if cid != e["combatant"]]
    contest["rolls"].pop(e["combatant"], None)


def _contest_ended(state: State, e: Event) -> None:
    state["contest"]["result"] = {"reason": e["reason"], "winners": list(e["winners"])}
    state["mode"] = IDLE


def _combat_started(state: State, e: Event) -> None:
    _scene(state, e)
    state["mode"], state["contest"] = COMBAT, None
    state["conditions"] = e["conditions"]
    state["combat"] = {"turn": 0, "phase": DECLARE, "declared": {}, "timing": {}, "rolls": {},
                       "pairings": [], "resolutions": []}


def _maybe_timing(state: State) -> None:
    combat = state["combat"]
    if combat["phase"] == DECLARE and all(cid in combat["declared"] for cid in present(state)):
        combat["phase"] = TIMING


def _turn_started(state: State, e: Event) -> None:
    combat = state["combat"]
    combat.update(turn=e["turn"], phase=DECLARE, declared={}, timing={}, rolls={}, pairings=[])
    for declaration in e["auto"]:
        combat["declared"][declaration["combatant"]] = dict(declaration)
    _maybe_timing(state)


def _declared(state: State, e: Event) -> None:
    state["combat"]["declared"][e["combatant"]] = dict(e["declaration"])
    _maybe_timing(state)


def _timing(state: State, e: Event) -> None:
    state["combat"]["timing"][e["combatant"]] = {"modifier": e["modifier"], "reason": e["reason"]}


def _combat_rolled(state: State, e: Event) -> None:
    state["combat"]["rolls"][e["combatant"]] = {k: v for k, v in e.items() if k not in ("type", "step")}


def _pairing(state: State, e: Event) -> None:
    state["combat"]["pairings"].append({k: v for k, v in e.items() if k not in ("type", "step")})


def _resolution(state: State, e: Event) -> None:
    for row in e["rows"]:
        person = _person(state, row["combatant"])
        person.update(row["after"])
        person.update(downed=row["downed"], unconscious=row["unconscious"], quiet_turns=row["quiet_turns"])
    state["combat"]["resolutions"] = [{"turn": e["turn"], "rows": [dict(r) for r in e["rows"]]}]


def _conditions(state: State, e: Event) -> None:
    state["conditions"] = e["conditions"]


def _status(state: State, e: Event) -> None:
    person = _person(state, e["combatant"])
    person["status"], person["present"] = e["status"], e["present"]
    if state["mode"] == COMBAT:
        if not e["present"]:
            state["combat"]["declared"].pop(e["combatant"], None)
        _maybe_timing(state)


def _corrected(state: State, e: Event) -> None:
    _person(state, e["combatant"]).update(e["person"])


def _combat_ended(state: State, e: Event) -> None:
    state["mode"] = IDLE


_REDUCERS: dict[str, Callable[[State, Event], None]] = {
    "checked": _checked,
    "practised": _checked,
    "contest_started": _contest_started,
    "contest_rolled": _contest_rolled,
    "contest_round": _contest_round,
    "contest_cost_set": _contest_cost,
    "contest_broken_off": _broken_off,
    "contest_ended": _contest_ended,
    "combat_started": _combat_started,
    "turn_started": _turn_started,
    "declared": _declared,
    "timing_set": _timing,
    "combat_rolled": _combat_rolled,
    "pairing_resolved": _pairing,
    "resolution_point": _resolution,
    "conditions_set": _conditions,
    "status_set": _status,
    "track_corrected": _corrected,
    "combat_ended": _combat_ended,
}
EVENT_TYPES = frozenset(_REDUCERS) | {"undone"}


def _without_undo(state: Mapping[str, Any]) -> State:
    return copy.deepcopy({k: v for k, v in state.items() if k != "undo"})


def apply(state: Mapping[str, Any], event: Event) -> State:
    """The state after ``event``; the given state is left untouched.

    The first event of each step keeps the state before it, with that event's log line, so the
    Director's ``undone`` can put the table back as it was before the last step. The step
    number only grows, even across an undo, so every event in a log keeps a distinct one."""
    undo = list(state.get("undo") or [])
    step = event.get("step")
    if event["type"] == "undone":
        restored: State = copy.deepcopy(undo[-1]["state"])
        restored["undo"] = undo[:-1]
        restored["step"] = max(state["step"], step or 0)
        return restored
    new = _without_undo(state)
    before = new["step"]
    if step is not None:
        new["step"] = max(before, step)
    _REDUCERS[event["type"]](new, event)
    if step is not None and step != before:
        # Snapshots never change once taken, so states may share them (no copy of the stack).
        # the step's line as everyone reads it: the panel's undo button and "undone" show it to all
        what = summary(event, new, npcs(new))
        undo = (undo + [{"state": _without_undo(state), "what": what}])[-UNDO_DEPTH:]
    new["undo"] = undo
    return new
