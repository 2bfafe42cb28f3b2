"""Frames built once and written to each socket: only for daphne's own ``send``."""

from __future__ import annotations

from collections import deque
from functools import partial
from typing import Any

import pytest
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
    with pytest.raises(Exception, match="invalid close code 1009"):
        open_protocol().sendClose(code=1009)


def closable_protocol() -> WebSocketServerProtocol:
    from autobahn.twisted.websocket import WebSocketServerFactory
    from autobahn.websocket.protocol import TrafficStats

    protocol = open_protocol()
    protocol.factory = WebSocketServerFactory()
    protocol.factory.setProtocolOptions(closeHandshakeTimeout=0)  # no close timer in this test
    for name in protocol.CONFIG_ATTRS:  # as a connection takes its factory's options when it opens
        setattr(protocol, name, getattr(protocol.factory, name))
    protocol.trafficStats = TrafficStats()
    return protocol


def test_close_sends_1009_with_its_reason_through_daphnes_protocol() -> None:
    protocol = closable_protocol()
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


@pytest.mark.parametrize("prepared", [True, False], ids=["prepared frames", "without them"])
def test_the_sink_writes_prepared_frames_unless_left_out_and_closes_with_1009_either_way(prepared: bool) -> None:
    """The live feed's sink as ``serving.install`` puts it: with prepared frames (every daphne
    process), and without (a benchmark's daphne measuring them alone, bench/_serve.py), where
    every frame goes the plain way and the 1009 close still goes through autobahn."""
    sink = wire.Sink(prepared=prepared)
    protocol = closable_protocol()
    send = partial(handle_reply, protocol)
    write = sink.writer(send)
    if prepared:
        assert write is not None and write({}, "public", "hi")
        assert protocol.transport.written == [b"\x81\x02hi"]
    else:
        assert write is None and protocol.transport.written == []
    assert sink.writer(lambda message: None) is None  # not daphne's send: the plain way
    assert sink.close(send, 1009, "too big")
    assert protocol.transport.written[-1].startswith(b"\x88")  # the close frame, through autobahn
    assert protocol.state == WebSocketServerProtocol.STATE_CLOSING
