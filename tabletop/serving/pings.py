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

``sliced_timeout_checker`` takes the place of daphne's ``Server.timeout_checker``;
``install()`` puts it there, and ``serving.install`` calls that in a daphne process only. When
daphne's ``Server`` is not the shape this was written against (daphne pinned in
requirements.txt), ``install`` leaves it as it is and says so (``tests/integration/test_serving.py``
fails then).
"""

from __future__ import annotations

from collections import deque
from typing import Any

from daphne.server import Server

SLICES = 20
WALK_S = 2.0  # daphne's own period for the whole walk
daphnes_timeout_checker = getattr(Server, "timeout_checker", None)  # its own walk, kept for another shape


def sliced_timeout_checker(self: Server) -> None:
    """daphne's ``Server.timeout_checker``, over the next share of the connections: each turn
    checks ``1 / SLICES`` of those open when the walk began (``protocol.check_timeouts``,
    daphne's own rule for each), and the next turn comes ``WALK_S / SLICES`` later."""
    from twisted.internet import reactor

    connections = getattr(self, "connections", None)
    if not isinstance(connections, dict):
        return daphnes_timeout_checker(self)  # not daphne's shape: its own walk
    pending: deque[Any] | None = getattr(self, "_tabletop_pending", None)
    if not pending:
        pending = self._tabletop_pending = deque(connections)
        self._tabletop_share = max(1, -(-len(pending) // SLICES))
    for _ in range(min(self._tabletop_share, len(pending))):
        protocol = pending.popleft()
        if protocol in connections:  # not closed since the walk began
            protocol.check_timeouts()
    reactor.callLater(WALK_S / SLICES, self.timeout_checker)


def install() -> bool:
    """Makes daphne check its connections in slices; True when it does."""
    if Server.timeout_checker is sliced_timeout_checker:
        return True
    if not callable(daphnes_timeout_checker):
        return False
    Server.timeout_checker = sliced_timeout_checker
    return True
