"""One fan-out per process: a table's event reaches a process once and is pushed to each of
its sockets there in turn.

Through a channel layer's groups, every socket is a member of its table's group: an event to
N sockets costs N queue messages, N wake-ups and N dispatches (and with Redis, N messages in
and out of Redis, each packed and unpacked). Here each process registers its sockets by
table, and:

- with the one-process layer (this process holds every socket), the committing thread hands
  the event, rendered once per reading, to the event loop once, without waiting;
- with a shared layer (Redis, several processes), the process's one channel is the group's
  member, once per table it serves; an event is one message per process, read by one task.

Either way one task offers the event to each of the table's sockets in turn. Measured in
bench/latency and bench/throughput (docs/performance.md).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import weakref
from collections import defaultdict, deque
from collections.abc import Callable
from typing import Any, Protocol

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


logger = logging.getLogger(__name__)
REFRESH_S = 60.0  # groups expire in the layer, and a restarted Redis forgets them


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


class Listener(Protocol):
    def offer(self, message: dict[str, Any]) -> bool:
        """Takes a table's message at once if it can, without awaiting; False if not."""

    async def deliver(self, message: dict[str, Any]) -> None:
        """Takes a table's message (an event, presence) now, or queues it for itself."""


class Hub:
    def __init__(self) -> None:
        self._guard = threading.Lock()  # publish comes from request threads
        self._tables: dict[int, dict[Listener, asyncio.AbstractEventLoop]] = defaultdict(dict)
        # With a shared layer: this process's channel, the tables it is subscribed to, and
        # the task that reads the channel (all on the event loop that holds the sockets).
        self._channel = ""
        self._subscribed: set[int] = set()
        self._reader: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None  # the loop holding the sockets

    def listeners(self, table_id: int) -> int:
        with self._guard:
            return len(self._tables.get(table_id, {}))

    async def join(self, table_id: int, listener: Listener) -> None:
        loop = asyncio.get_running_loop()
        with self._guard:
            self._tables[table_id][listener] = loop
            self._loop = loop
        if not serves_everyone():
            await self._subscribe(table_id)

    async def leave(self, table_id: int, listener: Listener) -> None:
        with self._guard:
            listeners = self._tables.get(table_id)
            if listeners is not None:
                listeners.pop(listener, None)
                if not listeners:
                    del self._tables[table_id]
            last = table_id not in self._tables
        if last and table_id in self._subscribed:
            self._subscribed.discard(table_id)
            try:
                await get_channel_layer().group_discard(table_group(table_id), self._channel)
            except Exception:  # the layer is down: the group goes with it, or expires
                logger.warning("leaving %s failed", table_group(table_id), exc_info=True)

    def publish(self, table_id: int, message: dict[str, Any]) -> None:
        """Sends a table's message to every socket of the table; from any thread, never
        raising (the log is the truth: a socket that misses it reads it on its next gap)."""
        if serves_everyone():
            self.deliver_here(table_id, message)
        else:
            self.send_to_group(table_group(table_id), message)

    def send_to_group(self, group: str, message: dict[str, Any]) -> None:
        """Sends through the channel layer from any thread, without waiting and never raising.
        It runs on the event loop that holds the sockets: there the layer keeps its
        connections. ``async_to_sync`` from a worker thread runs a new event loop for each
        call, and channels-redis opens new connections for each new loop (it cost ~15 ms of
        CPU per action; bench/throughput --servers)."""
        try:
            group_send = get_channel_layer().group_send
            loop = self._loop
            if loop is not None and not loop.is_closed():
                future = asyncio.run_coroutine_threadsafe(group_send(group, message), loop)
                future.add_done_callback(_log_failure)
            else:  # a process with no socket yet
                async_to_sync(group_send)(group, message)
        except Exception:
            logger.warning("broadcast to %s failed", group, exc_info=True)

    def deliver_here(self, table_id: int, message: dict[str, Any]) -> None:
        """Hands the message to each loop holding sockets of the table; never waits."""
        with self._guard:
            by_loop: dict[asyncio.AbstractEventLoop, list[Listener]] = defaultdict(list)
            for listener, loop in self._tables.get(table_id, {}).items():
                by_loop[loop].append(listener)
        for loop, listeners in by_loop.items():
            try:
                hand_to(loop, _start_fan_out, listeners, message)
            except RuntimeError:
                pass  # that loop has closed: its sockets are gone

    # With a shared layer

    async def _subscribe(self, table_id: int) -> None:
        loop = asyncio.get_running_loop()
        if self._reader is None or self._reader.done() or self._reader.get_loop() is not loop:
            # the layer's usual prefix: channels-redis reads every channel of a process
            # through one list per prefix, shared by whoever holds its receive lock
            self._channel = await get_channel_layer().new_channel()
            self._subscribed = set()
            self._reader = loop.create_task(self._read())
        if table_id not in self._subscribed:
            self._subscribed.add(table_id)
            await get_channel_layer().group_add(table_group(table_id), self._channel)

    async def _read(self) -> None:
        """Reads the process's channel for good. Never with a timeout: channels-redis drops
        what it buffered for a channel whose receive is cancelled."""
        layer = get_channel_layer()
        refresher = asyncio.ensure_future(self._refresh_now_and_then())
        try:
            while True:
                try:
                    message = await layer.receive(self._channel)
                except asyncio.CancelledError:
                    raise
                except Exception:  # the layer is down: wait, then subscribe again
                    logger.warning("the hub's channel failed; subscribing again", exc_info=True)
                    await asyncio.sleep(1.0)
                    while not await self._refresh():
                        await asyncio.sleep(1.0)
                    continue
                if "table_id" in message:
                    self.deliver_here(int(message["table_id"]), message)
        finally:
            refresher.cancel()

    async def _refresh_now_and_then(self) -> None:
        while True:
            await asyncio.sleep(REFRESH_S)
            await self._refresh()

    async def _refresh(self) -> bool:
        """Joins again every group this process serves; True when the layer took them all."""
        layer = get_channel_layer()
        try:
            for table_id in list(self._subscribed):
                await layer.group_add(table_group(table_id), self._channel)
        except Exception:
            logger.warning("subscribing again failed", exc_info=True)
            return False
        return True


class _Inbox:
    """Calls handed to one event loop from other threads, with one wake-up for however many
    arrive before the loop gets to them. ``call_soon_threadsafe`` writes to the loop's
    wake-up socket on every call: two system calls per socket action (its answer, its
    event), 9 % of the writer thread's time under bench/throughput."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.calls: deque[tuple[Callable[..., None], tuple[Any, ...]]] = deque()
        self.lock = threading.Lock()
        self.woken = False

    def put(self, call: Callable[..., None], args: tuple[Any, ...]) -> None:
        with self.lock:
            self.calls.append((call, args))
            if self.woken:
                return
            self.woken = True
        try:
            self.loop.call_soon_threadsafe(self._run)
        except RuntimeError:
            with self.lock:
                self.woken = False
            raise

    def _run(self) -> None:
        with self.lock:
            calls, self.calls = self.calls, deque()
            self.woken = False
        for call, args in calls:
            try:
                call(*args)
            except Exception:
                logger.warning("a call handed to the event loop failed", exc_info=True)


_inboxes: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Inbox] = weakref.WeakKeyDictionary()
_inboxes_guard = threading.Lock()


def hand_to(loop: asyncio.AbstractEventLoop, call: Callable[..., None], *args: Any) -> None:
    """Runs ``call(*args)`` on ``loop`` soon, from any thread, in the order handed; raises
    RuntimeError when the loop has closed."""
    with _inboxes_guard:
        inbox = _inboxes.get(loop)
        if inbox is None:
            inbox = _inboxes[loop] = _Inbox(loop)
    inbox.put(call, args)


def _log_failure(future: Any) -> None:
    if not future.cancelled() and future.exception() is not None:
        logger.warning("broadcast failed", exc_info=future.exception())


def _start_fan_out(listeners: list[Listener], message: dict[str, Any]) -> None:
    asyncio.ensure_future(_fan_out(listeners, message))


async def _fan_out(listeners: list[Listener], message: dict[str, Any]) -> None:
    for listener in listeners:
        try:
            if not listener.offer(message):
                await listener.deliver(message)
        except Exception:  # one broken socket must not cost the others their frame
            logger.warning("fan-out to a socket failed", exc_info=True)


hub = Hub()


def serves_everyone() -> bool:
    """True when this process holds every socket: its channel layer says so (``one_process``,
    as tabletop/serving/layers.py's does). Any other layer is taken as shared, and each table's
    events are relayed through its group: correct everywhere, only slower."""
    return bool(getattr(get_channel_layer(), "one_process", False))
