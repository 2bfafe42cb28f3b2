"""Damage against Toughness.

Seed: "the attacker rolls damage as follows: They take a number of d10s equal to the
target's Base Toughness, roll and take the lowest, and the target subtracts that number
from their Current Toughness. At Current Toughness -1 they are out of the fight and roll
on the Injury table."
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.core.rng import Rng
from games.demon_city.combatant import Combatant
from games.demon_city.dice import roll

OUT_AT = -1


def damage_dice(target: Combatant, *, massive_stat: int | None = None) -> int:
    """How many d10 the attacker rolls.

    Normal damage: the target's Base Toughness plus armour ("Kevlar and other protection
    raises your Base Toughness for these purposes"), and "If their Toughness is 0 you still
    roll one die". Massive Damage: "one die for each point of the attacker's stat"; the seed
    is silent on a stat of 0, and a Host would still roll one die, so we do.
    """
    count = target.damage_toughness if massive_stat is None else massive_stat
    return max(1, count)


@dataclass(frozen=True)
class DamageRoll:
    """A damage roll: every die, the points taken, and Current Toughness before and after."""

    dice: tuple[int, ...]
    massive: bool
    taken: int
    before: int
    after: int

    @property
    def out_of_fight(self) -> bool:
        # "The actual negative number past -1 doesn't matter."
        return self.after <= OUT_AT

    def to_dict(self) -> dict[str, Any]:
        return {"dice": list(self.dice), "massive": self.massive, "taken": self.taken,
                "before": self.before, "after": self.after, "out_of_fight": self.out_of_fight}


def roll_damage(target: Combatant, rng: Rng, *, massive_stat: int | None = None) -> DamageRoll:
    """Roll damage: the lowest die normally, the highest for Massive Damage."""
    dice = tuple(roll(damage_dice(target, massive_stat=massive_stat), rng))
    massive = massive_stat is not None
    taken = max(dice) if massive else min(dice)
    before = target.current_toughness
    return DamageRoll(dice, massive, taken, before, before - taken)
