"""How each Demon City log line came out (issue 23): the dice step by step and the rule it
applied, in the seed's own words (seed 003), unfolded under the line as "How".

A working is built from the event alone, with the combatants' names from the state: never a
figure read out of the state. Where an event holds an NPC's figures (its pool before the roll,
a rating: ``screen.FIGURES``, ``screen.TASK_FIGURES``), the event has a GM's part: the whole
working goes there, for the GM alone, as the private twin of a public one built from the event's
public part (``twin``). An event with no such part is everyone's whole, so a working of it says
only what the event says in the open: a damage roll counts its dice, never the Toughness and
armour behind their number.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.contract import Working
from games.core.words import count
from games.demon_city.dice import CRITICAL, FUMBLE, SUCCESS, TIE
from games.demon_city.sheet import stat_label

Event = Mapping[str, Any]

BEST_RULE = ("Their official roll for the purposes of deciding the contest is whichever of their rolls is "
             "highest. So if you roll a 6 and an 8, your \"roll\" is 8.")
CRIT_RULE = "If a character rolls a 10 and wins (ie not a tie), they have a critical success, if their best " \
            "roll is a 1, they fumble."
BOTH_FUMBLE_RULE = "If both sides' best roll is a 1 when two characters are competing, the situation gets " \
                   "worse for both sides."
TIE_RULE = "In the case of a tie ... the situation becomes more complex, but not in a way that immediately " \
           "decides the contest. The task can be attempted again in the new situation."
CLASH_RULES = {
    "winner": "Whoever rolls highest in a Clash takes their action",
    "same_side_tie": "If it's a tie between two characters on the same side (ie, two PCs who are getting along "
                     "or two hostile NPCs with the same goal locally) then the winner is decided "
                     "randomly--flipping a coin or rolling lone d10s will do it.",
    "opposing_tie": "If it's a tie between characters on opposing sides the situation stays mostly the same as "
                    "it was before the Clash and nobody's action takes, but the Host changes something in the "
                    "situation that affects everyone in the Clash",
    "both_fumble": BOTH_FUMBLE_RULE,
}
DAMAGE_RULE = "They take a number of d10s equal to the target's Base Toughness, roll and take the lowest, and " \
              "the target subtracts that number from their Current Toughness. At Current Toughness -1 they " \
              "are out of the fight and roll on the Injury table"
MASSIVE_RULE = "Some few weapons (supernatural abilities, high explosives at close range) do Massive Damage. " \
               "In this case you roll one die for each point of the attacker's stat and take the highest."
INJURY_RULE = "At Current Toughness -1 they are out of the fight and roll on the Injury table (that'll be in a " \
              "later entry). Reading (the tabletop's): the seed leaves the table to a later entry, so the " \
              "table is the tabletop's own, a d10 where low is bad, and the Host may replace it."
UNRESISTED_RULE = "Any action that couldn't interfere with anyone else's action (ie the order in which it " \
                  "happens doesn't matter) is resolved, using the Task rules above if necessary--and narrated."
STATIC_RULE = "If the stat number is higher than the Target number, the player gets to roll an extra die and " \
              "use the better of their two rolls (the \"Skill Die\"). ... the Host can just assign a static " \
              "difficulty number to be rolled over (player must roll over a 3, for instance)."
POOL_RULE = "2-Figure out how many dice this character has for their action"
# The seed's words for each die a pool may hold ("Slow Motion Phase", step 2).
DIE_RULES = {
    "skill": "As with simple Tasks, a character with a higher Stat than the Stat they're targeting gets to roll "
             "an extra die--the Skill Die.",
    "defense": "If you are only actively defending in a round, you get an extra die, the Defense Die.",
    "distraction": "The second and subsequent characters to target a given foe  in the same clash get an extra "
                   "d10, the Distraction Die.",
    "situation": "Anyone with a situational advantage (high ground, etc) over whoever they're directly facing off "
                 "against also gets an extra die (Situation Die).",
    "lost_injury": "Anyone who has taken at least one injury during the fight loses a single die (the Lost Die for "
                   "Injury)--down to a minimum of one die.",
    "lost_misc": "Nobody able to act in a Clash can lose more than 2 Miscellaneous Lost Dice this way or go below "
                 "a minimum of one die.",
}
DEFENDED_RULE = "If you successfully used a defensive action to dodge, or block, parry an attack in the previous " \
                "round, you get a Situation Die in the round after, as you've improved your position."
GRAB_RULE = "Once a foe is grabbed, actions generally target a foe's Toughness."
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


def _clash(e: Event, n: Callable[[object], str]) -> Working:
    return clash(e, n, [pool_step(n(cid), r["pool"]) for cid, r in e["rolls"].items()], e["rolls"])


def clash(e: Event, n: Callable[[object], str], pools: list[str], rolls: Mapping[str, Any]) -> Working:
    """A Clash's working: its ``pools`` (each one's make-up, or what the others may read of it),
    each side's dice as ``rolls`` holds them, and who acts."""
    steps = [*pools, *(f"{n(cid)} rolls {dice_text(r['dice'])}: best {r['best']}" for cid, r in rolls.items())]
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


def _damage(e: Event, n: Callable[[object], str]) -> Working:
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


def _injury(e: Event, n: Callable[[object], str]) -> Working:
    entry = e["entry"]
    span = str(entry["low"]) if entry["low"] == entry["high"] else f"{entry['low']}-{entry['high']}"
    steps = (f"{n(e['combatant'])} rolls a d10 on the Injury table: {e['die']}",
             f"{span}: {entry['result']}. {entry['description']}")
    return Working(steps=steps, rule=INJURY_RULE, source="Action Rounds: the Clash, step 6; the Injury table")


def _static(who: str, stat: str, roll: Mapping[str, Any], target: int) -> list[str]:
    steps = [pool_step(who, roll["pool"]), f"rolls {dice_text(roll['dice'])}: best {roll['best']}"]
    if roll["outcome"] == FUMBLE:
        steps.append(f"a best die of 1 against difficulty {target}: a fumble")
    else:
        steps.append(f"{roll['best']} against difficulty {target} ({stat}): must roll over it: "
                     f"{OUTCOMES[roll['outcome']]}")
    return steps


def _outcome_rule(outcome: str) -> str:
    return {CRITICAL: CRIT_RULE, FUMBLE: CRIT_RULE, TIE: TIE_RULE, "both_fumble": BOTH_FUMBLE_RULE}.get(outcome, "")


def _unresisted(e: Event, n: Callable[[object], str]) -> Working | None:
    task = e["task"]
    if task is None:
        return Working(steps=(f"Nobody's action touches {n(e['combatant'])}'s, and no difficulty is set: it "
                              "happens",), rule=UNRESISTED_RULE, source="Action Rounds: Slow Motion, step 4")
    steps = _static(n(e["combatant"]), stat_label(task["stat"]) if task.get("stat") else "", task,
                    task["target_number"])
    rule = " ".join(r for r in (UNRESISTED_RULE, BEST_RULE, _outcome_rule(task["outcome"])) if r)
    return Working(steps=tuple(steps), rule=rule, source="Action Rounds: Slow Motion, step 4")


def _announced(e: Event, n: Callable[[object], str]) -> Working:
    """An announcement's pool, die by die: an NPC's (or one whose reasons name an NPC's stat) is
    in the event's GM's part, and so is this working then."""
    pool = e["pool"]
    kinds = [k for k in DIE_RULES if any(d["kind"] == k for d in pool["dice"])]
    rule = " ".join([POOL_RULE, *(DIE_RULES[k] for k in kinds)])
    return Working(steps=(pool_step(n(e["action"]["actor"]), pool),), rule=rule,
                   source="Action Rounds: Slow Motion Phase, step 2")


def _defended(e: Event, n: Callable[[object], str]) -> Working:
    who = n(e["combatant"])
    return Working(steps=(f"{who}'s defence succeeded", f"next round: a Situation Die for {who}"),
                   rule=DEFENDED_RULE, source="Action Rounds: Slow Motion Phase, step 2")


def _grabbed(e: Event, n: Callable[[object], str]) -> Working:
    target = n(e["target"])
    return Working(steps=(f"{n(e['attacker'])} holds {target}",
                          f"while held, actions against {target} target {target}'s Toughness"),
                   rule=GRAB_RULE, source="Action Rounds: Slow Motion Phase, step 2")


def whole(event: Event, state: Mapping[str, Any]) -> Working | None:
    """The whole working of ``event``'s line, or None for bookkeeping (a round begins, a
    correction): what the GM reads; games/demon_city/unfold.py gives the others theirs."""
    makers: dict[str, Callable[[Event, Callable[[object], str]], Working | None]] = {
        "clash_rolled": _clash, "damage_rolled": _damage, "injury_rolled": _injury,
        "unresisted_resolved": _unresisted, "announced": _announced, "defended": _defended,
        "grabbed": _grabbed,
    }
    make = makers.get(event["type"])
    return make(event, names(state)) if make else None


def names(state: Mapping[str, Any]) -> Callable[[object], str]:
    """Each combatant's name by its id (an id the state does not know, as it is)."""
    known = {cid: c.get("name") or cid for cid, c in state["combatants"].items()}
    return lambda cid: known.get(str(cid), str(cid))


def task_whole(data: Mapping[str, Any]) -> Working:
    """A task's whole working, from its data: what its rater reads."""
    return _task_whole(data)


def _task_whole(data: Mapping[str, Any]) -> Working:
    roll, name = data["roll"], data["name"]
    stat = f"{stat_label(data['stat'])} {data['rating']}"
    if data["kind"] == "static":
        steps = _static(name, stat, roll, data["target_number"])
        rule = " ".join(r for r in (STATIC_RULE, BEST_RULE, _outcome_rule(roll["outcome"])) if r)
        return Working(steps=tuple(steps), rule=rule, source="Task Resolution")
    other, theirs = data["other"], data["other_roll"]
    steps = [pool_step(name, roll["pool"]), pool_step(other, theirs["pool"]),
             f"{name} rolls {dice_text(roll['dice'])}: best {roll['best']}",
             f"{other} rolls {dice_text(theirs['dice'])}: best {theirs['best']}",
             f"{name} ({stat}) {roll['best']} against {other} "
             f"({stat_label(data['other_stat'])} {data['other_rating']}) {theirs['best']}: "
             f"{OUTCOMES[roll['outcome']]} for {name}"]
    skill = "If two characters ... are competing at a task (say, in a footrace) then whichever has the " \
            "higher stat gets to roll an extra die. This extra d10 is called the Skill Die."
    rule = " ".join(r for r in (BEST_RULE, skill, _outcome_rule(roll["outcome"])) if r)
    return Working(steps=tuple(steps), rule=rule, source="Task Resolution")
