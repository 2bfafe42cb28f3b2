"""Collecting the dice for every announced action (Slow Motion step 2).

Each die carries its reason so the table can see why the pool is what it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core import clock as time
from games.demon_city.actions import DEFEND, Action, attack_stat, describe_stat, targeted_stat
from games.demon_city.combatant import Combatant, stat_label
from games.demon_city.dice import MAX_MISC_LOST, Pool, build_pool

DEFENCE_BONUS = "successful defence last round"
# The effect of a lasting condition the rules read (``healing.EFFECTS``): Miscellaneous Lost Dice.
LOST_DIE = "lost_die"


def injury_reason(person: Combatant) -> str | None:
    """Why one loses the Lost Die for Injury, or None. Seed: "Anyone who has taken at least one
    injury during the fight loses a single die"; the decided reading: "the Lost Die for Injury
    lasts while an injury does", so an Injury result kept from an earlier fight costs it too."""
    if not person.injured:
        return None
    return f"{person.injury}, not yet healed" if person.injury else "injured during the fight"


def condition_lost(state: Mapping[str, Any], cid: str, granted: Sequence[str] = ()) -> list[str]:
    """The Host's Miscellaneous Lost Dice for ``cid`` and those of its lasting conditions
    (effect ``lost_die``, one die each unless its amount says more), at most two: seed, "Nobody
    able to act in a Clash can lose more than 2 Miscellaneous Lost Dice". A condition the GM
    keeps is named as such."""
    reasons = list(granted)
    for condition in time.conditions(state, cid):
        if condition.get("effect") != LOST_DIE:
            continue
        name = condition.get("name") if condition.get("seen") == time.EVERYONE else "a condition the GM keeps"
        reasons += [f"{name} (a lasting condition)"] * max(1, int(condition.get("amount") or 0))
    return reasons[:MAX_MISC_LOST]


def _name(c: Combatant) -> str:
    return c.name or c.id


def skill_reason(actor: Combatant, action: Action, targets: Sequence[Combatant]) -> str | None:
    """Seed: "a character with a higher Stat than the Stat they're targeting gets to roll
    an extra die--the Skill Die". With several targets (a GM exception) the stat must beat
    every one of them: an exception should not be a bonus.
    """
    if not targets:
        return None
    name, value = attack_stat(actor, action)
    beaten = []
    for target in targets:
        aimed = targeted_stat(target, action)
        if aimed is None or value <= aimed[1]:
            return None
        beaten.append(describe_stat(target, aimed[0]))
    return f"{describe_stat(actor, name)} > {', '.join(beaten)}"


def distraction_reason(actor: Combatant, target: Combatant, earlier: Sequence[Action],
                       target_action: Action | None,
                       people: Mapping[str, Combatant]) -> str | None:
    """Why ``actor`` gets a Distraction Die against ``target``, or ``None``.

    Seed: "The second and subsequent characters to target a given foe in the same clash
    get an extra d10, the Distraction Die." Also, from the task rules, a target who "is
    distracted ... or doesn't know they're there"; the seed's Alfie example gives Alfie the
    die because Betty, his only target, is busy shooting CeCe. So a foe is distracted when
    its own action is aimed elsewhere and is not a defence. Allies helping allies never
    earn it: it is "a bonus for teaming up on someone".
    """
    if target.allied_with(actor):
        return None
    if target.unaware:
        return f"{_name(target)} does not know {_name(actor)} is there"
    if not target.able:
        return f"{_name(target)} is out of the fight"
    attackers = [a for a in earlier if target.id in a.targets and a.kind != DEFEND
                 and not people[a.actor].allied_with(target)]
    if attackers:
        return f"{_name(actor)} is attacker no. {len(attackers) + 1} of {_name(target)}"
    if target_action is not None and target_action.kind != DEFEND \
            and actor.id not in target_action.targets:
        busy = ", ".join(_name(people[t]) for t in target_action.targets)
        return f"{_name(target)} is busy with {busy or 'something else'}"
    return None


def action_pool(actor: Combatant, action: Action, *, combatants: Mapping[str, Combatant],
                earlier: Sequence[Action], by_actor: Mapping[str, Action],
                situation: Sequence[str] = (), misc_lost: Sequence[str] = ()) -> Pool:
    """The pool for one action, given the actions announced before it (for Distraction)."""
    targets = [combatants[t] for t in action.targets]
    distraction = None
    if action.kind != DEFEND and targets:
        reasons = [distraction_reason(actor, t, earlier, by_actor.get(t.id), combatants)
                   for t in targets]
        distraction = "; ".join(r for r in reasons if r) if all(reasons) else None
    auto = [DEFENCE_BONUS] if actor.defended_last_round else []
    return build_pool(
        skill=None if action.kind == DEFEND else skill_reason(actor, action, targets),
        defense="only defending" if action.kind == DEFEND else None,
        distraction=distraction,
        situation=[*auto, *situation],
        injury=injury_reason(actor),
        misc_lost=misc_lost,
    )


def all_pools(combatants: Mapping[str, Combatant], actions: Sequence[Action],
              situation: Mapping[str, Sequence[str]] | None = None,
              misc_lost: Mapping[str, Sequence[str]] | None = None) -> dict[str, Pool]:
    """Pools for every announced action, in announcement order.

    Pools of slow announcers can change as faster ones announce (who is distracted, who
    is a second attacker): the final pools are the ones computed when the dice are rolled.
    """
    situation, misc_lost = situation or {}, misc_lost or {}
    by_actor = {a.actor: a for a in actions}
    return {
        action.actor: action_pool(
            combatants[action.actor], action, combatants=combatants, earlier=actions[:i],
            by_actor=by_actor, situation=situation.get(action.actor, ()),
            misc_lost=misc_lost.get(action.actor, ()))
        for i, action in enumerate(actions)
    }


def difficulty_pool(actor: Combatant, difficulty: Mapping[str, Any], situation: Sequence[str] = (),
                    misc_lost: Sequence[str] = ()) -> Pool:
    """The pool of an unresisted action the Host put a difficulty on (step 4: "roll ... vs a
    difficulty number decided by the Host"): the Skill Die when the stat beats the number,
    the Situation and Lost Dice the action has, and no Distraction (nobody resists it).

    Issue 22: the panel had shown such an action's pool as if it were in a Clash (a Skill
    Die counted against its target) while the roll rolled this one; both now use it."""
    name, number = str(difficulty["stat"]), int(difficulty["target_number"])
    value = actor.stat(name)
    auto = [DEFENCE_BONUS] if actor.defended_last_round else []
    return build_pool(
        skill=f"{stat_label(name)} {value} > difficulty {number}" if value > number else None,
        situation=[*auto, *situation],
        injury=injury_reason(actor),
        misc_lost=misc_lost)
