"""daphne's TCP connections send at once when nothing is waiting to be sent before them.

Twisted buffers every write, registers the socket with the event loop for writability (an
``epoll_ctl``), sends on a later turn of the loop through its logging and context wrappers,
then unregisters the socket (another ``epoll_ctl``). A table's event is one frame to every
socket of the table, so that round per frame was a large part of what daphne spent on a
frame (bench/latency and bench/throughput; docs/performance.md). ``EagerServer``, a connection
with nothing buffered, hands the data to the kernel straight away, as asyncio's own transports
do; whatever the kernel does not take, and every write while something is buffered, goes
through Twisted's buffer exactly as before, so order and back-pressure are unchanged.

``install()`` makes Twisted's TCP ports (daphne's listening one) hand out ``EagerServer``
connections; ``serving.install`` calls it in a daphne process only. It is written against the
Twisted pinned in requirements.txt: when that Twisted lacks a part it reads, ``install`` leaves
Twisted as it is and says so (``tests/integration/test_serving.py`` fails then).
"""

from __future__ import annotations

from twisted.internet import tcp

# what the eager path reads of Twisted's connection class (its buffer and state; Twisted sets
# ``_tempDataBuffer`` on each connection in ``__init__``)
TWISTED_PARTS = ("dataBuffer", "offset", "connected", "disconnecting", "_writeDisconnected",
                 "TLS", "writeSomeData", "write")


class EagerServer(tcp.Server):
    """Twisted's server-side TCP connection, writing at once when its buffer is empty."""

    def write(self, data: bytes) -> None:
        if (
            type(data) is bytes
            and data
            and not self.TLS
            and self.connected
            and not self.disconnecting
            and not self._writeDisconnected
            and not self._tempDataBuffer
            and self.offset == len(self.dataBuffer)
        ):
            sent = self.writeSomeData(data)
            if isinstance(sent, int) and sent > 0:
                if sent == len(data):
                    return
                data = data[sent:]
            # Nothing taken, or the connection failed: Twisted's buffered path sends
            # the rest when the socket is writable, or meets the error and closes.
        super().write(data)


def install() -> bool:
    """Makes Twisted's TCP ports hand out ``EagerServer`` connections; True when they do."""
    if tcp.Port.transport is EagerServer:
        return True
    if tcp.Port.transport is not tcp.Server or not all(hasattr(tcp.Server, name) for name in TWISTED_PARTS):
        return False  # not the Twisted this was written against: keep its own path
    tcp.Port.transport = EagerServer
    return True
