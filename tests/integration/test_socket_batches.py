"""Socket actions that queue up together commit as one transaction (socket_actions.perform_batch,
socket_actions._Writers): one commit for the batch, a refusal taking back its own action alone,
and any other failure taking back the whole batch before each action runs again alone."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.db import OperationalError, connection

from tabletop import services
from tabletop.actions import ACTIONS
from tabletop.live import socket_actions
from tabletop.models import Event, Membership
from tabletop.live.socket_actions import Job, Outcome
from tests.support.log import logged_events

pytestmark = pytest.mark.django_db(transaction=True)


def chat(member: Membership, text: str, ref: str = "") -> Job:
    return Job(ref or text, ACTIONS["chat.post"], {"text": text}, member)


def roll(member: Membership, ref: str) -> Job:
    return Job(ref, ACTIONS["dice.roll"], {"notation": "2d6+1", "mode": "public"}, member)


@contextmanager
def statements(fail: Callable[[str], bool] = lambda sql: False) -> Iterator[list[str]]:
    """The SQL this thread's connection runs; a statement for which ``fail`` says so fails
    the way a broken database would."""
    seen: list[str] = []

    def watch(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        seen.append(sql)
        if fail(sql):
            raise OperationalError("disk I/O error")
        return execute(sql, params, many, context)

    with connection.execute_wrapper(watch):
        yield seen


def batch(jobs: list[Job], fail: Callable[[str], bool] = lambda sql: False) -> tuple[list[Any], list[str]]:
    with statements(fail) as seen:
        results = socket_actions.perform_batch(jobs)
    return results, seen


def begins(sql: list[str]) -> int:
    return sum(s.startswith("BEGIN") for s in sql)


async def test_actions_waiting_together_commit_once_and_reach_the_table_in_order(table, connect) -> None:
    watcher = await connect(table.row, table.watcher)
    before = await logged_events()
    jobs = [roll(table.ann, "r1"), chat(table.bob, "second"), chat(table.ann, "third")]
    results, sql = await database_sync_to_async(batch)(jobs)
    assert begins(sql) == 1  # one transaction for the three
    after = await logged_events()
    new = after[len(before):]
    assert [e.kind for e in new] == ["dice.rolled", "chat.posted", "chat.posted"]
    assert [e.actor_id for e in new] == [table.ann.pk, table.bob.pk, table.ann.pk]
    assert results == [Outcome(job.ref, seq=e.seq, position=e.position(gm=False)) for job, e in zip(jobs, new)]
    assert [e.seq for e in new] == list(range(before[-1].seq + 1, before[-1].seq + 4))
    await watcher.seen(f'data-frame-seq="{new[-1].seq}"')
    assert [s for s in watcher.event_seqs() if s > before[-1].seq] == [e.seq for e in new]
    await watcher.close()


async def test_a_refusal_in_a_batch_takes_back_that_action_alone(table, connect) -> None:
    """A member removed a moment ago is refused by the service under the table lock, after
    the batch's transaction began: the actions before and after it are kept."""
    await database_sync_to_async(services.membership_remove)(target=table.bob, actor=table.gm)
    before = await logged_events()
    jobs = [chat(table.ann, "kept 1"), chat(table.bob, "refused"), chat(table.ann, "kept 2")]
    results, sql = await database_sync_to_async(batch)(jobs)
    assert begins(sql) == 1
    assert results[1].seq is None and results[1].code == "not-allowed"
    new = (await logged_events())[len(before):]
    assert [e.payload["text"] for e in new] == ["kept 1", "kept 2"]
    assert [results[0].seq, results[2].seq] == [e.seq for e in new]
    assert new[1].seq == new[0].seq + 1  # the refused action took no seq


async def test_a_database_failure_takes_back_the_batch_and_each_action_runs_alone(table, connect) -> None:
    """The second insert fails once: nothing of the batch is kept and none of its events is
    broadcast; then each action runs in a transaction of its own, and all three are done,
    each event logged and sent once."""
    watcher = await connect(table.row, table.watcher)
    before = await logged_events()
    inserts = 0

    def second_insert_fails(sql: str) -> bool:
        nonlocal inserts
        if sql.startswith('INSERT INTO "tabletop_event"'):
            inserts += 1
            return inserts == 2
        return False

    jobs = [chat(table.ann, "one"), chat(table.bob, "two"), chat(table.ann, "three")]
    results, sql = await database_sync_to_async(batch)(jobs, second_insert_fails)
    assert inserts == 5  # two in the batch, then one for each action alone
    assert begins(sql) == 1 + 3
    new = (await logged_events())[len(before):]
    assert [e.payload["text"] for e in new] == ["one", "two", "three"]
    assert results == [Outcome(job.ref, seq=e.seq, position=e.position(gm=False)) for job, e in zip(jobs, new)]
    await watcher.seen(f'data-frame-seq="{new[-1].seq}"')
    got = [s for s in watcher.event_seqs() if s > before[-1].seq]
    assert got == [e.seq for e in new]  # the rolled-back batch sent nothing: no seq twice
    for event in new:
        frame = next(f for f in watcher.received if f'data-frame-seq="{event.seq}"' in f)
        assert event.payload["text"] in frame
    await watcher.close()


async def test_a_failure_that_comes_back_alone_fails_that_action_alone(table) -> None:
    """A fault in one action's code (not a refusal) takes back the batch too; alone, it
    fails again, and only that socket hears of it."""
    before = await logged_events()
    faulty = dataclasses.replace(ACTIONS["chat.post"], run=_faulty)
    jobs = [chat(table.ann, "fine"), Job("boom", faulty, {"text": "x"}, table.ann), chat(table.bob, "also fine")]
    results, sql = await database_sync_to_async(batch)(jobs)
    assert isinstance(results[1], RuntimeError)  # raised again in the socket's coroutine
    assert results[0].seq is not None and results[2].seq is not None
    new = (await logged_events())[len(before):]
    # what the faulty action wrote in the batch was taken back with it; alone, its own
    # transaction committed before the fault, as it would have without batches: once
    assert [e.payload["text"] for e in new] == ["fine", "written, then a fault", "also fine"]
    assert begins(sql) == 1 + 3  # the batch, then each action alone


def _faulty(member: Membership, data: Any, rng: Any) -> Event:
    services.chat_post(table=member.table, actor=member, text="written, then a fault")
    raise RuntimeError("a fault in one action")


async def test_a_database_failure_of_an_action_alone_is_refused_as_unavailable(table) -> None:
    before = await logged_events()

    def inserts_fail(sql: str) -> bool:
        return sql.startswith('INSERT INTO "tabletop_event"')

    results, _ = await database_sync_to_async(batch)([chat(table.ann, "lost")], inserts_fail)
    assert results[0].seq is None and results[0].code == "unavailable"
    assert await logged_events() == before


async def test_a_broadcast_that_fails_after_the_commit_does_not_undo_or_repeat_the_batch(table, monkeypatch) -> None:
    """The events are committed: a broadcast that raises is logged, the actions are done,
    and none runs again (the sockets read what they missed from the log at their next gap)."""
    from tabletop.feed.catalogue import Envelope
    from tabletop.live import broadcast

    real = broadcast.event_committed
    failed: list[int] = []

    def first_fails(envelope: Envelope) -> None:
        if not failed:
            failed.append(envelope.event.seq)
            raise RuntimeError("the hub is gone")
        real(envelope)

    monkeypatch.setattr(broadcast, "event_committed", first_fails)
    before = await logged_events()
    jobs = [chat(table.ann, "a"), chat(table.bob, "b")]
    results, sql = await database_sync_to_async(batch)(jobs)
    new = (await logged_events())[len(before):]
    assert failed == [new[0].seq]
    assert [e.payload["text"] for e in new] == ["a", "b"]  # once each
    assert results == [Outcome(job.ref, seq=e.seq, position=e.position(gm=False)) for job, e in zip(jobs, new)]
    assert begins(sql) == 1


def test_a_writer_takes_every_action_waiting_as_one_batch(monkeypatch) -> None:
    """While the writer thread runs a batch, the actions that arrive wait; each next turn
    takes half of those waiting (rounded up, up to the batch's limit), in the order they
    came, and each socket gets its own answer."""
    taken: list[list[str]] = []
    first_running = threading.Event()
    let_go = threading.Event()

    def record(jobs: list[Job]) -> list[Outcome]:
        taken.append([job.ref for job in jobs])
        if len(taken) == 1:
            first_running.set()
            let_go.wait(5)
        return [Outcome(job.ref, seq=i) for i, job in enumerate(jobs)]

    monkeypatch.setattr(socket_actions, "perform_batch", record)
    writers = socket_actions._Writers(threads=1, batch=4)
    answers: list[Any] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()

        def send(ref: str) -> asyncio.Future[Outcome]:
            answer: asyncio.Future[Outcome] = loop.create_future()
            writers.submit(Job(ref, ACTIONS["chat.post"], {"text": ref}, None), loop, answer)  # type: ignore[arg-type]
            return answer

        futures = [send("a")]
        await loop.run_in_executor(None, first_running.wait, 5)
        futures += [send(ref) for ref in "bcdefghijklm"]
        let_go.set()
        answers.extend(await asyncio.wait_for(asyncio.gather(*futures), 5))

    # a loop of the test's own, in a thread: the browser tests keep one running in this one
    worker = threading.Thread(target=lambda: asyncio.run(main()))
    worker.start()
    worker.join(10)
    writers.threads.shutdown()
    # twelve waiting: six would be half, four is the limit; then half of eight, of four...
    assert taken == [["a"], list("bcde"), list("fghi"), list("jk"), ["l"], ["m"]]
    assert [a.ref for a in answers] == list("abcdefghijklm")
    assert [a.seq for a in answers] == [0, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 0, 0]
