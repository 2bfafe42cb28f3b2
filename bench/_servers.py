"""PostgreSQL and Redis of a benchmark's own (``--servers``): throwaway servers on free
loopback ports, in a temp state dir, started and stopped by ``scripts/cluster`` (the script
behind ``make cluster`` and the scale tests), so the benchmarks run them exactly as a
deployment on one machine does.

They stop when the benchmark ends, however it ends: its ``finally`` runs
``scripts/cluster clean``, and a watchdog in a session of its own does the same if the
benchmark dies without one (SIGKILL), or at the latest when the run's time is up.

Standard library only: run as ``_servers.py watch <pid> <seconds> <state dir>`` it is that
watchdog, in whatever python starts it.
"""

from __future__ import annotations

import os
import select
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
SCRIPT = ROOT / "scripts" / "cluster"
HOST = "127.0.0.1"
SCRIPT_TIMEOUT_S = 180  # initdb, and pg_ctl's own 30 s wait
# Throwaway data, but the durability of the SQLite default (WAL, synchronous=NORMAL): a
# commit does not wait for its fsync. Never fsync=off, which SQLite has no match for.
PG_OPTIONS = "-c synchronous_commit=off"


@dataclass(frozen=True)
class Urls:
    database_url: str
    redis_url: str
    state: Path  # scripts/cluster's state dir: where the pid files are


def _ticks(pid: int, *, children: bool = False) -> int:
    """CPU ticks (user + system) of a process, and with ``children`` of those it has reaped."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15 if children else 13])


def _pid_in(file: Path) -> int | None:
    try:
        return int(file.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def cpu_s(urls: Urls) -> dict[str, float]:
    """CPU time (s) PostgreSQL (the postmaster, its live backends and those gone) and
    Redis have used so far, by name; a server whose process cannot be read is left out."""
    recorded = urls.state / "postgres.path"
    base = Path(recorded.read_text().strip()) if recorded.exists() else urls.state / "postgres"
    used: dict[str, float] = {}
    hz = os.sysconf("SC_CLK_TCK")
    postmaster = _pid_in(base / "data" / "postmaster.pid")
    try:
        if postmaster is not None:
            ticks = _ticks(postmaster, children=True)
            for entry in Path("/proc").iterdir():
                if entry.name.isdigit():
                    try:
                        stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                    except OSError:
                        continue  # gone meanwhile
                    if int(stat[1]) == postmaster:
                        ticks += int(stat[11]) + int(stat[12])
            used["PostgreSQL"] = ticks / hz
    except OSError:
        pass
    redis = _pid_in(urls.state / "redis.pid")
    try:
        if redis is not None:
            used["Redis"] = _ticks(redis) / hz
    except OSError:
        pass
    return used


def free_ports(count: int) -> list[int]:
    """Distinct free loopback ports; the sockets stay open until all are picked so none repeats."""
    sockets: list[socket.socket] = []
    try:
        for _ in range(count):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind((HOST, 0))
            sockets.append(s)
        return [int(s.getsockname()[1]) for s in sockets]
    finally:
        for s in sockets:
            s.close()


def _cluster_env(state: Path, pg_port: int, redis_port: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "SQLITE_PATH", "CSRF_TRUSTED_ORIGINS"}
           and not k.startswith("CLUSTER_")}
    env.update(CLUSTER_DIR=str(state), CLUSTER_PG_PORT=str(pg_port), CLUSTER_REDIS_PORT=str(redis_port),
               CLUSTER_PG_OPTIONS=PG_OPTIONS, PYTHON=sys.executable)
    return env


def _script(env: dict[str, str], *args: str) -> str:
    """``scripts/cluster <args>``; on failure, its words (the end of the server's log)."""
    try:
        done = subprocess.run(["bash", str(SCRIPT), *args], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=SCRIPT_TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired as exc:
        raise RuntimeError(f"scripts/cluster {' '.join(args)} took over {SCRIPT_TIMEOUT_S} s") from exc
    if done.returncode != 0:
        raise RuntimeError(f"scripts/cluster {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
    return done.stdout


def _clean(env: dict[str, str]) -> None:
    """Stops both servers and deletes the state dir (the database with it)."""
    try:
        _script(env, "clean")
    except RuntimeError as exc:
        print(f"bench: could not stop the --servers PostgreSQL and Redis: {exc}", file=sys.stderr, flush=True)


@contextmanager
def postgres_and_redis(*, lifetime_s: float) -> Iterator[Urls]:
    """A fresh PostgreSQL (its database and user ``tabletop``) and Redis on free loopback
    ports, stopped and deleted on exit; the watchdog stops them after ``lifetime_s`` even
    if this process cannot."""
    state = Path(tempfile.mkdtemp(prefix="tabletop-bench-servers-"))
    env = _cluster_env(state, *free_ports(2))
    watchdog = subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "watch", str(os.getpid()), f"{lifetime_s:.0f}", str(state)],
        cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)  # a Ctrl-C meant for the benchmark leaves it to clean up
    try:
        _script(env, "start-postgres")
        _script(env, "start-redis")
        values = dict(line.split("=", 1) for line in _script(env, "env").splitlines() if "=" in line)
        yield Urls(database_url=values["DATABASE_URL"], redis_url=values["REDIS_URL"], state=state)
    finally:
        watchdog.kill()  # our own cleanup follows; two at once would race
        watchdog.wait(timeout=10)
        _clean(env)


def _wait_for_exit(pid: int, seconds: float, state: Path) -> None:
    """Returns when ``pid`` has exited or ``seconds`` have passed, or at once if the state
    dir is gone (cleaned already)."""
    deadline = time.monotonic() + seconds
    try:
        handle = os.pidfd_open(pid)  # immune to the pid being reused
    except (AttributeError, OSError):
        handle = -1
    try:
        while state.exists() and time.monotonic() < deadline:
            if handle >= 0:
                if select.select([handle], [], [], 1.0)[0]:
                    return
            else:
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    return
                time.sleep(1.0)
    finally:
        if handle >= 0:
            os.close(handle)


def watch(pid: int, seconds: float, state: Path) -> None:
    """The watchdog: once the benchmark has gone (or its time is up), stop its servers."""
    _wait_for_exit(pid, seconds, state)
    if state.exists():
        _clean(dict(os.environ))


if __name__ == "__main__":
    if len(sys.argv) != 5 or sys.argv[1] != "watch":
        sys.exit("usage: _servers.py watch <pid> <seconds> <state dir>")
    watch(int(sys.argv[2]), float(sys.argv[3]), Path(sys.argv[4]))
