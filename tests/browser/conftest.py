"""Browser tests: Debian's Chromium, driven by Playwright, against a real daphne.

One daphne (SQLite in a temp dir, in-memory channel layer) and one Chromium serve the
whole session; each person at a table gets a fresh browser context, so a fresh cookie
jar and a seat of their own. Nothing here touches the Django test database: the tests
talk to the server only through the browser (and manage.py in a subprocess).

Helpers are fixtures (``people``, ``make_table``), because test modules are imported
with ``--import-mode=importlib`` and cannot import from one another. What a person at a
table is, shared with tests/scale, is in tests/support/people.py; here is what only
this suite does with one: roll, chat and wait for the page to settle, read its log.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, expect

from tests.support import people as shared
from tests.support.people import WAIT_MS, GmAccount, chromium, unique

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
HOST = "127.0.0.1"
START_TIMEOUT_S = 30


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Hooks in a conftest see every collected item, so mark only the ones in this folder.
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A failed browser test shows what daphne logged meanwhile: a server traceback is
    often the whole story."""
    report = yield
    watch = getattr(item, "_daphne_log_from", None)
    if report.failed and watch is not None:
        path, offset = watch
        with open(path, errors="replace") as log:
            log.seek(offset)
            lines = [line for line in log.read().splitlines() if '"GET /static/' not in line]
        report.sections.append(("daphne log during this test", "\n".join(lines[-150:])))
    return report


@pytest.fixture(autouse=True)
def _watch_daphne_log(request: pytest.FixtureRequest, base_url: str, daphne_log: Path) -> None:
    request.node._daphne_log_from = (daphne_log, daphne_log.stat().st_size)


# The server


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def server_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the server keeps its database and its log."""
    return tmp_path_factory.mktemp("tabletop-browser")


@pytest.fixture(scope="session")
def server_env(server_dir: Path) -> dict[str, str]:
    """The environment of every server-side subprocess: its own SQLite file, one process."""
    tmp = server_dir
    env = dict(os.environ)
    for name in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "CSRF_TRUSTED_ORIGINS"):
        env.pop(name, None)
    env.update(
        SQLITE_PATH=str(tmp / "db.sqlite3"),
        TABLETOP_MEDIA_ROOT=str(tmp / "media"),  # uploaded pictures, kept out of the checkout
        DEBUG="1",
        ALLOWED_HOSTS=f"{HOST},localhost",
        DJANGO_SETTINGS_MODULE="tabletop.settings",
        PYTHONUNBUFFERED="1",
    )
    return env


@pytest.fixture(scope="session")
def manage(server_env: dict[str, str]) -> Callable[..., subprocess.CompletedProcess[str]]:
    """Runs ``manage.py <args>`` against the browser tests' database."""

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=server_env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        if done.returncode != 0:
            pytest.fail(f"manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
        return done

    return run


@pytest.fixture(scope="session")
def daphne_log(server_dir: Path) -> Path:
    return server_dir / "daphne.log"


@pytest.fixture(scope="session")
def base_url(server_env: dict[str, str], manage: Callable[..., Any], daphne_log: Path) -> Iterator[str]:
    """A real daphne on a free loopback port, serving the app until the session ends."""
    manage("migrate", "--noinput")
    port = _free_port()
    log_path = daphne_log
    url = f"http://{HOST}:{port}"
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", HOST, "-p", str(port), "tabletop.asgi:application"],
            cwd=ROOT,
            env=server_env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if proc.poll() is not None:
                pytest.fail(f"daphne exited with {proc.returncode}:\n{log_path.read_text()}")
            try:
                with urllib.request.urlopen(url + "/", timeout=2) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"daphne did not answer within {START_TIMEOUT_S} s:\n{log_path.read_text()}")
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with chromium() as launched:
        yield launched


# People at a table


class Person(shared.Person):
    """A person at this suite's one daphne, acting through the page's own forms."""

    def roll(self, notation: str, mode: str = "public") -> None:
        form = self.page.locator("#roll-form")
        form.locator("#id_notation").fill(notation)
        form.locator("#id_mode").select_option(mode)
        self._submit("roll-form", "/roll/", f"roll {notation!r} ({mode})")

    def chat(self, text: str) -> None:
        self.page.locator("#chat-form #id_text").fill(text)
        self._submit("chat-form", "/chat/", f"chat {text!r}")

    def _submit(self, form_id: str, path: str, what: str) -> None:
        """Sends the form and waits for its answer (see ``submit``); it must be done. While
        the page is live that is an act frame on the socket, not a POST to ``path``."""
        outcome = self.submit(form_id, what)
        assert outcome in ("done", "http 204"), f"{what} answered {outcome} (form for {path})"

    def entry(self, text: str) -> Locator:
        """The log line holding ``text``."""
        return self.page.locator("#log li", has_text=text)

    def log_text(self) -> str:
        return self.page.locator("#log").inner_text()

    def frames_with(self, text: str) -> list[str]:
        return [f for f in self.frames if text in f]


People = shared.People[Person]


@pytest.fixture
def people(browser: Browser, base_url: str) -> Iterator[People]:
    with shared.People(browser, Person, base_url) as made:
        yield made


class Table(shared.Table[Person]):
    def sync(self, by: Person, *everyone: Person) -> str:
        """A public chat line from ``by`` that everyone has received: socket frames arrive
        in order, so anything sent to them before it has arrived too."""
        token = unique("barrier-")
        by.chat(token)
        for person in (by, *everyone):
            expect(person.entry(token)).to_have_count(1)
        return token


@pytest.fixture(scope="session")
def gm_account(browser: Browser, base_url: str) -> GmAccount:
    """A GM signs up through the form, once per session; tables reuse the session cookie."""
    return GmAccount.sign_up(browser, base_url)


@pytest.fixture
def make_table(people: People, gm_account: GmAccount) -> Callable[..., Table]:
    """The signed-up GM creates a table (Freeform unless told) on the home page and opens its table."""

    def make(*, gm_width: int = 1280, gm_height: int = 900, system: str = "freeform") -> Table:
        return Table.open(people, gm_account, system=system, width=gm_width, height=gm_height)

    return make


@pytest.fixture
def player_table(make_table: Callable[..., Table]) -> tuple[Table, Person, Person]:
    """A table with its GM and one player (Ann), both live."""
    table = make_table()
    return table, table.gm, table.join_player("Ann")


@pytest.fixture
def full_table(player_table: tuple[Table, Person, Person]) -> tuple[Table, Person, Person, Person]:
    """A table with its GM, one player (Ann) and one spectator, all live."""
    table, gm, player = player_table
    return table, gm, player, table.join_spectator()


# Checks run in the page

ACCESSIBLE_NAMES_JS = """
() => {
  const text = (el) => (el ? el.textContent : "") || "";
  const missing = [];
  for (const el of document.querySelectorAll("input, select, textarea, button")) {
    if (el.type === "hidden") continue;
    let name = "";
    if (el.id) {
      for (const label of document.querySelectorAll(`label[for="${CSS.escape(el.id)}"]`)) name += text(label);
    }
    if (!name.trim() && el.closest("label")) name = text(el.closest("label"));
    if (!name.trim()) name = el.getAttribute("aria-label") || "";
    if (!name.trim() && el.getAttribute("aria-labelledby")) {
      name = el.getAttribute("aria-labelledby").split(/\\s+/).map((id) => text(document.getElementById(id))).join(" ");
    }
    if (!name.trim() && el.tagName === "BUTTON") name = text(el);
    if (!name.trim() && ["submit", "button", "reset"].includes(el.type)) name = el.value || "";
    if (!name.trim()) missing.push(el.outerHTML.slice(0, 160));
  }
  return missing;
}
"""

DUPLICATE_IDS_JS = """
() => {
  const seen = new Map();
  for (const el of document.querySelectorAll("[id]")) seen.set(el.id, (seen.get(el.id) || 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([id]) => id);
}
"""


@pytest.fixture
def accessible_names_js() -> str:
    return ACCESSIBLE_NAMES_JS


@pytest.fixture
def duplicate_ids_js() -> str:
    return DUPLICATE_IDS_JS
