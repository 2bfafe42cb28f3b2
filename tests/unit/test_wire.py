"""Frames built once and written to each socket: only for daphne's own ``send``."""

from __future__ import annotations

from collections import deque
from functools import partial
from typing import Any

from autobahn.twisted.websocket import WebSocketServerProtocol

from tabletop import wire


class Transport:
    def __init__(self) -> None:
        self.written: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.written.append(data)


def handle_reply(protocol: Any, message: dict[str, Any]) -> None:
    """Shaped like daphne's reply handler, which daphne binds to each socket's protocol."""


def open_protocol() -> WebSocketServerProtocol:
    protocol = WebSocketServerProtocol()
    protocol.state = WebSocketServerProtocol.STATE_OPEN
    protocol.send_queue = deque()
    protocol.transport = Transport()
    return protocol


def test_a_prepared_frame_is_written_as_is_while_the_socket_is_open() -> None:
    protocol = open_protocol()
    push = wire.direct(partial(handle_reply, protocol))
    assert push is not None
    message: dict[str, Any] = {}
    frame = wire.prepared(message, "public", "é" * 200)
    assert wire.prepared(message, "public", "ignored: built once") is frame
    assert push(frame)
    payload = ("é" * 200).encode()
    # FIN + text, then a 16-bit length (126), unmasked as a server's frames are
    assert protocol.transport.written == [b"\x81\x7e" + len(payload).to_bytes(2, "big") + payload]
    protocol.state = WebSocketServerProtocol.STATE_CLOSING
    assert not push(frame)
    assert len(protocol.transport.written) == 1


def test_any_other_send_gets_none() -> None:
    protocol = open_protocol()
    assert wire.direct(lambda message: None) is None
    assert wire.direct(partial(print, protocol)) is None  # not a reply handler
    assert wire.direct(partial(handle_reply, object())) is None  # not an autobahn protocol
    assert wire.direct(partial(handle_reply, protocol, {"type": "x"})) is None
