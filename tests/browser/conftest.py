"""Browser tests: Debian's Chromium, driven by Playwright, against a real daphne.

One daphne (SQLite in a temp dir, in-memory channel layer) and one Chromium serve the
whole session; each person at a table gets a fresh browser context, so a fresh cookie
jar and a seat of their own. Nothing here touches the Django test database: the tests
talk to the server only through the browser (and manage.py in a subprocess).

Helpers are fixtures (``people``, ``make_table``), because test modules are imported
with ``--import-mode=importlib`` and cannot import from one another.
"""

from __future__ import annotations

import itertools
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Dialog, Locator, Page, WebSocket, expect, sync_playwright

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
HOST = "127.0.0.1"
START_TIMEOUT_S = 30
WAIT_MS = 10_000  # the longest any single wait in a test may take
PASSWORD = "Owlbear-Lantern-7731"

expect.set_options(timeout=WAIT_MS)


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
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


# People at a table


@dataclass
class Person:
    """One browser context and its page, with what it received over websockets."""

    name: str
    context: BrowserContext
    page: Page
    base_url: str
    frames: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    accept_dialogs: bool = False

    def attach(self) -> None:
        self.page.on("websocket", self._on_websocket)
        self.page.on("dialog", self._on_dialog)
        self.page.on("pageerror", lambda exc: self.page_errors.append(str(exc)))

    def _on_websocket(self, ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: self.frames.append(
            payload if isinstance(payload, str) else payload.decode("utf-8", "replace")
        ))

    def _on_dialog(self, dialog: Dialog) -> None:
        self.dialogs.append(f"{dialog.type}: {dialog.message}")
        if self.accept_dialogs:
            dialog.accept()
        else:
            dialog.dismiss()

    # Navigation

    def url(self, path_or_url: str) -> str:
        return path_or_url if path_or_url.startswith("http") else self.base_url + path_or_url

    def goto(self, path_or_url: str) -> int:
        response = self.page.goto(self.url(path_or_url), wait_until="domcontentloaded")
        assert response is not None
        return response.status

    def wait_live(self) -> None:
        expect(self.page.locator("#connection")).to_have_attribute("data-state", "live")

    def mark_page(self) -> None:
        """Puts a flag in the page's JS world; it survives only if the page is not reloaded."""
        self.page.evaluate("window.__notReloaded = true")

    def assert_not_reloaded(self) -> None:
        assert self.page.evaluate("window.__notReloaded === true"), f"{self.name}'s page reloaded"

    # At the table

    @property
    def member_id(self) -> int:
        return int(self.page.locator("body").get_attribute("data-member") or 0)

    def roll(self, notation: str, mode: str = "public") -> None:
        form = self.page.locator("#roll-form")
        form.locator("#id_notation").fill(notation)
        form.locator("#id_mode").select_option(mode)
        self._submit("roll-form", "/roll/", f"roll {notation!r} ({mode})")

    def chat(self, text: str) -> None:
        self.page.locator("#chat-form #id_text").fill(text)
        self._submit("chat-form", "/chat/", f"chat {text!r}")

    def _submit(self, form_id: str, path: str, what: str) -> None:
        """Clicks the form's button and waits until htmx has swapped the answer in and settled,
        so the next step does not race the swap (tabletop.js moves focus on settle)."""
        self.page.evaluate(SETTLE_WATCH_JS, form_id)
        with self.page.expect_response(
            lambda r: r.url.endswith(path) and r.request.method == "POST"
        ) as info:
            self.page.locator(f"#{form_id} button[type=submit]").click()
        assert info.value.status == 200, f"{what} answered {info.value.status}"
        self.page.wait_for_function("id => window.__settled[id] === true", arg=form_id, timeout=WAIT_MS)

    def entry(self, text: str) -> Locator:
        """The log line holding ``text``."""
        return self.page.locator("#log li", has_text=text)

    def log_ids(self) -> list[str]:
        return self.page.eval_on_selector_all("#log li", "els => els.map(e => e.id)")

    def log_text(self) -> str:
        return self.page.locator("#log").inner_text()

    def frames_with(self, text: str) -> list[str]:
        return [f for f in self.frames if text in f]


class People:
    """Makes a fresh browser context per person and closes them all afterwards."""

    def __init__(self, browser: Browser, base_url: str) -> None:
        self.browser = browser
        self.base_url = base_url
        self.made: list[Person] = []

    def new(
        self, name: str, *, width: int = 1280, height: int = 900, storage_state: dict[str, Any] | None = None
    ) -> Person:
        context = self.browser.new_context(
            viewport={"width": width, "height": height}, base_url=self.base_url, storage_state=storage_state
        )
        context.set_default_timeout(WAIT_MS)
        context.set_default_navigation_timeout(WAIT_MS)
        person = Person(name=name, context=context, page=context.new_page(), base_url=self.base_url)
        person.attach()
        self.made.append(person)
        return person

    def close(self) -> None:
        for person in self.made:
            person.context.close()


@pytest.fixture
def people(browser: Browser, base_url: str) -> Iterator[People]:
    made = People(browser, base_url)
    try:
        yield made
    finally:
        made.close()


_names = itertools.count(1)


def unique(prefix: str) -> str:
    return f"{prefix}{next(_names)}{uuid.uuid4().hex[:6]}"


@dataclass
class Table:
    """A campaign with its GM at the table; players and spectators join through its links."""

    people: People
    gm: Person
    name: str
    url: str
    player_link: str
    spectator_link: str

    def join_player(self, display_name: str, *, width: int = 1280, height: int = 900) -> Person:
        player = self.people.new(display_name, width=width, height=height)
        assert player.goto(self.player_link) == 200
        player.page.locator("#id_display_name").fill(display_name)
        player.page.get_by_role("button", name="Take a seat").click()
        player.page.wait_for_url(self.url)
        player.wait_live()
        return player

    def join_spectator(self, name: str = "spectator") -> Person:
        spectator = self.people.new(name)
        assert spectator.goto(self.spectator_link) == 200
        spectator.page.get_by_role("button", name="Start watching").click()
        spectator.page.wait_for_url(self.url)
        spectator.wait_live()
        return spectator

    def sync(self, by: Person, *everyone: Person) -> str:
        """A public chat line from ``by`` that everyone has received: socket frames arrive
        in order, so anything sent to them before it has arrived too."""
        token = unique("barrier-")
        by.chat(token)
        for person in (by, *everyone):
            expect(person.entry(token)).to_have_count(1)
        return token


@dataclass(frozen=True)
class GmAccount:
    username: str
    storage_state: dict[str, Any]


@pytest.fixture(scope="session")
def gm_account(browser: Browser, base_url: str) -> GmAccount:
    """A GM signs up through the form, once per session; tables reuse the session cookie."""
    username = unique("gm")
    context = browser.new_context(base_url=base_url)
    context.set_default_timeout(WAIT_MS)
    try:
        page = context.new_page()
        page.goto("/accounts/signup/")
        page.locator("#id_username").fill(username)
        page.locator("#id_password1").fill(PASSWORD)
        page.locator("#id_password2").fill(PASSWORD)
        page.get_by_role("button", name="Sign up").click()
        page.wait_for_url(base_url + "/")
        expect(page.locator("header.site .who")).to_have_text(username)
        expect(page.get_by_role("button", name="Create campaign")).to_be_visible()
        return GmAccount(username=username, storage_state=context.storage_state())
    finally:
        context.close()


@pytest.fixture
def make_table(people: People, gm_account: GmAccount) -> Callable[..., Table]:
    """The signed-up GM creates a campaign (Freeform unless told) on the home page and opens its table."""

    def make(*, gm_width: int = 1280, gm_height: int = 900, system: str = "freeform") -> Table:
        gm = people.new(
            gm_account.username, width=gm_width, height=gm_height, storage_state=gm_account.storage_state
        )
        assert gm.goto("/") == 200
        page = gm.page
        name = unique("Campaign ")
        page.locator("#id_name").fill(name)
        page.locator("#id_system").select_option(system)
        page.get_by_role("button", name="Create campaign").click()
        page.wait_for_url(re.compile(r"/tables/\d+/$"))
        gm.wait_live()
        return Table(
            people=people,
            gm=gm,
            name=name,
            url=page.url,
            player_link=page.locator("#link-player").input_value(),
            spectator_link=page.locator("#link-spectator").input_value(),
        )

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

SETTLE_WATCH_JS = """
(formId) => {
  window.__settled = window.__settled || {};
  window.__settled[formId] = false;
  document.addEventListener("htmx:afterSettle", function done(e) {
    const elt = e.detail.requestConfig && e.detail.requestConfig.elt;
    if (elt && elt.id === formId) {
      window.__settled[formId] = true;
      document.removeEventListener("htmx:afterSettle", done);
    }
  });
}
"""

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
