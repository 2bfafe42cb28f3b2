"""The servers of a run: ``--processes`` daphnes (on a fresh SQLite file, or with ``--servers``
on a PostgreSQL and Redis of the run's own) and the bare broadcast server; how each is started,
watched and stopped, and py-spy over them with ``--profile``."""

from __future__ import annotations

import argparse
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from _procs import cpu_s, rss_kb, spawn, stop
from _run import say, time_left
from _servers import HOST, Urls, free_ports, postgres_and_redis
from _servers import cpu_s as servers_cpu_s
from _venv import BENCH, ROOT

START_TIMEOUT_S = 60


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
               DJANGO_SETTINGS_MODULE="tabletop.settings", PYTHONUNBUFFERED="1", LOG_LEVEL="WARNING")
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
def daphne(args: argparse.Namespace, *, probes: tuple[str, ...] = ("gc",)) -> Iterator[Daphnes]:
    """A migrated database and ``--processes`` daphnes serving it, each on a free loopback
    port (with ``--servers``, on a PostgreSQL and Redis started for the run); all killed
    on exit, whatever happens, the daphnes first. Each runs through ``_serve.py``: without
    the speed-ups ``--without`` names, and with ``probes`` writing to its log (``_probes.py``:
    ``gc``, each full collection; ``stalls``, each stall of its loop)."""
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
                    proc = spawn([sys.executable, str(BENCH / "_serve.py"),
                                  "--without", ",".join(args.without), "--probes", ",".join(probes), "--",
                                  "-b", HOST, "-p", str(port), *os.environ.get("BENCH_DAPHNE_ARGS", "").split(),
                                  "tabletop.asgi:application"],
                                 env=env, out=out)
                servers.append(Server(port=port, proc=proc, log=log))
            for server in servers:
                wait_until_up(server)
            store = f"PostgreSQL {_without_password(database_url)}" if database_url else "a fresh SQLite file"
            layer = f"Redis {redis_url}" if redis_url else "the in-memory channel layer"
            ports = ", ".join(f":{s.port}" for s in servers)
            without = f", without {', '.join(args.without)}" if args.without else ""
            say(f"daphne: {len(servers)} process{'es' if len(servers) > 1 else ''} ({HOST}{ports}) "
                f"on {store} and {layer}{which}{without}")
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
        port = free_ports(1)[0]
        log = Path(tmp) / "bare.log"
        with open(log, "wb") as out:
            proc = spawn([sys.executable, str(BENCH / "_bare_server.py"), str(port), str(limit_s)], out=out)
        server = Server(port=port, proc=proc, log=log)
        try:
            wait_until_up(server)
            yield server
        finally:
            stop(proc)


def wait_until_up(server: Server) -> None:
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
