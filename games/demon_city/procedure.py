"""Action Rounds as a state machine: ``decide(state, command, rng) -> events``.

``decide`` checks a command against the rules and returns the events it causes (every
die rolled is in them); ``apply`` (from ``events``) folds each event into the state.
An illegal command raises ``RuleError`` and nothing changes.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from games.core.rng import Rng
from games.demon_city import setup
from games.demon_city import state as st
from games.demon_city.actions import DAMAGING, GRAB, OTHER, Action
from games.demon_city.dice import MAX_MISC_LOST, MAX_SITUATION
from games.demon_city.errors import RuleError
from games.demon_city.events import apply
from games.demon_city.permissions import Actor, require_gm
from games.demon_city.resolution import roll_round
from games.demon_city.sheet import STAT_NAMES

Event = dict[str, Any]
_ANNOUNCED_FIELDS = ("kind", "target", "targets", "description", "stat", "against", "massive")


def announce(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor,
             rng: Rng) -> list[Event]:
    """Seed, step 1: the slowest "announces what they plan to do. This can't be an
    if-then, they gotta decide. (Actions can normally only target one foe at a time)".

    The engine keeps the no-if-then rule by shape: one kind, fixed targets, no branches.
    """
    setup.require_phase(state, st.ANNOUNCE)
    person = setup.find_combatant(state, command.get("combatant"))
    if not actor.may_control(person.id):
        raise RuleError(f"You do not control {person.name or person.id}.")
    turn = st.next_announcer(state)
    if person.id != turn:
        who = "nobody: everyone has announced" if turn is None else repr(turn)
        raise RuleError(f"It is not {person.id!r}'s turn to announce; next is {who}.")
    fields = {k: command[k] for k in _ANNOUNCED_FIELDS if k in command}
    action = Action.from_dict({**fields, "actor": person.id})
    if len(action.targets) > 1 and not (actor.is_gm or person.id in state["extra_targets"]):
        raise RuleError("An action can only target one foe at a time unless the Host allows it.")
    for target_id in action.targets:
        target = setup.find_combatant(state, target_id)
        if not target.present:
            raise RuleError(f"{target_id!r} is not present.")
        if target.dead and (action.kind in DAMAGING or action.kind == GRAB):
            raise RuleError(f"{target_id!r} is dead.")
    if action.kind == OTHER:
        known = set(STAT_NAMES) | set(person.skills)
        for target_id in action.targets:
            # an NPC's skills are the GM's: a player's refusal must not tell which it has
            if actor.is_gm or target_id not in st.npcs(state):
                known |= set(st.combatant(state, target_id).skills)
        for name in (action.stat, action.against):
            if name is not None and name not in known:
                raise RuleError(f"No stat or skill called {name!r}.")
    event: Event = {"type": "announced", "action": action.to_dict()}
    event["pool"] = st.current_pools(apply(state, event))[person.id].to_dict()
    return [event]


def allow_extra_targets(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor,
                        rng: Rng) -> list[Event]:
    """Seed: "exceptions will be noted when we get around to specific abilities and weapons"."""
    require_gm(actor, "allow more than one target")
    setup.require_phase(state, st.ANNOUNCE)
    person = setup.find_combatant(state, command.get("combatant"))
    if st.action_of(state, person.id) is not None:
        raise RuleError(f"{person.id!r} has already announced.")
    return [{"type": "extra_targets_allowed", "combatant": person.id}]


def adjust_pool(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor,
                rng: Rng) -> list[Event]:
    """The Host grants or removes a Situation Die or a Miscellaneous Lost Die before the roll.

    Caps: "Nobody in a Clash can get more than 2 Situation dice" (the automatic die for a
    successful defence counts) and "Nobody ... can lose more than 2 Miscellaneous Lost Dice".
    """
    require_gm(actor, "adjust a pool")
    setup.require_phase(state, st.ANNOUNCE)
    person = setup.find_combatant(state, command.get("combatant"))
    die, change = command.get("die"), command.get("change", "grant")
    if die not in ("situation", "lost") or change not in ("grant", "remove"):
        raise RuleError("Adjust a 'situation' or 'lost' die with change 'grant' or 'remove'.")
    current = list(state[die].get(person.id, []))
    reason = command.get("reason")
    if change == "remove":
        if not current:
            raise RuleError(f"{person.id!r} has no granted {die} die to remove.")
        reason = reason if reason is not None else current[-1]
        if reason not in current:
            raise RuleError(f"No {die} die granted for {reason!r}.")
    else:
        if not isinstance(reason, str) or not reason.strip():
            raise RuleError("Say why the die is granted: the table sees the reason (the GM alone, for an NPC).")
        automatic = 1 if die == "situation" and person.defended_last_round else 0
        cap = MAX_SITUATION if die == "situation" else MAX_MISC_LOST
        if len(current) + automatic >= cap:
            raise RuleError(f"{person.id!r} already has the most {die} dice allowed ({cap}).")
    return [{"type": "pool_adjusted", "combatant": person.id, "die": die, "change": change,
             "reason": reason}]


def set_difficulty(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor,
                   rng: Rng) -> list[Event]:
    """Seed, step 4: an unresisted action can still need "the Task rules above if
    necessary", e.g. Hyder jumping off the roof: "roll off-Agility vs a difficulty number
    decided by the Host". Only once everyone has announced is "unresisted" known.
    """
    require_gm(actor, "set a difficulty")
    if not st.ready_to_roll(state):
        raise RuleError("Set difficulties once everyone has announced.")
    person = setup.find_combatant(state, command.get("combatant"))
    if person.id not in st.grouping(state).unresisted:
        raise RuleError(f"{person.id!r}'s action is in a Clash: the Clash decides it.")
    number = command.get("target_number")
    if not isinstance(number, int) or isinstance(number, bool) or number < 0:
        raise RuleError("A difficulty is a whole number from 0 up.")
    action = st.action_of(state, person.id)
    default = action.stat if action and action.kind == OTHER and action.stat else "agility"
    name = command.get("stat") or default
    if not person.has_stat(name):
        raise RuleError(f"No stat or skill called {name!r}.")
    return [{"type": "difficulty_set", "combatant": person.id, "target_number": number,
             "stat": name}]


def roll(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor,
         rng: Rng) -> list[Event]:
    """Steps 4-8: unresisted actions, every Clash, damage and Injury rolls."""
    require_gm(actor, "call for the roll")
    setup.require_phase(state, st.ANNOUNCE)
    if not st.ready_to_roll(state):
        raise RuleError(f"{st.next_announcer(state)!r} has not announced yet.")
    return roll_round(state, rng)


def next_round(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor,
               rng: Rng) -> list[Event]:
    """Seed, step 9: "If characters are still involved in Action after all that, start
    over at 1 above." Only the Host ends Action Rounds."""
    require_gm(actor, "start the next round")
    setup.require_phase(state, st.RESOLVED)
    return [{"type": "round_started", "round": state["round"] + 1}]


Handler = Callable[[Mapping[str, Any], Mapping[str, Any], Actor, Rng], list[Event]]
COMMANDS: dict[str, Handler] = {
    "start": setup.start,
    "add_combatant": setup.add_combatant,
    "announce": announce,
    "allow_extra_targets": allow_extra_targets,
    "adjust_pool": adjust_pool,
    "set_difficulty": set_difficulty,
    "set_condition": setup.set_condition,
    "set_injury_table": setup.set_injury_table,
    "roll": roll,
    "next_round": next_round,
    "end": setup.end,
    "undo": setup.undo,
}


def decide(state: Mapping[str, Any], command: Mapping[str, Any], rng: Rng) -> list[Event]:
    """The events ``command`` causes, or ``RuleError``; ``state`` is never changed.

    Every event gets the command's ``step`` (state step + 1), the ``round`` and ``by_gm``.
    The events are applied to a scratch copy before returning, so a command whose result
    would break a cap (say, a correction that leaves three Situation Dice) is refused.
    """
    handler = COMMANDS.get(command.get("type"))  # type: ignore[arg-type]
    if handler is None:
        raise RuleError(f"Unknown command {command.get('type')!r}.")
    actor = Actor.from_dict(command.get("actor"))
    events = copy.deepcopy(handler(state, copy.deepcopy(dict(command)), actor, rng))
    step = state["step"] + 1
    for event in events:
        event["step"] = step
        event.setdefault("round", state["round"])
        event["by_gm"] = actor.is_gm
    scratch: Mapping[str, Any] = state
    for event in events:
        before = _announced_sizes(scratch)
        scratch = apply(scratch, event)
        after = _announced_sizes(scratch)
        if before is not None and after is not None:
            said = event["action"]["actor"] if event["type"] == "announced" else None
            changed = [cid for cid in after if cid in before and before[cid] != after[cid] and cid != said]
            if changed:
                event["pools_now"] = [[cid, after[cid]] for cid in changed]
    if scratch["phase"] == st.ANNOUNCE:
        st.current_pools(scratch)
    return events


def _announced_sizes(state: Mapping[str, Any]) -> dict[str, int] | None:
    """How many dice each announced action rolls, while the round is announced (``None``
    once its dice are collected).

    Issue 22: the log said "(1 die)" at an announcement while the panel showed 2d10 once a
    faster entity's announcement, the Host's die or difficulty had changed that pool. An
    event that changes a pool already announced now says so in its line (``pools_now``, in
    fight order), so the last count the log gives of each pool is the one the panel shows."""
    if state["phase"] != st.ANNOUNCE or state["results"]:
        return None
    sizes = {cid: pool.size for cid, pool in st.current_pools(state).items()}
    return {cid: sizes[cid] for cid in state["order"] if cid in sizes}


def run(state: Mapping[str, Any], command: Mapping[str, Any], rng: Rng,
        ) -> tuple[dict[str, Any], list[Event]]:
    """Convenience: ``decide`` then ``apply`` each event; returns the new state and events."""
    events = decide(state, command, rng)
    new: dict[str, Any] = dict(state)
    for event in events:
        new = apply(new, event)
    return new, events
