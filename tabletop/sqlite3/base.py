"""SQLite, with this process's writers queued on a lock instead of SQLite's busy handler.

Every transaction begins ``IMMEDIATE`` (settings), so a second writer waits for the first.
SQLite's busy handler waits by *sleeping* (1, 2, 5, 10 … 100 ms) and polling, so under a
burst of writes the write lock sits free while the writers sleep: the tail of the requests
grew to seconds (bench/throughput, docs/performance.md). Here the writers of one process
queue on a ``threading.Lock`` taken before ``BEGIN`` and released at commit, rollback or
close, so the next is woken the instant the last is done. Writers in other processes still
meet SQLite's own busy handler, as before.
"""

from __future__ import annotations

import threading

from django.db import OperationalError
from django.db.backends.sqlite3 import base

_guard = threading.Lock()
_writers: dict[str, threading.Lock] = {}


def writer_lock(name: str) -> threading.Lock:
    with _guard:
        return _writers.setdefault(str(name), threading.Lock())


class DatabaseWrapper(base.DatabaseWrapper):
    _holds_writer = False

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
            super()._close()
        finally:
            self._release_writer()
