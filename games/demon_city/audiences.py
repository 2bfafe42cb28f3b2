"""Who reads each event (``AUDIENCES``), and the GM's screen over the log: what an NPC's figures
leave out of the part everyone reads.

Seed 003: every die is public, so every event goes to everyone with its dice and what came of
them. An NPC's figures are the GM's (the table's setting, on by default): its sheet when it joins
a fight, its pool before the roll (how many dice, and why each: a Skill Die's reason names the
stats on both sides), a correction of one of its stats, a tie in Agility that would tell its
Agility. An event that holds them keeps them in a part only the GM reads, with the GM's own log
line; the line everyone reads leaves them out (``narrate.summary``'s ``hidden``), and the dice
rolled stay in the public part (``rolled``).

Which combatants are NPCs is what the table said when they joined the fight (``state["npcs"]``);
the events are logged once, so they stay behind the screen if the GM later shows NPC sheets.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

from games.contract import GM_PART, PUBLIC, AudienceRule, Visibility, screened, with_gm_part
from games.core.engine import UNDONE
from games.demon_city.combatant import STAT_NAMES, stat_label
from games.demon_city.events import FOLDS, folded
from games.demon_city.narrate import FIGURES as SHEET_FIGURES
from games.demon_city.narrate import names_of, summary
from games.demon_city.state import npcs
from games.demon_city.task import said_outcome

Event = Mapping[str, Any]


def _in(hidden: Collection[str], *cids: object) -> bool:
    return any(str(c) in hidden for c in cids)


def _own_skill(action: Mapping[str, Any], hidden: Collection[str]) -> bool:
    """An NPC's action that uses a skill of its own sheet names that skill (the contract kit
    found it in the announcement and the resolution)."""
    return _in(hidden, action["actor"]) and action.get("stat") not in (None, "", *STAT_NAMES)


def _announced(e: Event, hidden: Collection[str]) -> tuple[str, ...]:
    # an NPC's pool, or a pool aimed at one: its Skill Die's reason names the NPC's stat
    action = e["action"]
    return (("pool",) if _in(hidden, action["actor"], *action["targets"]) else ()) + (
        ("action",) if _own_skill(action, hidden) else ())


# What of each event is an NPC's figure, given the NPCs (``hidden``): its keys to keep behind
# the screen. A type not named holds none (dice rolled, harm, names, the Host's difficulties).
FIGURES: dict[str, Callable[[Event, Collection[str]], tuple[str, ...]]] = {
    # who ties with whom in Agility tells an NPC's Agility: the kept ties (``settled``) too
    "action_rounds_started": lambda e, hidden: ("combatants", "ties", "settled") if _in(
        hidden, *(c["id"] for c in e["combatants"])) else (),
    "combatant_added": lambda e, hidden: ("combatant", "settled") if _in(hidden, e["combatant"]["id"]) else (),
    "ties_settled": lambda e, hidden: ("ties", "settled") if _in(hidden, *e["settled"]) else (),
    "announced": _announced,
    "pool_adjusted": lambda e, hidden: ("die", "change", "reason") if _in(hidden, e["combatant"]) else (),
    "condition_set": lambda e, hidden: (("value",) if _in(hidden, e["combatant"]) and e["field"] in SHEET_FIGURES
                                        else ()) + (("settled",) if _in(hidden, *e.get("settled") or ()) else ()),
    # the pools collected: an NPC's, and any whose reason names an NPC's stat
    "dice_collected": lambda e, hidden: ("pools",) if hidden and e["pools"] else (),
    "unresisted_resolved": lambda e, hidden: (("task",) if _in(hidden, e["combatant"]) and e["task"] else ()) + (
        ("action",) if e.get("action") and _own_skill(e["action"], hidden) else ()),
    "clash_rolled": lambda e, hidden: ("rolls",) if hidden else (),
}


def _rolled(event: Event) -> dict[str, Any] | None:
    """The dice of an event whose pools go behind the screen, for everyone: every die is public."""
    if event["type"] == "clash_rolled":
        return {cid: {"dice": r["dice"], "best": r["best"]} for cid, r in event["rolls"].items()}
    if event["type"] == "unresisted_resolved" and event["task"]:
        task = event["task"]
        return {k: task[k] for k in ("dice", "best", "stat", "target_number", "outcome")}
    return None


def screen(state: Mapping[str, Any], events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A move's events (``Engine.settle``, after ``rounds.settle``), each that holds an NPC's
    figures given its GM's part (``GM_PART``) and, where its pools go there, the dice rolled in
    the open (``rolled``). The line everyone reads is ``narrate.line`` (the registration's)."""
    out = []
    now: Mapping[str, Any] = state
    for event in events:
        if event["type"] != UNDONE:  # the core folds an undo from the log: it names no new NPC
            now = folded(now, [event])
        if event["type"] not in FOLDS and event["type"] != UNDONE:
            out.append(event)  # the clock's own (time, conditions): the core's lines and audiences
            continue
        hidden, names = npcs(now), names_of(now)
        keys = FIGURES[event["type"]](event, hidden) if event["type"] in FIGURES and hidden else ()
        # a changed pool's size is its sheet's figure for a hidden NPC (narrate: ``pools_now``)
        if _in(hidden, *(cid for cid, _ in event.get("pools_now") or ())):
            keys = (*keys, "pools_now")
        whole = summary(event, names)
        if keys or whole != summary(event, names, hidden):
            event = with_gm_part(event, keys, whole)
            rolled = _rolled(event) if keys else None
            if rolled is not None:
                event["rolled"] = rolled
        out.append(event)
    return out


# A task (outside Action Rounds) for or against an NPC: its rating (``gm_keys``), and the pools
# whose reasons name it, are the GM's; the dice and the outcome are everyone's, and so is a PC's
# rating, which the line everyone reads states.
TASK_FIGURES = ("roll", "other_roll", "gm_line", "gm_keys")


def _dice(roll: Mapping[str, Any]) -> str:
    return f"{', '.join(map(str, roll['dice']))} (best {roll['best']})"


def secret_task(data: Mapping[str, Any], line: str, *, mine: bool, theirs: bool) -> tuple[dict[str, Any], str]:
    """A task's (data, line) when its character (``mine``) or its opponent (``theirs``) is an NPC
    behind the screen: ``line`` becomes the GM's (``gm_line``), the dice stay public (``rolled``)
    and the line everyone reads names no NPC rating."""
    if not (mine or theirs):
        return dict(data), line
    roll, name = data["roll"], data["name"]
    # an NPC's own skill is a figure of its sheet: its name too (found by the contract kit)
    own = [key for key, npc in (("stat", mine), ("other_stat", theirs))
           if npc and data.get(key) and data[key] not in STAT_NAMES]
    stat = "a skill of its own" if "stat" in own else stat_label(data["stat"])
    me = stat if mine else f"{stat} {data['rating']}"
    rolled = {"roll": {k: roll[k] for k in ("dice", "best", "outcome")}}
    if data["kind"] == "static":
        said = (f"{name} tries {me} against difficulty {data['target_number']}: rolls {_dice(roll)}: "
                f"{said_outcome(name, roll['outcome'])}.")
    else:
        other = data["other_roll"]
        them = ("a skill of its own" if "other_stat" in own else stat_label(data["other_stat"])) + (
            "" if theirs else f" {data['other_rating']}")
        rolled["other_roll"] = {k: other[k] for k in ("dice", "best", "outcome")}
        said = (f"{name} ({me}) against {data['other']} ({them}): {name} rolls {_dice(roll)}, {data['other']} "
                f"{_dice(other)}: {said_outcome(name, roll['outcome'])}.")
    prompt = f" {roll['prompt']}" if roll.get("prompt") else ""
    ratings = [key for key, npc in (("rating", mine), ("other_rating", theirs)) if npc and key in data]
    return {**data, "gm_line": line, "rolled": rolled, "gm_keys": own + ratings}, said + prompt


def task_visibility(event: Event) -> Visibility:
    if "gm_line" not in event:
        return PUBLIC
    keys = (*TASK_FIGURES, *event.get("gm_keys", ()))
    return Visibility(private={k: event[k] for k in keys if k in event}, private_audience="gm",
                      private_summary=event["gm_line"])


TASK_EVENT = "task_rolled"  # the task's event (``moves.TASK``)
# Who sees each event (games/contract.py: declared, never defaulted): everyone, the NPCs' figures
# aside.
AUDIENCES: dict[str, AudienceRule] = {**{kind: screened for kind in (*FOLDS, UNDONE)}, TASK_EVENT: task_visibility}
