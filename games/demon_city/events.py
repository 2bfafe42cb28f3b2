"""``apply(state, event) -> state``: the only way the Action Rounds state changes.

Events are plain dicts with a ``type``, the ``step`` (the command that produced them)
and the ``round``; every die is in them, so replaying a log through ``apply`` rebuilds
the state exactly and an auditor can check each roll. ``apply`` never rolls dice.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from games.demon_city.state import ANNOUNCE, ENDED, RESOLVED, State

# Why a grab ends: its holder is out of the fight, the target broke free, or the Host said so.
GRABBER_OUT, BROKE_FREE, HOST_RELEASED = "grabber_out", "broke_free", "host"
UNDO_DEPTH = 10  # how many steps the GM can walk back; snapshots live in the state
Event = Mapping[str, Any]


def _person(state: State, cid: str) -> dict[str, Any]:
    person: dict[str, Any] = state["combatants"][cid]
    return person


def _clear_round(state: State) -> None:
    for key in ("situation", "lost", "difficulties"):
        state[key] = {}
    state["actions"], state["extra_targets"], state["results"] = [], [], []


def _started(state: State, e: Event) -> None:
    state["combatants"] = {c["id"]: dict(c) for c in e["combatants"]}
    state["npcs"] = list(e.get("npcs") or [])
    state["order"] = list(e["order"])
    state["injury_table"] = [dict(r) for r in e["injury_table"]]
    state["round"], state["phase"] = e["round"], ANNOUNCE
    _clear_round(state)


def _added(state: State, e: Event) -> None:
    state["combatants"][e["combatant"]["id"]] = dict(e["combatant"])
    if e.get("npc"):
        state["npcs"] = [*(state.get("npcs") or []), e["combatant"]["id"]]
    state["order"] = list(e["order"])


def _announced(state: State, e: Event) -> None:
    state["actions"].append(dict(e["action"]))


def _extra_targets(state: State, e: Event) -> None:
    state["extra_targets"].append(e["combatant"])


def _pool_adjusted(state: State, e: Event) -> None:
    reasons = state[e["die"]].setdefault(e["combatant"], [])
    if e["change"] == "grant":
        reasons.append(e["reason"])
    else:
        reasons.remove(e["reason"])


def _difficulty(state: State, e: Event) -> None:
    state["difficulties"][e["combatant"]] = {"target_number": e["target_number"],
                                             "stat": e["stat"]}


def _condition(state: State, e: Event) -> None:
    person = _person(state, e["combatant"])
    person[e["field"]] = e["value"]
    if e["field"] == "grabbed" and not e["value"]:
        person["grabbed_by"] = []
    state["order"] = list(e["order"])


def _injury_table(state: State, e: Event) -> None:
    state["injury_table"] = [dict(r) for r in e["table"]]


def _record(state: State, e: Event) -> None:
    state["results"].append(dict(e))


def _damage(state: State, e: Event) -> None:
    _record(state, e)
    person = _person(state, e["target"])
    # Any hit counts as "taken at least one injury during the fight" (the Lost Die).
    person["current_toughness"], person["injured"] = e["after"], True
    if e["out_of_fight"]:
        person["out_of_fight"], person["injury_pending"], person["grabbed"] = True, True, False
        person["grabbed_by"] = []


def _grabbed(state: State, e: Event) -> None:
    _record(state, e)
    person = _person(state, e["target"])
    holders = list(person.get("grabbed_by") or [])
    if e["attacker"] not in holders:
        holders.append(e["attacker"])
    person["grabbed"], person["grabbed_by"] = True, holders


def _grab_ended(state: State, e: Event) -> None:
    """A grab ends for ``grabbers``; the target stays grabbed only while someone else holds
    it (a grab the Host ended, or one the target broke free of, ends for every holder)."""
    _record(state, e)
    person = _person(state, e["target"])
    left = [g for g in person.get("grabbed_by") or [] if g not in e["grabbers"]]
    if e["reason"] != GRABBER_OUT:
        left = []
    person["grabbed"], person["grabbed_by"] = bool(left), left


def _defended(state: State, e: Event) -> None:
    _record(state, e)
    _person(state, e["combatant"])["defended_this_round"] = True


def _injury(state: State, e: Event) -> None:
    _record(state, e)
    person = _person(state, e["combatant"])
    person["dead"] = e["entry"]["dead"]
    person["injury_pending"] = not e["entry"]["conclusive"] and not e["entry"]["dead"]
    person["injury_round"] = e["round"]


def _resolved(state: State, e: Event) -> None:
    _record(state, e)
    state["phase"] = RESOLVED


def _round_started(state: State, e: Event) -> None:
    for person in state["combatants"].values():
        # Seed: a successful defence earns "a Situation Die in the round after".
        person["defended_last_round"] = person["defended_this_round"]
        person["defended_this_round"] = False
    state["round"], state["phase"] = e["round"], ANNOUNCE
    _clear_round(state)


def _ended(state: State, e: Event) -> None:
    state["phase"] = ENDED


_REDUCERS: dict[str, Callable[[State, Event], None]] = {
    "action_rounds_started": _started,
    "combatant_added": _added,
    "announced": _announced,
    "extra_targets_allowed": _extra_targets,
    "pool_adjusted": _pool_adjusted,
    "difficulty_set": _difficulty,
    "condition_set": _condition,
    "injury_table_set": _injury_table,
    "dice_collected": _record,
    "unresisted_resolved": _record,
    "clash_rolled": _record,
    "damage_rolled": _damage,
    "grabbed": _grabbed,
    "grab_ended": _grab_ended,
    "defended": _defended,
    "injury_rolled": _injury,
    "round_resolved": _resolved,
    "round_started": _round_started,
    "action_rounds_ended": _ended,
}
EVENT_TYPES = frozenset(_REDUCERS) | {"undone"}


def _snapshot(state: Mapping[str, Any]) -> dict[str, Any]:
    return copy.deepcopy({k: v for k, v in state.items() if k != "undo"})


def apply(state: Mapping[str, Any], event: Event) -> State:
    """Return the state after ``event``; the given state is left untouched.

    The first event of each step saves a snapshot, so ``undone`` can restore the state
    as it was before the last step. The step counter only ever grows, even across an
    undo, so every event in a log keeps a distinct step number.
    """
    kind = event["type"]
    if kind == "undone":
        restored: State = copy.deepcopy(state["undo"][-1])
        restored["undo"] = list(state["undo"][:-1])
        restored["step"] = event["step"]
        return restored
    # Snapshots are never changed once taken, so the new state may share them; copying
    # the whole stack on every event would cost more than everything else together.
    new = _snapshot(state)
    new["undo"] = list(state["undo"])
    step = event.get("step")
    if step is not None and step != state["step"]:
        new["undo"] = (new["undo"] + [_snapshot(state)])[-UNDO_DEPTH:]
        new["step"] = step
    _REDUCERS[kind](new, event)
    return new
