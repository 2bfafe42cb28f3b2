"""A Persona's figures as the panel draws them: a track as its 20 boxes of 5, each skill's
bands with their odds, and the word for a Persona who cannot fight on."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.passages import odds, rules, sheet, tracks

def track(value: int) -> dict[str, Any]:
    """A track for the panel: its points and its 20 boxes of 5, as one digit a box (the points
    it holds, 0-5: "55555555555555555540" is 94), which the template draws box by box."""
    return {"value": value, "max": tracks.FULL, "ticks": value // tracks.TICK,
            "boxes": "".join(str(b["points"]) for b in tracks.boxes(value))}


# Best first, as a player reads their chances.
SHOWN_BANDS = tuple(reversed(rules.BANDS))
SHORT = {rules.DOUBLE_DOWN: "DD", rules.SUCCESS: "Success", rules.DOUBLE_UP: "DU",
         rules.BLOWN: "Blown", rules.CRITICAL_FAIL: "Crit. Fail"}


def chances(base: int, *, challenge: bool = False) -> dict[str, Any]:
    """The chance of each band for one roll of this BASE (or its Core), best first, in whole
    percent (exact: a d100 has 100 faces), and the chance of any success."""
    odds_ = odds.check(base, challenge=challenge)
    return {"bands": [round(odds_[b] * 100) for b in SHOWN_BANDS],
            "success": round(odds.success(base, challenge=challenge) * 100)}


def skill_rows(skills: Mapping[str, int]) -> list[dict[str, Any]]:
    """Each skill with its DU, DD and Core, and the chance of each band as a check and as a
    challenge: the odds shown beside every roll."""
    return [{**row, "check": chances(row["base"]), "challenge": chances(row["base"], challenge=True)}
            for row in sheet.skill_rows(skills)]
