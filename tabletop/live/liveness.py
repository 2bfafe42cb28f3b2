"""Which server processes are alive, so sockets of a process that died are known dead.

Each process that holds sockets beats every ``BEAT_S`` seconds; any beat also reaps the
sockets of processes silent for ``DEAD_AFTER_S`` and tells their tables who went offline.
The beat runs only while the process holds a socket.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable

from channels.db import database_sync_to_async

from tabletop import services
from tabletop.selectors import DEAD_AFTER_S

PROCESS = uuid.uuid4().hex
BEAT_S = 10

_task: asyncio.Task[None] | None = None
_sockets = 0

# Told, with the number of sockets the process holds, when a socket is set up and when one
# closes: a serving process's garbage-collector policy listens (tabletop/serving/collector.py),
# so that live/ needs nothing of serving/.
opened_hooks: list[Callable[[int], None]] = []
closed_hooks: list[Callable[[int], None]] = []


async def socket_opened() -> None:
    global _task, _sockets
    _sockets += 1
    for hook in opened_hooks:
        hook(_sockets)
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        _task = loop.create_task(_beat_forever())


async def socket_closed() -> None:
    global _task, _sockets
    _sockets = max(0, _sockets - 1)
    for hook in closed_hooks:
        hook(_sockets)
    if _sockets == 0 and _task is not None:
        _task.cancel()
        _task = None


async def _beat_forever() -> None:
    while True:
        await database_sync_to_async(services.process_heartbeat)(
            process=PROCESS, dead_after_s=DEAD_AFTER_S
        )
        await asyncio.sleep(BEAT_S)
