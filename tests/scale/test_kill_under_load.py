"""Issue 39: "A daphne lost under load ... kill -9 one: every socket it held reconnects to the other
and catches up; ... 0 frames lost, 0 doubled, 0 actions applied twice (an action sent as the
process died is either in the log once or answered as not done)." At a small size: four players
act as fast as they are answered, as act frames on sockets through nginx, while daphne 1 is
killed; each socket that dies reconnects through nginx (to daphne 2) and resumes from the last
frame it holds, as the page does, and never sends an unanswered action again, as the page does.

Then the database's log is the judge: every action answered "done" is in it once, an action left
unanswered by the crash is in it at most once, nothing is in it twice; every socket received
every event of its reader's log after its start exactly once, in order; and the players' own
pages, open all along, hold exactly their log without a reload.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

pytestmark = pytest.mark.scale

ACT_BEFORE_S = 2.0  # the load runs this long before the kill, and this long after it
RECOVERY_S = 70.0  # the page's own backoff may wait up to 2^6 s after repeated failures
ANSWER = re.compile(r'data-ref="([^"]+)" data-outcome="(done|refused)"')
SEQ = re.compile(r'data-frame-seq="(\d+)"')


@dataclass
class Actor:
    """One player's socket as the page keeps it: where it is in the log, what it sent, what
    came back."""

    name: str
    cookie: str
    ws_url: str
    origin: str
    start: int
    position: int = 0
    received: list[int] = field(default_factory=list)
    answers: dict[str, str] = field(default_factory=dict)  # ref -> done | refused | dropped
    sockets: int = 0

    def text(self, n: int) -> str:
        return f"{self.name} says line {n}"


async def _open(actor: Actor) -> ClientConnection:
    ws = await connect(actor.ws_url, additional_headers={"Cookie": actor.cookie}, origin=actor.origin,
                       compression=None, ping_interval=None, open_timeout=10, close_timeout=2)
    actor.sockets += 1
    await ws.send(json.dumps({"type": "resume", "after": actor.position}))
    return ws


async def _play(actor: Actor, stop_at: float) -> None:
    """Acts one line at a time until ``stop_at``; on a dead socket, the line in flight is not sent
    again (it may or may not have been done: the log will say), and a new socket resumes."""
    n = 0
    deadline = time.monotonic() + RECOVERY_S + 2 * ACT_BEFORE_S + 30
    ws = await _open(actor)
    while time.monotonic() < deadline:
        if time.monotonic() >= stop_at:
            break
        n += 1
        ref = f"{actor.name}-{n}"
        try:
            await ws.send(json.dumps({"type": "act", "ref": ref, "action": "chat.post",
                                      "args": {"text": actor.text(n)}}))
            while ref not in actor.answers:
                _take(actor, await ws.recv())
        except ConnectionClosed:
            actor.answers.setdefault(ref, "dropped")
            ws = await _reopen(actor, deadline)
    # the tail: every frame committed meanwhile arrives before the socket says it is quiet
    try:
        while True:
            _take(actor, await asyncio.wait_for(ws.recv(), 3))
    except (TimeoutError, ConnectionClosed):
        pass
    await ws.close()


async def _reopen(actor: Actor, deadline: float) -> ClientConnection:
    pause = 0.2
    while True:
        try:
            return await _open(actor)
        except (OSError, InvalidStatus, TimeoutError):
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(pause)
            pause = min(pause * 2, 2.0)


def _take(actor: Actor, message: str | bytes) -> None:
    text = message.decode() if isinstance(message, bytes) else message
    answered = ANSWER.search(text)
    if answered is not None and text.startswith('<p data-frame="ack"'):
        actor.answers[answered.group(1)] = answered.group(2)
        return
    found = SEQ.search(text, 0, 300)
    if found is not None:
        seq = int(found.group(1))
        actor.received.append(seq)
        actor.position = max(actor.position, seq)


def test_a_daphne_killed_under_load_loses_doubles_and_applies_twice_nothing(cluster, make_table) -> None:
    table = make_table(cluster.daphne_url(2))  # the GM on the process that lives
    gm = table.gm
    players = [table.join_player(name, cluster.nginx_url) for name in ("Ann", "Bob", "Cid", "Dee")]
    for person in (gm, *players):
        person.mark_page()
    table.chat(gm, "the night begins")
    actors = []
    for person in players:
        cookie = "; ".join(f"{c['name']}={c['value']}" for c in person.context.cookies(cluster.nginx_url))
        start = int(person.export(table.path)[-1]["position"])
        ws_url = f"ws://127.0.0.1:{cluster.nginx_port}/ws{table.path}"
        actors.append(Actor(name=person.name, cookie=cookie, ws_url=ws_url, origin=cluster.nginx_url,
                            start=start, position=start))

    errors: list[BaseException] = []
    stop_at = time.monotonic() + 2 * ACT_BEFORE_S

    def load() -> None:
        async def everyone() -> None:
            await asyncio.gather(*(_play(a, stop_at) for a in actors))
        try:
            asyncio.run(everyone())
        except BaseException as exc:  # reported below, in the test's own thread
            errors.append(exc)

    runner = threading.Thread(target=load, name="kill-under-load")
    runner.start()
    gm.page.wait_for_timeout(ACT_BEFORE_S * 1000)
    held = cluster.connections_to(1)
    cluster.kill_daphne(1)
    runner.join(RECOVERY_S + 4 * ACT_BEFORE_S + 60)
    assert not runner.is_alive(), "the load did not end"
    assert not errors, errors
    assert held >= 1, "nginx sent no socket to daphne 1; nothing would drop"
    assert any(a.sockets > 1 for a in actors), "no socket dropped with daphne 1"

    for actor in actors:  # shown with -s: what the kill did to each socket
        print(f"{actor.name}: {actor.sockets} sockets, {Counter(actor.answers.values())}, {len(actor.received)} frames")
    # the database's log is the judge
    lines = Counter(row["data"]["text"] for row in gm.export(table.path) if row["kind"] == "chat.posted")
    doubled = [text for text, n in lines.items() if n > 1]
    assert doubled == [], f"applied twice: {doubled}"
    assert sum(lines.values()) > 4 * 5  # the load was a load
    for actor in actors:
        for ref, outcome in actor.answers.items():
            said = lines[actor.text(int(ref.rsplit("-", 1)[1]))]
            if outcome == "done":
                assert said == 1, (ref, outcome, said)
            elif outcome == "refused":
                assert said == 0, (ref, outcome, said)
            else:
                assert said <= 1, (ref, outcome, said)
        assert sum(1 for o in actor.answers.values() if o == "done") > 5, actor.answers
        reader = next(p for p in players if p.name == actor.name)
        expected = [int(row["position"]) for row in reader.export(table.path) if int(row["position"]) > actor.start]
        got = [seq for seq in actor.received if seq > actor.start]
        assert len(got) == len(set(got)), f"{actor.name} was sent frames twice: {sorted(k for k, v in Counter(got).items() if v > 1)}"
        assert set(got) == set(expected), f"{actor.name} lost frames: {sorted(set(expected) - set(got))}"
        assert got == expected, f"{actor.name}'s frames came out of order"
    # the pages open all along come back and hold their reader's log, without a reload
    table.assert_everyone_matches_the_log(gm, *players, timeout_ms=int(RECOVERY_S * 1000))
    for person in (gm, *players):
        person.assert_not_reloaded()
