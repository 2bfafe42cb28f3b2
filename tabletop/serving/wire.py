"""One event to many sockets: its websocket frame built once per reading, then written to each.

A table's event is the same text for every socket that sees it through one reading. Sent the
usual way, each socket's copy went through Channels' send, daphne's reply handler and
autobahn's framing before reaching the connection: most of what daphne spent on a frame,
several times what the bare ``websockets`` server spends (bench/latency, 108 sockets a roll;
docs/performance.md). autobahn, daphne's websocket engine, has a feature for exactly this
(its ``PreparedMessage`` and ``sendPreparedMessage``, for broadcast): the frame is built once
and each connection writes the bytes.

That needs the socket's autobahn protocol, which daphne binds into the ``send`` it gives the
application (its reply handler with the protocol as argument). Under any other server, or
any other shape of ``send`` (the tests' communicator), ``direct`` returns None and the
consumer sends as usual. ``Sink`` is this module as the live feed's sink (tabletop/live/sink.py),
installed by ``serving.install`` in every process.
"""

from __future__ import annotations

from collections.abc import Callable
import logging
from functools import partial
from typing import Any

Push = Callable[[Any], bool]
_said_on = False  # the log says once per process that frames go out prepared


def _protocol(send: Any, *parts: str) -> Any:
    """The socket's autobahn protocol, if ``send`` is daphne's and the protocol has
    ``parts``; else None."""
    if not (isinstance(send, partial) and len(send.args) == 1 and not send.keywords):
        return None
    if getattr(send.func, "__name__", "") != "handle_reply":
        return None
    from autobahn.websocket.protocol import WebSocketProtocol

    protocol = send.args[0]
    if not isinstance(protocol, WebSocketProtocol) or not all(
        hasattr(protocol, name) for name in ("state", *parts)
    ):
        return None  # not the autobahn this was written against
    return protocol


def close(send: Any, code: int, reason: str) -> bool:
    """Closes the socket with a code of the protocol's own (1009, message too big), which
    daphne's ASGI close cannot send: it hands the code to autobahn's ``sendClose``, which
    takes 1000 and 3000-4999 only and raises for the rest (the consumer's error then closed
    the socket with 1011). True when it did (or the socket was closing already); False when
    ``send`` is not daphne's, and the ASGI close is the way."""
    protocol = _protocol(send, "sendCloseFrame")
    if protocol is None:
        return False
    from autobahn.websocket.protocol import WebSocketProtocol

    if protocol.state == WebSocketProtocol.STATE_OPEN:
        # autobahn's own path when a message is over its size limit (_fail_connection)
        protocol.sendCloseFrame(code=code, reasonUtf8=reason.encode()[:123], isReply=False)
    return True


def direct(send: Any) -> Push | None:
    """A function writing a prepared frame to this socket (False when it is no longer open,
    as daphne drops a send to a closed socket), or None when ``send`` is not daphne's."""
    protocol = _protocol(send, "send_queue", "transport", "sendPreparedMessage")
    if protocol is None:
        return None  # send as usual
    global _said_on
    if not _said_on:
        _said_on = True
        logging.getLogger("tabletop.serving").info("serving: prepared frames on")
    from autobahn.websocket.protocol import WebSocketProtocol

    def push(prepared: Any) -> bool:
        if protocol.state != WebSocketProtocol.STATE_OPEN:
            return False
        if protocol.send_queue or getattr(protocol, "_perMessageCompress", None) is not None:
            protocol.sendPreparedMessage(prepared)  # behind queued frames, or to compress
        else:
            # what sendPreparedMessage does, less a debug line whose arguments autobahn
            # formats for every frame whether or not debug logging is on
            protocol.transport.write(prepared.payloadHybi)
        return True

    return push


def prepared(message: dict[str, Any], key: str, text: str) -> Any:
    """The frame of ``text`` for this message, built the first time a socket asks for it.
    Messages are only read on the event loop that holds the sockets, so the cache needs no
    lock; a message through Redis is a copy of its own in each process."""
    frames: dict[str, Any] = message.setdefault("prepared_frames", {})
    frame = frames.get(key)
    if frame is None:
        from autobahn.websocket.protocol import PreparedMessage

        frame = frames[key] = PreparedMessage(text.encode(), False, False, False)
    return frame


class Sink:
    """The live feed's sink (tabletop/live/sink.py): a socket under daphne gets prepared frames,
    and its 1009 close through autobahn. ``prepared=False`` (a benchmark measuring prepared
    frames alone, bench/_serve.py) sends every frame the plain way and keeps the close."""

    def __init__(self, *, prepared: bool = True) -> None:
        self.prepared = prepared

    def writer(self, send: Any) -> Callable[[dict[str, Any], str, str], bool] | None:
        push = direct(send) if self.prepared else None
        if push is None:
            return None
        return lambda message, key, text: push(prepared(message, key, text))

    def close(self, send: Any, code: int, reason: str) -> bool:
        return close(send, code, reason)
