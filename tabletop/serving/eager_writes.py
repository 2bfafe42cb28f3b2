"""daphne's TCP connections send at once when nothing is waiting to be sent before them.

Twisted buffers every write, registers the socket with the event loop for writability (an
``epoll_ctl``), sends on a later turn of the loop through its logging and context wrappers,
then unregisters the socket (another ``epoll_ctl``). A table's event is one frame to every
socket of the table, so that round per frame was a large part of what daphne spent on a
frame (bench/latency and bench/throughput; docs/performance.md). Here a connection with
nothing buffered hands the data to the kernel straight away, as asyncio's own transports
do; whatever the kernel does not take, and every write while something is buffered, goes
through Twisted's buffer exactly as before, so order and back-pressure are unchanged.

``install()`` runs from ``tabletop.asgi`` and does nothing unless daphne's command line
started the process (``serving.under_daphne``).
"""

from __future__ import annotations

from tabletop import serving

_installed = False
# what the eager path reads of Twisted's connection (its buffer and state)
_TWISTED_PARTS = ("dataBuffer", "offset", "connected", "disconnecting", "_writeDisconnected",
                  "TLS", "writeSomeData", "write")


def install() -> bool:
    """Makes daphne's TCP ports hand out eager connections; True when it did (or had)."""
    global _installed
    if _installed:
        return True
    if not serving.under_daphne():
        return False
    from twisted.internet import tcp

    if not all(hasattr(tcp.Server, name) for name in _TWISTED_PARTS):
        return False  # not the Twisted this was written against: keep its own path

    class EagerServer(tcp.Server):
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

    tcp.Port.transport = EagerServer
    _installed = True
    return True
