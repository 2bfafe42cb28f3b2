"""An Action Round's moves: announcements in Slow Motion, the Host's dice and difficulties, the
roll and the next round; and ``settle``, the last look the core gives a move's events.

Each handler (``handle(state, args, turn)``, games/core/engine.py) checks a move against the
rules and returns the events it causes (every die rolled is in them); an illegal move raises a
``RuleError`` and nothing changes. Who may send a move is the core's check, once: "announce" is
the combatant's player's (or the GM's), the rest the GM's. A handler checks only what the rules
give one person: whose turn it is, the Host's exceptions (``access``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.engine import UNDONE, RuleError, Turn
from games.core.fights import refuse_when_over
from games.demon_city import edges
from games.demon_city import state as st
from games.demon_city.access import knows_skills_of, may_aim_at_several
from games.demon_city.actions import OTHER, Action
from games.demon_city.combatant import STAT_NAMES
from games.demon_city.dice import MAX_MISC_LOST, MAX_SITUATION
from games.demon_city.errors import NotNow
from games.demon_city.events import folded
from games.demon_city.fight import find_combatant, require_phase
from games.demon_city.resolution import roll_round

Event = dict[str, Any]
_ANNOUNCED_FIELDS = ("kind", "target", "targets", "description", "stat", "against", "massive")


def announce(state: Mapping[str, Any], args: Mapping[str, Any], turn: Turn) -> list[Event]:
    """Seed, step 1: the slowest "announces what they plan to do. This can't be an
    if-then, they gotta decide. (Actions can normally only target one foe at a time)".

    The engine keeps the no-if-then rule by shape: one kind, fixed targets, no branches.
    """
    require_phase(state, st.ANNOUNCE)
    person = find_combatant(state, args.get("combatant"))
    nxt = st.next_announcer(state)
    if person.id != nxt:
        who = "nobody: everyone has announced" if nxt is None else repr(nxt)
        raise NotNow(f"It is not {person.id!r}'s turn to announce; next is {who}.")
    fields = {k: args[k] for k in _ANNOUNCED_FIELDS if k in args}
    action = Action.from_dict({**fields, "actor": person.id})
    if len(action.targets) > 1 and not may_aim_at_several(turn.member, state, person.id):
        raise RuleError("An action can only target one foe at a time unless the Host allows it.")
    for target_id in action.targets:
        find_combatant(state, target_id)
        # the out (out of the fight, dead, gone from the scene) are no one's target (edges)
        edges.refuse_target(state, target_id)
    if action.kind == OTHER:
        known = set(STAT_NAMES) | set(person.skills)
        for target_id in action.targets:
            if knows_skills_of(turn.member, state, target_id):
                known |= set(st.combatant(state, target_id).skills)
        for name in (action.stat, action.against):
            if name is not None and name not in known:
                raise RuleError(f"No stat or skill called {name!r}.")
    event: Event = {"type": "announced", "action": action.to_dict()}
    event["pool"] = st.current_pools(folded(state, [event]))[person.id].to_dict()
    return [event]


def allow_extra_targets(state: Mapping[str, Any], args: Mapping[str, Any], turn: Turn) -> list[Event]:
    """Seed: "exceptions will be noted when we get around to specific abilities and weapons"."""
    require_phase(state, st.ANNOUNCE)
    person = find_combatant(state, args.get("combatant"))
    if st.action_of(state, person.id) is not None:
        raise RuleError(f"{person.id!r} has already announced.")
    return [{"type": "extra_targets_allowed", "combatant": person.id}]


def adjust_pool(state: Mapping[str, Any], args: Mapping[str, Any], turn: Turn) -> list[Event]:
    """The Host grants or removes a Situation Die or a Miscellaneous Lost Die before the roll.

    Caps: "Nobody in a Clash can get more than 2 Situation dice" (the automatic die for a
    successful defence counts) and "Nobody ... can lose more than 2 Miscellaneous Lost Dice".
    """
    require_phase(state, st.ANNOUNCE)
    person = find_combatant(state, args.get("combatant"))
    die, change = args.get("die"), args.get("change", "grant")
    if die not in ("situation", "lost") or change not in ("grant", "remove"):
        raise RuleError("Adjust a 'situation' or 'lost' die with change 'grant' or 'remove'.")
    current = list(state[die].get(person.id, []))
    reason = args.get("reason")
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


def set_difficulty(state: Mapping[str, Any], args: Mapping[str, Any], turn: Turn) -> list[Event]:
    """Seed, step 4: an unresisted action can still need "the Task rules above if
    necessary", e.g. Hyder jumping off the roof: "roll off-Agility vs a difficulty number
    decided by the Host". Only once everyone has announced is "unresisted" known.
    """
    if not st.ready_to_roll(state):
        raise NotNow("Set difficulties once everyone has announced.")
    person = find_combatant(state, args.get("combatant"))
    if person.id not in st.grouping(state).unresisted:
        raise RuleError(f"{person.id!r}'s action is in a Clash: the Clash decides it.")
    number = args.get("target_number")
    if not isinstance(number, int) or isinstance(number, bool) or number < 0:
        raise RuleError("A difficulty is a whole number from 0 up.")
    action = st.action_of(state, person.id)
    default = action.stat if action and action.kind == OTHER and action.stat else "agility"
    name = args.get("stat") or default
    if not person.has_stat(name):
        raise RuleError(f"No stat or skill called {name!r}.")
    return [{"type": "difficulty_set", "combatant": person.id, "target_number": number,
             "stat": name}]


def roll(state: Mapping[str, Any], args: Mapping[str, Any], turn: Turn) -> list[Event]:
    """Steps 4-8: unresisted actions, every Clash, damage and Injury rolls."""
    require_phase(state, st.ANNOUNCE)
    if not st.ready_to_roll(state):
        raise NotNow(f"{st.next_announcer(state)!r} has not announced yet.")
    assert turn.rng is not None
    return roll_round(state, turn.rng)


def next_round(state: Mapping[str, Any], args: Mapping[str, Any], turn: Turn) -> list[Event]:
    """Seed, step 9: "If characters are still involved in Action after all that, start
    over at 1 above." Only the Host ends Action Rounds; once one side has no one able to act
    nobody is "still involved in Action", and the Host ends the fight instead."""
    require_phase(state, st.RESOLVED)
    # once one side has no one able to act the fight is over: no new round, the Host ends it
    refuse_when_over(edges.roster(state))
    return [{"type": "round_started", "round": state["round"] + 1}]


def settle(state: Mapping[str, Any], events: list[Event], turn: Turn) -> list[Event]:
    """A move's events as they are logged (``Engine.settle``): each gets the ``round`` and
    ``by_gm``; each that changes a pool already announced says so (``pools_now``); and the
    events are folded into a scratch copy first, so a move whose result would break a cap (say,
    a correction that leaves three Situation Dice) is refused. An undo's ``pools_now`` is its
    own (``fight.undo_says``): the core folds it, from the log."""
    scratch: Mapping[str, Any] = state
    for event in events:
        event.setdefault("round", state["round"])
        event["by_gm"] = turn.member.is_gm
        if event["type"] != UNDONE:
            after = folded(scratch, [event])
            said = event["action"]["actor"] if event["type"] == "announced" else None
            changed = st.pools_changed(scratch, after, said)
            if changed:
                event["pools_now"] = changed
            scratch = after
    if scratch["phase"] == st.ANNOUNCE:
        st.current_pools(scratch)
    return events
