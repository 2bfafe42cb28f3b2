"""Probes in a benchmark's daphne (bench/_serve.py starts them): each full garbage collection,
and each stall of the event loop. Each writes its lines to stderr, which is daphne's log, and
``bench/tables`` reads them from there.

``log_full_collections``: one line for each full (generation 2) collection: how long it stopped
the process, and, for one over 20 ms, how many objects the oldest generation holds and of which
types most.

``watch_stalls``: a probe for stalls of the event loop: how long, and what it was doing.

The loop marks the time every ``TICK_S``; a watchdog thread looks at the mark as often, and while
it is older than ``LATE_S`` it samples the stack of the loop's thread and of the threads that
write socket actions. When the loop ticks again it writes one report to stderr: how long the
loop was late, and the innermost frames seen most often (``bench/tables`` reads them from
daphne's log). A sample is taken only when the watchdog gets the GIL: a stall that holds the
GIL in C the whole time (a garbage collection, a long C call) reads as a stall with no samples.

They are measuring instruments, not part of the tabletop: nothing in ``tabletop/`` starts them.
"""

from __future__ import annotations

import asyncio
import gc
import os
import sys
import threading
import time
import traceback
from collections import Counter
from typing import Any

TICK_S = 0.005
LATE_S = 0.05
FRAMES = 6  # the innermost frames of a sample that name where it was


def _where(frame: object) -> str:
    stack = traceback.extract_stack(frame)[-FRAMES:]  # type: ignore[arg-type]
    return " < ".join(f"{f.name} ({os.path.basename(f.filename)}:{f.lineno})" for f in reversed(stack))


class Watch:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.mark = time.perf_counter()
        self.loop_thread = 0

    def tick(self) -> None:
        self.loop_thread = threading.get_ident()
        self.mark = time.perf_counter()
        self.loop.call_later(TICK_S, self.tick)

    def watch(self) -> None:
        samples: Counter[str] = Counter()
        stalled_since = 0.0
        taken = 0
        while not self.loop.is_closed():
            time.sleep(TICK_S)
            now, mark = time.perf_counter(), self.mark
            if now - mark > LATE_S:
                stalled_since = stalled_since or mark
                taken += 1
                frames = sys._current_frames()  # noqa: SLF001 -- a probe's whole point
                for thread in threading.enumerate():
                    frame = frames.get(thread.ident or -1)
                    if frame is not None and (thread.ident == self.loop_thread or "writer" in thread.name):
                        samples[f"{'loop' if thread.ident == self.loop_thread else thread.name}: {_where(frame)}"] += 1
            elif stalled_since:
                took = (mark - stalled_since) * 1000
                lines = "".join(f"\n  {n}x {where}" for where, n in samples.most_common(6))
                sys.stderr.write(f"stall: the loop was late {took:.0f} ms, {taken} samples{lines}\n")
                samples.clear()
                stalled_since, taken = 0.0, 0


_started: list[Watch] = []


def _first_socket(open_sockets: int) -> None:
    if not _started:  # the serving loop is running now: the socket's own
        watch = Watch(asyncio.get_running_loop())
        _started.append(watch)
        watch.tick()
        threading.Thread(target=watch.watch, name="stall-probe", daemon=True).start()


def watch_stalls() -> None:
    """Starts the stall probe when the first socket is set up (live/liveness.py's hook)."""
    from tabletop.live import liveness

    if _first_socket not in liveness.opened_hooks:
        liveness.opened_hooks.append(_first_socket)


class _FullCollections:
    """gc's callback: times each full (generation 2) collection and reports it."""

    def __init__(self) -> None:
        self.began = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if info.get("generation") == 2:
            if phase == "start":
                self.began = time.perf_counter()
            else:
                _report_collection((time.perf_counter() - self.began) * 1000, info)


_full_collection = _FullCollections()


def _report_collection(took: float, info: dict[str, Any]) -> None:
    # counting walks a list: the oldest generation's (tens of thousands) only for a collection
    # long enough to be the one looked for, and never the frozen one. gc.get_freeze_count()
    # walks every frozen object (three million at 10,000 sockets): it stopped the process
    # 370 ms each time this probe asked, and was the "second stall" of bench/tables
    # (docs/performance.md)
    oldest = gc.get_objects(2) if took > 20 else None
    most = Counter(type(o).__qualname__ for o in oldest).most_common(8) if oldest is not None else []
    sys.stderr.write(f"gc: generation 2 took {took:.1f} ms, {info.get('collected', 0)} collected, "
                     f"{len(oldest) if oldest is not None else -1} left in the oldest generation"
                     + "".join(f"; {n} {name}" for name, n in most) + "\n")


def log_full_collections() -> None:
    """Writes a line for each full collection from now on."""
    if _full_collection not in gc.callbacks:
        gc.callbacks.append(_full_collection)
