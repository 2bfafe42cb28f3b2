"""The one-process channel layer: Channels' in-memory layer without two costs of a busy table.

Channels' own layer sweeps every queue and every group for expired messages on each
receive and each group_send (an event to N sockets costs N sweeps of about 3N entries),
and gives each socket a deep copy of the message through a task of its own. Here the sweep
runs at most once a second, and a group_send puts the one message on each queue directly:
consumers only read messages, never change them (bench/latency, docs/performance.md).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from channels.layers import InMemoryChannelLayer


class InProcessChannelLayer(InMemoryChannelLayer):
    sweep_every_s = 1.0
    one_process = True  # every socket is in this process: the hub fans out itself (live/hub.py)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._swept = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._swept < self.sweep_every_s:
            return
        self._swept = now
        super()._clean_expired()

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        expires = time.time() + self.expiry
        for channel in list(self.groups.get(group, {})):
            queue = self.channels.setdefault(
                channel, asyncio.Queue(maxsize=self.get_capacity(channel))
            )
            try:
                queue.put_nowait((expires, message))
            except asyncio.QueueFull:
                pass  # a socket too far behind catches up from the log when it next reads
