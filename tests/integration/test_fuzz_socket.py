"""Hostile frames on the table's socket, from each seat: every one is answered (an error frame,
or an answer to its act), none crashes the socket, and a refusal changes nothing.

A table of hostile values crossed with every frame kind, not a long random search: the whole
module takes a few seconds."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async

from tabletop.actions import ACTIONS
from tabletop.live import consumers
from tabletop.models import CardPlacement, Character, Event, Membership

pytestmark = pytest.mark.django_db(transaction=True)

ANSWER = re.compile(r'id="socket-(?:ack|error)"')
HOSTILE_STRINGS: list[str] = [
    "", " ", "0", "-1", str(2**63), str(10**30), "9" * 5000, "1.5", "NaN", "²", "1d6" * 40,
    "\x00", "a\x00b", "\ud800", "\udfff x", "x" * 10240, "<script>alert(1)</script>",
    "\"><img src=x onerror=alert(1)>", "' OR 1=1 --", "\u202e\u200b", "🎲" * 500, "\r\n\t",
    "{{ table }}", "{% debug %}", "../../etc/passwd",
]
HOSTILE_VALUES: list[Any] = [
    None, True, False, 0, -1, 1.5, 10**30, -(10**30), float("inf"), [], ["1d6"], {}, {"a": "b"},
    [[[[]]]], "1d6",
]


def frames() -> list[str]:
    """Every kind of frame, each hostile somewhere; all but the last few are refused."""
    out: list[str] = ["", "{", "null", "[]", "1", '"resume"', "NaN", "[" * 5000, "{" * 3000,
                      '{"type": "resume", "after": NaN}', '{"type": "resume", "after": 1e400}',
                      '{"type": "resume", "after": -1e400}', '{"type": "resume", "after": 1.0}',
                      '{"type": "resume", "type": "act"}', '{"type": "resume", "after": 0, "after": "x"}',
                      '{"type": "act", "ref": "r", "action": "chat.post", "args": {"text": "\\ud800"}}',
                      '{"type": "act", "ref": "r", "action": "dice.roll", "args": {"notation": "\\udfff", '
                      '"mode": "public"}}',
                      '{"type": "act", "ref": "\\ud800", "action": "\\ud800", "args": {"\\ud800": "x"}}']
    for value in [*HOSTILE_VALUES, *HOSTILE_STRINGS[:12]]:
        out.append(json.dumps({"type": value, "after": 0}))
        if value not in (0, "0") or isinstance(value, bool):  # after 0 is a good resume: the replay answers
            out.append(json.dumps({"type": "resume", "after": value}))
        out.append(json.dumps({"type": "act", "ref": value, "action": "chat.post", "args": {"text": "hi"}}))
        out.append(json.dumps({"type": "act", "ref": "r1", "action": value, "args": {"text": "hi"}}))
        out.append(json.dumps({"type": "act", "ref": "r1", "action": "chat.post", "args": value}))
        out.append(json.dumps({"type": "act", "ref": "r1", "action": "dice.roll",
                               "args": {"notation": value, "mode": "public"}}))
    out.append(json.dumps({"type": "act", "ref": "r1", "action": "chat.post",
                           "args": {f"k{i}": "v" for i in range(1000)}}))
    for action in ("dice.roll", "chat.post", "__class__", "DICE.ROLL", "deck.create.x"):
        known = action in ("dice.roll", "chat.post")  # an unknown one is refused whatever its args
        for text in HOSTILE_STRINGS if known else HOSTILE_STRINGS[:2]:
            args = {"notation": text, "mode": "public", "text": text}
            out.append(json.dumps({"type": "act", "ref": "a.1", "action": action, "args": args},
                                  ensure_ascii=False))
            out.append(json.dumps({"type": "act", "ref": "a.2", "action": action,
                                   "args": {"notation": "1d6", "mode": text}}, ensure_ascii=False))
    for name, action in sorted(ACTIONS.items()):  # every action of the table, all its fields at once
        for text in HOSTILE_STRINGS:
            # an action with no platform form (a session's close) reads its system's fields
            fields = action.form.base_fields if action.form is not None else ("keep_1", "approving", "approve", "absent", "award")
            args = {field: text for field in fields}
            out.append(json.dumps({"type": "act", "ref": "a.3", "action": name, "args": args},
                                  ensure_ascii=False))
    return [f for f in out if len(f) <= consumers.MAX_FRAME]


def state() -> tuple:
    """What a refusal must leave as it was."""
    return (
        list(Event.objects.order_by("seq").values_list("table_id", "seq")),
        list(CardPlacement.objects.order_by("pk").values_list("pk", "pile_id", "position")),
        list(Character.objects.order_by("pk").values_list("pk", "name", "owner_id", "version")),
        list(Membership.objects.order_by("pk").values_list("pk", "display_name", "role", "removed_at")),
    )


async def answer_to(socket: Any, frame: str) -> str:
    """The frame that answers ``frame`` (an error frame or an act's answer); the socket must
    neither close nor fail."""
    await socket.comm.send_input({"type": "websocket.receive", "text": frame})  # "" too
    while True:
        message = await socket.comm.receive_output(timeout=5)
        assert message["type"] == "websocket.send", (frame[:200], message)
        text = message["text"]
        socket.received.append(text)
        if ANSWER.search(text):
            return text


@pytest.mark.parametrize("seat", ["gm", "ann", "watcher"])
async def test_no_hostile_frame_crashes_the_socket_and_a_refusal_changes_nothing(table, connect, seat) -> None:
    socket = await connect(table.row, getattr(table, seat))
    await socket.until('data-frame-seq="4"')
    read_state = database_sync_to_async(state)
    before = await read_state()
    for frame in frames():
        answer = await answer_to(socket, frame)
        assert "<script>" not in answer and "<img" not in answer, answer
        after = await read_state()
        if 'data-outcome="done"' not in answer:
            assert after == before, (frame[:200], answer)
        before = after
    # Each done action's event reached the feed as text, never as markup: the whole log again.
    last = await database_sync_to_async(
        lambda: Event.objects.filter(audience="everyone").order_by("seq").last().seq)()
    await socket.comm.send_to(text_data=json.dumps({"type": "resume", "after": 0}))
    await socket.until(f'data-frame-seq="{last}"')
    for text in socket.received:
        assert "<script>" not in text and "<img src=x" not in text
    await socket.close()


async def test_binary_frames_are_refused_and_change_nothing(table, connect) -> None:
    socket = await connect(table.row, table.ann)
    before = await database_sync_to_async(state)()
    for data in (b"", b"\x00", b"\xff\xfe", json.dumps({"type": "resume", "after": 0}).encode(),
                 bytes(range(256)) * 60):
        await socket.comm.send_input({"type": "websocket.receive", "bytes": data})
        while True:
            message = await socket.comm.receive_output(timeout=5)
            assert message["type"] == "websocket.send", message
            if 'data-error="unexpected-frame"' in message["text"]:
                break
    assert await database_sync_to_async(state)() == before
    await socket.close()

