"""daphne's eager TCP writes: a write with nothing buffered before it goes to the kernel at once,
and every byte arrives, in order, when the kernel takes only part."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Runs in a process of its own: importing daphne.server installs Twisted's asyncio reactor
# for the whole process, as daphne does.
SCRIPT = textwrap.dedent(
    """
    import socket, sys, threading
    import daphne.server  # noqa: F401
    from twisted.internet import protocol, reactor, tcp
    from tabletop.serving import eager_writes

    assert tcp.Port.transport is tcp.Server  # Twisted's own, until installed
    assert eager_writes.install() and tcp.Port.transport is eager_writes.EagerServer
    # small, then more than a loopback socket's buffer holds, then small again behind it
    chunks = [b"first|", bytes(range(256)) * 80_000, b"|last"]
    kinds = []
    buffered = []  # what Twisted still held after each write

    class Talker(protocol.Protocol):
        def connectionMade(self):
            kinds.append(type(self.transport).__name__)
            for chunk in chunks:
                self.transport.write(chunk)
                t = self.transport
                buffered.append(len(t.dataBuffer) - t.offset + sum(map(len, t._tempDataBuffer)))
            self.transport.loseConnection()

    port = reactor.listenTCP(0, protocol.Factory.forProtocol(Talker), interface="127.0.0.1")
    received = bytearray()

    def read():
        with socket.create_connection(("127.0.0.1", port.getHost().port)) as client:
            while data := client.recv(1 << 16):
                received.extend(data)
        reactor.callFromThread(reactor.stop)

    threading.Thread(target=read, daemon=True).start()
    reactor.callLater(30, reactor.stop)
    reactor.run()
    assert kinds == ["EagerServer"], kinds
    # the first write went to the kernel at once (Twisted's own path holds it for a later turn
    # of the loop); the big one left some behind, and the last queued behind that
    assert buffered[0] == 0 and buffered[1] > 0 and buffered[2] == buffered[1] + 5, buffered
    assert bytes(received) == b"".join(chunks), (len(received), sum(map(len, chunks)))
    print("ok", len(received))
    """
)


def test_a_write_larger_than_the_socket_takes_arrives_whole_and_in_order() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["ok", str(6 + 256 * 80_000 + 5)]
