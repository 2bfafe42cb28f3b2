"""SQLite, with this process's writers queued on a lock instead of SQLite's busy handler.

Every transaction begins ``IMMEDIATE`` (settings), so a second writer waits for the first.
SQLite's busy handler waits by *sleeping* (1, 2, 5, 10 … 100 ms) and polling, so under a
burst of writes the write lock sits free while the writers sleep: the tail of the requests
grew to seconds (bench/throughput, docs/performance.md). Here the writers of one process
queue on a ``threading.Lock`` taken before ``BEGIN`` and released at commit, rollback or
close, so the next is woken the instant the last is done. Writers in other processes still
meet SQLite's own busy handler, as before.

It also hands a closed connection to the next one who opens one (up to ``IDLE_MAX`` kept
per file, rolled back if a transaction was left open). Under ASGI every request runs in a
context of its own and so opens and closes its own connection (Django advises against
persistent connections there), and opening one costs a file open, the schema read on the
first statement, Django's forty-odd SQL functions and its PRAGMAs: ~4 % of daphne's time
behind a stream of rolls (bench/latency, docs/performance.md).

And it keeps one connection to each database file open for the life of the process. When
the last connection to a WAL database closes, SQLite checkpoints the log into the database
and deletes it: with connections opened and closed per request or per socket action, that
was most closes, and 17 % of daphne's time under a stream of actions (py-spy, bench/throughput).
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time

from django.db import OperationalError
from django.db.backends.sqlite3 import base

_guard = threading.Lock()
_writers: dict[str, threading.Lock] = {}
_keepers: dict[str, sqlite3.Connection] = {}
_idle: dict[str, list[sqlite3.Connection]] = {}
IDLE_MAX = 16
CHECKPOINT_EVERY_S = 1.0
logger = logging.getLogger(__name__)


def writer_lock(name: str) -> threading.Lock:
    with _guard:
        return _writers.setdefault(str(name), threading.Lock())


def keep_open(name: str) -> None:
    """Holds a connection to the file open, so no other one's close is ever the last, puts
    the file in WAL mode once (the mode stays with the file; a PRAGMA per connection, as
    Django's init_command would run it, cost every request a statement), and starts the
    file's checkpointer."""
    with _guard:
        if name not in _keepers:
            keeper = sqlite3.connect(name, check_same_thread=False, timeout=20)
            keeper.execute("PRAGMA journal_mode=WAL")
            _keepers[name] = keeper
            threading.Thread(
                target=_checkpoint_now_and_then, args=(name,), name="sqlite-checkpoint", daemon=True
            ).start()


def _checkpoint_now_and_then(name: str) -> None:
    """Copies the WAL back into the database every ``CHECKPOINT_EVERY_S``, off every
    request's path. SQLite's own checkpoint runs in whichever commit pushes the WAL past
    1000 pages, and with ``synchronous=NORMAL`` it is the one write that waits for the
    disk: that commit, and every writer queued behind it, stalled for tens of milliseconds
    every ~150 actions (the tail of bench/latency). Our connections turn that off
    (``wal_autocheckpoint=0``); a PASSIVE checkpoint never waits for a reader or a writer."""
    checkpointer = sqlite3.connect(name, check_same_thread=False, timeout=20)
    try:
        while os.path.exists(name):  # a deleted file (a test's) needs no more checkpoints
            time.sleep(CHECKPOINT_EVERY_S)
            try:
                checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")
            except sqlite3.Error:  # busy or gone: the next turn tries again
                logger.debug("checkpoint of %s skipped", name, exc_info=True)
    finally:
        checkpointer.close()


class DatabaseWrapper(base.DatabaseWrapper):
    _holds_writer = False

    def get_new_connection(self, conn_params: dict) -> sqlite3.Connection:  # type: ignore[type-arg]
        if self.is_in_memory_db():
            return super().get_new_connection(conn_params)
        name = str(self.settings_dict["NAME"])
        with _guard:
            idle = _idle.get(name)
            if idle:
                return idle.pop()
        connection = super().get_new_connection(conn_params)
        connection.execute("PRAGMA wal_autocheckpoint=0")  # the checkpointer does it
        keep_open(name)
        return connection

    def _reuse(self) -> bool:
        """Puts the open connection aside for the next opener; False when it must close."""
        connection = self.connection
        if connection is None or self.is_in_memory_db() or self.errors_occurred:
            return False
        if connection.in_transaction:
            connection.rollback()  # closed inside a transaction: nothing of it is kept
        with _guard:
            idle = _idle.setdefault(str(self.settings_dict["NAME"]), [])
            if any(kept is connection for kept in idle):
                return True  # put aside already (a second close)
            if len(idle) >= IDLE_MAX:
                return False
            idle.append(connection)
        return True

    def _queues_writers(self) -> bool:
        return self.transaction_mode in ("IMMEDIATE", "EXCLUSIVE") and not self.is_in_memory_db()

    def _start_transaction_under_autocommit(self) -> None:
        if not self._queues_writers():
            super()._start_transaction_under_autocommit()
            return
        timeout = float(self.settings_dict["OPTIONS"].get("timeout", 5))
        if not writer_lock(self.settings_dict["NAME"]).acquire(timeout=timeout):
            # what SQLite itself says when its busy timeout runs out
            raise OperationalError("database is locked")
        self._holds_writer = True
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._release_writer()
            raise

    def _release_writer(self) -> None:
        if self._holds_writer:
            self._holds_writer = False
            writer_lock(self.settings_dict["NAME"]).release()

    def _commit(self) -> None:
        try:
            super()._commit()
        finally:
            self._release_writer()

    def _rollback(self) -> None:
        try:
            super()._rollback()
        finally:
            self._release_writer()

    def _close(self) -> None:
        try:
            if not self._reuse():
                super()._close()
        finally:
            self._release_writer()
