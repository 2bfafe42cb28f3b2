"""A daphne process loads its views and templates at start and sets them aside from the
garbage collector; any other process that imports the application does not."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import gc, sys, time
if sys.argv[1] == "daphne":
    sys.argv[0] = "daphne"  # as daphne's command line starts a process
import tabletop.asgi  # noqa: F401
from tabletop.serving import warmup
t0 = time.perf_counter()
gc.collect()
print(gc.get_freeze_count(), round((time.perf_counter() - t0) * 1000, 1))
"""


def run(kind: str) -> tuple[int, float]:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tabletop.settings"}
    done = subprocess.run([sys.executable, "-W", "ignore", "-c", SCRIPT, kind], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    # every template of both engines (Django's, Jinja2's for the log) compiled at start
    assert "did not load at start" not in done.stderr, done.stderr
    frozen, collect_ms = done.stdout.split()
    return int(frozen), float(collect_ms)


def test_under_daphne_what_the_process_loaded_at_start_is_frozen() -> None:
    frozen, _ = run("daphne")
    assert frozen > 50_000  # Django, Twisted, the views, every compiled template


def test_elsewhere_nothing_is_frozen() -> None:
    frozen, _ = run("plain")
    assert frozen == 0
