"""How the tabletop is served: the parts of Django, Channels, daphne and Twisted it runs its own
way, each measured (docs/performance.md). All of it is on in every deployment; none of it is a
switch.

Named in settings, so every process uses them:

- ``sqlite3``: the default database engine (Django's SQLite, with this process's writers queued
  on a lock, connections handed on and a background checkpoint);
- ``layers``: the one-process channel layer (when no ``REDIS_URL`` is set);
- ``middleware``: the request's middleware run in one thread.

Installed by ``install(application)``, which ``tabletop.asgi`` calls around the application:

- in every process, ``wire`` as the live feed's sink (tabletop/live/sink.py): the 1009 close
  through autobahn, and prepared frames, each only where ``send`` is daphne's;
- in a process daphne's command line started (``under_daphne``), the changes to daphne's and
  Twisted's own objects: ``eager_writes`` (Twisted's TCP server class), ``pings`` (daphne's
  ``Server.timeout_checker``), ``collector`` (each socket set aside from the garbage collector
  once set up) and ``warmup`` (views and templates loaded, the process frozen). Elsewhere (the
  tests, ``manage.py``) daphne and Twisted are left as they are.

``SPEED_UPS`` names what ``install`` applies; ``without`` leaves some out, which only the
benchmarks do, to measure one alone (bench/_serve.py). ``tests/integration/test_serving.py``
checks that a daphne process gets every one of them and any other process none.

Settings import daphne's server module in every process (``daphne`` is an installed app), so
its presence says nothing about whether daphne serves; what started the process does.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Collection
from pathlib import Path
from typing import TypeVar

App = TypeVar("App")
logger = logging.getLogger("tabletop.serving")

# what ``install`` applies under daphne, in this order; the log says each once at start
SPEED_UPS = ("prepared_frames", "eager_writes", "sliced_pings", "sockets_aside", "warmup")


def under_daphne() -> bool:
    """True in a process started by daphne's command line: ``daphne …`` or ``python -m daphne …``."""
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    if spec is not None and spec.name in ("daphne", "daphne.__main__"):
        return True
    return bool(sys.argv) and Path(sys.argv[0]).name == "daphne"


def install(application: App, *, without: Collection[str] = ()) -> App:
    """The serving process around the ASGI ``application``: ``wire`` as the live feed's sink in
    every process; under daphne, eager TCP writes, sliced pings, sockets set aside from the
    garbage collector, and, last, the views and templates loaded and the process frozen.
    ``without`` names speed-ups of ``SPEED_UPS`` to leave out (a benchmark's, to measure one
    alone)."""
    unknown = set(without) - set(SPEED_UPS)
    if unknown:
        raise ValueError(f"no speed-up named {', '.join(sorted(unknown))}; they are {', '.join(SPEED_UPS)}")
    from tabletop.live import sink
    from tabletop.serving import collector, eager_writes, pings, warmup, wire

    sink.install(wire.Sink(prepared="prepared_frames" not in without))
    if not under_daphne():
        return application
    if "eager_writes" not in without:
        _told("eager_writes", eager_writes.install(), "eager writes on")
    if "sliced_pings" not in without:
        _told("sliced_pings", pings.install(), "daphne's timeouts and pings checked in slices")
    if "sockets_aside" not in without:
        _told("sockets_aside", collector.set_sockets_aside(),
              "each socket set aside from the garbage collector once set up")
    if "warmup" not in without:  # last: it freezes what the process holds
        _told("warmup", warmup.settle(), "views and templates loaded, the process frozen")
    return application


def _told(name: str, applied: bool, what: str) -> None:
    """One line in daphne's log for each speed-up at start; a warning for one that could not
    apply (daphne or Twisted not the shape it was written against)."""
    if applied:
        logger.info("serving: %s", what)
    else:
        logger.warning("serving: %s did not apply: daphne or Twisted is not the version it was "
                       "written against (requirements.txt)", name)
