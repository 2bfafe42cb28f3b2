"""Data for an SVG bar chart of clash odds; the template only draws what this returns.

One horizontal bar per pool size, split into win / tie / lose segments, with the
ties-re-rolled win chance as the label, like the seed comment's table.
"""

from __future__ import annotations

from typing import Any

from games.demon_city.dice import MAX_POOL
from games.demon_city.odds import clash_exact, percent

SEGMENTS = ("win", "tie", "lose")


def odds_chart(opponent: int = 1, *, pools: range = range(1, MAX_POOL + 1), width: int = 300,
               bar_height: int = 20, gap: int = 8, label_width: int = 60) -> dict[str, Any]:
    """Rectangles for ``pools`` d10 against ``opponent`` d10.

    Returns ``{"width", "height", "bars": [{"label", "y", "win_ties_rerolled" (whole %),
    "segments": [{"kind", "x", "width", "percent"}]}]}``; segment widths of a bar add up
    to ``width`` exactly (rounding is pushed into the last segment) so bars line up.
    """
    bars = []
    for row, pool in enumerate(pools):
        odds = clash_exact(pool, opponent)
        shares = {"win": odds.win, "tie": odds.tie, "lose": odds.lose}
        x, segments = label_width, []
        for index, kind in enumerate(SEGMENTS):
            if index == len(SEGMENTS) - 1:
                span = label_width + width - x
            else:
                span = round(shares[kind] * width)
            segments.append({"kind": kind, "x": x, "width": span, "percent": percent(shares[kind])})
            x += span
        bars.append({"label": f"{pool}d10 v {opponent}d10", "y": row * (bar_height + gap),
                     "height": bar_height, "win_ties_rerolled": percent(odds.win_ties_rerolled),
                     "segments": segments})
    height = len(bars) * (bar_height + gap) - gap if bars else 0
    return {"width": label_width + width, "height": height, "bars": bars}
