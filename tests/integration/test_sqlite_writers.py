"""The SQLite backend that queues this process's writers on a lock (tabletop/serving/sqlite3/base.py)."""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.db import OperationalError

from tabletop.serving.sqlite3.base import DatabaseWrapper, writer_lock


def wrapper(path: Path, *, timeout: float = 20) -> DatabaseWrapper:
    settings = {
        "ENGINE": "tabletop.serving.sqlite3", "NAME": str(path), "USER": "", "PASSWORD": "", "HOST": "", "PORT": "",
        "ATOMIC_REQUESTS": False, "AUTOCOMMIT": True, "CONN_MAX_AGE": 0, "CONN_HEALTH_CHECKS": False,
        "TIME_ZONE": None, "TEST": {},
        "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": timeout,
                    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"},
    }
    return DatabaseWrapper(settings, alias=f"writers-{threading.get_ident()}")


@pytest.fixture(autouse=True)
def _own_files(django_db_blocker: pytest.FixtureRequest) -> object:
    """These tests open their own SQLite files, not the test database."""
    with django_db_blocker.unblock():  # type: ignore[attr-defined]
        yield


def own_thread(test: Callable[..., None]) -> Callable[..., None]:
    """Runs the test in a thread of its own: Django refuses database calls in a thread with
    a running event loop, and the browser tests' Playwright keeps one in the main thread."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        failures: list[BaseException] = []

        def body() -> None:
            try:
                test(*args, **kwargs)
            except BaseException as exc:  # noqa: BLE001 -- re-raised in the test's thread
                failures.append(exc)

        thread = threading.Thread(target=body)
        thread.start()
        thread.join(timeout=300)
        assert not thread.is_alive(), "the test did not finish"
        if failures:
            raise failures[0]

    return run


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "writers.sqlite3"


def create(path: Path) -> None:
    setup = wrapper(path)
    with setup.cursor() as cursor:
        cursor.execute("CREATE TABLE counter (n INTEGER NOT NULL)")
        cursor.execute("INSERT INTO counter VALUES (0)")
    setup.close()


def begin(db: DatabaseWrapper) -> None:
    db.ensure_connection()
    db._start_transaction_under_autocommit()


@own_thread
def test_a_write_transaction_holds_the_lock_until_commit_rollback_or_close(database: Path) -> None:
    create(database)
    lock = writer_lock(str(database))
    for end in ("_commit", "_rollback", "_close"):
        db = wrapper(database)
        begin(db)
        assert lock.locked()
        getattr(db, end)()
        assert not lock.locked(), f"{end} left the writer lock held"
        db.close()


@own_thread
def test_a_second_writer_waits_for_the_first_and_then_goes_on(database: Path) -> None:
    create(database)
    first, order = wrapper(database), []
    begin(first)
    first.cursor().execute("UPDATE counter SET n = n + 1")

    def second_writer() -> None:
        second = wrapper(database)
        begin(second)  # blocks on the lock until the first commits
        order.append("second began")
        second.cursor().execute("UPDATE counter SET n = n * 10")
        second._commit()
        second.close()

    thread = threading.Thread(target=second_writer)
    thread.start()
    thread.join(timeout=0.3)
    assert thread.is_alive() and order == []  # still waiting: the first holds the lock
    order.append("first committed")
    first._commit()
    thread.join(timeout=20)
    assert order == ["first committed", "second began"]
    assert first.cursor().execute("SELECT n FROM counter").fetchone()[0] == 10
    first.close()


@own_thread
def test_a_writer_that_waits_past_the_timeout_gets_sqlites_own_error(database: Path) -> None:
    create(database)
    first = wrapper(database)
    begin(first)
    failures: list[Exception] = []

    def impatient() -> None:
        second = wrapper(database, timeout=0.2)
        try:
            begin(second)
        except OperationalError as exc:
            failures.append(exc)
        finally:
            second.close()

    thread = threading.Thread(target=impatient)
    thread.start()
    thread.join(timeout=20)
    assert [str(f) for f in failures] == ["database is locked"]
    first._rollback()
    assert not writer_lock(str(database)).locked()
    first.close()


@own_thread
def test_writers_racing_in_many_threads_lose_no_update(database: Path) -> None:
    create(database)
    threads, failures = 6, []
    start = threading.Barrier(threads)

    def add_fifty() -> None:
        db = wrapper(database)
        try:
            start.wait()
            for _ in range(50):
                with _atomic(db):
                    n = db.cursor().execute("SELECT n FROM counter").fetchone()[0]
                    db.cursor().execute("UPDATE counter SET n = %s", [n + 1])
        except Exception as exc:  # noqa: BLE001 -- reported in the test's thread
            failures.append(exc)
        finally:
            db.close()

    workers = [threading.Thread(target=add_fifty) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
    assert not failures, failures
    check = wrapper(database)
    assert check.cursor().execute("SELECT n FROM counter").fetchone()[0] == threads * 50
    check.close()


class _atomic:
    """BEGIN IMMEDIATE … COMMIT (or ROLLBACK) on one wrapper, as Django's atomic does."""

    def __init__(self, db: DatabaseWrapper) -> None:
        self.db = db

    def __enter__(self) -> None:
        begin(self.db)

    def __exit__(self, kind: object, *_: object) -> None:
        if kind is None:
            self.db._commit()
        else:
            self.db._rollback()


@own_thread
def test_a_closed_connection_is_handed_to_the_next_opener_clean(database: Path) -> None:
    """Closed inside a transaction, its writes are rolled back before anyone reuses it; the
    next opener gets the same connection, in autocommit, with nothing left over."""
    create(database)
    first = wrapper(database)
    begin(first)
    first.cursor().execute("UPDATE counter SET n = 41")
    raw = first.connection
    first.close()
    assert not writer_lock(str(database)).locked()
    second = wrapper(database)
    second.ensure_connection()
    assert second.connection is raw and not raw.in_transaction
    with second.cursor() as cursor:
        cursor.execute("SELECT n FROM counter")
        assert cursor.fetchone() == (0,)
    second.close()
    third, fourth = wrapper(database), wrapper(database)
    third.ensure_connection()
    fourth.ensure_connection()
    assert third.connection is raw and fourth.connection is not raw
    third.close()
    fourth.close()


@own_thread
def test_the_wal_is_copied_back_in_the_background_not_by_a_commit(
    database: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Our connections never checkpoint on commit (a commit that did waited for the disk);
    the file's checkpointer thread copies the log into the database within a moment."""
    from tabletop.serving.sqlite3 import base as sqlite_base

    monkeypatch.setattr(sqlite_base, "CHECKPOINT_EVERY_S", 0.05)
    create(database)
    db = wrapper(database)
    with db.cursor() as cursor:
        cursor.execute("PRAGMA wal_autocheckpoint")
        assert cursor.fetchone() == (0,)
        cursor.execute("CREATE TABLE blobs (b BLOB NOT NULL)")
    before = database.stat().st_size
    for _ in range(100):
        with db.cursor() as cursor:
            cursor.execute("INSERT INTO blobs VALUES (randomblob(4000))")
    deadline = time.monotonic() + 5
    while database.stat().st_size < before + 300_000 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert database.stat().st_size >= before + 300_000
    with db.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM blobs")
        assert cursor.fetchone() == (100,)
    db.close()
