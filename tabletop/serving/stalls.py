"""A probe for stalls of a serving process's event loop: how long, and what it was doing.

The loop marks the time every ``TICK_S``; a watchdog thread looks at the mark as often, and while
it is older than ``LATE_S`` it samples the stack of the loop's thread and of the threads that
write socket actions. When the loop ticks again it writes one report to stderr: how long the
loop was late, and the innermost frames seen most often (``bench/tables`` reads them from
daphne's log). A sample is taken only when the watchdog gets the GIL: a stall that holds the
GIL in C the whole time (a garbage collection, a long C call) reads as a stall with no samples.

Off unless ``TABLETOP_STALL_LOG`` is set: it is a measuring instrument, not a feature.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
import time
import traceback
from collections import Counter

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


def install() -> bool:
    """Starts the probe when the first socket is set up (live/liveness.py's hook); True when on."""
    from tabletop.live import liveness

    if _first_socket not in liveness.opened_hooks:
        liveness.opened_hooks.append(_first_socket)
    return True
