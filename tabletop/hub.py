"""One fan-out per process, for a server that holds every socket of its tables.

With the one-process channel layer, a broadcast through a group costs a queue message, a
wake-up and a dispatch for each socket, and ``async_to_sync`` starts a thread per send.
Here the committing thread hands the event (rendered once per lens) to the event loop once,
without waiting, and one task offers it to each of the table's sockets in turn
(bench/latency: the tail of a roll's delivery to 108 sockets went from 110-123 ms to
38-49 ms at 5 rolls/s; docs/performance.md).

With Redis, where other processes hold sockets too, events go through the channel layer's
groups as before (``serves_everyone`` is false).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import defaultdict
from typing import Any, Protocol

from channels.layers import get_channel_layer

from tabletop.layers import InProcessChannelLayer

logger = logging.getLogger(__name__)


class Listener(Protocol):
    def offer(self, message: dict[str, Any]) -> Any:
        """Takes the message now (a coroutine run at once) or queues it for itself."""


class Hub:
    def __init__(self) -> None:
        self._guard = threading.Lock()  # register/publish may come from any thread
        self._tables: dict[int, dict[Listener, asyncio.AbstractEventLoop]] = defaultdict(dict)

    def join(self, campaign_id: int, listener: Listener) -> None:
        loop = asyncio.get_running_loop()
        with self._guard:
            self._tables[campaign_id][listener] = loop

    def leave(self, campaign_id: int, listener: Listener) -> None:
        with self._guard:
            listeners = self._tables.get(campaign_id)
            if listeners is not None:
                listeners.pop(listener, None)
                if not listeners:
                    del self._tables[campaign_id]

    def listeners(self, campaign_id: int) -> int:
        with self._guard:
            return len(self._tables.get(campaign_id, {}))

    def publish(self, campaign_id: int, message: dict[str, Any]) -> None:
        """Hands the message to each loop holding sockets of the table; never waits."""
        with self._guard:
            by_loop: dict[asyncio.AbstractEventLoop, list[Listener]] = defaultdict(list)
            for listener, loop in self._tables.get(campaign_id, {}).items():
                by_loop[loop].append(listener)
        for loop, listeners in by_loop.items():
            try:
                loop.call_soon_threadsafe(_start_fan_out, listeners, message)
            except RuntimeError:
                pass  # that loop has closed: its sockets are gone


def _start_fan_out(listeners: list[Listener], message: dict[str, Any]) -> None:
    asyncio.ensure_future(_fan_out(listeners, message))


async def _fan_out(listeners: list[Listener], message: dict[str, Any]) -> None:
    for listener in listeners:
        try:
            await listener.offer(message)
        except Exception:  # one broken socket must not cost the others their frame
            logger.warning("fan-out to a socket failed", exc_info=True)


hub = Hub()


def serves_everyone() -> bool:
    """True when this process holds every socket: the one-process channel layer."""
    return isinstance(get_channel_layer(), InProcessChannelLayer)
