"""HTTP as a browser does it, for one person: a cookie jar, CSRF as the page sends it, htmx's
header, redirects followed, keep-alive connections to one server.

The standard library's ``http.client`` does the protocol. It blocks, so each exchange runs on a
thread of ``_POOL`` while the event loop goes on reading the sockets; a request's send time
(taken on the loop, before the hand-off) includes that hop, some tens of microseconds against
the milliseconds measured (docs/performance.md: the same figures as the asyncio client this
replaced).
"""

from __future__ import annotations

import asyncio
import http.client
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from http.cookies import SimpleCookie
from urllib.parse import urlencode

from _servers import HOST

HTTP_TIMEOUT_S = 60
# enough threads for every request a benchmark has in flight at once (seating crowds 8 at a
# time, ten actors with --via http, the latency bench's open-loop rolls)
_POOL = ThreadPoolExecutor(max_workers=64, thread_name_prefix="bench-http")
_STALE = (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError)


@dataclass
class Response:
    status: int
    headers: dict[str, str]  # lower-case names
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


class Http:
    """One person's browser: a cookie jar and keep-alive connections to one server."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}
        self._idle: list[http.client.HTTPConnection] = []

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    async def get(self, path: str, *, follow: bool = True) -> Response:
        return await self.request("GET", path, follow=follow)

    async def post(self, path: str, form: dict[str, str], *, htmx: bool = False,
                   follow: bool = False) -> Response:
        return await self.request("POST", path, form=form, htmx=htmx, follow=follow)

    async def request(self, method: str, path: str, *, form: dict[str, str] | None = None,
                      htmx: bool = False, follow: bool = False) -> Response:
        response = await self._exchange(method, path, form, htmx)
        for _ in range(5):  # a redirect is a plain GET, as a browser follows it
            if not (follow and response.status in (301, 302, 303)):
                break
            response = await self._exchange("GET", response.headers["location"], None, False)
        return response

    async def close(self) -> None:
        for connection in self._idle:
            connection.close()
        self._idle.clear()

    async def _exchange(self, method: str, path: str, form: dict[str, str] | None, htmx: bool) -> Response:
        headers = {}
        if self.cookies:
            headers["Cookie"] = self.cookie_header()
        if method == "POST":
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        if htmx:
            headers["HX-Request"] = "true"
        body = urlencode(form).encode() if form is not None else None
        reused = bool(self._idle)
        connection = self._idle.pop() if reused else http.client.HTTPConnection(HOST, self.port, timeout=HTTP_TIMEOUT_S)
        loop = asyncio.get_running_loop()
        try:
            answer, keep = await loop.run_in_executor(_POOL, _send, connection, method, path, body, headers)
        except _STALE:
            connection.close()
            if not reused:
                raise
            return await self._exchange(method, path, form, htmx)  # the server closed an idle one
        for line in answer.cookies:
            self._take_cookie(line)
        if keep:
            self._idle.append(connection)
        else:
            connection.close()
        return answer.response

    def _take_cookie(self, line: str) -> None:
        for name, morsel in SimpleCookie(line).items():
            if morsel["max-age"] == "0":
                self.cookies.pop(name, None)
            else:
                self.cookies[name] = morsel.value


@dataclass
class _Answer:
    response: Response
    cookies: list[str]  # each Set-Cookie header


def _send(connection: http.client.HTTPConnection, method: str, path: str, body: bytes | None,
          headers: dict[str, str]) -> tuple[_Answer, bool]:
    """One exchange on ``connection``, on a thread of the pool; whether it stays open."""
    connection.request(method, path, body=body, headers=headers)
    reply = connection.getresponse()
    data = reply.read()
    response = Response(reply.status, {k.lower(): v for k, v in reply.getheaders()}, data)
    return _Answer(response, reply.headers.get_all("Set-Cookie") or []), not reply.will_close
