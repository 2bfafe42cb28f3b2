"""Frames built once and written to each socket: only for daphne's own ``send``."""

from __future__ import annotations

from collections import deque
from functools import partial
from typing import Any

from autobahn.twisted.websocket import WebSocketServerProtocol

from tabletop.serving import wire


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


def test_autobahn_refuses_to_send_1009_through_the_close_daphne_calls() -> None:
    """Why ``wire.close`` exists: daphne hands an ASGI close's code to ``sendClose``."""
    import pytest

    with pytest.raises(Exception, match="invalid close code 1009"):
        open_protocol().sendClose(code=1009)


def test_close_sends_1009_with_its_reason_through_daphnes_protocol() -> None:
    from autobahn.twisted.websocket import WebSocketServerFactory
    from autobahn.websocket.protocol import TrafficStats

    protocol = open_protocol()
    protocol.factory = WebSocketServerFactory()
    protocol.factory.setProtocolOptions(closeHandshakeTimeout=0)  # no close timer in this test
    for name in protocol.CONFIG_ATTRS:  # as a connection takes its factory's options when it opens
        setattr(protocol, name, getattr(protocol.factory, name))
    protocol.trafficStats = TrafficStats()
    assert wire.close(partial(handle_reply, protocol), 1009, "frame too big")
    reason = b"frame too big"
    # FIN + close, unmasked length, then the code and the reason
    assert protocol.transport.written == [b"\x88" + bytes([2 + len(reason)]) + (1009).to_bytes(2, "big") + reason]
    assert protocol.state == WebSocketServerProtocol.STATE_CLOSING
    assert wire.close(partial(handle_reply, protocol), 1009, "again")  # closing already: nothing more
    assert len(protocol.transport.written) == 1


def test_close_under_any_other_server_is_left_to_the_asgi_close() -> None:
    assert not wire.close(lambda message: None, 1009, "frame too big")
    assert not wire.close(partial(handle_reply, object()), 1009, "frame too big")


def test_prepared_frames_switched_off_send_as_usual(settings) -> None:
    """TABLETOP_PREPARED_FRAMES=0 (to measure the speed-up alone) leaves daphne's own path."""
    settings.TABLETOP_PREPARED_FRAMES = False
    assert wire.direct(partial(handle_reply, open_protocol())) is None
