"""How each Demon City log line came out (issue 23): the dice step by step and the rule it
applied, in the seed's words (``quotes``), unfolded under the line ("How"): ``working`` for the
events, ``task_working`` for the task.

A working is built from the event alone, with the combatants' names from the state, never a
figure read from the state: an event everyone reads whole has a working saying only what the
event says (a damage roll counts its dice, never the Toughness and armour behind their number).
An event holding an NPC's figures (``audiences.FIGURES``) has a GM's part, which takes its
whole working; everyone else unfolds its public twin (``TOLD``), built from the event's public
part alone, where each NPC figure reads "the GM's figure" (seed 003: every die is public).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.contract import GM_PART, Visibility, Working, public_part, screened, twinned
from games.core.words import count
from games.demon_city.audiences import task_visibility
from games.demon_city.combatant import stat_label
from games.demon_city.dice import CRITICAL, FUMBLE, SUCCESS, TIE
from games.demon_city.narrate import names_of
from games.demon_city.quotes import (BEST_RULE, BOTH_FUMBLE_RULE, CLASH_RULES, CRIT_RULE, DAMAGE_RULE,
                                     DEFENDED_RULE, DIE_RULES, GRAB_RULE, INJURY_RULE, MASSIVE_RULE, POOL_RULE,
                                     SKILL_RULE, STATIC_RULE, TIE_RULE, UNRESISTED_RULE)

Event = Mapping[str, Any]
Name = Callable[[object], str]
GMS = "the GM's figure"
POOLS = f"How many dice each side rolled, and why: {GMS} (an NPC's stats weigh in each pool)"

OUTCOMES = {CRITICAL: "a critical success", SUCCESS: "a success", TIE: "a tie", "failure": "a failure",
            FUMBLE: "a fumble", "both_fumble": "both sides fumble"}


def pool_step(who: str, pool: Mapping[str, Any]) -> str:
    """"Alfie: the d10 everyone rolls + Skill Die (Firearms 9 > 5) = 2 dice": each die of the
    pool with its reason, a Lost Die taking one away, down to the floor of one."""
    gains = [d for d in pool["dice"] if d["sign"] > 0]
    losses = [d for d in pool["dice"] if d["sign"] < 0]
    names = {"base": "", "skill": "Skill Die", "defense": "Defense Die", "distraction": "Distraction Die",
             "situation": "Situation Die", "lost_injury": "Lost Die for Injury", "lost_misc": "Lost Die"}
    said = " + ".join(f"{names[d['kind']]} ({d['reason']})" if names[d["kind"]] else d["reason"] for d in gains)
    said += "".join(f" - {names[d['kind']]} ({d['reason']})" for d in losses)
    return f"{who}: {said} = {count(pool['size'], 'die', 'dice')}"


def dice_text(values: list[int]) -> str:
    return ", ".join(map(str, values))


def clash(e: Event, n: Name, pools: list[str], rolls: Mapping[str, Any]) -> Working:
    """A Clash's working: its ``pools`` (each one's make-up, or what the others may read of it),
    each side's dice as ``rolls`` holds them, and who acts."""
    steps = [*pools, *(f"{n(cid)} {_rolls(r)}" for cid, r in rolls.items())]
    top = max(r["best"] for r in rolls.values())
    rule = BEST_RULE + " " + CLASH_RULES[e["outcome"]]
    if e["outcome"] == "winner":
        steps.append(f"{n(e['winner'])}'s {top} is the highest: {n(e['winner'])} acts")
        if e["critical"]:
            steps.append("a 10 that wins: a critical success")
            rule += " " + CRIT_RULE
    elif e["outcome"] == "same_side_tie":
        steps.append(f"{' and '.join(n(c) for c in e['tied'])} tie at {top} on the same side: "
                     f"{n(e['winner'])} is chosen at random and acts")
    else:
        steps.append(f"{' and '.join(n(c) for c in e['tied'])} tie at {top} on opposing sides: nobody's "
                     "action takes")
    for cid in e["fumbles"]:
        if e["outcome"] == "winner":
            steps.append(f"{n(cid)}'s best die is a 1: a fumble")
            rule += "" if CRIT_RULE in rule else " " + CRIT_RULE
    return Working(steps=tuple(steps), rule=rule, source="Action Rounds: the Clash, step 6")


def _damage(e: Event, n: Name) -> Working:
    if e["massive"]:
        steps = [f"Massive Damage: {count(len(e['dice']), 'd10')}, one for each point of {n(e['attacker'])}'s stat",
                 f"rolls {dice_text(e['dice'])}: the highest is {e['taken']}"]
    else:
        steps = [f"{count(len(e['dice']), 'd10')}: {n(e['target'])}'s Base Toughness, with any armour "
                 "(at least one)", f"rolls {dice_text(e['dice'])}: the lowest is {e['taken']}"]
    steps.append(f"Current Toughness {e['before']} - {e['taken']} = {e['after']}")
    if e["out_of_fight"]:
        steps.append(f"{e['after']} is -1 or below: out of the fight, a roll on the Injury table")
    return Working(steps=tuple(steps), rule=MASSIVE_RULE if e["massive"] else DAMAGE_RULE,
                   source="Action Rounds: the Clash, step 6 (damage)")


def _injury(e: Event, n: Name) -> Working:
    entry = e["entry"]
    span = str(entry["low"]) if entry["low"] == entry["high"] else f"{entry['low']}-{entry['high']}"
    steps = (f"{n(e['combatant'])} rolls a d10 on the Injury table: {e['die']}",
             f"{span}: {entry['result']}. {entry['description']}")
    return Working(steps=steps, rule=INJURY_RULE, source="Action Rounds: the Clash, step 6; the Injury table")


def _rolls(roll: Mapping[str, Any]) -> str:
    return f"rolls {dice_text(roll['dice'])}: best {roll['best']}"


def _over(roll: Mapping[str, Any], target: int, stat: str | None = None) -> str:
    """A best die judged against a static difficulty (``stat``: the stat it was rolled with)."""
    if roll["outcome"] == FUMBLE:
        return f"a best die of 1 against difficulty {target}: a fumble"
    with_stat = "" if stat is None else f" ({stat})"
    return f"{roll['best']} against difficulty {target}{with_stat}: must roll over it: {OUTCOMES[roll['outcome']]}"


def _static(who: str, stat: str, roll: Mapping[str, Any], target: int) -> list[str]:
    return [pool_step(who, roll["pool"]), _rolls(roll), _over(roll, target, stat)]


def _outcome_rule(outcome: str) -> str:
    return {CRITICAL: CRIT_RULE, FUMBLE: CRIT_RULE, TIE: TIE_RULE, "both_fumble": BOTH_FUMBLE_RULE}.get(outcome, "")


def _unresisted(e: Event, n: Name) -> Working | None:
    task = e["task"]
    if task is None:
        return Working(steps=(f"Nobody's action touches {n(e['combatant'])}'s, and no difficulty is set: it "
                              "happens",), rule=UNRESISTED_RULE, source="Action Rounds: Slow Motion, step 4")
    steps = _static(n(e["combatant"]), stat_label(task["stat"]) if task.get("stat") else "", task,
                    task["target_number"])
    rule = " ".join(r for r in (UNRESISTED_RULE, BEST_RULE, _outcome_rule(task["outcome"])) if r)
    return Working(steps=tuple(steps), rule=rule, source="Action Rounds: Slow Motion, step 4")


def _announced(e: Event, n: Name) -> Working:
    """An announcement's pool, die by die: an NPC's (or one whose reasons name an NPC's stat) is
    in the event's GM's part, and so is this working then."""
    pool = e["pool"]
    kinds = [k for k in DIE_RULES if any(d["kind"] == k for d in pool["dice"])]
    rule = " ".join([POOL_RULE, *(DIE_RULES[k] for k in kinds)])
    return Working(steps=(pool_step(n(e["action"]["actor"]), pool),), rule=rule,
                   source="Action Rounds: Slow Motion Phase, step 2")


def _defended(e: Event, n: Name) -> Working:
    who = n(e["combatant"])
    return Working(steps=(f"{who}'s defence succeeded", f"next round: a Situation Die for {who}"),
                   rule=DEFENDED_RULE, source="Action Rounds: Slow Motion Phase, step 2")


def _grabbed(e: Event, n: Name) -> Working:
    target = n(e["target"])
    return Working(steps=(f"{n(e['attacker'])} holds {target}",
                          f"while held, actions against {target} target {target}'s Toughness"),
                   rule=GRAB_RULE, source="Action Rounds: Slow Motion Phase, step 2")


# Each event's whole working (what the GM reads, and everyone when the event has no GM's part).
WHOLE: dict[str, Callable[[Event, Name], Working | None]] = {
    "clash_rolled": lambda e, n: clash(e, n, [pool_step(n(cid), r["pool"]) for cid, r in e["rolls"].items()],
                                       e["rolls"]),
    "damage_rolled": _damage, "injury_rolled": _injury,
    "unresisted_resolved": _unresisted, "announced": _announced, "defended": _defended, "grabbed": _grabbed,
}


def _task_whole(data: Mapping[str, Any]) -> Working:
    roll, name = data["roll"], data["name"]
    stat = f"{stat_label(data['stat'])} {data['rating']}"
    if data["kind"] == "static":
        steps = _static(name, stat, roll, data["target_number"])
        rule = " ".join(r for r in (STATIC_RULE, BEST_RULE, _outcome_rule(roll["outcome"])) if r)
        return Working(steps=tuple(steps), rule=rule, source="Task Resolution")
    other, theirs = data["other"], data["other_roll"]
    steps = [pool_step(name, roll["pool"]), pool_step(other, theirs["pool"]),
             f"{name} {_rolls(roll)}", f"{other} {_rolls(theirs)}",
             f"{name} ({stat}) {roll['best']} against {other} "
             f"({stat_label(data['other_stat'])} {data['other_rating']}) {theirs['best']}: "
             f"{OUTCOMES[roll['outcome']]} for {name}"]
    rule = " ".join(r for r in (BEST_RULE, SKILL_RULE, _outcome_rule(roll["outcome"])) if r)
    return Working(steps=tuple(steps), rule=rule, source="Task Resolution")


def _told_announced(e: Event, n: Name) -> Working:
    if "pool" in e:  # the pool is everyone's (only another's size changed behind the screen)
        return _announced(e, n)
    # the pool's dice and their reasons (a Skill Die names both stats) are the GM's, so the
    # seed's words for each kind of die would tell which dice it holds: only step 2's heading
    who = n(e["action"]["actor"]) if "action" in e else "The NPC"
    return Working(steps=(f"{who}: how many dice, and why: {GMS} (an NPC's stats weigh in this pool)",
                          "its dice are everyone's once rolled"),
                   rule=POOL_RULE, source="Action Rounds: Slow Motion Phase, step 2")


def _told_unresisted(e: Event, n: Name) -> Working | None:
    if "rolled" not in e:  # no roll behind the screen (no difficulty): the whole is everyone's
        return _unresisted(e, n)
    task = e["rolled"]
    who = n(e["combatant"])
    steps = [f"{who}: how many dice, and why: {GMS}", _rolls(task), _over(task, task["target_number"])]
    rule = " ".join(r for r in (UNRESISTED_RULE, BEST_RULE, _outcome_rule(task["outcome"])) if r)
    return Working(steps=tuple(steps), rule=rule, source="Action Rounds: Slow Motion, step 4")


# The public workings of the events that may hold a GM's part, from their public part alone; a
# line no rule of the seed explains to everyone stays the GM's alone.
TOLD: dict[str, Callable[[Event, Name], Working | None]] = {
    "clash_rolled": lambda e, n: clash(e, n, [POOLS], e["rolled"]), "announced": _told_announced, "unresisted_resolved": _told_unresisted,
}


def _stat(data: Mapping[str, Any], key: str, rating: str) -> str:
    """A side's stat as everyone may read it: its name (an NPC's own skill's is the GM's) and
    its rating, or "the GM's figure" where it is an NPC's."""
    stat = data.get(key)
    named = "a skill of its own" if stat is None else stat_label(stat)
    return f"{named} {data[rating]}" if rating in data else f"{named}, {GMS}"


def _told_task(data: Mapping[str, Any], whole: Working, seen: Visibility) -> Working:
    """The public twin of a task for or against an NPC, from the task's public data: the dice
    rolled (``rolled``), the difficulty, the PC's rating; each NPC's rating is the GM's."""
    pub = public_part(data, seen)
    name, roll = pub["name"], pub["rolled"]["roll"]
    mine = _stat(pub, "stat", "rating")
    pools = f"how many dice, and why: {GMS} (an NPC's stat decides the Skill Die)"
    if pub["kind"] == "static":
        steps = [f"{name} ({mine}): {pools}", _rolls(roll), _over(roll, pub["target_number"])]
        rule = " ".join(r for r in (STATIC_RULE, BEST_RULE, _outcome_rule(roll["outcome"])) if r)
        return Working(steps=tuple(steps), rule=rule, source=whole.source, private=whole)
    other, theirs = pub["other"], pub["rolled"]["other_roll"]
    steps = [pools[0].upper() + pools[1:],
             f"{name} {_rolls(roll)}", f"{other} {_rolls(theirs)}",
             f"{name} ({mine}) {roll['best']} against {other} ({_stat(pub, 'other_stat', 'other_rating')}) "
             f"{theirs['best']}: {OUTCOMES[roll['outcome']]} for {name}"]
    return Working(steps=tuple(steps), rule=whole.rule, source=whole.source, private=whole)


def working(event: Event, state: Mapping[str, Any]) -> Working | None:
    """The working of ``event``'s line (``Engine.working``), or None for bookkeeping (a round
    begins, a correction): the whole, or for an event with a GM's part, the public one with the
    whole as its private twin."""
    known = names_of(state)  # a name by its combatant id (an id the state does not know, as it is)
    n: Name = lambda cid: known.get(str(cid), str(cid))  # noqa: E731
    make = WHOLE.get(event["type"])
    whole = make(event, n) if make else None
    if whole is None or GM_PART not in event:
        return whole
    tell = TOLD.get(event["type"])
    return twinned(tell(public_part(event, screened(event)), n) if tell else None, whole)


def task_working(data: Mapping[str, Any]) -> Working:
    """A task outside Action Rounds, from its data (``Check.working``). For or against an NPC
    (``audiences.secret_task``), the working with its rating is the GM's, the twin of a public
    one built from the task's public part."""
    whole = _task_whole(data)
    if "gm_line" not in data:
        return whole
    return _told_task(data, whole, task_visibility(data))
