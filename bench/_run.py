"""A benchmark's command line and its run: the options every script takes, the hard time limit,
the machine's load and speed printed around it, and the contract line printed last."""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import signal
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

from _procs import raise_nofile
from _venv import ROOT

sys.path.insert(1, str(ROOT))  # the project's packages, for the names below
from tabletop.serving import SPEED_UPS  # noqa: E402  (standard library only at import)

T = TypeVar("T")


class _Parser(argparse.ArgumentParser):
    def parse_args(self, *args, **kwargs):  # type: ignore[no-untyped-def,override]
        options = super().parse_args(*args, **kwargs)
        if options.processes < 1:
            self.error("--processes must be at least 1")
        if options.servers and (options.database_url or options.redis_url):
            self.error("--servers starts a PostgreSQL and a Redis of its own: "
                       "give it without --database-url and --redis-url")
        if options.processes > 1 and not options.servers and not (options.database_url and options.redis_url):
            self.error(f"--processes {options.processes} needs a database and a channel layer the processes "
                       "share (SQLite and the in-memory layer belong to one process): add --servers, or "
                       "both --database-url (PostgreSQL) and --redis-url")
        unknown = set(options.without) - set(SPEED_UPS)
        if unknown:
            self.error(f"--without: no speed-up named {', '.join(sorted(unknown))} (they are {', '.join(SPEED_UPS)})")
        return options


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def parser(description: str) -> argparse.ArgumentParser:
    """The options every benchmark takes."""
    p = _Parser(description=description)
    p.add_argument("--quick", action="store_true", help="a short run, under a minute")
    p.add_argument("--processes", type=int, default=1, metavar="N",
                   help="N daphne processes sharing the database and the channel layer, people spread "
                        "over them in turn (N > 1 needs --servers, or --database-url and --redis-url)")
    p.add_argument("--servers", action="store_true",
                   help="start a throwaway PostgreSQL and Redis on free loopback ports (scripts/cluster) "
                        "and run on them; stopped and deleted at the end")
    p.add_argument("--database-url", default="", help="PostgreSQL instead of a fresh SQLite file")
    p.add_argument("--redis-url", default="", help="channels-redis instead of the in-memory layer")
    p.add_argument("--profile", default="", metavar="FILE",
                   help="py-spy records daphne over the measured part into FILE (speedscope JSON); "
                        "with --processes N, the first process only")
    p.add_argument("--without", type=_names, default=[], metavar="NAME,…",
                   help="daphne runs without these speed-ups of tabletop/serving/, to measure one alone: "
                        + ", ".join(SPEED_UPS))
    return p


_deadline = math.inf  # when ``run``'s time limit is up (time.monotonic())


def time_left() -> float:
    return _deadline - time.monotonic()


def run(main: Callable[[], Awaitable[str]], *, limit_s: float) -> None:
    """Runs ``main`` under a hard time limit and prints its contract line last. SIGTERM
    unwinds like Ctrl-C, so every ``finally`` (which kills daphne) runs."""
    global _deadline
    _deadline = time.monotonic() + limit_s
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    raise_nofile()

    async def bounded() -> str:
        return await asyncio.wait_for(main(), timeout=limit_s)

    say(machine_note())
    try:
        line = asyncio.run(bounded())
    except KeyboardInterrupt:
        sys.exit("interrupted")
    say(f"machine after the run: reference loop {python_speed_ms():.0f} ms of CPU")
    print(line, flush=True)


def python_speed_ms() -> float:
    """CPU time of a fixed piece of pure Python (best of three), in ms. A shared virtual
    machine's cores run faster or slower from minute to minute (the same loop took 0.86 to
    1.14 s within ten minutes on the project's machine), and every figure here moves with
    them: this says which kind of minute a run had."""
    best = math.inf
    for _ in range(3):
        t0, total = time.process_time(), 0
        for i in range(300_000):
            total += i * i % 7
        best = min(best, time.process_time() - t0)
    return best * 1000


def machine_note() -> str:
    """The load and the machine's speed before we start: these figures mean little on a
    machine busy with other work, and move with the speed of its cores."""
    load = os.getloadavg()[0]
    note = (f"machine: {os.cpu_count()} cores, load average {load:.2f} before the run, "
            f"reference loop {python_speed_ms():.0f} ms of CPU (lower is a faster minute)")
    if load > 0.5:
        note += " (other work is running: expect worse and noisier figures than on an idle machine)"
    return note


def say(text: str) -> None:
    print(text, flush=True)


async def gather_limited(jobs: Sequence[Callable[[], Awaitable[T]]], limit: int) -> list[T]:
    """Runs jobs at most ``limit`` at a time, keeping their order."""
    gate = asyncio.Semaphore(limit)

    async def one(job: Callable[[], Awaitable[T]]) -> T:
        async with gate:
            return await job()

    return list(await asyncio.gather(*(one(job) for job in jobs)))
