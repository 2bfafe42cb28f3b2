"""The table's sockets, as the page opens them (its cookie, its Origin, the resume frame), and what
each receives: every event frame's seq and arrival time, and the answers to act frames."""

from __future__ import annotations

import _venv  # noqa: F401  (first: websockets is the project's virtualenv's)

import asyncio
import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from _http import HTTP_TIMEOUT_S, Http
from _run import gather_limited
from _servers import HOST
from _table import Table
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

OPEN_TIMEOUT_S = 60
SEQ = re.compile(rb'data-frame-seq="(\d+)"')
ANSWER = re.compile(rb'data-ref="([^"]+)" data-outcome="(done|refused)"')


@dataclass
class Feed:
    """One socket and when each event frame reached it (seq, perf_counter)."""

    ws: ClientConnection
    owner: Http | None = None
    arrivals: list[tuple[int, float]] = field(default_factory=list)
    frames: int = 0
    bytes: int = 0
    closed: str = ""
    answers: dict[str, asyncio.Future[str]] = field(default_factory=dict)  # act frames awaiting
    on_frame: Callable[[bytes, float], None] | None = None  # told of every frame but an act's answer

    async def listen(self, first: dict[int, bytes]) -> None:
        """Records every frame until the socket closes; the first copy of each event
        frame goes into ``first``, to be read after the run (never during it)."""
        try:
            async for message in self.ws:
                now = time.perf_counter()
                data = message.encode() if isinstance(message, str) else message
                self.frames += 1
                self.bytes += len(data)
                if data.startswith(b'<p data-frame="ack"'):
                    self._answered(data)
                    continue
                if self.on_frame is not None:
                    self.on_frame(data, now)
                found = SEQ.search(data, 0, 200)
                if found is not None:
                    seq = int(found.group(1))
                    self.arrivals.append((seq, now))
                    first.setdefault(seq, data)
        except ConnectionClosed as closed:
            self.closed = f"{closed.rcvd.code if closed.rcvd else 1006}"
        for waiting in self.answers.values():
            if not waiting.done():
                waiting.set_result("closed")

    def _answered(self, data: bytes) -> None:
        found = ANSWER.search(data)
        if found is not None:
            waiting = self.answers.pop(found.group(1).decode(), None)
            if waiting is not None and not waiting.done():
                waiting.set_result(found.group(2).decode())

    async def act(self, ref: str, action: str, args: dict[str, str]) -> str:
        """Sends an act frame and waits for its answer: "done", "refused" or "closed"."""
        waiting: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.answers[ref] = waiting
        await self.ws.send(json.dumps({"type": "act", "ref": ref, "action": action, "args": args}))
        return await asyncio.wait_for(waiting, HTTP_TIMEOUT_S)


async def open_socket(url: str, origin: str, cookie: str, after: int | None) -> ClientConnection:
    """A websocket as the page opens it: the session cookie, the page's Origin, and
    (for the table's socket) the resume frame first."""
    ws = await connect(url, additional_headers={"Cookie": cookie}, origin=origin,  # type: ignore[arg-type]
                       compression=None, max_size=None, ping_interval=None, open_timeout=OPEN_TIMEOUT_S,
                       close_timeout=5)
    if after is not None:
        await ws.send(f'{{"type": "resume", "after": {after}}}')
    return ws


def table_socket_url(person: Http, table: Table) -> str:
    """The table's socket on the process that served this person's page."""
    return f"ws://{HOST}:{person.port}/ws/tables/{table.id}/"


def origin_of(url: str) -> str:
    """The Origin of the page that opens a socket at ``url``: the same host and port."""
    return f"http://{urlsplit(url).netloc}"


async def open_feeds(urls: Sequence[str], people: Sequence[Http], afters: Sequence[int | None],
                     first: dict[int, bytes], *, limit: int = 20) -> tuple[list[Feed], list[asyncio.Task[None]]]:
    """Opens one socket per person, resuming after the matching seq of ``afters`` (a
    few at a time, as a crowd arriving), and listens on each at once, so nothing
    queues unread meanwhile."""
    feeds: list[Feed] = []
    tasks: list[asyncio.Task[None]] = []

    async def one(url: str, person: Http, after: int | None) -> None:
        feed = Feed(await open_socket(url, origin_of(url), person.cookie_header(), after), owner=person)
        feeds.append(feed)
        tasks.append(asyncio.create_task(feed.listen(first)))

    jobs = [lambda u=u, p=p, a=a: one(u, p, a) for u, p, a in zip(urls, people, afters, strict=True)]
    await gather_limited(jobs, limit)  # type: ignore[arg-type]
    return feeds, tasks


async def quiet(feeds: Sequence[Feed], *, for_s: float, limit_s: float) -> float:
    """Waits until no socket has received a frame for ``for_s`` seconds (or ``limit_s``
    has passed); returns how long that took."""
    start = time.monotonic()
    seen = -1
    still_since = start
    while time.monotonic() - start < limit_s:
        now_seen = sum(f.frames for f in feeds)
        if now_seen != seen:
            seen, still_since = now_seen, time.monotonic()
        elif time.monotonic() - still_since >= for_s:
            break
        await asyncio.sleep(0.1)
    return time.monotonic() - start


async def close_feeds(feeds: Sequence[Feed], tasks: Sequence[asyncio.Task[None]]) -> None:
    await asyncio.gather(*(f.ws.close() for f in feeds), return_exceptions=True)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
