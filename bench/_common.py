"""What the benchmarks share: the virtualenv, daphne processes of their own (and with
``--servers`` a PostgreSQL and Redis of their own), people at a table (an HTTP client with
cookies and CSRF), their sockets, and percentiles.

Everything talks to 127.0.0.1 only. Every wait has a timeout, so a stuck server ends a
run with an error instead of hanging it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
VENV_PYTHON = ROOT / ".venv" / "bin" / "python"


def _reexec_in_venv() -> None:
    """The benchmarks need the project's packages (websockets, daphne): run them with the
    project's virtualenv even when started as ``bench/latency`` by the system python."""
    if Path(sys.prefix).resolve() == (ROOT / ".venv").resolve():
        return
    if not VENV_PYTHON.exists():
        sys.exit(f"No virtualenv at {ROOT / '.venv'}: run `make install-dev` first.")
    os.execv(str(VENV_PYTHON), [str(VENV_PYTHON), sys.argv[0], *sys.argv[1:]])


_reexec_in_venv()

import argparse  # after the re-exec: nothing below runs in the wrong python
import asyncio
import ctypes
import json
import math
import re
import resource
import secrets
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import IO, TypeVar
from urllib.parse import urlencode, urlsplit

from _servers import Urls, free_ports, postgres_and_redis
from _servers import cpu_s as servers_cpu_s
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

HOST = "127.0.0.1"
START_TIMEOUT_S = 60
HTTP_TIMEOUT_S = 60
OPEN_TIMEOUT_S = 60
NOFILE = 16384  # bench/tables: 10 000 sockets on each side of loopback, plus files and slack
# Shares no letter or digit with the "bench-<hex>" usernames: the sign-up form refuses a
# password too like its username (Django's similarity check), which chance made this do.
PASSWORD = "Sly-Quiz-Worm-Joy-Mix"
SEQ = re.compile(rb'data-frame-seq="(\d+)"')
ANSWER = re.compile(rb'data-ref="([^"]+)" data-outcome="(done|refused)"')
T = TypeVar("T")


# Command line and process


class _Parser(argparse.ArgumentParser):
    def parse_args(self, *args, **kwargs):  # type: ignore[no-untyped-def,override]
        options = super().parse_args(*args, **kwargs)
        if options.processes < 1:
            self.error("--processes must be at least 1")
        if options.servers and (options.database_url or options.redis_url):
            self.error("--servers starts a PostgreSQL and a Redis of its own: "
                       "give it without --database-url and --redis-url")
        if options.processes > 1 and not options.servers and not (options.database_url and options.redis_url):
            self.error(f"--processes {options.processes} needs a database and a channel layer the processes "
                       "share (SQLite and the in-memory layer belong to one process): add --servers, or "
                       "both --database-url (PostgreSQL) and --redis-url")
        return options


def parser(description: str) -> argparse.ArgumentParser:
    """The options every benchmark takes."""
    p = _Parser(description=description)
    p.add_argument("--quick", action="store_true", help="a short run, under a minute")
    p.add_argument("--processes", type=int, default=1, metavar="N",
                   help="N daphne processes sharing the database and the channel layer, people spread "
                        "over them in turn (N > 1 needs --servers, or --database-url and --redis-url)")
    p.add_argument("--servers", action="store_true",
                   help="start a throwaway PostgreSQL and Redis on free loopback ports (scripts/cluster) "
                        "and run on them; stopped and deleted at the end")
    p.add_argument("--database-url", default="", help="PostgreSQL instead of a fresh SQLite file")
    p.add_argument("--redis-url", default="", help="channels-redis instead of the in-memory layer")
    p.add_argument("--profile", default="", metavar="FILE",
                   help="py-spy records daphne over the measured part into FILE (speedscope JSON); "
                        "with --processes N, the first process only")
    return p


def raise_nofile(limit: int = NOFILE) -> None:
    """Lifts the soft file-descriptor limit (as far as the hard one allows): each socket
    is a descriptor on both sides of loopback."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def _child_setup() -> None:
    """In a server child, before it runs: the same descriptor limit, and death with its
    parent (PR_SET_PDEATHSIG), so even a killed benchmark leaves no server behind. SIGKILL,
    not SIGTERM: a daphne told to stop mid-request can hang at exit (a view thread waiting
    on its stopped event loop), and with its parent gone nobody would kill it after."""
    raise_nofile()
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG
    except OSError:
        pass  # not Linux: the parent's finally still stops it


def spawn(argv: list[str], *, env: dict[str, str] | None = None, out: int | IO[bytes] | None = None) -> subprocess.Popen[bytes]:
    """A server child of this benchmark (see ``_child_setup``)."""
    return subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                            preexec_fn=_child_setup)  # noqa: PLW1509 (setrlimit and prctl only)


_deadline = math.inf  # when ``run``'s time limit is up (time.monotonic())


def time_left() -> float:
    return _deadline - time.monotonic()


def run(main: Callable[[], Awaitable[str]], *, limit_s: float) -> None:
    """Runs ``main`` under a hard time limit and prints its contract line last. SIGTERM
    unwinds like Ctrl-C, so every ``finally`` (which kills daphne) runs."""
    global _deadline
    _deadline = time.monotonic() + limit_s
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    raise_nofile()

    async def bounded() -> str:
        return await asyncio.wait_for(main(), timeout=limit_s)

    say(machine_note())
    try:
        line = asyncio.run(bounded())
    except KeyboardInterrupt:
        sys.exit("interrupted")
    say(f"machine after the run: reference loop {python_speed_ms():.0f} ms of CPU")
    print(line, flush=True)


def python_speed_ms() -> float:
    """CPU time of a fixed piece of pure Python (best of three), in ms. A shared virtual
    machine's cores run faster or slower from minute to minute (the same loop took 0.86 to
    1.14 s within ten minutes on the project's machine), and every figure here moves with
    them: this says which kind of minute a run had."""
    best = math.inf
    for _ in range(3):
        t0, total = time.process_time(), 0
        for i in range(300_000):
            total += i * i % 7
        best = min(best, time.process_time() - t0)
    return best * 1000


def machine_note() -> str:
    """The load and the machine's speed before we start: these figures mean little on a
    machine busy with other work, and move with the speed of its cores."""
    load = os.getloadavg()[0]
    note = (f"machine: {os.cpu_count()} cores, load average {load:.2f} before the run, "
            f"reference loop {python_speed_ms():.0f} ms of CPU (lower is a faster minute)")
    if load > 0.5:
        note += " (other work is running: expect worse and noisier figures than on an idle machine)"
    return note


def say(text: str) -> None:
    print(text, flush=True)


def free_port() -> int:
    return free_ports(1)[0]


def rss_kb(pid: int) -> int:
    """Resident memory of a process, from /proc (kB)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def cpu_s(pid: int) -> float:
    """User plus system CPU time a process has used (s)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


# The server


@dataclass
class Server:
    port: int
    proc: subprocess.Popen[bytes]
    log: Path

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def origin(self) -> str:
        return f"http://{HOST}:{self.port}"


def server_env(workdir: Path, *, database_url: str = "", redis_url: str = "") -> dict[str, str]:
    """One process's settings, as a host runs them (``DEBUG=0``, a secret key of the run's
    own, static files collected into the run's directory), on plain HTTP over loopback
    (no redirect to HTTPS, only 127.0.0.1 allowed), on a fresh SQLite file unless told
    otherwise. With ``DEBUG=1`` Django records every query and renders templates with
    debug information: not what a busy server runs, and not what the figures are for."""
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "CSRF_TRUSTED_ORIGINS"}}
    env.update(SQLITE_PATH=str(workdir / "db.sqlite3"), DEBUG="0", ALLOWED_HOSTS=HOST,
               SECRET_KEY=secrets.token_urlsafe(50), SECURE_SSL_REDIRECT="0",
               STATIC_ROOT=str(workdir / "static"),
               DJANGO_SETTINGS_MODULE="tabletop.settings", PYTHONUNBUFFERED="1", LOG_LEVEL="WARNING",
               TABLETOP_GC_LOG="1")  # each full collection, its pause, in the log (bench/tables reads it)
    if database_url:
        env["DATABASE_URL"] = database_url
    if redis_url:
        env["REDIS_URL"] = redis_url
    return env


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


@dataclass
class Daphnes:
    """The daphne processes of a run, all serving one database and channel layer. Each
    person goes to one of them, in turn (``next``): their cookie jar and socket both."""

    servers: list[Server]
    started: Urls | None = None  # the PostgreSQL and Redis of --servers
    people: list[int] = field(default_factory=list)  # how many were sent to each
    _turn: int = 0

    def __post_init__(self) -> None:
        self.people = [0] * len(self.servers)

    def __len__(self) -> int:
        return len(self.servers)

    @property
    def first(self) -> Server:
        return self.servers[0]

    def next(self) -> Server:
        """The process the next person goes to."""
        i = self._turn % len(self.servers)
        self._turn += 1
        self.people[i] += 1
        return self.servers[i]

    def cpu_s(self) -> float:
        """CPU time all the processes have used (s)."""
        return sum(cpu_s(s.pid) for s in self.servers)

    def rss_kb(self) -> int:
        """Resident memory of all the processes (kB)."""
        return sum(rss_kb(s.pid) for s in self.servers)

    def others_cpu_s(self) -> dict[str, float]:
        """CPU time PostgreSQL and Redis have used (s), by name, when --servers started
        them (the benchmark cannot see into servers it was only given the URL of)."""
        return servers_cpu_s(self.started) if self.started else {}

    def spread(self) -> str:
        if len(self.servers) == 1:
            return f"{self.people[0]} people on one process"
        return f"{sum(self.people)} people over {len(self.servers)} processes: " + ", ".join(
            f"{n} on :{s.port}" for n, s in zip(self.people, self.servers, strict=True))


def _without_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@", 1)).geturl()


@contextmanager
def daphne(args: argparse.Namespace) -> Iterator[Daphnes]:
    """A migrated database and ``--processes`` daphnes serving it, each on a free loopback
    port (with ``--servers``, on a PostgreSQL and Redis started for the run); all killed
    on exit, whatever happens, the daphnes first."""
    with ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="tabletop-bench-")))
        database_url, redis_url, which = args.database_url, args.redis_url, ""
        urls = None
        if args.servers:
            t0 = time.monotonic()
            urls = stack.enter_context(postgres_and_redis(lifetime_s=max(60.0, time_left() + 60)))
            database_url, redis_url = urls.database_url, urls.redis_url
            which = f" (started by --servers in {time.monotonic() - t0:.1f} s)"
        env = server_env(workdir, database_url=database_url, redis_url=redis_url)
        manage(env, "migrate", "--noinput")
        manage(env, "collectstatic", "--noinput", "--verbosity", "0")
        servers: list[Server] = []
        try:
            for n, port in enumerate(free_ports(args.processes), 1):
                log = workdir / f"daphne-{n}.log"
                with open(log, "wb") as out:
                    proc = spawn([sys.executable, "-m", "daphne", "-b", HOST, "-p", str(port),
                              *os.environ.get("BENCH_DAPHNE_ARGS", "").split(), "tabletop.asgi:application"],
                             env=env, out=out)
                servers.append(Server(port=port, proc=proc, log=log))
            for server in servers:
                _wait_until_up(server)
            store = f"PostgreSQL {_without_password(database_url)}" if database_url else "a fresh SQLite file"
            layer = f"Redis {redis_url}" if redis_url else "the in-memory channel layer"
            ports = ", ".join(f":{s.port}" for s in servers)
            say(f"daphne: {len(servers)} process{'es' if len(servers) > 1 else ''} ({HOST}{ports}) "
                f"on {store} and {layer}{which}")
            yield Daphnes(servers, started=urls)
        finally:
            for server in servers:
                stop(server.proc)


@contextmanager
def profiled(daphnes: Daphnes, out: str) -> Iterator[None]:
    """With ``--profile FILE``: py-spy samples daphne (every thread) over the measured
    part only, into FILE as speedscope JSON (open it at https://www.speedscope.app), or as
    collapsed stacks, one line a stack, when FILE ends in ``.txt`` (for grep and scripts).
    With several processes it samples the first one only."""
    if not out:
        yield
        return
    server = daphnes.first
    if len(daphnes) > 1:
        say(f"profiling daphne 1 (:{server.port}) only, of {len(daphnes)} processes")
    spy = spawn([str(Path(sys.executable).with_name("py-spy")), "record", "--pid", str(server.pid),
                 "--format", "raw" if out.endswith(".txt") else "speedscope", "--output", str(Path(out).resolve()), "--rate", "200",
                 "--nonblocking"], out=subprocess.DEVNULL)
    time.sleep(1)  # py-spy attaches before the first sample counts
    try:
        yield
    finally:
        spy.send_signal(signal.SIGINT)  # py-spy writes its file on SIGINT
        try:
            spy.wait(timeout=60)
        except subprocess.TimeoutExpired:
            stop(spy)


@contextmanager
def bare_server(limit_s: float) -> Iterator[Server]:
    """The bare broadcast server (``_bare_server.py``) on a free loopback port."""
    with tempfile.TemporaryDirectory(prefix="tabletop-bare-") as tmp:
        port = free_port()
        log = Path(tmp) / "bare.log"
        with open(log, "wb") as out:
            proc = spawn([sys.executable, str(BENCH / "_bare_server.py"), str(port), str(limit_s)], out=out)
        server = Server(port=port, proc=proc, log=log)
        try:
            _wait_until_up(server)
            yield server
        finally:
            stop(proc)


def _wait_until_up(server: Server) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            raise RuntimeError(f"the server on :{server.port} exited:\n{server.log.read_text(errors='replace')}")
        try:
            with socket.create_connection((HOST, server.port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the server on :{server.port} did not listen within {START_TIMEOUT_S} s")


# HTTP, as a browser does it: cookies, CSRF, keep-alive


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


class Http:
    """One person's browser: a cookie jar and keep-alive connections to one server.

    A tiny asyncio HTTP/1.1 client, so requests and sockets share one event loop and a
    request's send time is taken the instant its bytes are written (no thread hand-off)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}
        self._idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    async def get(self, path: str, *, follow: bool = True) -> Response:
        return await self.request("GET", path, follow=follow)

    async def post(self, path: str, form: dict[str, str], *, htmx: bool = False,
                   follow: bool = False) -> Response:
        return await self.request("POST", path, form=form, htmx=htmx, follow=follow)

    async def request(self, method: str, path: str, *, form: dict[str, str] | None = None,
                      htmx: bool = False, follow: bool = False) -> Response:
        response = await asyncio.wait_for(self._exchange(method, path, form, htmx), HTTP_TIMEOUT_S)
        for _ in range(5):  # a redirect is a plain GET, as a browser follows it
            if not (follow and response.status in (301, 302, 303)):
                break
            path = response.headers["location"]
            response = await asyncio.wait_for(self._exchange("GET", path, None, False), HTTP_TIMEOUT_S)
        return response

    async def close(self) -> None:
        for _, writer in self._idle:
            writer.close()
        self._idle.clear()

    async def _exchange(self, method: str, path: str, form: dict[str, str] | None,
                        htmx: bool) -> Response:
        body = urlencode(form).encode() if form is not None else b""
        lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{self.port}"]
        if self.cookies:
            lines.append(f"Cookie: {self.cookie_header()}")
        if method == "POST":
            lines += ["Content-Type: application/x-www-form-urlencoded",
                      f"Content-Length: {len(body)}", f"X-CSRFToken: {self.cookies.get('csrftoken', '')}"]
        if htmx:
            lines.append("HX-Request: true")
        raw = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
        reused = bool(self._idle)
        reader, writer = self._idle.pop() if reused else await asyncio.open_connection(HOST, self.port)
        try:
            writer.write(raw)
            response, keep = await _read_response(reader)
        except (ConnectionError, asyncio.IncompleteReadError):
            writer.close()
            if not reused:
                raise
            return await self._exchange(method, path, form, htmx)  # the server closed an idle one
        self._take_cookies(response)
        if keep:
            self._idle.append((reader, writer))
        else:
            writer.close()
        return response

    def _take_cookies(self, response: Response) -> None:
        for value in response.headers.get("set-cookie", "").split("\n"):
            name, _, rest = value.partition("=")
            if not name:
                continue
            if "max-age=0" in rest.lower():
                self.cookies.pop(name.strip(), None)
            else:
                self.cookies[name.strip()] = rest.split(";", 1)[0]


async def _read_response(reader: asyncio.StreamReader) -> tuple[Response, bool]:
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
    status = int(head[0].split()[1])
    headers: dict[str, str] = {}
    for line in head[1:]:
        if ":" in line:
            name, value = (s.strip() for s in line.split(":", 1))
            key = name.lower()
            headers[key] = f"{headers[key]}\n{value}" if key in headers else value
    keep = headers.get("connection", "").lower() != "close"
    if "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding", "").lower() == "chunked":
        body = await _read_chunked(reader)
    else:
        body, keep = await reader.read(), False
    return Response(status, headers, body), keep


async def _read_chunked(reader: asyncio.StreamReader) -> bytes:
    parts = []
    while True:
        size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
        if size == 0:
            await reader.readuntil(b"\r\n")
            return b"".join(parts)
        parts.append(await reader.readexactly(size))
        await reader.readexactly(2)


# A table and the people at it


@dataclass
class Table:
    id: int
    gm: Http
    player_path: str
    spectator_path: str

    @property
    def path(self) -> str:
        return f"/tables/{self.id}/"


def expect(response: Response, *statuses: int, what: str) -> Response:
    if response.status not in statuses:
        raise RuntimeError(f"{what}: HTTP {response.status}\n{response.text[:2000]}")
    return response


async def sign_up(port: int) -> Http:
    """A GM account of its own, through the sign-up page."""
    gm = Http(port)
    await gm.get("/accounts/signup/")
    username = f"bench-{secrets.token_hex(4)}"
    form = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    expect(await gm.post("/accounts/signup/", form), 302, what="sign up")
    return gm


async def host_table(gm: Http, name: str) -> Table:
    """A Freeform table, through the home page's form; its links read from the GM's page."""
    await gm.get("/")
    created = expect(await gm.post("/tables/new/", {"name": name, "system": "freeform"}),
                     302, what="create a table")
    table_id = int(re.search(r"/tables/(\d+)/", created.headers["location"]).group(1))
    page = expect(await gm.get(f"/tables/{table_id}/"), 200, what="the GM's table page").text
    player = re.search(r"/join/[^/\"'<\s]+/", page)
    spectator = re.search(r"/watch/[^/\"'<\s]+/", page)
    if not (player and spectator):
        raise RuntimeError("the GM's page shows no player or spectator link")
    return Table(id=table_id, gm=gm, player_path=player.group(0), spectator_path=spectator.group(0))


async def join_player(table: Table, name: str, *, port: int | None = None) -> Http:
    """A player with a seat of their own, through the player link, on ``port`` (the
    process this person goes to; the GM's by default)."""
    person = Http(port or table.gm.port)
    await person.get(table.player_path)
    expect(await person.post(table.player_path, {"display_name": name}), 302, what=f"join as {name}")
    return person


async def join_spectator(table: Table, *, port: int | None = None) -> Http:
    """A spectator with a seat of their own, through the spectator link, on ``port`` (the
    process this person goes to; the GM's by default)."""
    person = Http(port or table.gm.port)
    await person.get(table.spectator_path)
    expect(await person.post(table.spectator_path, {}), 302, what="watch")
    await person.close()  # a spectator only listens; its socket is all it keeps open
    return person


async def last_seq(table: Table) -> int:
    """The seq the table's page was rendered up to, as the page hands it to its socket."""
    page = expect(await table.gm.get(table.path), 200, what="the table page").text
    found = re.search(r'data-last-seq="(\d+)"', page)
    if found is None:
        raise RuntimeError("the table page has no data-last-seq")
    return int(found.group(1))


async def gather_limited(jobs: Sequence[Callable[[], Awaitable[T]]], limit: int) -> list[T]:
    """Runs jobs at most ``limit`` at a time, keeping their order."""
    gate = asyncio.Semaphore(limit)

    async def one(job: Callable[[], Awaitable[T]]) -> T:
        async with gate:
            return await job()

    return list(await asyncio.gather(*(one(job) for job in jobs)))


# Sockets


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


# Figures


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile: the smallest value with at least p% of values at or below it."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def others_busy(before: dict[str, float], after: dict[str, float], seconds: float) -> str:
    """", PostgreSQL at 20% of a core, Redis at 5%" between two ``Daphnes.others_cpu_s``."""
    parts = [f"{name} at {(after[name] - before[name]) / seconds:.0%}" for name in after if name in before]
    if not parts:
        return ""
    parts[0] += " of a core"
    return ", " + ", ".join(parts)


def describe(name: str, values_ms: Sequence[float]) -> str:
    return (f"{name}: n={len(values_ms)} p50={percentile(values_ms, 50):.1f} ms "
            f"p95={percentile(values_ms, 95):.1f} ms p99={percentile(values_ms, 99):.1f} ms "
            f"max={max(values_ms, default=math.nan):.1f} ms")
