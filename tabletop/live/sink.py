"""Where a socket's frames are written: through Channels' ``send`` (the plain path), unless the
sink installed for the process writes them itself (``serving.install``, from tabletop/asgi.py, in
every process that serves the application: ``tabletop.serving.wire`` frames a shared event once
for all of daphne's sockets, and closes a socket with 1009 through autobahn).

``live/`` knows only this seam, so that it never imports serving/. Where the sink finds no
daphne behind ``send`` (the tests' communicator), every frame goes the plain way: the same
bytes, only slower."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

# writes ``text``, the frame ``key`` of ``message`` (shared by the table's sockets); False when
# the socket is no longer open
Writer = Callable[[dict[str, Any], str, str], bool]


class Sink(Protocol):
    def writer(self, send: Any) -> Writer | None:
        """A writer for the socket behind ``send``, or None to send the plain way."""

    def close(self, send: Any, code: int, reason: str) -> bool:
        """Closes the socket with a protocol code ASGI cannot send (1009); False: not here."""


class _Plain:
    def writer(self, send: Any) -> Writer | None:
        return None

    def close(self, send: Any, code: int, reason: str) -> bool:
        return False


_sink: Sink = _Plain()


def install(sink: Sink) -> None:
    global _sink
    _sink = sink


def writer(send: Any) -> Writer | None:
    return _sink.writer(send)


def close(send: Any, code: int, reason: str) -> bool:
    return _sink.close(send, code, reason)
