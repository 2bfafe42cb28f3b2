"""The garbage collector of a serving process: a probe of its full collections.

``TABLETOP_GC_LOG=1`` writes one line to stderr for each full (generation 2) collection:
how long it stopped the process and how many objects it walked. bench/tables reads them from
daphne's log, to tie a stall of the live feed's tail to a collection (issue 28).
"""

from __future__ import annotations

import gc
import sys
import time
from typing import Any

_started: list[float] = []


def _probe(phase: str, info: dict[str, Any]) -> None:
    if info.get("generation") != 2:
        return
    if phase == "start":
        _started[:] = [time.perf_counter()]
        return
    if _started:
        took = (time.perf_counter() - _started[0]) * 1000
        tracked = len(gc.get_objects(2)) if took > 20 else -1  # counting costs: only for a long one
        sys.stderr.write(f"gc: generation 2 took {took:.1f} ms, {info.get('collected', 0)} collected, "
                         f"{tracked} left in the oldest generation, {gc.get_freeze_count()} frozen\n")
        _started.clear()


def log_full_collections() -> bool:
    """Installs the probe once; True when it is on."""
    if _probe not in gc.callbacks:
        gc.callbacks.append(_probe)
    return True
