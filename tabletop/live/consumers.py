"""The table's socket: authenticate, check the seat, replay, then push live.

A client sends ``{"type": "resume", "after": "<position>"}`` first (answered, once the log is
replayed, with a "caught up" frame), and may then take any action of the action table
(tabletop/actions.py: dice, chat, decks and cards) as ``{"type": "act", ...}`` frames
(tabletop/live/socket_actions.py), and send ``{"type": "ping"}`` when it has heard nothing for
a while (answered with a pong); every other change is an htmx POST. Anything else gets an error
frame and changes nothing.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from tabletop import ids, panels, rendering, selectors, services
from tabletop.live import liveness, sink, socket_actions
from tabletop.live.broadcast import member_group
from tabletop.live.hub import hub
from tabletop.models import Table, Membership
from tabletop.permissions import Reading, Verb, can, reading_for

CLOSE_FORBIDDEN = 4403
CLOSE_TOO_BIG = 1009  # RFC 6455: a message too big to process
MAX_FRAME = 16384  # a chat line of the longest allowed fits, every character escaped
# Broadcasts of two close commits leave from two request threads and may cross: a socket
# that sees seq N+1 before N holds it this long for N before reading the gap from the log.
GAP_WAIT_S = 1.0


class TableConsumer(AsyncWebsocketConsumer):
    table_id: int
    member_id: int
    cursor: int | None = None  # the last seq this socket has been brought up to
    write: sink.Writer | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.turn = asyncio.Lock()  # handlers and the gap timer take turns
        self.held: dict[int, dict[str, Any]] = {}  # events that arrived ahead of a gap
        self.gap_timer: asyncio.TimerHandle | None = None

    async def connect(self) -> None:
        table_id = ids.parse_id(self.scope["url_route"]["kwargs"]["table_id"])
        self.table_id = table_id or 0
        member = None if table_id is None else await database_sync_to_async(
            selectors.membership_for
        )(table_id, self.scope["user"])
        self.viewer = selectors.viewer_of(member)
        if member is None or not can(self.viewer.standing, Verb.WATCH):
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.member = member
        self.member_id = member.pk
        self.seat = panels.page_seat(member)
        # Table events and presence come through this process's hub; the member's own
        # group only says "you were removed".
        self.groups_joined = [member_group(member.pk)]
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await hub.join(self.table_id, self)
        await self.accept()
        self.write = sink.writer(self.base_send)  # a faster writer, where one is installed
        await database_sync_to_async(services.presence_connect)(
            member=member, channel_name=self.channel_name, process=liveness.PROCESS
        )
        await liveness.socket_opened()

    async def disconnect(self, code: int) -> None:
        if self.gap_timer is not None:
            self.gap_timer.cancel()
        if hasattr(self, "member_id"):
            await hub.leave(self.table_id, self)
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        if hasattr(self, "member_id"):
            await liveness.socket_closed()
            await database_sync_to_async(services.presence_disconnect)(
                channel_name=self.channel_name
            )

    async def dispatch(self, message: dict[str, Any]) -> None:
        """A frame from the client goes straight to its handler. Channels first closes stale
        database connections through a worker thread before every handler, but a frame's
        handler does no database work on this thread: an act runs on socket_actions' writer
        threads, which keep their own connection, and a resume reads through
        database_sync_to_async, which closes stale connections itself."""
        if message["type"] == "websocket.receive":
            await self.websocket_receive(message)
        else:
            await super().dispatch(message)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if len(text_data or bytes_data or "") > MAX_FRAME:
            # Closed, not answered: a client that sends such a frame is broken or hostile, and
            # an answer would let it send the next at once. The page reconnects and resumes.
            if not sink.close(self.base_send, CLOSE_TOO_BIG, "frame too big"):
                await self.close(code=CLOSE_TOO_BIG)
            return
        frame = _frame(text_data)
        if frame is not None and frame.get("type") == "ping":
            # the page's heartbeat: it says Reconnecting when no answer comes (daphne pings the
            # page the other way, and drops a socket that stops answering)
            await self.send(rendering.PONG)
            return
        if frame is not None and frame.get("type") == "resume":
            position = _resume_point(frame)
            if position is not None:
                async with self.turn:
                    after = await database_sync_to_async(selectors.seq_at)(
                        self.viewer, self.table_id, position
                    )
                    if after is not None:
                        await self.catch_up(after)
                        if self.cursor is not None:
                            await self._drain()
                            await self.send(rendering.CAUGHT_UP)  # the page says Live from here
                        return
                await self.send(rendering.error_frame(
                    "That is no place in this table's log: reload the page.", "unknown-position"
                ))
                return
        if frame is not None and frame.get("type") == "act":
            request = socket_actions.parse(frame)
            if request is not None:
                await self.act(request)
                return
        await self.send(
            rendering.error_frame(
                'This socket takes {"type": "resume", "after": "<position>"} and '
                '{"type": "act", "ref": …, "action": …, "args": {…}}.',
                "unexpected-frame",
            )
        )

    async def act(self, request: socket_actions.Request) -> None:
        checked = socket_actions.check(request, self.member)
        if isinstance(checked, socket_actions.Outcome):
            outcome = checked
        else:
            action, data = checked
            outcome = await socket_actions.run(request.ref, action, data, self.member)
        await self.send(
            rendering.answer_frame(
                outcome.ref, position=outcome.position, message=outcome.error, code=outcome.code,
                field=outcome.field,
            )
        )

    async def catch_up(self, after: int) -> None:
        frames, upto, still_member = await database_sync_to_async(self._read_since)(after)
        if not still_member:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        for frame in frames:
            await self.send(frame)
        if upto is not None:
            self.cursor = max(self.cursor or 0, upto)

    def _read_since(self, after: int) -> tuple[list[str], int | None, bool]:
        """The frames that bring this socket up from ``after``, the seq they reach (None, with
        an error frame, when the log has no seq ``after``), and whether the seat still holds."""
        member = Membership.objects.filter(pk=self.member_id).first()
        if member is None or member.removed_at is not None:
            return [], after, False
        upto = selectors.last_seq(self.table_id)
        if after > upto:
            return [rendering.error_frame(
                "This table's log has no such seq: resume after the last one you rendered.",
                "unexpected-frame",
            )], None, True
        seen = selectors.events_for(self.viewer, self.table_id, after=after, upto=upto)
        if len(seen) > settings.TABLETOP_REPLAY_LIMIT:
            table = Table.objects.get(pk=self.table_id)
            return [rendering.snapshot_frame(selectors.table_state(table, member))], upto, True
        frames = [rendering.frame_for(s.event, s.reading, self.seat) for s in seen]
        if frames:  # the log lines, then the seat's panel as it is now (one, not one per event)
            frames.append(panels.current_frame(Table.objects.get(pk=self.table_id), member))
        return [f for f in frames if f], upto, True

    def offer(self, message: dict[str, Any]) -> bool:
        """Writes the table's next event at once, without a turn or an await, when nothing
        else can be in its way (the socket writes frames directly, is idle, resumed, holds
        nothing back, and this is the very next seq); False leaves it to ``deliver``. The
        usual case of a busy table: a coroutine and a lock per socket per event were most
        of what its fan-out cost beyond the writes (bench/latency)."""
        if (
            self.write is None
            or message["type"] != "table.event"
            or self.turn.locked()
            or self.held
            or self.cursor is None
            or int(message["seq"]) != self.cursor + 1
            or message.get("removed_member_id") is not None
        ):
            return False
        reading = self._reading(message)
        if reading is not None:
            key, text = self._frame_of(message, reading)
            self.write(message, key, text)
        self.cursor += 1
        return True

    async def deliver(self, message: dict[str, Any]) -> None:
        """A table's message from this process's hub. A socket busy reading the log takes
        an event in a task of its own, so the fan-out to the rest of the table does not wait."""
        if message["type"] == "presence.changed":
            await self.presence_changed(message)
        elif self.turn.locked():
            asyncio.ensure_future(self.table_event(message))
        else:
            await self.table_event(message)

    async def table_event(self, message: dict[str, Any]) -> None:
        async with self.turn:
            seq = int(message["seq"])
            if self.cursor is None or seq <= self.cursor:
                return  # not resumed yet (the resume will read it), or already sent
            if seq > self.cursor + 1:
                self.held[seq] = message  # N+1 before N: wait a moment for N
                if self.gap_timer is None:
                    loop = asyncio.get_running_loop()
                    self.gap_timer = loop.call_later(GAP_WAIT_S, self._gap_outlasted)
                return
            await self._push(message)
            await self._drain()

    def _reading(self, message: dict[str, Any]) -> Reading | None:
        return reading_for(
            self.viewer,
            audience=message["audience"],
            private_audience=message["private_audience"],
            owner_id=message["owner_id"],
        )

    def _frame_of(self, message: dict[str, Any], reading: Reading) -> tuple[str, str]:
        """This socket's frame of a table event, and the key it is shared under: the seat's own
        when it has one (its panel, its controls), else its reading's."""
        own = message.get("seats", {}).get(self.seat.key)
        return (f"seat:{self.seat.key}", own) if own is not None else (reading, message["frames"][reading])

    async def _push(self, message: dict[str, Any]) -> None:
        reading = self._reading(message)
        if reading is not None:
            key, text = self._frame_of(message, reading)
            await self._send_shared(message, key, text)
        self.cursor = int(message["seq"])
        if message.get("removed_member_id") == self.member_id:
            await self.close(code=CLOSE_FORBIDDEN)

    async def _drain(self) -> None:
        """Pushes held events that now follow on; stops waiting once nothing is held."""
        assert self.cursor is not None
        while self.cursor + 1 in self.held:
            await self._push(self.held.pop(self.cursor + 1))
        self.held = {seq: m for seq, m in self.held.items() if seq > self.cursor}
        if not self.held and self.gap_timer is not None:
            self.gap_timer.cancel()
            self.gap_timer = None

    def _gap_outlasted(self) -> None:
        self.gap_timer = None
        asyncio.ensure_future(self._fill_gap())

    async def _fill_gap(self) -> None:
        """The missing event never came through the layer (it is lossy): the log has it."""
        async with self.turn:
            if self.held and self.cursor is not None:
                await self.catch_up(self.cursor)
                await self._drain()

    async def member_removed(self, message: dict[str, Any]) -> None:
        await self.close(code=CLOSE_FORBIDDEN)

    async def presence_changed(self, message: dict[str, Any]) -> None:
        await self._send_shared(message, "presence", message["frame"])

    async def _send_shared(self, message: dict[str, Any], key: str, text: str) -> None:
        """Sends a frame that other sockets of the table get too: framed once for all of
        them where the server allows (live/sink.py), else as any frame."""
        if self.write is not None:
            self.write(message, key, text)
        else:
            await self.send(text)


def _frame(text_data: str | None) -> dict[str, Any] | None:
    if text_data is None:
        return None
    try:
        frame = json.loads(text_data)
    except (ValueError, RecursionError):  # "[[[[…": a few thousand brackets fit in a frame
        return None
    return frame if isinstance(frame, dict) else None


def _resume_point(frame: dict[str, Any]) -> str | None:
    """The viewer's own position a resume frame names (``Event.position``: ``"12"`` or
    ``"12.2"``; a whole number is taken as one too), or None when it names none."""
    after = frame.get("after")
    if isinstance(after, bool) or not isinstance(after, (int, str)):
        return None
    position = str(after)
    return position if selectors.POSITION.fullmatch(position) else None
