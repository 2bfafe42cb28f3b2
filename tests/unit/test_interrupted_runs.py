"""A test run stopped with SIGTERM tears its fixtures down, as with Ctrl-C (tests/conftest.py).

Checked by hand end to end: SIGTERM to a run of tests/scale/test_failures.py once its
cluster was up left PostgreSQL, Redis, two daphnes and nginx running without this (five
processes), and none with it."""

from __future__ import annotations

import signal


def test_sigterm_interrupts_the_run_the_way_ctrl_c_does() -> None:
    assert signal.getsignal(signal.SIGTERM) is signal.default_int_handler
