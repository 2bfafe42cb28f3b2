"""The Demon City Injury table as text a GM can edit, and read back from that text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.engine import RuleError
from games.demon_city.injury import HEALS, default_heals, validate_table


# The Injury table as text a GM can edit: one row a line,
#   low-high | Result | dead or alive | final or roll again | heals after | description
# where "heals after" is a scene, a night, a week or never (the decided reading "003, damage
# belongs to the fight": "each row of the Injury table (the GM's to edit) says how long it takes
# to heal"). A line of five parts (written before rows said it) heals as ``default_heals`` says.

_DEAD = {"dead": True, "alive": False}
_FINAL = {"final": True, "roll again": False}
SHAPE = "low-high | result | dead or alive | final or roll again | heals after a scene, a night, a week or never | description"


def format_injury_table(rows: list[Mapping[str, Any]]) -> str:
    return "\n".join(
        f"{r['low']}-{r['high']} | {r['result']} | {'dead' if r['dead'] else 'alive'} | "
        f"{'final' if r['conclusive'] else 'roll again'} | {HEALS[str(r.get('heals') or default_heals(r))]} | "
        f"{r['description']}"
        for r in rows
    )


def _heals(raw: str, number: int) -> str:
    words = " ".join(raw.lower().split())
    for prefix in ("heals after ", "heals ", "after "):
        words = words.removeprefix(prefix)
    words = words.removeprefix("a ").removeprefix("one ")
    if words not in HEALS:
        raise RuleError(f"Injury line {number}: say how long it takes to heal: a scene, a night, a week or never.")
    return words


def parse_injury_table(text: str) -> list[dict[str, Any]]:
    """Reads the text form back; ``RuleError`` names the line at fault."""
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        parts = [p.strip() for p in line.split("|")]
        if len(parts) not in (5, 6):
            raise RuleError(f"Injury line {number}: write '{SHAPE}'.")
        if len(parts) == 6:
            span, result, dead, final, heals, description = parts
        else:
            span, result, dead, final, description = parts
            heals = ""
        low, _, high = span.partition("-")
        try:
            low_n, high_n = int(low), int(high or low)
        except ValueError:
            raise RuleError(f"Injury line {number}: {span!r} is not a range like 2-3.") from None
        if dead.lower() not in _DEAD or final.lower() not in _FINAL:
            raise RuleError(f"Injury line {number}: say 'dead' or 'alive', then 'final' or 'roll again'.")
        row = {"low": low_n, "high": high_n, "result": result[:60], "dead": _DEAD[dead.lower()],
               "conclusive": _FINAL[final.lower()], "description": description[:300]}
        row["heals"] = _heals(heals, number) if heals else default_heals(row)
        rows.append(row)
    return validate_table(rows)
