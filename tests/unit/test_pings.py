"""daphne's timeouts and pings checked a slice of the connections at a time (serving/pings.py):
every connection is still checked once a walk, each by daphne's own rule, and none in one turn
of the loop holds more than its share."""

from __future__ import annotations

from typing import Any

import pytest
from daphne.server import Server

from tabletop.serving import pings


class Socket:
    def __init__(self) -> None:
        self.checked = 0

    def check_timeouts(self) -> None:
        self.checked += 1


@pytest.fixture
def sliced(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    later: list[float] = []
    monkeypatch.setattr(Server, "timeout_checker", Server.timeout_checker)
    from twisted.internet import reactor

    monkeypatch.setattr(reactor, "callLater", lambda delay, f, *a: later.append(delay))
    assert pings.install() and pings.install()
    assert Server.timeout_checker is pings.sliced_timeout_checker
    return later


def test_each_connection_is_checked_once_a_walk_a_share_a_turn(sliced: list[float]) -> None:
    server: Any = Server.__new__(Server)
    server.connections = {Socket(): None for _ in range(1000)}
    sockets = list(server.connections)
    for turn in range(pings.SLICES):
        server.timeout_checker()
        assert sum(s.checked for s in sockets) == (turn + 1) * 1000 // pings.SLICES
    assert all(s.checked == 1 for s in sockets)
    assert sliced == [pings.WALK_S / pings.SLICES] * pings.SLICES  # one walk in daphne's two seconds
    gone = sockets[0]
    del server.connections[gone]
    for _ in range(pings.SLICES):
        server.timeout_checker()
    assert gone.checked == 1 and all(s.checked == 2 for s in sockets[1:])


def test_a_server_of_another_shape_keeps_daphne_s_own_walk(sliced: list[float], monkeypatch) -> None:
    walked: list[str] = []
    server: Any = Server.__new__(Server)
    server.connections = None
    monkeypatch.setattr(pings, "daphnes_timeout_checker", lambda self: walked.append("daphne"))
    server.timeout_checker()
    assert walked == ["daphne"]
