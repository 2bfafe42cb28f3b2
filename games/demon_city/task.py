"""A Demon City task outside Action Rounds, rolled from a character's sheet: against a
static number, or against the Host's roll for whoever opposes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.engine import RuleError
from games.demon_city.combatant import Combatant


# A task outside Action Rounds: against a static number, or against the Host's roll.

# What came of a roll, said of the roller, in words (the engine's outcome codes are not).
SAID = {"critical": "{name} succeeds: a critical success", "success": "{name} succeeds",
        "tie": "a tie", "failure": "{name} fails", "fumble": "{name} fumbles",
        "both_fumble": "both sides fumble"}


def said_outcome(name: str, outcome: str) -> str:
    return SAID.get(outcome, outcome).format(name=name)


def task(
    sheet: Mapping[str, Any],
    *,
    name: str,
    stat: str,
    rng: Any,
    target_number: int | None = None,
    other: Mapping[str, Any] | None = None,
    other_name: str = "",
    other_stat: str = "agility",
    distracted: bool = False,
    situation: tuple[str, ...] = (),
    lost: tuple[str, ...] = (),
    other_situation: tuple[str, ...] = (),
) -> tuple[dict[str, Any], str]:
    """Rolls a task and returns (the event's data, its log line).

    Seed: a task is rolled "against a static number" chosen by the Host, or against the
    Host's roll for whoever opposes; the higher stat earns the Skill Die and the best die is
    the roll. An Injury result kept on the sheet costs the Lost Die for Injury (the decided
    reading: "the Lost Die for Injury lasts while an injury does"); a bare "Injured" with no
    result costs none by itself, and "the Host may subtract up to two Lost Dice ... to account
    for problems" (``lost``, with the reason; a lasting condition's come with them). A
    Situation Die goes to "that side", whichever has the advantage (``other_situation``: the
    opponent's, against a roller who has none of its own).
    """
    from games.demon_city.dice import build_pool, roll_against_target, roll_opposed
    from games.demon_city.combatant import stat_label as label

    me = Combatant.from_dict({"id": "me", **sheet})
    # Seed 003: "At Current Toughness -1 they are out of the fight"; the sheet's own help for
    # Out of the fight says "Cannot announce or roll" (issue 13, bug 5: a task had been rolled).
    # The decided reading "003, damage belongs to the fight": "out of the fight" ends with the
    # fight for the living, so after it only the dead (kept out of the fight) cannot roll; one
    # who went out rolls with the Lost Die for Injury while the Injury result lasts, and no
    # sheet is edited for it.
    if me.out_of_fight or me.dead:
        raise RuleError(f"{name} is out of the fight and cannot roll.")
    hurt = f"{me.injury}, not yet healed" if me.injury else None
    if not me.has_stat(stat):
        raise RuleError(f"{name} has no stat or skill called {label(stat)}.")
    rating = me.stat(stat)
    distraction = "the target is distracted or unaware" if distracted else None
    if other is None and other_situation:
        raise RuleError("A difficulty has no side to give a Situation Die to: put the problem in the number.")
    if other is None:
        if target_number is None or target_number < 0:
            raise RuleError("A task needs a difficulty (0 or more) or an opponent.")
        skill = f"{label(stat)} {rating} > difficulty {target_number}" if rating > target_number else None
        pool = build_pool(skill=skill, distraction=distraction, situation=situation,
                          injury=hurt, misc_lost=lost)
        result = roll_against_target(pool, target_number, rng)
        data = {"kind": "static", "name": name, "stat": stat, "rating": rating,
                "target_number": target_number, "roll": result.to_dict()}
        line = (f"{name} tries {label(stat)} {rating} against difficulty {target_number}: rolls "
                f"{', '.join(map(str, result.dice))} (best {result.best}): {said_outcome(name, result.outcome)}.")
        return data, line + (f" {result.prompt}" if result.prompt else "")
    them = Combatant.from_dict({"id": "them", **other})
    if not them.has_stat(other_stat):
        raise RuleError(f"{other_name} has no stat or skill called {label(other_stat)}.")
    theirs = them.stat(other_stat)
    # The higher stat earns the Skill Die.
    mine_pool = build_pool(
        skill=f"{label(stat)} {rating} > {theirs}" if rating > theirs else None,
        distraction=distraction, situation=situation, injury=hurt, misc_lost=lost)
    their_pool = build_pool(
        skill=f"{label(other_stat)} {theirs} > {rating}" if theirs > rating else None,
        situation=other_situation)
    mine, opposing = roll_opposed(mine_pool, their_pool, rng)
    data = {"kind": "opposed", "name": name, "stat": stat, "rating": rating,
            "other": other_name, "other_stat": other_stat, "other_rating": theirs,
            "roll": mine.to_dict(), "other_roll": opposing.to_dict()}
    line = (f"{name} ({label(stat)} {rating}) against {other_name} ({label(other_stat)} {theirs}): "
            f"{name} rolls {', '.join(map(str, mine.dice))} (best {mine.best}), {other_name} "
            f"{', '.join(map(str, opposing.dice))} (best {opposing.best}): {said_outcome(name, mine.outcome)}.")
    return data, line + (f" {mine.prompt}" if mine.prompt else "")
