"""The figures a benchmark prints: percentiles, a latency line, other servers' CPU."""

from __future__ import annotations

import math
from collections.abc import Sequence


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile: the smallest value with at least p% of values at or below it."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def others_busy(before: dict[str, float], after: dict[str, float], seconds: float) -> str:
    """", PostgreSQL at 20% of a core, Redis at 5%" between two ``Daphnes.others_cpu_s``."""
    parts = [f"{name} at {(after[name] - before[name]) / seconds:.0%}" for name in after if name in before]
    if not parts:
        return ""
    parts[0] += " of a core"
    return ", " + ", ".join(parts)


def describe(name: str, values_ms: Sequence[float]) -> str:
    return (f"{name}: n={len(values_ms)} p50={percentile(values_ms, 50):.1f} ms "
            f"p95={percentile(values_ms, 95):.1f} ms p99={percentile(values_ms, 99):.1f} ms "
            f"max={max(values_ms, default=math.nan):.1f} ms")
