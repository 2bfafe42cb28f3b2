"""What resists a pull: Defence against an attack (melee, thrown, ranged, or ranged within arm's
reach), or a Resistance trait, each subtracted from the pool, with the target's Willpower kept to
resist. Seed: "Resisted rolls are where you subtract an opponent's pool from your roll"."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.engine import RuleError
from games.core.fights import refuse_out
from games.harsh_light import pools, roster
from games.harsh_light import sheet as sh
from games.harsh_light.state import defence_now, name, person, status

RESIST_TRAITS = ("defence", *sh.RESISTANCE)
# How an attack reaches its target. Seed: "Defence usually doesn't apply against most ranged
# attacks (unless your attacker is within arm's reach). The notable exception is Thrown Attacks".
MELEE, THROWN, RANGED, RANGED_CLOSE = "melee", "thrown", "ranged", "ranged_close"
MAX_RESIST = 30  # a number resisting a pull, the Storyteller's
ATTACKS = {MELEE: "in melee", THROWN: "thrown", RANGED: "ranged", RANGED_CLOSE: "ranged, within arm's reach"}


def resistance(state: Mapping[str, Any], args: Mapping[str, Any], attacker: str,
               ) -> tuple[str | None, list[tuple[str, int]], dict[str, Any]]:
    """What a resisted test subtracts from the pool, as parts, and what it means for the target
    (a rule's view, state.in_play; ``args`` as the pull's parser read them: a ``target`` with its
    ``resist`` trait, or a ``resist_value``).

    Seed: "Resisted rolls are where you subtract an opponent's pool from your roll – generally
    either Defence or a Resistance trait (Resolve, Stamina, or Composure). Nearly all attack rolls
    will be resisted by Defence." We subtract from the pool (as the World of Darkness does with
    dice), so a pool driven to 0 or less by Defence risks a Dramatic Failure.
    """
    trait, target = args.get("resist"), args.get("target")
    facts: dict[str, Any] = {"defence_applied": False, "resist_willpower_used": False, "attack": None,
                             "sheet_parts": 0}
    if trait is None or target is None:
        value = args.get("resist_value") or 0
        return None, [("resistance", -value)] if value else [], facts
    if target == attacker:
        raise RuleError("A character does not resist itself.")
    them = person(state, target)
    # The decided reading: the out are no target of a rule move unless a rule of the seed allows
    # it, and the seed gives none; the Storyteller's harm and healing still reach them (harm.py).
    refuse_out([roster.one(state, target)], target, "be attacked or pulled against: the Storyteller's "
               "harm and healing still reach them")
    who = name(state, target)
    pending = status(state, target)["resist_willpower"]
    parts: list[tuple[str, int]] = []
    if trait == "defence":
        attack = args.get("attack") or MELEE
        facts["attack"] = attack
        if attack == RANGED:
            return target, [], facts  # Defence "doesn't apply against most ranged attacks"
        if status(state, target)["all_out"]:
            return target, [], facts  # "give up your Defence": nothing to add Willpower to
        facts["defence_applied"] = True
        parts.append((f"{who}'s Defence", -defence_now(state, target)))
    else:
        parts.append((f"{who}'s {sh.trait_label(trait)}", -sh.attribute(them, trait)))
        if args.get("supernatural"):
            bonus = pools.supernatural_bonus(them, (trait,))
            if bonus:
                parts.append((f"{who}'s Blood Potency", -bonus))
    facts["sheet_parts"] = len(parts)  # the target's figures (Plan.target_parts); its Willpower is an act
    if pending:
        # Seed: Willpower "adds 2 against a Resisted test (including attacks – spending a
        # Willpower for +2 Defence can be a lifesaver in emergencies)". Spent beforehand, it
        # counts against the next resisted test the character faces that turn.
        parts.append((f"{who}'s Willpower", -pools.WILLPOWER_RESIST))
        facts["resist_willpower_used"] = True
    return target, parts, facts
