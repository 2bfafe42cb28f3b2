"""Exact odds for Passages (no sampling): a check's bands, and a combat pairing's roll-off.

Every figure is counted over the 100 faces of the percentile dice with ``Fraction`` and
handed out as floats (the ``*_exact`` functions keep the fractions).
"""

from __future__ import annotations

from fractions import Fraction

from games.passages import combat
from games.passages.rules import BANDS, D100, FAILURES, band

FACES = range(1, D100 + 1)


def check_exact(base: int, *, challenge: bool = False) -> dict[str, Fraction]:
    """The chance of each band for one d100 roll against ``base`` (or its Core)."""
    counts = dict.fromkeys(BANDS, 0)
    for roll in FACES:
        counts[band(base, roll, challenge=challenge)] += 1
    return {name: Fraction(n, D100) for name, n in counts.items()}


def check(base: int, *, challenge: bool = False) -> dict[str, float]:
    """``{critical_fail, blown, double_up, success, double_down}`` -> probability; sums to 1."""
    return {name: float(p) for name, p in check_exact(base, challenge=challenge).items()}


def success(base: int, *, challenge: bool = False) -> float:
    """The chance of any success (DU, plain or DD)."""
    return float(sum((p for b, p in check_exact(base, challenge=challenge).items() if b not in FAILURES),
                     Fraction(0)))


def attack_exact(combat_value: int, defense: int, timing: int = 0) -> dict[int, Fraction]:
    """The chance of each level of a combat roll: miss, Potential Wound, double."""
    counts = dict.fromkeys(combat.LEVEL_NAMES, 0)
    for roll in FACES:
        counts[combat.attack_level(combat.attack_total(roll, combat_value, timing), defense)] += 1
    return {lv: Fraction(n, D100) for lv, n in counts.items()}


def lands(combat_value: int, defense: int, timing: int = 0) -> float:
    """The chance a combat roll lands a Potential Wound: d100 + Combat + Timing > Defense."""
    dist = attack_exact(combat_value, defense, timing)
    return float(1 - dist[combat.MISS])


def pairing_exact(a_combat: int, a_defense: int, b_combat: int, b_defense: int, *,
                  a_timing: int = 0, b_timing: int = 0) -> dict[str, Fraction]:
    """Both sides of a roll-off: each one's chance of landing a Potential Wound, each case
    of the hierarchy, and each one's chance of taking the other's Wound."""
    a = attack_exact(a_combat, b_defense, a_timing)
    b = attack_exact(b_combat, a_defense, b_timing)
    out = {key: Fraction(0) for key in (
        "both_miss", "only_a", "only_b", "equal", "a_greater", "b_greater", "a_wounded", "b_wounded")}
    for la, pa in a.items():
        for lb, pb in b.items():
            p = pa * pb
            result = combat.roll_off(la, lb)
            if result.outcome == combat.BOTH_MISS:
                out["both_miss"] += p
            elif result.outcome == combat.ONE_SUCCEEDS:
                out["only_a" if "a" in result.resolves else "only_b"] += p
            elif result.outcome == combat.EQUAL:
                out["equal"] += p
            else:
                out["a_greater" if la > lb else "b_greater"] += p
            for side in result.wounded:
                out[f"{side}_wounded"] += p
    out["a_lands"] = 1 - a[combat.MISS]
    out["b_lands"] = 1 - b[combat.MISS]
    return out


def pairing(a_combat: int, a_defense: int, b_combat: int, b_defense: int, *,
            a_timing: int = 0, b_timing: int = 0) -> dict[str, float]:
    """As ``pairing_exact``, in floats: ``a_lands`` and ``b_lands`` are the chance each side
    lands a Potential Wound; the six hierarchy cases sum to 1."""
    exact = pairing_exact(a_combat, a_defense, b_combat, b_defense, a_timing=a_timing, b_timing=b_timing)
    return {k: float(v) for k, v in exact.items()}


def percent(value: Fraction | float) -> int:
    """Whole percent, halves rounded up."""
    return int(Fraction(value) * 100 + Fraction(1, 2))
