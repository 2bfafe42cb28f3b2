"""One socket's ordered delivery of its table's log, live and replayed: the one path every
event takes from the hub (or a replay) to the socket's wire.

A socket is brought up to a position by a replay (``resume``: its log lines from the database,
then its panel once), and from there takes each event of the table in seq order exactly once:
``offer`` writes the very next event at once when nothing is in its way (the busy table's
usual case: no coroutine, no lock); otherwise ``deliver`` takes its turn, holds an event that
came ahead of a gap (two commits' broadcasts may cross) and, when the gap outlasts
``GAP_WAIT_S``, reads it from the log (the channel layer is lossy). Each frame is the socket's
seat's own when the event drew one for it, else its reading's; it is written through the live
feed's sink (live/sink.py) or Channels' ``send``.

Reads of the database run in a worker thread (``database_sync_to_async``); everything else
runs on the event loop that holds the socket.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings

from tabletop import selectors
from tabletop.feed import frames as feed
from tabletop.feed.panels import current_frame
from tabletop.live import sink
from tabletop.models import Membership, Table
from tabletop.feed.seat import Reading, Seat, Viewer, reading_for

# Broadcasts of two close commits leave from two request threads and may cross: a socket
# that sees seq N+1 before N holds it this long for N before reading the gap from the log.
GAP_WAIT_S = 1.0
CLOSE_FORBIDDEN = 4403


class Delivery:
    """The ordered delivery of one socket: ``cursor`` is the last seq it has been brought up
    to (None until its first resume), ``held`` the events that came ahead of a gap."""

    def __init__(self, *, table_id: int, member_id: int, viewer: Viewer, seat: Seat,
                 send: Callable[[str], Awaitable[None]], close: Callable[[int], Awaitable[None]],
                 write: sink.Writer | None = None) -> None:
        self.table_id = table_id
        self.member_id = member_id
        self.viewer = viewer
        self.seat = seat
        self.send = send
        self.close = close
        self.write = write
        self.cursor: int | None = None
        self.held: dict[int, dict[str, Any]] = {}
        self.gap_timer: asyncio.TimerHandle | None = None
        self.turn = asyncio.Lock()  # a resume, a delivery and the gap timer take turns

    def stop(self) -> None:
        if self.gap_timer is not None:
            self.gap_timer.cancel()
            self.gap_timer = None

    # A replay

    async def resume(self, position: str) -> bool:
        """Brings the socket up from the viewer's own ``position``, then says it is caught up;
        False when the log has no such place."""
        async with self.turn:
            after = await database_sync_to_async(selectors.seq_at)(self.viewer, self.table_id, position)
            if after is None:
                return False
            await self.catch_up(after)
            if self.cursor is not None:
                await self._drain()
                await self.send(feed.CAUGHT_UP)  # the page says Live from here
            return True

    async def catch_up(self, after: int) -> None:
        frames, upto, still_member = await database_sync_to_async(self._read_since)(after)
        if not still_member:
            await self.close(CLOSE_FORBIDDEN)
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
            return [feed.error_frame(
                "This table's log has no such seq: resume after the last one you rendered.",
                "unexpected-frame",
            )], None, True
        seen = selectors.events_for(self.viewer, self.table_id, after=after, upto=upto)
        if len(seen) > settings.TABLETOP_REPLAY_LIMIT:
            table = Table.objects.get(pk=self.table_id)
            return [feed.snapshot_frame(selectors.table_state(table, member))], upto, True
        frames = [feed.frame_for(s.event, s.reading, self.seat) for s in seen]
        if frames:  # the log lines, then the seat's panel as it is now (one, not one per event)
            frames.append(current_frame(Table.objects.get(pk=self.table_id), member))
        return [f for f in frames if f], upto, True

    # Live

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
        reading = self.reading(message)
        if reading is not None:
            key, text = self.frame_of(message, reading)
            self.write(message, key, text)
        self.cursor += 1
        return True

    async def deliver(self, message: dict[str, Any]) -> None:
        """A table's message from this process's hub. A socket busy reading the log takes
        an event in a task of its own, so the fan-out to the rest of the table does not wait."""
        if message["type"] == "presence.changed":
            await self.shared(message, "presence", message["frame"])
        elif message["type"] == "relay.mark":  # a ruler or a ping (live/pointers.py): never its author's
            if message["from"] != self.member_id and (not message["gm_only"] or self.seat.role == "gm"):
                await self.shared(message, "mark", message["frame"])
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

    def reading(self, message: dict[str, Any]) -> Reading | None:
        return reading_for(self.viewer, audience=message["audience"],
                           private_audience=message["private_audience"], owner_id=message["owner_id"])

    def frame_of(self, message: dict[str, Any], reading: Reading) -> tuple[str, str]:
        """This socket's frame of a table event, and the key it is shared under: the seat's own
        when it has one (its panel, its controls), else its reading's."""
        own = message.get("seats", {}).get(self.seat.key)
        return (f"seat:{self.seat.key}", own) if own is not None else (reading, message["frames"][reading])

    async def shared(self, message: dict[str, Any], key: str, text: str) -> None:
        """Sends a frame that other sockets of the table get too: framed once for all of
        them where the server allows (live/sink.py), else as any frame."""
        if self.write is not None:
            self.write(message, key, text)
        else:
            await self.send(text)

    async def _push(self, message: dict[str, Any]) -> None:
        reading = self.reading(message)
        if reading is not None:
            key, text = self.frame_of(message, reading)
            await self.shared(message, key, text)
        self.cursor = int(message["seq"])
        if message.get("removed_member_id") == self.member_id:
            await self.close(CLOSE_FORBIDDEN)

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
