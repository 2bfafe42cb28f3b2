"""The Demon City Injury table as text a GM can edit, and read back from that text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.engine import RuleError
from games.demon_city.injury import validate_table


# The Injury table as text a GM can edit: one row a line,
#   low-high | Result | dead or alive | final or roll again | description

_DEAD = {"dead": True, "alive": False}
_FINAL = {"final": True, "roll again": False}


def format_injury_table(rows: list[Mapping[str, Any]]) -> str:
    return "\n".join(
        f"{r['low']}-{r['high']} | {r['result']} | {'dead' if r['dead'] else 'alive'} | "
        f"{'final' if r['conclusive'] else 'roll again'} | {r['description']}"
        for r in rows
    )


def parse_injury_table(text: str) -> list[dict[str, Any]]:
    """Reads the text form back; ``RuleError`` names the line at fault."""
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        parts = [p.strip() for p in line.split("|")]
        if len(parts) != 5:
            raise RuleError(f"Injury line {number}: write 'low-high | result | dead or alive | "
                            "final or roll again | description'.")
        span, result, dead, final, description = parts
        low, _, high = span.partition("-")
        try:
            low_n, high_n = int(low), int(high or low)
        except ValueError:
            raise RuleError(f"Injury line {number}: {span!r} is not a range like 2-3.") from None
        if dead.lower() not in _DEAD or final.lower() not in _FINAL:
            raise RuleError(f"Injury line {number}: say 'dead' or 'alive', then 'final' or 'roll again'.")
        rows.append({"low": low_n, "high": high_n, "result": result[:60], "dead": _DEAD[dead.lower()],
                     "conclusive": _FINAL[final.lower()], "description": description[:300]})
    return validate_table(rows)
