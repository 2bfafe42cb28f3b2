"""The Action Rounds state (plain, JSON-ready) and read-only views of it.

Shape (every value is a dict, list, str, int, bool or None):

    {"version": 1,
     "phase": "idle" | "announce" | "resolved" | "ended",
     "round": int,               # 0 before Action Rounds start
     "step": int,                # number of the last command applied; events carry it
     "combatants": {id: Combatant.to_dict()},
     "order": [id, ...],         # ascending Agility; ties settled once and kept (``ties``)
     "settled": [id, ...],       # the order among equal Agility, kept across fights
     "actions": [Action.to_dict(), ...],     # this round, in announcement order
     "situation": {id: [reason, ...]},       # GM-granted Situation Dice this round
     "lost": {id: [reason, ...]},            # GM-granted Miscellaneous Lost Dice
     "extra_targets": [id, ...],             # GM exceptions to "one target" this round
     "difficulties": {id: {"target_number": int, "stat": str}},  # unresisted tasks
     "injury_table": [row, ...],
     "results": [event, ...],    # this round's resolution events, for display
     "npcs": [id, ...],          # the NPCs, as the table said: their figures are the GM's
     "undo": [{"step", "what"}, ...]}  # the steps the GM may take back, newest last (the core's)

Lists, not dict key order, carry every ordering: PostgreSQL's jsonb reorders keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.demon_city.actions import Action
from games.demon_city.clash import Grouping, group
from games.demon_city.combatant import Combatant
from games.demon_city.dice import Pool
from games.demon_city.injury import DEFAULT_INJURY_TABLE
from games.demon_city.pools import all_pools, condition_lost, difficulty_pool

State = dict[str, Any]
IDLE, ANNOUNCE, RESOLVED, ENDED = "idle", "announce", "resolved", "ended"


def new_state() -> State:
    """The state before the Host announces Action Rounds."""
    return {"version": 1, "phase": IDLE, "round": 0, "step": 0, "combatants": {},
            "order": [], "actions": [], "situation": {}, "lost": {}, "extra_targets": [],
            "difficulties": {}, "injury_table": [dict(r) for r in DEFAULT_INJURY_TABLE],
            "results": [], "npcs": [], "undo": [], "settled": []}


def npcs(state: Mapping[str, Any]) -> frozenset[str]:
    """The NPCs of the fight, as the table said when they joined it: their sheets' figures
    (stats, skills, pools before the roll) are the GM's (``audiences``)."""
    return frozenset(state.get("npcs") or ())


def combatants(state: Mapping[str, Any]) -> dict[str, Combatant]:
    return {cid: Combatant.from_dict(data) for cid, data in state["combatants"].items()}


def combatant(state: Mapping[str, Any], cid: str) -> Combatant:
    return Combatant.from_dict(state["combatants"][cid])


def actions(state: Mapping[str, Any]) -> list[Action]:
    return [Action.from_dict(a) for a in state["actions"]]


def live_actions(state: Mapping[str, Any]) -> list[Action]:
    """Announced actions whose actor can still act (the GM may have taken one out)."""
    able = {cid for cid, c in combatants(state).items() if c.able}
    return [a for a in actions(state) if a.actor in able]


def action_of(state: Mapping[str, Any], cid: str) -> Action | None:
    return next((a for a in actions(state) if a.actor == cid), None)


def next_announcer(state: Mapping[str, Any]) -> str | None:
    """Who announces next: the slowest able entity that has not announced this round.

    Seed: "Whatever entity involved has the lowest Agility ... announces what they plan
    to do", then "Second-least Agile creature announces next". ``None`` once everyone has.
    """
    if state["phase"] != ANNOUNCE:
        return None
    done = {a["actor"] for a in state["actions"]}
    for cid in state["order"]:
        if cid not in done and Combatant.from_dict(state["combatants"][cid]).able:
            return str(cid)
    return None


def holds_of(state: Mapping[str, Any], cid: str) -> list[str]:
    """Whom ``cid`` holds in a grab, in fight order."""
    return [t for t in state["order"] if cid in (state["combatants"][t].get("grabbed_by") or [])]


def ready_to_roll(state: Mapping[str, Any]) -> bool:
    """Everyone able has announced. With nobody able (all down) the roll still runs step 8,
    the Injury rolls, so the bleeding are not forgotten."""
    return state["phase"] == ANNOUNCE and next_announcer(state) is None


def current_pools(state: Mapping[str, Any]) -> dict[str, Pool]:
    """Every announced action's pool as it stands now, with a reason for each die: the pool the
    roll will roll (an unresisted action with the Host's difficulty rolls against that number)."""
    people, live = combatants(state), live_actions(state)
    # the Host's Lost Dice, and those of lasting conditions (``pools.condition_lost``)
    lost = {a.actor: condition_lost(state, a.actor, state["lost"].get(a.actor, ())) for a in live}
    pools = all_pools(people, live, state["situation"], lost)
    if state["difficulties"]:
        for cid in group(live, state["order"]).unresisted:
            if cid in state["difficulties"] and cid in pools:
                pools[cid] = difficulty_pool(people[cid], state["difficulties"][cid],
                                             state["situation"].get(cid, ()), lost.get(cid, ()))
    return pools


def grouping(state: Mapping[str, Any]) -> Grouping:
    """Unresisted actions and Clashes as the announcements stand now."""
    return group(live_actions(state), state["order"])



def announced_sizes(state: Mapping[str, Any]) -> dict[str, int] | None:
    """How many dice each announced action rolls, in fight order, while the round is announced
    (``None`` once its dice are collected)."""
    if state["phase"] != ANNOUNCE or state["results"]:
        return None
    sizes = {cid: pool.size for cid, pool in current_pools(state).items()}
    return {cid: sizes[cid] for cid in state["order"] if cid in sizes}


def pools_changed(before: Mapping[str, Any], after: Mapping[str, Any], said: str | None = None) -> list[list[Any]]:
    """The pools already announced in ``before`` whose size ``after`` changes, as ``[[id, dice],
    ...]`` in fight order (an event's ``pools_now``); ``said``, the pool its own event states.

    Issue 22: the log said "(1 die)" at an announcement while the panel showed 2d10 once a
    faster entity's announcement, the Host's die or difficulty had changed that pool. An event
    that changes a pool already announced says so in its line, so the last count the log gives
    of each pool is the one the panel shows."""
    old, new = announced_sizes(before), announced_sizes(after)
    if old is None or new is None:
        return []
    return [[cid, new[cid]] for cid in new if cid in old and old[cid] != new[cid] and cid != said]
