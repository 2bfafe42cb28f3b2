"""What ``serving.install`` (tabletop/serving/) does to the process that imports the application:
under daphne's command line, every speed-up is applied and says so in the log (so a daphne or
Twisted of another shape, where one would not apply, fails here); in any other process (the
tests, ``manage.py``) daphne and Twisted are left as they are; and a benchmark's daphne may leave
any one out. Each runs in a process of its own, as the application is imported once a process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import gc, json, logging, sys
if sys.argv[1] == "daphne":
    sys.argv[0] = "daphne"  # as daphne's command line starts a process
logging.basicConfig(level=logging.INFO, format="%(message)s")
if sys.argv[2]:
    from functools import partial
    from tabletop import serving
    serving.install = partial(serving.install, without=sys.argv[2].split(","))  # as bench/_serve.py does
import tabletop.asgi  # noqa: F401
from daphne.server import Server
from twisted.internet import tcp
from tabletop.live import liveness, sink
from tabletop.serving import collector, eager_writes, pings, wire
print(json.dumps({
    "sink": type(sink._sink).__name__,
    "prepared": getattr(sink._sink, "prepared", None),
    "eager_writes": tcp.Port.transport is eager_writes.EagerServer,
    "sliced_pings": Server.timeout_checker is pings.sliced_timeout_checker,
    "sockets_aside": collector.socket_set_up in liveness.opened_hooks
                     and collector._full_collection in gc.callbacks,
    "frozen": gc.get_freeze_count(),
}))
"""


def run(kind: str, without: str = "") -> tuple[dict[str, Any], str]:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tabletop.settings"}
    done = subprocess.run([sys.executable, "-W", "ignore", "-c", SCRIPT, kind, without], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    # every template of both engines (Django's, Jinja2's for the log) compiled at start
    assert "did not load at start" not in done.stderr, done.stderr
    assert "did not apply" not in done.stderr, done.stderr
    return json.loads(done.stdout.splitlines()[-1]), done.stderr


def test_under_daphne_every_speed_up_applies_and_says_so() -> None:
    state, log = run("daphne")
    assert state["sink"] == "Sink" and state["prepared"] is True
    assert state["eager_writes"] and state["sliced_pings"] and state["sockets_aside"]
    assert state["frozen"] > 50_000  # Django, Twisted, the views, every compiled template
    for said in ("serving: eager writes on", "serving: daphne's timeouts and pings checked in slices",
                 "serving: each socket set aside from the garbage collector once set up",
                 "serving: views and templates loaded, the process frozen"):
        assert said in log


def test_elsewhere_daphne_and_twisted_are_left_as_they_are() -> None:
    state, log = run("plain")
    # the sink still closes with 1009 through daphne's protocol, should daphne's send reach it
    assert state["sink"] == "Sink" and state["prepared"] is True
    assert not (state["eager_writes"] or state["sliced_pings"] or state["sockets_aside"])
    assert state["frozen"] == 0
    assert "serving:" not in log


@pytest.mark.parametrize("left_out", ["prepared_frames", "eager_writes", "sliced_pings", "sockets_aside", "warmup"])
def test_a_benchmark_s_daphne_may_leave_one_speed_up_out(left_out: str) -> None:
    state, _ = run("daphne", left_out)
    assert state["prepared"] is (left_out != "prepared_frames")
    assert state["eager_writes"] is (left_out != "eager_writes")
    assert state["sliced_pings"] is (left_out != "sliced_pings")
    assert state["sockets_aside"] is (left_out != "sockets_aside")
    assert (state["frozen"] > 50_000) is (left_out != "warmup")


def test_an_unknown_speed_up_is_refused() -> None:
    from tabletop import serving

    with pytest.raises(ValueError, match="no speed-up named eagre_writes"):
        serving.install(object(), without=["eagre_writes"])
