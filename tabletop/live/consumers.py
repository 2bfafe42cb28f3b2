"""The table's socket: authenticate, check the seat, replay, then push live.

A client sends ``{"type": "resume", "after": "<position>"}`` first (answered, once the log is
replayed, with a "caught up" frame), may send rulers and pings as ``{"type": "mark", ...}``
frames (relayed to the others, never logged: tabletop/live/pointers.py), and take any action of the action table
(tabletop/actions.py: dice, chat, decks and cards, the game's moves and checks) as
``{"type": "act", ...}`` frames (tabletop/live/socket_actions.py), and send ``{"type": "ping"}`` when it has heard nothing for
a while (answered with a pong); every other change is an htmx POST. Anything else gets an error
frame and changes nothing.
"""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from tabletop import ids, selectors, services
from tabletop.feed import frames
from tabletop.feed.seat import seat_of
from tabletop.live import liveness, pointers, sink, socket_actions
from tabletop.live.broadcast import member_group
from tabletop.live.delivery import CLOSE_FORBIDDEN, Delivery
from tabletop.live.hub import hub
from tabletop.models import Scene
from tabletop.permissions import Verb, can

CLOSE_TOO_BIG = 1009  # RFC 6455: a message too big to process
MAX_FRAME = 16384  # a chat line of the longest allowed fits, every character escaped


class TableConsumer(AsyncWebsocketConsumer):
    """The socket: who it is, what it may send; what it receives, and in what order, is its
    ``delivery``'s (live/delivery.py)."""

    table_id: int
    member_id: int
    delivery: Delivery

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
        self.marks = pointers.Bucket()
        self.ruler_public = self.ruler_held = False  # a ruler held; the others' pages have it
        self.delivery = Delivery(table_id=self.table_id, member_id=member.pk, viewer=self.viewer,
                                 seat=seat_of(member), send=self.send, close=self._close_with)
        # Table events and presence come through this process's hub; the member's own
        # group only says "you were removed".
        self.groups_joined = [member_group(member.pk)]
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await hub.join(self.table_id, self.delivery)
        await self.accept()
        self.delivery.write = sink.writer(self.base_send)  # a faster writer, where one is installed
        await database_sync_to_async(services.presence_connect)(
            member=member, channel_name=self.channel_name, process=liveness.PROCESS
        )
        await liveness.socket_opened()

    async def _close_with(self, code: int) -> None:
        await self.close(code=code)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "delivery"):
            self.delivery.stop()
            if self.ruler_held:  # a ruler held as the socket went: the others' goes too
                self._ruler_gone(gm_only=not self.ruler_public)
            await hub.leave(self.table_id, self.delivery)
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
            await self.send(frames.PONG)
            return
        if frame is not None and frame.get("type") == "resume":
            position = _resume_point(frame)
            if position is not None and await self.delivery.resume(position):
                return
            if position is not None:
                await self.send(frames.error_frame(
                    "That is no place in this table's log: reload the page.", "unknown-position"
                ))
                return
        if frame is not None and frame.get("type") == "mark":
            await self.mark(frame)
            return
        if frame is not None and frame.get("type") == "act":
            request = socket_actions.parse(frame)
            if request is not None:
                await self.act(request)
                return
        await self.send(
            frames.error_frame(
                'This socket takes {"type": "resume", "after": "<position>"} and '
                '{"type": "act", "ref": …, "action": …, "args": {…}} and {"type": "mark", …}.',
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
            frames.answer_frame(
                outcome.ref, position=outcome.position, message=outcome.error, code=outcome.code,
                field=outcome.field,
            )
        )

    # Rulers and pings (live/pointers.py): relayed, never logged

    async def mark(self, frame: dict[str, Any]) -> None:
        if not can(self.viewer.standing, Verb.TOKEN_MOVE):
            await self.send(frames.error_frame("Only the GM and the players measure and ping: a spectator watches.",
                                               "not-allowed"))
            return
        if not self.marks.take():
            return  # beyond the rate: dropped without a word (the page never sends so many)
        try:
            mark = pointers.parse(frame)
            if mark.done:
                gm_only = True  # decided below
            else:
                scene = await database_sync_to_async(_shown_scene)(self.table_id)
                gm_only = await database_sync_to_async(pointers.placed)(mark, scene)
        except pointers.Refused as refused:
            await self.send(frames.error_frame(refused.message, refused.code))
            return
        if mark.kind == "ruler" and mark.done:
            gm_only = not self.ruler_public  # it goes from the pages that have it
            self.ruler_public = self.ruler_held = False
        elif mark.kind == "ruler":
            if gm_only and self.ruler_public:  # dragged into the fog: the others' ruler goes
                self._ruler_gone(gm_only=False)
            self.ruler_public, self.ruler_held = not gm_only, True
        text = pointers.frame(mark, member_id=self.member_id, name=self.member.display_name)
        hub.publish(self.table_id, pointers.message(self.table_id, self.member_id, text, gm_only=gm_only))

    def _ruler_gone(self, *, gm_only: bool) -> None:
        text = pointers.frame(pointers.Mark("ruler", 0, (), True), member_id=self.member_id,
                              name=self.member.display_name)
        hub.publish(self.table_id, pointers.message(self.table_id, self.member_id, text, gm_only=gm_only))

    async def member_removed(self, message: dict[str, Any]) -> None:
        await self.close(code=CLOSE_FORBIDDEN)


def _shown_scene(table_id: int) -> Scene | None:
    return Scene.objects.filter(table_id=table_id, shown=True).first()


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
