"""Optional serving speed-ups, each measured (docs/performance.md) and each falling back to
the plain path when what it relies on is not there. Nothing else in the project depends on them:
take any out and the tabletop serves the same bytes, only slower.

- ``install(application)`` (asgi.py): under daphne, eager TCP writes (``eager_writes``), a
  warmed-up, frozen process (``warmup``), each socket frozen once set up (``collector``) and
  daphne's pings checked in slices (``pings``); elsewhere it changes nothing.
- ``wire``: a table's event framed once per reading for every socket: the live feed's sink
  (tabletop/live/sink.py), installed by ``install`` in every process.
- ``layers``: the one-process channel layer; ``sqlite3``: the SQLite backend with queued
  writers and a background checkpoint; ``middleware``: the request's middleware in one thread
  (named in settings).

Settings import daphne's server module in every process (``daphne`` is an installed app), so
its presence says nothing about whether daphne serves; what started the process does.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import TypeVar

App = TypeVar("App")
logger = logging.getLogger("tabletop.serving")


def under_daphne() -> bool:
    """True in a process started by daphne's command line: ``daphne …`` or ``python -m daphne …``."""
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    if spec is not None and spec.name in ("daphne", "daphne.__main__"):
        return True
    return bool(sys.argv) and Path(sys.argv[0]).name == "daphne"


def install(application: App) -> App:
    """The speed-ups of a daphne process, around the ASGI ``application`` it serves: prepared
    frames (``wire``, which writes the plain way under another server), eager TCP writes now, and, once the application is built, its views and templates loaded and
    the process frozen out of the garbage collector. Under anything else, nothing."""
    from django.conf import settings

    from tabletop.live import sink
    from tabletop.serving import collector, eager_writes, pings, stalls, warmup, wire

    sink.install(wire.SINK)  # falls back to the plain send where the server is not daphne
    if settings.TABLETOP_EAGER_WRITES and eager_writes.install():
        logger.info("serving: eager writes on")
    if settings.TABLETOP_SLICED_PINGS and under_daphne() and pings.install():
        logger.info("serving: daphne's timeouts and pings checked in slices")
    if settings.TABLETOP_GC_LOG and under_daphne() and collector.log_full_collections():
        logger.info("serving: each full garbage collection logged")
    if settings.TABLETOP_STALL_LOG and under_daphne() and stalls.install():
        logger.info("serving: each stall of the event loop logged")
    if settings.TABLETOP_GC_FREEZE_SOCKETS and under_daphne() and collector.set_sockets_aside():
        logger.info("serving: each socket set aside from the garbage collector once set up")
    if warmup.settle():
        logger.info("serving: views and templates loaded, the process frozen")
    return application
