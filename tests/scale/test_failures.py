"""A server of the cluster fails mid-game; the table goes on and every log ends the same.

The database log is the truth: whatever a socket missed while its daphne died or Redis was
away, it reads from the log when it resumes, and the page ends holding exactly its viewer's
log, in order, nothing twice, without a reload.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.scale

# The ws extension reconnects with "full jitter" backoff, up to 2^6 s after repeated failures;
# a client whose handshakes failed all through an outage may wait that long once it is over.
RECOVERY_MS = 70_000
REDIS_DOWN_S = 3
# A crashed process's sockets may count as online this long: room for a heartbeat every
# 10-15 s with a socket forgotten after 30 s of silence.
PRESENCE_GRACE_MS = 60_000


def _wait_until(page: Page, check: Callable[[], bool], what: str, timeout_s: float = 10) -> None:
    """Polls ``check``; waiting through the page lets Playwright deliver socket events meanwhile."""
    deadline = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout_s} s")
        page.wait_for_timeout(100)


def test_clients_of_a_killed_daphne_reconnect_through_nginx_and_replay_the_same_log(cluster, make_table) -> None:
    # The GM is the reference: pinned to process 2, which survives.
    table = make_table(cluster.daphne_url(2))
    gm = table.gm
    players = [table.join_player(name, cluster.nginx_url) for name in ("Ann", "Bob", "Cid")]
    everyone = (gm, *players)
    for person in everyone:
        person.mark_page()
    players[0].roll("2d6")
    table.chat(gm, "before the crash")
    table.assert_everyone_matches_the_log(*everyone)
    # nginx balances by least connections, so three sockets cannot all avoid process 1.
    assert cluster.connections_to(1) >= 1, "nginx sent no socket to daphne 1; nothing would drop"
    sockets_before = {p.name: p.sockets[-1] for p in players}

    cluster.kill_daphne(1)
    # Committed while the dropped clients look for a process: they must get these by replay.
    gm.roll("1d100")
    table.chat(gm, "while they reconnect")
    _wait_until(gm.page, lambda: any(ws.is_closed() for ws in sockets_before.values()),
                "a socket closing with daphne 1")
    gm.page.wait_for_timeout(500)  # the others on daphne 1 close at the same moment
    dropped = [p for p in players if sockets_before[p.name].is_closed()]
    for person in dropped:
        old = sockets_before[person.name]
        _wait_until(gm.page, lambda person=person, old=old: person.sockets[-1] is not old,
                    f"{person.name} reconnecting", timeout_s=RECOVERY_MS / 1000)
        person.wait_live(timeout_ms=RECOVERY_MS)
    dropped[0].roll("4d8")  # through nginx, now to process 2
    table.chat(gm, "after the crash")

    expected = table.assert_everyone_matches_the_log(*everyone, timeout_ms=RECOVERY_MS)
    for person in everyone:
        assert person.log_ids() == expected, f"{person.name}'s log differs from the GM's"
        person.assert_not_reloaded()
        assert not person.page_errors
    # What a dropped client missed came over its new socket (a replay), not from a reload.
    for person in dropped:
        received = {int(s) for f in person.frames for s in re.findall(r'data-frame-seq="(\d+)"', f)}
        assert {int(i.removeprefix("event-")) for i in expected[-4:]} <= received


def test_a_member_whose_socket_died_with_its_daphne_shows_offline_after_leaving(cluster, make_table) -> None:
    """Presence is one row per open socket, deleted by the socket's disconnect handler. A
    killed process runs no handler, so its rows must expire some other way (a heartbeat)
    or the members they name stay "online" for ever."""
    table = make_table(cluster.daphne_url(2))
    gm = table.gm
    ann = table.join_player("Ann", cluster.daphne_url(1))  # pinned to the process that dies
    presence = gm.page.locator(f"#presence-{ann.member_id}")
    expect(presence).to_have_class(re.compile(r"\bonline\b"))

    cluster.kill_daphne(1)
    ann.page.close()  # Ann leaves; she has no socket anywhere now
    cluster.start_daphne(1)

    expect(presence).not_to_have_class(re.compile(r"\bonline\b"), timeout=PRESENCE_GRACE_MS)
    expect(gm.page.locator("#online-count")).to_have_text("1 online")


def test_events_committed_while_redis_restarts_reach_every_client_once(cluster, make_table) -> None:
    """Redis keeps nothing across the restart (no persistence: groups and queues are gone).
    What happens: every socket's channel-layer read fails, its consumer ends and daphne closes
    it (1011); handshakes fail (500) until Redis is back; the ws extension retries with
    backoff, resumes from its last seq and replays the rest from PostgreSQL."""
    table = make_table(cluster.daphne_url(1))
    gm = table.gm
    ann = table.join_player("Ann", cluster.daphne_url(1))
    bob = table.join_player("Bob", cluster.daphne_url(2))
    sam = table.join_spectator("Sam", cluster.nginx_url)
    everyone = (gm, ann, bob, sam)
    for person in everyone:
        person.mark_page()
    ann.roll("2d6")
    table.assert_everyone_matches_the_log(*everyone)

    cluster.stop_redis()
    # The commits succeed without the channel layer (the broadcast logs its failure).
    table.chat(gm, "while Redis is down")
    # Bob's socket ends with Redis; his page, no longer live, sends the dice box as a POST.
    expect(bob.page.locator("#connection")).not_to_have_attribute("data-state", "live", timeout=RECOVERY_MS)
    down_seq = bob.roll("5d4")  # on process 2
    assert any(e["position"] == down_seq for e in gm.export(table.path))  # public: one number for all
    gm.page.wait_for_timeout(REDIS_DOWN_S * 1000)
    cluster.start_redis()

    table.assert_everyone_matches_the_log(*everyone, timeout_ms=RECOVERY_MS)
    # Live again, across both processes, for every seat.
    ann.roll("1d4")
    table.chat(gm, "after Redis is back")
    expected = table.assert_everyone_matches_the_log(*everyone)
    assert gm.log_ids() == expected
    for person in everyone:
        person.assert_not_reloaded()
        assert not person.page_errors
