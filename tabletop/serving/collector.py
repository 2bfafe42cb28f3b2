"""The garbage collector of a serving process: sockets set aside from it.

Python's cyclic collector stops the whole process while it walks every object it tracks. An
open socket is some 250 long-lived objects (daphne's and autobahn's protocol, the consumer,
its scope and seat); with thousands open, each full (generation 2) collection walked them all:
bench/tables at 300 tables (3,000 sockets) logged a full collection of 1.9 s in the middle of a
stage, and the live feed's p99 there went from 30 ms to 3 s (docs/performance.md). What a
socket sets up lives as long as the socket, so once it is set up, ``gc.freeze()`` moves it
(and everything older) out of every later collection; what actions create is collected as
before, in the young generations, and full collections walk only what was made since.

Frozen objects are still freed by reference counting; only garbage in reference cycles stays
until it is thawed. So when as many sockets have closed since the last thaw as the process
holds (at least ``THAW_AFTER``), everything is thawed, collected once in full, and frozen
again: one full pause after a whole population's worth of churn, not one every few thousand
actions. What survives a full collection that took long is set aside too
(``_set_survivors_aside``).

``set_sockets_aside()`` installs both, once; ``serving.install`` calls it in a daphne process
only. (The benchmarks' probe of each full collection is bench/_probes.py.)
"""

from __future__ import annotations

import gc
import time
from typing import Any

THAW_AFTER = 1000

_closed_since_thaw = 0
_began: list[float] = []


def _full_collection(phase: str, info: dict[str, Any]) -> None:
    """Times each full (generation 2) collection and tells ``_set_survivors_aside``."""
    if info.get("generation") != 2:
        return
    if phase == "start":
        _began[:] = [time.perf_counter()]
    elif _began:
        _set_survivors_aside((time.perf_counter() - _began.pop()) * 1000)


def socket_set_up(open_sockets: int) -> None:
    """A socket is set up: it and everything older leave the collector's walks."""
    gc.freeze()


def socket_closed(open_sockets: int) -> None:
    """After a population's worth of closed sockets, their cycles are collected: one full
    collection of everything, then frozen again."""
    global _closed_since_thaw
    _closed_since_thaw += 1
    if _closed_since_thaw >= max(THAW_AFTER, open_sockets):
        _closed_since_thaw = 0
        gc.unfreeze()
        gc.collect()
        gc.freeze()


SURVIVORS_MS = 10.0


def _set_survivors_aside(took: float) -> None:
    """After a full collection long enough to stop the process (over ``SURVIVORS_MS``), what
    survived it is set aside as a socket is: it lives long. A table's first actions make its
    state, its sockets' deliveries and the database's and the channel layer's objects for it
    after its sockets were set up; spread over 1,000 tables on two processes (PostgreSQL,
    Redis), that was 200,000 objects every full collection walked again, 70-200 ms each
    (bench/tables --servers --processes 2). Their cycles are collected at the next thaw."""
    if took > SURVIVORS_MS:
        gc.freeze()


def set_sockets_aside() -> bool:
    """Listens to the live feed's sockets (live/liveness.py's hooks), once, and sets aside what
    survives a long full collection; True when on."""
    from tabletop.live import liveness

    if _full_collection not in gc.callbacks:
        gc.callbacks.append(_full_collection)
    if socket_set_up not in liveness.opened_hooks:
        liveness.opened_hooks.append(socket_set_up)
        liveness.closed_hooks.append(socket_closed)
    return True
