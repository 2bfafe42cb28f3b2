"""The live feed through Channels' WebsocketCommunicator against the real ASGI application."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any
from unittest import mock

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client

from tabletop import services
from tabletop.live import broadcast, consumers
from tabletop.asgi import application
from tabletop.live.delivery import Delivery
from tabletop.models import Event, Membership

pytestmark = pytest.mark.django_db(transaction=True)
SEQ = re.compile(r'data-frame-seq="(\d+)"')


def session_cookie(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


async def open_socket(
    table_id: int, user: Any, *, origin: bytes = b"http://127.0.0.1", resume: int | None = 0
) -> tuple[WebsocketCommunicator, bool, Any]:
    cookie = await database_sync_to_async(session_cookie)(user)
    comm = WebsocketCommunicator(
        application,
        f"/ws/tables/{table_id}/",
        headers=[(b"cookie", f"sessionid={cookie}".encode()), (b"origin", origin), (b"host", b"127.0.0.1")],
    )
    connected, code = await comm.connect()
    if connected and resume is not None:
        await comm.send_to(text_data=json.dumps({"type": "resume", "after": resume}))
    return comm, connected, code


async def frames_until(comm: WebsocketCommunicator, needle: str, timeout: float = 3) -> list[str]:
    """Event frames (those with a seq) received until one contains ``needle``."""
    frames: list[str] = []
    while True:
        message = await comm.receive_output(timeout=timeout)
        assert message["type"] == "websocket.send", message
        text = message["text"]
        if SEQ.search(text):
            frames.append(text)
        if needle in text:
            return frames


def seqs(frames: list[str]) -> list[int]:
    return [int(SEQ.search(f).group(1)) for f in frames]  # type: ignore[union-attr]


async def act(fn: Any, **kwargs: Any) -> Any:
    return await database_sync_to_async(fn)(**kwargs)


async def test_two_sockets_get_the_same_events_in_the_same_order(table, rng) -> None:
    a, ok_a, _ = await open_socket(table.row.pk, table.ann.user)
    b, ok_b, _ = await open_socket(table.row.pk, table.bob.user)
    assert ok_a and ok_b
    for i in range(5):
        await act(services.chat_post, table=table.row, actor=table.ann, text=f"line {i}")
        await act(services.dice_roll, table=table.row, actor=table.bob, notation="3d6",
                  mode="public", rng=rng)
    await act(services.chat_post, table=table.row, actor=table.gm, text="END")
    frames_a = await frames_until(a, "END")
    frames_b = await frames_until(b, "END")
    assert seqs(frames_a) == seqs(frames_b)
    assert seqs(frames_a) == sorted(set(seqs(frames_a)))  # in order, none twice
    assert frames_a == frames_b
    last = await database_sync_to_async(lambda: Event.objects.filter(table=table.row).count())()
    assert seqs(frames_a)[-1] == last
    await a.disconnect()
    await b.disconnect()


async def test_a_gm_only_roll_reaches_the_gm_only(table, rng) -> None:
    sockets = {}
    for name in ("gm", "ann", "watcher"):
        comm, ok, _ = await open_socket(table.row.pk, getattr(table, name).user)
        assert ok
        sockets[name] = comm
    secret = await act(services.dice_roll, table=table.row, actor=table.gm, notation="1d20+100",
                       mode="gm", rng=rng)
    marker = await act(services.chat_post, table=table.row, actor=table.gm, text="MARKER")
    gm_frames = await frames_until(sockets["gm"], "MARKER")
    assert secret.seq in seqs(gm_frames)
    total = str(secret.private["roll"]["total"])
    assert any(f">{total}<" in f for f in gm_frames)
    for name in ("ann", "watcher"):
        frames = await frames_until(sockets[name], "MARKER")
        assert not any("1d20+100" in f for f in frames)
        # not even that it happened: the next line is numbered as if the roll never was
        assert seqs(frames)[-1] == marker.seq - 1 == marker.public_no
    for comm in sockets.values():
        await comm.disconnect()


async def test_replay_after_a_drop_fills_the_gap_exactly(table, rng) -> None:
    steady, _, _ = await open_socket(table.row.pk, table.bob.user)
    dropped, _, _ = await open_socket(table.row.pk, table.ann.user)
    await act(services.chat_post, table=table.row, actor=table.gm, text="MARK-BEFORE")
    seen_before = await frames_until(dropped, "MARK-BEFORE")
    await dropped.disconnect()
    for i in range(4):
        await act(services.dice_roll, table=table.row, actor=table.bob, notation="1d100",
                  mode="public", rng=rng)
        await act(services.dice_roll, table=table.row, actor=table.gm, notation="1d6",
                  mode="gm", rng=rng)  # invisible to both players
    await act(services.chat_post, table=table.row, actor=table.gm, text="MARK-AFTER")
    steady_frames = await frames_until(steady, "MARK-AFTER")
    back, ok, _ = await open_socket(table.row.pk, table.bob.user, resume=None)
    assert ok
    reopened, _, _ = await open_socket(table.row.pk, table.ann.user, resume=seqs(seen_before)[-1])
    replayed = await frames_until(reopened, "MARK-AFTER")
    # Bob's and Ann's views of public events are the same HTML: compare them directly.
    expected = [f for f in steady_frames if int(SEQ.search(f).group(1)) > seqs(seen_before)[-1]]
    assert replayed == expected
    assert len(replayed) == 5
    for comm in (steady, back, reopened):
        await comm.disconnect()


async def test_a_lost_broadcast_is_read_from_the_log(table) -> None:
    comm, _, _ = await open_socket(table.row.pk, table.ann.user)
    with mock.patch.object(broadcast, "event_committed"):  # the layer loses this one
        lost = await act(services.chat_post, table=table.row, actor=table.gm, text="LOST")
    await act(services.chat_post, table=table.row, actor=table.gm, text="NEXT")
    frames = await frames_until(comm, "NEXT")
    assert seqs(frames)[-2:] == [lost.seq, lost.seq + 1]
    assert "LOST" in frames[-2]
    await comm.disconnect()


async def test_too_far_behind_gets_a_snapshot(table, settings) -> None:
    settings.TABLETOP_REPLAY_LIMIT = 3
    for i in range(6):
        await act(services.chat_post, table=table.row, actor=table.gm, text=f"old {i}")
    comm, _, _ = await open_socket(table.row.pk, table.ann.user, resume=0)
    message = await comm.receive_output(timeout=3)
    while 'data-frame="snapshot"' not in message["text"]:
        message = await comm.receive_output(timeout=3)
    assert 'id="log" hx-swap-oob="true"' in message["text"]
    assert "old 5" in message["text"]
    await comm.disconnect()


async def test_a_removed_member_socket_is_closed(table) -> None:
    comm, ok, _ = await open_socket(table.row.pk, table.ann.user)
    assert ok
    await act(services.membership_remove, target=table.ann, actor=table.gm)
    while True:
        message = await comm.receive_output(timeout=3)
        if message["type"] == "websocket.close":
            break
    assert message["code"] == 4403
    again, ok, code = await open_socket(table.row.pk, table.ann.user)
    assert not ok


async def test_a_foreign_origin_is_refused(table) -> None:
    comm, ok, _ = await open_socket(table.row.pk, table.ann.user, origin=b"http://evil.example")
    assert not ok


async def test_a_stranger_is_refused(table) -> None:
    stranger = await database_sync_to_async(get_user_model().objects.create_user)("stranger", password="x" * 12)
    comm, ok, code = await open_socket(table.row.pk, stranger)
    assert not ok and code == 4403
    comm, ok, code = await open_socket(99999, table.ann.user)
    assert not ok


async def test_a_socket_without_a_live_session_is_refused(table) -> None:
    """No cookie, a made-up session key, or the session of a GM whose password has since
    changed (the session's auth hash no longer matches): nobody is seated."""
    for cookie in (None, b"sessionid=not-a-session"):
        headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]
        comm = WebsocketCommunicator(application, f"/ws/tables/{table.row.pk}/",
                                     headers=headers + ([(b"cookie", cookie)] if cookie else []))
        connected, code = await comm.connect()
        assert not connected and code == 4403
    gm = table.gm.user
    cookie = await database_sync_to_async(session_cookie)(gm)

    def change_password() -> None:
        gm.set_password("a brand new password 2")
        gm.save()

    await database_sync_to_async(change_password)()
    comm = WebsocketCommunicator(application, f"/ws/tables/{table.row.pk}/", headers=[
        (b"cookie", f"sessionid={cookie}".encode()), (b"origin", b"http://127.0.0.1"),
        (b"host", b"127.0.0.1")])
    connected, code = await comm.connect()
    assert not connected and code == 4403


@pytest.mark.parametrize(
    "frame",
    ["hello", "{}", '{"type": "roll", "notation": "1d6"}', '{"type": "resume", "after": -1}',
     '{"type": "resume", "after": "3.x"}', '{"type": "resume", "after": true}', "x" * 5000, "[1, 2]",
     "[" * 5000],  # deeper than json's recursion limit: it had crashed the socket
)
async def test_an_unexpected_frame_gets_an_error_frame_and_changes_nothing(table, frame) -> None:
    comm, _, _ = await open_socket(table.row.pk, table.ann.user, resume=None)
    count = await database_sync_to_async(lambda: Event.objects.count())()
    await comm.send_to(text_data=frame)
    message = await comm.receive_output(timeout=3)
    while 'data-error="unexpected-frame"' not in message.get("text", ""):
        message = await comm.receive_output(timeout=3)
    assert 'role="alert"' in message["text"]
    assert await database_sync_to_async(lambda: Event.objects.count())() == count
    await comm.send_to(bytes_data=b"\x00\x01")
    message = await comm.receive_output(timeout=3)
    while 'data-error="unexpected-frame"' not in message.get("text", ""):
        message = await comm.receive_output(timeout=3)
    await comm.disconnect()


@pytest.mark.parametrize(
    "frame", [{"text_data": "x" * (consumers.MAX_FRAME + 1)},
              {"text_data": json.dumps({"type": "act", "ref": "r", "action": "chat.post",
                                        "args": {"text": "\u0000" * 3000}})},
              {"bytes_data": b"\x00" * (consumers.MAX_FRAME + 1)}],
    ids=["text", "escaped-act", "binary"],
)
async def test_a_frame_over_the_limit_closes_the_socket_with_1009_and_changes_nothing(table, frame) -> None:
    """It had been dropped with an error frame, and the socket left open for the next."""
    comm, _, _ = await open_socket(table.row.pk, table.ann.user)
    await frames_until(comm, 'data-frame-seq="4"')
    count = await database_sync_to_async(lambda: Event.objects.count())()
    await comm.send_to(**frame)
    message = await comm.receive_output(timeout=3)
    while message["type"] == "websocket.send":  # presence may come first
        assert "socket-error" not in message["text"]
        message = await comm.receive_output(timeout=3)
    assert message == {"type": "websocket.close", "code": 1009}
    assert await database_sync_to_async(lambda: Event.objects.count())() == count
    await comm.disconnect()


async def test_a_frame_at_the_limit_is_read() -> None:
    frame = json.dumps({"type": "resume", "after": 0}).ljust(consumers.MAX_FRAME)
    assert len(frame) == consumers.MAX_FRAME and consumers._frame(frame) == {"type": "resume", "after": 0}


@pytest.mark.parametrize(("beyond", "code"), [(1, "unknown-position"), (10**30, "unexpected-frame")])
async def test_a_resume_after_a_seq_beyond_the_log_gets_an_error_frame_and_nothing_else(table, beyond, code) -> None:
    """10**30 had been no answer at all; a seq the log does not have yet had been silence too,
    with the socket live from a cursor of its own."""
    comm, _, _ = await open_socket(table.row.pk, table.ann.user, resume=None)
    last = await database_sync_to_async(lambda: Event.objects.filter(table=table.row).count())()
    await comm.send_to(text_data=json.dumps({"type": "resume", "after": last + beyond}))
    assert await frames_until(comm, f'data-error="{code}"') == []
    await act(services.chat_post, table=table.row, actor=table.bob, text="while unresumed")
    await comm.send_to(text_data=json.dumps({"type": "resume", "after": 0}))
    frames = await frames_until(comm, "while unresumed")
    assert seqs(frames) == list(range(1, last + 2))
    await comm.disconnect()


async def test_presence_follows_open_sockets(table) -> None:
    watcher, _, _ = await open_socket(table.row.pk, table.watcher.user)
    ann, _, _ = await open_socket(table.row.pk, table.ann.user)
    pattern = f'id="presence-{table.ann.pk}" hx-swap-oob="true" class="presence online"'
    message = await watcher.receive_output(timeout=3)
    while pattern not in message["text"]:
        message = await watcher.receive_output(timeout=3)
    await ann.disconnect()
    offline = f'id="presence-{table.ann.pk}" hx-swap-oob="true" class="presence"'
    message = await watcher.receive_output(timeout=3)
    while offline not in message["text"]:
        message = await watcher.receive_output(timeout=3)
    assert not await database_sync_to_async(
        lambda: Membership.objects.get(pk=table.ann.pk).sockets.exists()
    )()
    await watcher.disconnect()


async def test_broadcasts_that_cross_are_delivered_in_order_once(table) -> None:
    """Two commits broadcast from two threads may arrive N+1 first: the socket holds N+1
    for N and delivers both in order, once each."""
    from tabletop.live.hub import hub

    comm, _, _ = await open_socket(table.row.pk, table.ann.user)
    await act(services.chat_post, table=table.row, actor=table.gm, text="READY")
    await frames_until(comm, "READY")
    caught: list = []
    with mock.patch.object(broadcast, "event_committed", caught.append):
        first = await act(services.chat_post, table=table.row, actor=table.gm, text="FIRST")
        second = await act(services.chat_post, table=table.row, actor=table.gm, text="SECOND")
    messages = [await database_sync_to_async(broadcast.event_message)(e) for e in caught]
    reads = mock.Mock(wraps=Delivery._read_since)
    with mock.patch.object(Delivery, "_read_since", lambda self, after: reads(self, after)):
        hub.publish(table.row.pk, messages[1])
        await asyncio.sleep(0.1)
        hub.publish(table.row.pk, messages[0])
        frames = await frames_until(comm, "SECOND")
    assert seqs(frames) == [first.seq, second.seq]
    assert reads.call_count == 0  # held for a moment, not read again from the log
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_ping_is_answered_with_a_pong_and_a_resume_ends_with_caught_up(connect, table) -> None:
    """Issue 23: the heartbeat's server side, and the frame after a replay the page says Live on."""
    socket = await connect(table.row, table.ann)
    await socket.seen('id="socket-caught-up"')
    await socket.send({"type": "ping"})
    assert (await socket.until('id="socket-pong"'))[-1] == '<p data-frame="pong" id="socket-pong" hidden></p>'
