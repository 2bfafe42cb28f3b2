"""How each Action Rounds event changes the state: ``FOLDS``, one fold per event kind.

The core (games/core/engine.py) hands a fold a copy of the state to change, stamps ``step`` and
keeps the undo list; a fold never rolls, never draws, and never copies again. Every die is in the
events, so the log folded again from ``new_state()`` rebuilds the state and an auditor can check
each roll. Each event carries ``type``, ``step`` (one per move), ``round`` and ``by_gm`` (whether
the GM sent the move), stamped when the move settles (``rounds.settle``):

    action_rounds_started {combatants (each a sheet + id as it entered the fight: the rules'
                           record), order, ties, settled, injury_table, injuries_count, npcs}
    combatant_added {combatant, order, npc, settled}      announced {action, pool}
    ties_settled {order (None between fights), ties, settled}: the Host settles ties again
    extra_targets_allowed {combatant}           pool_adjusted {combatant, die, change, reason}
    difficulty_set {combatant, target_number, stat}
    condition_set {combatant, field, value, order, settled (when Agility moved)}   injury_table_set {table}
    dice_collected {pools, unresisted, clashes}
    unresisted_resolved {combatant, action, task (None or the roll), succeeded}
    clash_rolled {clash, members, rolls: {id: {pool, dice, best}}, outcome ("winner" |
                  "same_side_tie" | "opposing_tie" | "both_fumble"), winner, tied, critical,
                  fumbles, prompt}
    damage_rolled {attacker, target, dice, massive, taken, before, after, out_of_fight}
    grabbed {attacker, target}   defended {combatant}   injury_rolled {combatant, die, entry}
    grab_ended {target, grabbers, reason ("grabber_out" | "broke_free" | "host")}
    round_resolved {pending}     round_started {}
    action_rounds_ended {restored, back}: the fight's damage ending with it (``edges.ended``),
                        after the Injury rolls still open at the end (``fight.end``)
    injury_healed {combatant, who, injury, heals, span, sheet, was}: time heals a kept Injury
                  result (``healing``): Current Toughness back to Base, the Lost Die ends
    undone {undoes_step, what, restores (the ids whose Toughness or injuries it puts back),
            pools_now}: the core's, folded by folding the log again without the step

While a round is announced, an event that changes a pool already announced also holds
``pools_now`` ([[id, dice], ...]), which its log line states; one that holds an NPC's figures
holds them in a GM's part too (``audiences``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from games.core import clock as time
from games.core import growth
from games.demon_city.state import ANNOUNCE, ENDED, RESOLVED, State

# Why a grab ends: its holder is out of the fight, the target broke free, or the Host said so.
GRABBER_OUT, BROKE_FREE, HOST_RELEASED = "grabber_out", "broke_free", "host"
Event = Mapping[str, Any]


def _person(state: State, cid: str) -> dict[str, Any]:
    person: dict[str, Any] = state["combatants"][cid]
    return person


def _clear_round(state: State) -> None:
    for key in ("situation", "lost", "difficulties"):
        state[key] = {}
    state["actions"], state["extra_targets"], state["results"] = [], [], []


def _settled(state: State, e: Event) -> None:
    """The ties in Agility as settled so far (``ties``): kept across fights."""
    if "settled" in e:
        state["settled"] = list(e["settled"])


def _ties_settled(state: State, e: Event) -> None:
    _settled(state, e)
    if e.get("order") is not None:
        state["order"] = list(e["order"])


def _started(state: State, e: Event) -> None:
    _settled(state, e)
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
    _settled(state, e)


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
    _settled(state, e)


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
        # one who keeps a conclusive Injury result from an earlier fight rolls none: the decided
        # reading, "a conclusive result is never replaced by a later roll" (``resolution``)
        person["out_of_fight"], person["grabbed"] = True, False
        person["injury_pending"] = not e.get("keeps")
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
    person["injury"] = e["entry"]["result"]
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
    """The fight's damage ends with it (``edges.ended``): Base Toughness back for those still
    in it, "out of the fight" over for the living who went out (their Injury result stays)."""
    for cid in e.get("restored") or ():
        person = _person(state, cid)
        person["current_toughness"], person["injured"] = person["toughness"], False
    for cid in e.get("back") or ():
        person = _person(state, cid)
        person["out_of_fight"], person["injury_pending"] = False, False
    state["phase"] = ENDED


def _healed(state: State, e: Event) -> None:
    """Time heals a kept Injury result (``healing``): whole again in the last fight's record,
    and what the sheet held before kept for the GM's undo of this step (``fight.undo_says``)."""
    person = state["combatants"].get(e["combatant"])
    if person is not None:
        person.update(current_toughness=person["toughness"], injured=False, injured_before=False, injury="",
                      out_of_fight=False, injury_pending=False)
    kept = state.get("healed") or {}
    was = dict(kept.get("was") or {}) if kept.get("step") == e.get("step") else {}
    was[e["combatant"]] = dict(e.get("was") or {})
    state["healed"] = {"step": e.get("step"), "was": was}


FOLDS: dict[str, Callable[[State, Event], None]] = {
    "action_rounds_started": _started, "combatant_added": _added, "announced": _announced,
    "extra_targets_allowed": _extra_targets, "pool_adjusted": _pool_adjusted, "difficulty_set": _difficulty,
    "condition_set": _condition, "injury_table_set": _injury_table, "ties_settled": _ties_settled,
    # the roll's events, in the order it logs them (resolution.roll_round)
    "dice_collected": _record, "unresisted_resolved": _record, "clash_rolled": _record, "damage_rolled": _damage,
    "grabbed": _grabbed, "grab_ended": _grab_ended, "defended": _defended, "injury_rolled": _injury,
    "round_resolved": _resolved, "round_started": _round_started, "action_rounds_ended": _ended,
    "injury_healed": _healed,
}


def folded(state: Mapping[str, Any], events: Iterable[Event] = ()) -> State:
    """A copy of ``state`` with ``events`` folded in, for a rule that reads ahead (the pool an
    announcement leaves, the damage a Clash has done before the next Clash rolls); the given
    state is left as it was."""
    new: State = copy.deepcopy(dict(state))
    for event in events:
        # the clock's own events (a condition added in a fight changes a pool) and an award of
        # experience fold as the core's
        (FOLDS.get(event["type"]) or time.FOLDS.get(event["type"]) or growth.FOLDS[event["type"]])(new, event)
    return new
