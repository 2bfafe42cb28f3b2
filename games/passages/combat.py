"""Combat's arithmetic (seed 001, "COMBAT" and "Damage in Combat"): the roll-off, its
outcome hierarchy, and damage through armour. Pure functions; ``fight`` drives them.

Seed: "Roll your Combat Roll and add your Selected Combat value. Compare the sum with the
Selected Defense of the Opponent. If the modified Combat Roll is higher than the Selected
Defense, the result is a 'Potential Wound.'"
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.passages.armour import Armour, damage_type, parse_armour  # noqa: F401 (read with the damage)

# A combat roll's level of success.
MISS, LANDED, DOUBLED = 0, 1, 2
LEVEL_NAMES = {MISS: "miss", LANDED: "potential_wound", DOUBLED: "double"}
LEVEL_LABELS = {MISS: "a miss", LANDED: "a Potential Wound",
                DOUBLED: "a Potential Wound beating double the Defense"}

# The hierarchy's four cases, in the seed's order.
BOTH_MISS, ONE_SUCCEEDS, EQUAL, UNEQUAL = "both_miss", "one_succeeds", "equal", "unequal"
# An attack on someone not rolling back at the attacker (they are busy elsewhere, OUT of
# the combat, or a ranged/close mismatch): "A Persona can be attacked ... without being
# subject to it."
SINGLE = "single"


def attack_total(die: int, combat: int, timing: int = 0) -> int:
    """The Combined Attack: the d100 plus Selected Combat, plus the Director's Timing
    modifier (the example's torch: "a Condition modifier of -20 ... He rolls a 33. After
    reducing it by the Director's modifier of -20, it is still a 13")."""
    return die + timing + combat


def attack_level(total: int, defense: int) -> int:
    """Miss, Potential Wound, or a Potential Wound beating double the Defense.

    The seed grades combat successes ("If Both succeed equally ... If Both succeed
    unequally") without saying how, and its Turn One has both blows land and both
    Personae wounded (60 against 25, 105 against 18), which the hierarchy allows only for
    equal successes. Reading: like a check's Double bands, a Combined Attack above double
    the Selected Defense is the greater success; both of Turn One's are (60 > 50, 105 > 36),
    so they succeed equally and both take their Wound. Comparing raw margins instead (35
    against 87) would spare Trayer the Wound the example gives him."""
    if total <= defense:
        return MISS
    return DOUBLED if total > 2 * defense else LANDED


@dataclass(frozen=True)
class RollOff:
    """What a roll-off decides for each side ("a" and "b")."""

    outcome: str
    resolves: tuple[str, ...]  # whose Intended Condition resolves
    wounded: tuple[str, ...]  # who suffers the opponent's Wound
    fail_ticks: dict[str, int]  # extra Fatigue ticks for failing, due at the Resolution Point

    def to_dict(self) -> dict[str, Any]:
        return {"outcome": self.outcome, "resolves": list(self.resolves),
                "wounded": list(self.wounded), "fail_ticks": dict(self.fail_ticks)}


def roll_off(a: int, b: int) -> RollOff:
    """The hierarchy for a pairing whose two sides rolled against each other.

    Seed: "If both Actors miss, the Combat continues, and each suffers a Tick of Fatigue
    for the effort, which takes effect at the Resolution Point." / "If one Actor succeeds
    and the other fails, then the Actor's Intended Condition will resolve and the other's
    will not. Further, the succeeding Actor will not suffer Fatigue, but the other will
    suffer an injury and the attendant fatigue, plus one Tick for failing." / "If Both
    succeed equally, neither Condition will resolve, both will suffer a Wound but neither
    will lose extra Fatigue" / "If Both succeed unequally, neither Condition will resolve,
    the greater will not suffer injury, the lesser will suffer the injury but not lose
    extra Fatigue"."""
    if a == MISS and b == MISS:
        return RollOff(BOTH_MISS, (), (), {"a": 1, "b": 1})
    if a == MISS or b == MISS:
        winner, loser = ("a", "b") if b == MISS else ("b", "a")
        return RollOff(ONE_SUCCEEDS, (winner,), (loser,), {winner: 0, loser: 1})
    if a == b:
        return RollOff(EQUAL, (), ("a", "b"), {"a": 0, "b": 0})
    lesser = "a" if a < b else "b"
    return RollOff(UNEQUAL, (), (lesser,), {"a": 0, "b": 0})


def single(level: int) -> RollOff:
    """An attack on someone who is not rolling against the attacker: it lands or it fails.

    Seed, from the player's side: "Failure will mean an extra point of fatigue, whether the
    opponent succeeds or not" and "If you succeed and your opponent fails, you get to
    Resolve a Condition" - the target, not rolling, cannot succeed."""
    if level == MISS:
        return RollOff(SINGLE, (), (), {"a": 1})
    return RollOff(SINGLE, ("a",), ("b",), {"a": 0})


@dataclass(frozen=True)
class Damage:
    weapon: int  # the weapon's set damage
    capped: int  # after "no more than the value of the Attacker's Skill"
    armour: str  # what the target's armour does to this Damage Type ("halve, then -1")
    dealt: int  # what comes off the target's Wounds, and the same off its Fatigue
    type: str = ""  # the weapon's Damage Type ("Slashing")

    def to_dict(self) -> dict[str, Any]:
        return {"weapon": self.weapon, "capped": self.capped, "armour": self.armour, "dealt": self.dealt,
                "type": self.type}


def damage(weapon: int, skill: int, armour: Armour, dtype: object = "") -> Damage:
    """Seed: "(Damage from an Attack Action can be no more than the value of the Attacker's
    Skill)"; "Once the Damage is determined, it is mitigated/exacerbated by armor type. Only
    the final adjusted number of Wound Points are deducted from the Wound Track, and the same
    number of Fatigue points are removed from the Fatigue Track." The cap is on the attack,
    so it comes before the armour."""
    capped = max(0, min(weapon, skill))
    return Damage(weapon=weapon, capped=capped, armour=armour.effect(dtype), dealt=armour.apply(capped, dtype),
                  type=damage_type(dtype))
