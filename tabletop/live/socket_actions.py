"""Actions taken through the table's socket: every action of the action table
(tabletop/actions.py), its game system's moves and checks included, the same that the htmx
forms post.

A roll or a chat line sent as a frame skips what an HTTP request costs before the service
runs (the request, its session and user queries, CSRF, the middleware, a fresh database
connection and a thread of its own: about 4 ms of CPU on the project's machine, more than
the service itself; bench/throughput, docs/performance.md). The socket was authenticated
and its Origin checked when it opened, which is what CSRF protects for a form; the same
table's forms check the input and the same entries run the services. The HTMX forms stay:
they work without the socket, and the page falls back to them while it reconnects.

Frame: ``{"type": "act", "ref": "<1-40 of A-Z a-z 0-9 _ . : ->", "action": "<name>",
"args": {"<field>": "<value>" or ["<value>", ...]}}``; the answer is an ack frame or a refusal frame for that ref. The ack names
the last event the action logged that its actor sees (for a roll or a chat line, its one
event) as the actor numbers it; the events themselves arrive through the feed like
everyone's.
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading
from collections import deque
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connections, transaction

from tabletop import actions
from tabletop.actions import Action
from tabletop.forms import check_fields
from tabletop.live.hub import hand_to
from tabletop.models import Event, Membership, Role
from tabletop.feed.seat import Viewer, event_reading
from tabletop.permissions import can, refusal_of, standing_of
from tabletop.services import ServiceError

REF = re.compile(r"[A-Za-z0-9_.:-]{1,40}")
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Request:
    ref: str
    action: str
    args: dict[str, str | list[str]]  # a field sent more than once: its values, in order


@dataclass(frozen=True)
class Outcome:
    """Done when it has no ``code``; then ``seq`` and ``position`` name the last event the
    action logged that its actor sees (None if none: no action of the table does that)."""

    ref: str
    seq: int | None = None  # the server's own numbering
    position: str | None = None  # ...and the actor's (Event.position)
    error: str = ""
    code: str = ""
    field: str | None = None


def parse(frame: Mapping[str, Any]) -> Request | None:
    """An act frame's parts, or None when it is not a well-formed act frame."""
    ref, action, args = frame.get("ref"), frame.get("action"), frame.get("args", {})
    if not isinstance(ref, str) or not REF.fullmatch(ref):
        return None
    if not isinstance(action, str) or not isinstance(args, dict):
        return None
    if not all(_is_arg(v) for v in args.values()):
        return None
    return Request(ref=ref, action=action, args=args)


def _is_arg(value: object) -> bool:
    """A field's value, or a list of them (a field sent more than once, as a form posts it)."""
    if isinstance(value, list):
        return all(isinstance(v, str) and _is_text(v) for v in value)
    return isinstance(value, str) and _is_text(value)


def _is_text(value: str) -> bool:
    """False for a string with a lone surrogate: JSON's escapes (``"\\ud800"``) carry one,
    though no UTF-8 can, so neither the database nor a socket could take it back (a chat
    line of one had failed in the database driver and crashed the socket). An HTTP form
    cannot send one: Django decodes what is not UTF-8 with replacement characters."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check(request: Request, member: Membership) -> Outcome | tuple[Action, Mapping[str, Any]]:
    """Refuses what needs no database to refuse (an action the table lacks, a seat that may not
    take it, such as a spectator's, input its form rejects), else the action and its input: a
    platform form's clean data, or for a system's move or check the form as plain data, which
    its parser reads with the table's characters when the action runs."""
    action = actions.lookup(request.action, member.table.system)
    if action is None:
        return Outcome(request.ref, error=actions.unknown(request.action), code="unknown-action")
    if not can(standing_of(member), action.verb):
        return Outcome(request.ref, error=refusal_of(standing_of(member), action.verb), code="not-allowed")
    if action.form is None:
        return action, {name: [v] if isinstance(v, str) else list(v) for name, v in request.args.items()}
    # a field sent more than once reads as one, its values separated by commas (tabletop/ids.py)
    flat = {name: v if isinstance(v, str) else ",".join(v) for name, v in request.args.items()}
    data, field, message = check_fields(action.form, flat)
    if field is not None:
        return Outcome(request.ref, error=message, code="invalid", field=field)
    return action, data


@dataclass(frozen=True)
class Job:
    ref: str
    action: Action
    data: Mapping[str, Any]
    member: Membership


def perform(job: Job) -> Outcome:
    """Runs a checked action through its service, in the calling (worker) thread."""
    try:
        return _attempt(job)
    except DatabaseError:
        # The transaction rolled back: nothing was written. A connection that broke (a
        # database restart) is opened afresh for the next action.
        logger.warning("a socket action failed in the database", exc_info=True)
        connections.close_all()
        return Outcome(job.ref, error="The table could not save that just now; please try again.",
                       code="unavailable")


def _attempt(job: Job) -> Outcome:
    """The action's outcome; a refusal is an outcome, a database failure is raised."""
    try:
        done = actions.take(job.action, job.member, job.data)
    except ServiceError as exc:
        code = {403: "not-allowed", 404: "not-found", 409: "conflict"}.get(exc.status, "invalid")
        return Outcome(job.ref, error=exc.message, code=code, field=exc.field)
    event = _last_seen(done.events, job.member)
    if event is None:
        return Outcome(job.ref)
    return Outcome(job.ref, seq=event.seq, position=event.position(gm=job.member.role == Role.GM))


def _last_seen(events: Sequence[Event], member: Membership) -> Event | None:
    """The last of ``events`` that ``member`` sees: a position is only ever of an event in
    its viewer's own log (another's hidden event numbers nothing of theirs)."""
    viewer = Viewer(membership_id=member.pk, standing=standing_of(member))
    return next((e for e in reversed(events) if event_reading(viewer, e) is not None), None)


def perform_batch(jobs: Sequence[Job]) -> list[Outcome | BaseException]:
    """Runs actions that queued up together in one transaction: each service's own
    transaction becomes a savepoint inside it, so a refusal takes back that action alone,
    and the batch commits once. On SQLite, where every action queues for the one writer
    anyway, batches cut the writer thread's CPU per action by a sixth and the event loop's
    by a fifth, with ten actors at once (fewer commits and fewer wake-ups; bench/throughput,
    docs/performance.md).

    Nothing is answered before the batch commits, and each event is broadcast at that
    commit, in order. If anything else goes wrong (the database, or a fault in one
    action), the whole batch is rolled back and each action runs again alone, so one
    action's failure is never another's."""
    if len(jobs) > 1:
        try:
            with transaction.atomic():
                return [_attempt(job) for job in jobs]
        except Exception:  # noqa: BLE001 -- nothing of the batch was kept; each runs alone
            logger.info("a batch of %d socket actions rolled back; each runs alone", len(jobs),
                        exc_info=True)
    results: list[Outcome | BaseException] = []
    for job in jobs:
        try:
            results.append(perform(job))
        except Exception as exc:  # noqa: BLE001 -- raised again in the socket's coroutine
            results.append(exc)
    return results


class _Writers:
    """Socket actions run on a few long-lived threads, each keeping its database connection
    between actions. Channels' database_sync_to_async closes and reopens the connection
    around every call (CONN_MAX_AGE is 0 under ASGI, as Django advises for requests): for a
    stream of small actions that was a quarter of daphne's time (py-spy, bench/throughput).
    SQLite takes one writer at a time, so one thread is enough there.

    A thread that is free takes half of the actions waiting (rounded up, at most ``batch``)
    and runs them as one batch (``perform_batch``). Not all of them: a batch's actions are
    answered together, when the last of them commits, so their players all act again at
    about the same moment. Taking every waiting action, ten actors at once fell into batches
    of nine or ten between batches of one, and the writer sat idle 41 % of the time while
    the loop sent a batch's frames and its players answered (gaps of 18 ms at the 90th
    percentile). Taking half, the other half commits while the first half's answers go
    out: idle 26 %, gaps of 8.5 ms at the 90th percentile, batches of one to five
    (bench/throughput, docs/performance.md)."""

    def __init__(self, threads: int, batch: int) -> None:
        self.batch = max(1, batch)
        self.waiting: deque[tuple[Job, asyncio.AbstractEventLoop, asyncio.Future[Outcome]]] = deque()
        self.lock = threading.Lock()
        self.threads = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="socket-writer")

    def submit(self, job: Job, loop: asyncio.AbstractEventLoop, answer: asyncio.Future[Outcome]) -> None:
        with self.lock:
            self.waiting.append((job, loop, answer))
        self.threads.submit(self._work)  # a turn per action; a turn that finds none is over

    def _work(self) -> None:
        with self.lock:
            take = min(self.batch, (len(self.waiting) + 1) // 2)
            taken = [self.waiting.popleft() for _ in range(take)]
        if not taken:
            return
        try:
            results = perform_batch([job for job, _, _ in taken])
        except BaseException as exc:  # noqa: BLE001 -- handed to every awaiting coroutine
            results = [exc] * len(taken)
        # after the events' own hand-off (they are broadcast at commit): one wake-up of
        # the loop usually carries all of it
        for (_, loop, answer), result in zip(taken, results):
            hand_to(loop, _settle, answer, result)


_writers: _Writers | None = None


def _writer_threads() -> _Writers:
    global _writers
    if _writers is None:
        _writers = _Writers(settings.TABLETOP_SOCKET_WRITERS, settings.TABLETOP_SOCKET_BATCH)
    return _writers


async def run(ref: str, action: Action, data: Mapping[str, Any], member: Membership) -> Outcome:
    job = Job(ref, action, data, member)
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[Outcome] = loop.create_future()
    _writer_threads().submit(job, loop, answer)
    return await answer


def _settle(answer: asyncio.Future[Outcome], result: Outcome | BaseException) -> None:
    if answer.cancelled():
        return
    if isinstance(result, BaseException):
        answer.set_exception(result)
    else:
        answer.set_result(result)
