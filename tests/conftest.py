from __future__ import annotations

import os
import signal
import threading
from pathlib import Path

import pytest

# Every event a test appends is checked against its kind's declaration (tabletop/feed/catalogue.py),
# in this process and in the servers the browser and scale tests start.
os.environ.setdefault("TABLETOP_CHECK_EVENTS", "1")
# and every page and frame is checked to hold only what its seat may use (tabletop/feed/marks.py).
os.environ.setdefault("TABLETOP_CHECK_SEATS", "1")


def pytest_configure(config: pytest.Config) -> None:
    """A run stopped with SIGTERM (a CI time limit, ``timeout``, a killed job) stops the way
    Ctrl-C does: pytest tears the fixtures down, so the servers the browser and scale tests
    started (daphne, PostgreSQL, Redis, nginx: daemons of their own) stop with it. Python's
    default for SIGTERM ends the process at once, and they were left running."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, signal.default_int_handler)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The tests' SQLite database is a file (settings: ``TEST``); Django deletes it at the end,
    but SQLite leaves its write-ahead log and shared-memory files beside it, held open by the
    process's own connections until it exits: they go too, so runs leave nothing in the temp
    folder."""
    from django.conf import settings

    name = settings.DATABASES["default"].get("TEST", {}).get("NAME")
    if name and not Path(name).exists():  # destroyed already: what is left beside it is litter
        for suffix in ("-wal", "-shm"):
            Path(f"{name}{suffix}").unlink(missing_ok=True)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings) -> None:  # type: ignore[no-untyped-def]
    """Hashing strength is Django's concern, not ours; tests need not pay for it."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.TABLETOP_CHECK_EVENTS = True
    settings.TABLETOP_CHECK_SEATS = True
