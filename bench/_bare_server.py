"""The engineering limit in Python: a bare ``websockets`` server that broadcasts.

Every socket but ``/control`` is a listener. Each text frame that arrives on
``/control`` goes out, byte for byte, to every listener through
``websockets.broadcast`` (one write per socket, no copy per socket, no awaiting).
No HTTP, no database, no templates, no channel layer: what is left is the cost of
getting a frame from one socket onto many, which is what the app's live feed adds
its own work to. Run by ``bench/latency``: ``python _bare_server.py PORT LIMIT_S``.
"""

from __future__ import annotations

import asyncio
import sys

from websockets.asyncio.server import ServerConnection, broadcast, serve

HOST = "127.0.0.1"


async def main(port: int, limit_s: float) -> None:
    listeners: set[ServerConnection] = set()

    async def handler(ws: ServerConnection) -> None:
        if ws.request is not None and ws.request.path == "/control":
            async for frame in ws:
                broadcast(listeners, frame)
            return
        listeners.add(ws)
        try:
            async for _ in ws:  # the resume frame; the bare server has nothing to replay
                pass
        finally:
            listeners.discard(ws)

    # No compression, as daphne (autobahn) accepts none: the same bytes on the wire.
    async with serve(handler, HOST, port, compression=None, max_size=None, ping_interval=None):
        print("ready", flush=True)
        await asyncio.sleep(limit_s)  # killed by the benchmark long before; a bound all the same


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), float(sys.argv[2])))
