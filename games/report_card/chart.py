"""Data for the odds page's SVG chart; the template only draws what this returns.

One horizontal bar per rank, split into critical success / success / failure / critical
failure, for a fresh deck with or without Bonus or Penalty.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.report_card.rules import OUTCOME_LABELS, OUTCOMES, RANK_LABELS, RANKS


def percent(value: float) -> float:
    return round(value * 100, 1)


def odds_chart(by_rank: Mapping[str, Any], *, width: int = 300, bar_height: int = 20, gap: int = 8,
               label_width: int = 80) -> dict[str, Any]:
    """From each rank's odds (``odds.Odds``: a share of each outcome, and ``succeeds``):
    ``{"width", "height", "bars": [{"label", "y", "height", "succeeds", "segments": [{"kind",
    "label", "x", "width", "percent"}]}]}``; a bar's segments add up to ``width`` exactly (the rounding goes
    into the last one), so the bars line up."""
    bars = []
    for row, rank in enumerate(RANKS):
        chances = by_rank[rank]
        x, segments = label_width, []
        for index, kind in enumerate(OUTCOMES):
            share = getattr(chances, kind)
            span = label_width + width - x if index == len(OUTCOMES) - 1 else round(share * width)
            segments.append({"kind": kind, "label": OUTCOME_LABELS[kind], "x": x, "width": span,
                             "percent": percent(share)})
            x += span
        bars.append({"label": RANK_LABELS[rank], "y": row * (bar_height + gap), "height": bar_height,
                     "succeeds": percent(chances.succeeds),
                     "segments": segments})
    return {"width": label_width + width, "height": len(bars) * (bar_height + gap) - gap, "bars": bars}
