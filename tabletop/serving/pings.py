"""daphne's timeouts and pings, checked a slice of the connections at a time.

daphne walks every connection every two seconds (``Server.timeout_checker``), closing those
past a timeout and pinging those whose ping is due. Sockets opened together fall due together:
at 1,000 tables of ten sockets a tenth of them were pinged in one walk, and the walk held the
event loop for about 300 ms every twenty seconds, the largest share of a profile of the run
(py-spy, bench/tables --profile; docs/performance.md). Here the same checks run over the same
two seconds in ``SLICES`` turns of the loop, each on the next share of the connections, so no
turn holds the loop long and a ping is never later than daphne's own would be by more than
one walk. Every rule daphne applies (its timeouts, its ping interval and timeout) is its own:
only when each connection is looked at changes.

``install()`` runs from ``serving.install`` under daphne only, and leaves daphne as it is when
its ``Server`` is not the shape this was written against.
"""

from __future__ import annotations

from collections import deque
from typing import Any

SLICES = 20
WALK_S = 2.0  # daphne's own period for the whole walk
_installed = False


def install() -> bool:
    """Makes daphne check its connections in slices; True when it did (or had)."""
    global _installed
    if _installed:
        return True
    try:
        from daphne.server import Server
        from twisted.internet import reactor
    except ImportError:
        return False
    if not callable(getattr(Server, "timeout_checker", None)):
        return False

    def timeout_checker(self: Any) -> None:
        connections = getattr(self, "connections", None)
        if not isinstance(connections, dict):
            return Server._tabletop_daphne_checker(self)  # not daphne's shape: its own walk
        pending: deque[Any] | None = getattr(self, "_tabletop_pending", None)
        if not pending:
            pending = self._tabletop_pending = deque(connections)
            self._tabletop_share = max(1, -(-len(pending) // SLICES))
        for _ in range(min(self._tabletop_share, len(pending))):
            protocol = pending.popleft()
            if protocol in connections:  # not closed since the walk began
                protocol.check_timeouts()
        reactor.callLater(WALK_S / SLICES, self.timeout_checker)

    Server._tabletop_daphne_checker = Server.timeout_checker
    Server.timeout_checker = timeout_checker
    _installed = True
    return True
