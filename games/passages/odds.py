"""Exact odds for Passages (no sampling): a check's bands, and a combat pairing's roll-off; and
the odds page (``ODDS``) that shows them for any BASE.

Every figure is counted over the 100 faces of the percentile dice with ``Fraction`` and
handed out as floats (the ``*_exact`` functions keep the fractions).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

from games.contract import Page
from games.forms import Form, bounded
from games.passages import combat, rules
from games.passages.rules import BANDS, D100, FAILURES, band

FACES = range(1, D100 + 1)


@lru_cache(maxsize=1024)
def _band_counts(base: int, challenge: bool) -> tuple[tuple[str, int], ...]:
    """How many of the d100's faces fall in each band: a panel asks it of every skill of every
    Persona for every seat on each redraw, so each BASE is counted once."""
    counts = dict.fromkeys(BANDS, 0)
    for roll in FACES:
        counts[band(base, roll, challenge=challenge)] += 1
    return tuple(counts.items())


def check_exact(base: int, *, challenge: bool = False) -> dict[str, Fraction]:
    """The chance of each band for one d100 roll against ``base`` (or its Core)."""
    return {name: Fraction(n, D100) for name, n in _band_counts(int(base), bool(challenge))}


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


# The odds page: each band's chance for a BASE, as a check and as a challenge, and a pairing.


def _band_row(base: int, challenge: bool) -> dict[str, Any]:
    t = rules.thresholds(base, challenge=challenge)
    chances = check(base, challenge=challenge)
    return {"base": base, "challenge": challenge, "value": t.value, "du": t.du, "dd": t.dd,
            "cells": [{"band": b, "label": rules.LABELS[b], "percent": f"{chances[b] * 100:.0f}"}
                      for b in reversed(rules.BANDS)],
            "success": f"{success(base, challenge=challenge) * 100:.0f}"}


CHART_WIDTH, BAR_HEIGHT, BAR_GAP, LABEL_WIDTH = 300, 14, 4, 64


def band_chart(bases: list[int], *, challenge: bool = False) -> dict[str, Any]:
    """An SVG's bars: one a BASE, split into its bands best first, each as wide as its chance
    (the d100's faces, so whole percents); the template only draws what this returns."""
    bars = []
    for row, base in enumerate(bases):
        chances = check(base, challenge=challenge)
        x, segments = LABEL_WIDTH, []
        for name in reversed(rules.BANDS):
            faces = round(chances[name] * 100)
            width = faces * CHART_WIDTH // 100
            if faces:
                segments.append({"band": name, "label": rules.LABELS[name], "x": x, "width": width,
                                 "percent": faces})
            x += width
        bars.append({"base": base, "y": row * (BAR_HEIGHT + BAR_GAP), "segments": segments,
                     "label": f"BASE {base}"})
    return {"width": LABEL_WIDTH + CHART_WIDTH, "height": len(bars) * (BAR_HEIGHT + BAR_GAP),
            "bar_height": BAR_HEIGHT, "bars": bars}


def odds_context(query: Form) -> dict[str, Any]:
    base = bounded(query, "base", 26, rules.MIN_BASE, rules.MASTERED)
    sides = {key: bounded(query, key, default, 0, rules.MASTERED) for key, default in (
        ("a_combat", 18), ("a_defense", 18), ("b_combat", 25), ("b_defense", 25))}
    a_timing = bounded(query, "a_timing", 0, -100, 100)
    b_timing = bounded(query, "b_timing", 0, -100, 100)
    chances = pairing(sides["a_combat"], sides["a_defense"], sides["b_combat"], sides["b_defense"],
                           a_timing=a_timing, b_timing=b_timing)
    bases = sorted({base, *range(5, rules.MASTERED + 1, 5)})
    return {
        "base": base, "bands": [{"key": b, "label": rules.LABELS[b], "meaning": rules.MEANINGS[b]}
                                for b in reversed(rules.BANDS)],
        "chosen": [_band_row(base, False), _band_row(base, True)],
        "rows": [_band_row(b, False) for b in bases],
        "charts": [{"key": "check", "title": "Checks, against the BASE", "chart": band_chart(bases)},
                   {"key": "challenge", "title": "Challenges, against the Core",
                    "chart": band_chart(bases, challenge=True)}],
        "challenge_rows": [_band_row(b, True) for b in bases],
        "pairing": {**sides, "a_timing": a_timing, "b_timing": b_timing,
                    **{k: f"{v * 100:.1f}" for k, v in chances.items()}},
    }


ODDS = Page(slug="odds", title="Passages odds", template="games/passages/odds.html", context=odds_context)
