"""Scale tests: real PostgreSQL, Redis, two daphne processes and nginx, all on loopback.

The servers are started once for this package by ``scripts/cluster`` (the same script behind
``make cluster``) in a temp state dir with free ports, and torn down at the end. Tests drive
them through Chromium (Playwright) and plain HTTP clients, pinning a person to one daphne by
opening that daphne's own port, or going through nginx as a real visitor would. A test may
kill a daphne or stop Redis; after each test every server is started again if it is down.

Helpers are fixtures, because test modules are imported with ``--import-mode=importlib``
and cannot import from one another. What a person at a table is, shared with tests/browser,
is in tests/support/people.py; here is what only this suite does with one: name the server
each person comes in through, and compare each page's log with the database's.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.support import people as shared
from tests.support.people import WAIT_MS, GmAccount, chromium, unique

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SCRIPT = ROOT / "scripts" / "cluster"
HOST = "127.0.0.1"
SCRIPT_TIMEOUT_S = 180  # a first start runs initdb and every migration
# Throwaway data: durability costs time and proves nothing here.
PG_OPTIONS = "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "scale: real PostgreSQL, Redis, two daphne processes and nginx (scripts/cluster)"
    )


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Runs these tests first, after pytest-django has ordered the rest. Only one sync
    Playwright may run in a process: tests/browser keeps its own for the whole session, so this
    package's (package-scoped, like the servers) must have come and gone before it starts."""
    ours = [item for item in items if item.path.is_relative_to(HERE)]
    if ours:
        items[:] = ours + [item for item in items if not item.path.is_relative_to(HERE)]


# The servers


def _free_ports(count: int) -> list[int]:
    """Distinct free loopback ports; the sockets stay open until all are picked so none repeats."""
    sockets = []
    try:
        for _ in range(count):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind((HOST, 0))
            sockets.append(s)
        return [int(s.getsockname()[1]) for s in sockets]
    finally:
        for s in sockets:
            s.close()


@dataclass
class Cluster:
    """The servers of one session, and the few things a test does to them."""

    state_dir: Path
    nginx_port: int
    daphne_ports: list[int]
    env: dict[str, str]

    @property
    def nginx_url(self) -> str:
        return f"http://{HOST}:{self.nginx_port}"

    def daphne_url(self, n: int) -> str:
        return f"http://{HOST}:{self.daphne_ports[n - 1]}"

    def run(self, *args: str) -> str:
        """Runs ``scripts/cluster <args>``; a failure fails the test with the script's words
        (it prints the end of the server's log when a server does not start)."""
        try:
            done = subprocess.run(
                ["bash", str(SCRIPT), *args], cwd=ROOT, env=self.env, capture_output=True, text=True,
                timeout=SCRIPT_TIMEOUT_S, check=False,
            )
        except subprocess.TimeoutExpired as exc:
            pytest.fail(f"scripts/cluster {' '.join(args)} took over {SCRIPT_TIMEOUT_S} s:\n{exc.stdout}\n{exc.stderr}")
        if done.returncode != 0:
            pytest.fail(f"scripts/cluster {' '.join(args)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
        return done.stdout

    def kill_daphne(self, n: int) -> None:
        """SIGKILL: no close frame, no disconnect handler, as when a process crashes."""
        self.run("kill-daphne", str(n))

    def start_daphne(self, n: int) -> None:
        self.run("start-daphne", str(n))

    def stop_redis(self) -> None:
        self.run("stop-redis")

    def start_redis(self) -> None:
        self.run("start-redis")

    def heal(self) -> None:
        """Starts again whatever a test stopped; running servers are left alone."""
        self.run("start-redis")
        for n in range(1, len(self.daphne_ports) + 1):
            self.run("start-daphne", str(n))

    def connections_to(self, n: int) -> int:
        """How many TCP connections daphne ``n`` holds open now: nginx keeps no idle upstream
        connections, so these are its websockets (and requests in flight)."""
        port = self.daphne_ports[n - 1]
        count = 0
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            try:
                lines = Path(table).read_text().splitlines()[1:]
            except OSError:
                continue
            for line in lines:
                fields = line.split()
                local, state = fields[1], fields[3]
                if state == "01" and int(local.rsplit(":", 1)[1], 16) == port:  # 01: ESTABLISHED
                    count += 1
        return count

    def logs(self) -> list[Path]:
        recorded = self.state_dir / "postgres.path"  # where the script put PostgreSQL's files
        postgres = Path(recorded.read_text().strip()) if recorded.exists() else self.state_dir / "postgres"
        return sorted(self.state_dir.glob("daphne-*.log")) + [
            self.state_dir / "nginx" / "error.log", self.state_dir / "redis.log", postgres / "postgres.log"
        ]


@pytest.fixture(scope="package")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    state_dir = tmp_path_factory.mktemp("cluster")
    nginx_port, daphne_1, daphne_2, pg_port, redis_port = _free_ports(5)
    env = {
        name: value for name, value in os.environ.items()
        if name not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "SQLITE_PATH", "CSRF_TRUSTED_ORIGINS"}
    }
    env.update(
        CLUSTER_DIR=str(state_dir),
        CLUSTER_PORT=str(nginx_port),
        CLUSTER_DAPHNE_PORTS=f"{daphne_1} {daphne_2}",
        CLUSTER_PG_PORT=str(pg_port),
        CLUSTER_REDIS_PORT=str(redis_port),
        CLUSTER_PG_OPTIONS=PG_OPTIONS,
        PYTHON=sys.executable,
        # The broadcast's warnings (a failed group_send) show in the daphne logs.
        LOG_LEVEL="WARNING",
    )
    made = Cluster(state_dir=state_dir, nginx_port=nginx_port, daphne_ports=[daphne_1, daphne_2], env=env)
    try:
        made.run("start")
        yield made
    finally:
        subprocess.run(
            ["bash", str(SCRIPT), "clean"], cwd=ROOT, env=env, capture_output=True, timeout=SCRIPT_TIMEOUT_S, check=False
        )


@pytest.fixture(autouse=True)
def _servers_up_after(request: pytest.FixtureRequest, cluster: Cluster) -> Iterator[None]:
    """Remembers where each log stood (a failure shows what the servers said meanwhile) and
    brings back any server the test stopped, so the next test finds the whole cluster."""
    request.node._cluster_logs_from = {p: p.stat().st_size if p.exists() else 0 for p in cluster.logs()}
    yield
    cluster.heal()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    watched: dict[Path, int] | None = getattr(item, "_cluster_logs_from", None)
    if report.failed and watched:
        for path, offset in watched.items():
            if not path.exists():
                continue
            with open(path, errors="replace") as log:
                log.seek(min(offset, path.stat().st_size))
                lines = [line for line in log.read().splitlines() if '"GET /static/' not in line]
            if lines:
                report.sections.append((f"{path.name} during this test", "\n".join(lines[-120:])))
    return report


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    with chromium() as launched:
        yield launched


# People


class Person(shared.Person):
    """A person pinned to the server they came in through, checked against the database's log."""

    def socket_ports(self) -> list[int]:
        return [int(re.match(r"wss?://[^:/]+:(\d+)/", ws.url).group(1)) for ws in self.sockets]  # type: ignore[union-attr]

    def roll(self, notation: str) -> str:
        """Rolls through the dice box, as a person does; returns the new event's position as
        this person numbers it (the id of its line on their page)."""
        form = self.page.locator("#roll-form")
        form.locator("#id_notation").fill(notation)
        form.locator("#id_mode").select_option("public")
        outcome = self.submit("roll-form", f"{self.name}'s roll")
        assert outcome in ("done", "http 204"), f"{self.name}'s roll answered {outcome}"
        return self.newest_own_position("dice.rolled")

    def post(self, path: str, data: dict[str, Any]) -> int:
        """An htmx POST from this person's session (cookies and CSRF token of the context)."""
        token = next(c["value"] for c in self.context.cookies(self.base_url) if c["name"] == "csrftoken")
        response = self.context.request.post(
            self.base_url + path, form=data, headers={"X-CSRFToken": token, "HX-Request": "true"}
        )
        return response.status

    def export(self, table_path: str) -> list[dict[str, Any]]:
        """The log as the database has it for this person: the truth the page must match."""
        response = self.context.request.get(self.base_url + table_path + "export.json")
        assert response.status == 200, f"{self.name}'s export answered {response.status}"
        return list(json.loads(response.text())["events"])

    def newest_own_position(self, kind: str) -> str:
        """This person's position of their latest event of ``kind`` (the GM's is its seq),
        read from the database through their export."""
        path = shared.ORIGIN.sub("", self.page.url)
        rows = [r for r in self.export(path) if r["kind"] == kind and r["actor"] == self.name]
        assert rows, f"no {kind} event by {self.name} in the log"
        return str(rows[-1]["position"])

    def wait_for_log(self, expected: list[str], timeout_ms: int = WAIT_MS) -> None:
        """Waits until the page's log lists exactly ``expected``, in order, each once."""
        try:
            self.page.wait_for_function(LOG_EQUALS_JS, arg=expected, timeout=timeout_ms)
        except PlaywrightTimeout:
            raise AssertionError(
                f"{self.name}'s log did not become the database's log within {timeout_ms} ms:\n"
                f"  expected {expected}\n  page has {self.log_ids()}\n"
                f"  sockets opened: {len(self.sockets)}; connection: "
                f"{self.page.locator('#connection').get_attribute('data-state')}"
            ) from None


LOG_EQUALS_JS = """
(expected) => {
  const ids = [...document.querySelectorAll("#log li")].map((e) => e.id);
  return ids.length === expected.length && ids.every((id, i) => id === expected[i]);
}
"""


People = shared.People[Person]


@pytest.fixture
def people(browser: Browser) -> Iterator[People]:
    """Every person names the server they come in through: there is no default."""
    with shared.People(browser, Person) as made:
        yield made


@pytest.fixture
def unique_name() -> Callable[[str], str]:
    return unique


class Table(shared.Table[Person]):
    """A table; its paths work on every server, so a person may reach it through any."""

    @property
    def table_id(self) -> int:
        return int(self.path.strip("/").split("/")[-1])

    def chat(self, by: Person, text: str) -> None:
        assert by.post(self.path + "chat/", {"text": text}) == 204, f"{by.name} could not chat"

    def expected_log(self, person: Person) -> list[str]:
        return [f"event-{row['position']}" for row in person.export(self.path)]

    def assert_everyone_matches_the_log(self, *everyone: Person, timeout_ms: int = WAIT_MS) -> list[str]:
        """Each page shows exactly its viewer's log from the database, in order, nothing twice."""
        expected: list[str] = []
        for person in everyone:
            expected = self.expected_log(person)
            person.wait_for_log(expected, timeout_ms=timeout_ms)
        return expected


@pytest.fixture(scope="package")
def gm_account(browser: Browser, cluster: Cluster) -> GmAccount:
    """A GM signs up once, through nginx; the session cookie then works on every server
    (sessions live in PostgreSQL and every process shares SECRET_KEY)."""
    return GmAccount.sign_up(browser, cluster.nginx_url)


@pytest.fixture
def make_table(people: People, gm_account: GmAccount) -> Callable[..., Table]:
    """The GM creates a Freeform table through ``base_url`` and stays at its table there."""

    def make(base_url: str) -> Table:
        return Table.open(people, gm_account, base_url)

    return make
