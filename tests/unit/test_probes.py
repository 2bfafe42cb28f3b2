"""The probes bench/tables reads from daphne's log (bench/_probes.py, started in a benchmark's
daphne only): a loop held past its threshold is reported with how long and what its thread was
doing, a loop that keeps ticking is not; each full garbage collection is a line. Each loop runs in
a thread of its own, as daphne's runs in its process."""

from __future__ import annotations

import asyncio
import gc
import importlib.util
import threading
import time
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "bench_probes", Path(__file__).resolve().parents[2] / "bench" / "_probes.py")
assert _spec is not None and _spec.loader is not None
probes = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(probes)


def held_for(seconds: float) -> None:
    time.sleep(seconds)  # the loop's thread, busy: what the probe must name


async def watched(hold_s: float) -> None:
    watch = probes.Watch(asyncio.get_running_loop())
    watch.tick()
    threading.Thread(target=watch.watch, daemon=True).start()
    await asyncio.sleep(0.05)
    held_for(hold_s)
    await asyncio.sleep(0.1)  # the loop ticks again: the report is written


def run_watched(capsys: pytest.CaptureFixture[str], hold_s: float) -> str:
    def own_loop() -> None:
        loop = asyncio.new_event_loop()
        try:
            loop.run_until_complete(watched(hold_s))
        finally:
            loop.close()  # the watchdog stops with it

    thread = threading.Thread(target=own_loop)
    thread.start()
    thread.join(timeout=10)
    return capsys.readouterr().err


def test_a_loop_held_past_the_threshold_is_reported_with_where_it_was(capsys) -> None:
    err = run_watched(capsys, 0.3)
    report = [line for line in err.splitlines() if line.startswith("stall:")]
    assert len(report) == 1, err
    took = int(report[0].split("late ")[1].split(" ms")[0])
    assert 250 <= took <= 1000
    assert "loop: held_for" in err


def test_a_loop_that_keeps_ticking_reports_nothing(capsys) -> None:
    err = run_watched(capsys, 0.0)
    assert "stall:" not in err


def test_each_full_collection_is_a_line_with_its_pause(capsys) -> None:
    before = list(gc.callbacks)
    try:
        probes.log_full_collections()
        probes.log_full_collections()  # once, however often started
        gc.collect(1)  # a young collection: no line
        gc.collect()
    finally:
        gc.callbacks[:] = before
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("gc: ")]
    assert len(lines) == 1, lines
    assert float(lines[0].split("took ")[1].split(" ms")[0]) >= 0
