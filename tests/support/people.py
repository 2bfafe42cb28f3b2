"""People at a table, in Debian's Chromium driven by Playwright: what tests/browser and
tests/scale share.

Each person is a fresh browser context (its own cookie jar, so its own seat) and its page,
recording what it received over websockets. A person keeps the server it came in through
(``base_url``): tests/browser has one daphne, tests/scale a cluster where each person may use
another. Each suite's conftest.py subclasses ``Person`` and ``Table`` with what only it does,
and keeps its fixtures (their scopes and servers differ).
"""

from __future__ import annotations

import itertools
import re
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Generic, Self, TypeVar

from playwright.sync_api import Browser, BrowserContext, Dialog, Page, WebSocket, expect, sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WAIT_MS = 10_000  # the longest an ordinary wait in a test may take
PASSWORD = "Owlbear-Lantern-7731"
ORIGIN = re.compile(r"^https?://[^/]+")

expect.set_options(timeout=WAIT_MS)


@contextmanager
def chromium() -> Iterator[Browser]:
    """Debian's Chromium, headless. Only one sync Playwright may run in a process at a time."""
    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


_names = itertools.count(1)


def unique(prefix: str) -> str:
    return f"{prefix}{next(_names)}{uuid.uuid4().hex[:6]}"


@dataclass
class Answered:
    """The answer to an action the page sent (``Person.expect_answer``): its status as a POST
    answers (an act frame's answer read the same way: 200 when done, a refusal's 4xx), its
    words (a POST's body, an answer frame's message), and which door it came through."""

    status: int = 0
    body: str = ""
    by: str = ""  # "socket" or "http"

    def text(self) -> str:
        return self.body


@dataclass
class Person:
    """One browser context and its page, with what it received over websockets."""

    name: str
    context: BrowserContext
    page: Page
    base_url: str
    sockets: list[WebSocket] = field(default_factory=list)
    frames: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    accept_dialogs: bool = False

    def attach(self) -> None:
        self.page.on("websocket", self._on_websocket)
        self.page.on("dialog", self._on_dialog)
        self.page.on("pageerror", lambda exc: self.page_errors.append(str(exc)))

    def _on_websocket(self, ws: WebSocket) -> None:
        self.sockets.append(ws)
        ws.on("framereceived", lambda payload: self.frames.append(
            payload if isinstance(payload, str) else payload.decode("utf-8", "replace")
        ))

    def submit(self, form_id: str, what: str) -> str:
        """Clicks the form's button and waits for its answer, whichever way the page sent
        it: as an act frame on the open socket (the answer frame) or as the htmx POST (the
        swap settled). Returns "done", "refused", "dropped" (the socket closed before the
        answer) or "http <status>"."""
        self.page.evaluate(ANSWER_WATCH_JS, form_id)
        self.page.locator(f"#{form_id} button[type=submit]").click()
        handle = self.page.wait_for_function(
            "id => window.__answered[id]", arg=form_id, timeout=WAIT_MS
        )
        outcome = str(handle.json_value())
        assert outcome in ("done", "refused", "dropped") or outcome.startswith("http "), f"{what}: {outcome}"
        return outcome

    @contextmanager
    def expect_answer(self, path: str) -> Iterator[Answered]:
        """Waits, as the block ends, for the answer to the action the block sends, its POST's
        path holding ``path`` ("/commands/announce/"), whichever way the page sent it: as an act
        frame on the open socket (the answer frame, read as its POST would have answered) or
        as the htmx POST (the response)."""
        self.page.evaluate(ACTION_WATCH_JS, path)
        answered = Answered()
        yield answered
        handle = self.page.wait_for_function("() => window.__action", timeout=WAIT_MS)
        got = handle.json_value()
        answered.status, answered.body, answered.by = int(got["status"]), str(got["body"]), str(got["by"])

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

    def wait_live(self, timeout_ms: int = WAIT_MS) -> None:
        expect(self.page.locator("#connection")).to_have_attribute("data-state", "live", timeout=timeout_ms)

    def mark_page(self) -> None:
        """Puts a flag in the page's JS world; it survives only if the page is not reloaded."""
        self.page.evaluate("window.__notReloaded = true")

    def assert_not_reloaded(self) -> None:
        assert self.page.evaluate("window.__notReloaded === true"), f"{self.name}'s page reloaded"

    # How the page sits on its screen

    def assert_no_blank_below(self, slack_px: int = 48) -> None:
        """Issue 23: "No blank scroll area below the content (a phone page 6,125 px tall for
        3,286 px of content)": the page scrolls no further than its last visible element."""
        height, bottom, what = self.page.evaluate(CONTENT_BOTTOM_JS)
        assert height - bottom <= slack_px, f"{self.name}'s page is {height} px tall, its content ends at {bottom} ({what})"

    # At the table

    @property
    def member_id(self) -> int:
        return int(self.page.locator("body").get_attribute("data-member") or 0)

    def log_ids(self) -> list[str]:
        return list(self.page.eval_on_selector_all("#log li", "els => els.map(e => e.id)"))


P = TypeVar("P", bound=Person)


class People(Generic[P]):
    """Makes a fresh browser context per person (a ``person`` each) and closes them all afterwards.
    A person comes in through ``base_url`` unless told another server."""

    def __init__(self, browser: Browser, person: type[P], base_url: str | None = None) -> None:
        self.browser = browser
        self.person = person
        self.base_url = base_url
        self.made: list[P] = []

    def new(
        self,
        name: str,
        base_url: str | None = None,
        *,
        width: int = 1280,
        height: int = 900,
        storage_state: dict[str, Any] | None = None,
    ) -> P:
        base_url = base_url or self.base_url
        assert base_url, f"no server for {name}: People has no base_url, so name one"
        context = self.browser.new_context(
            viewport={"width": width, "height": height}, base_url=base_url, storage_state=storage_state
        )
        context.set_default_timeout(WAIT_MS)
        context.set_default_navigation_timeout(WAIT_MS)
        person = self.person(name=name, context=context, page=context.new_page(), base_url=base_url)
        person.attach()
        self.made.append(person)
        return person

    def close(self) -> None:
        for person in self.made:
            person.context.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True)
class GmAccount:
    username: str
    storage_state: dict[str, Any]

    @classmethod
    def sign_up(cls, browser: Browser, base_url: str) -> GmAccount:
        """A GM signs up through the form; tables then reuse the session cookie."""
        username = unique("gm")
        context = browser.new_context(base_url=base_url)
        context.set_default_timeout(WAIT_MS)
        try:
            page = context.new_page()
            page.goto(base_url + "/accounts/signup/")
            page.locator("#id_username").fill(username)
            page.locator("#id_password1").fill(PASSWORD)
            page.locator("#id_password2").fill(PASSWORD)
            page.get_by_role("button", name="Sign up").click()
            page.wait_for_url(base_url + "/")
            expect(page.locator("header.site .who")).to_have_text(username)
            expect(page.get_by_role("button", name="Create table")).to_be_visible()
            return cls(username=username, storage_state=context.storage_state())
        finally:
            context.close()


@dataclass
class Table(Generic[P]):
    """A table with its GM at the table; players and spectators join through its links.
    ``url`` and the links are as the GM's page shows them; the paths work on any server."""

    people: People[P]
    gm: P
    name: str
    url: str
    player_link: str
    spectator_link: str

    @classmethod
    def open(
        cls,
        people: People[P],
        gm_account: GmAccount,
        base_url: str | None = None,
        *,
        system: str = "freeform",
        width: int = 1280,
        height: int = 900,
    ) -> Self:
        """The signed-up GM creates a table on the home page and stays at its table."""
        gm = people.new(
            gm_account.username, base_url, width=width, height=height, storage_state=gm_account.storage_state
        )
        assert gm.goto("/") == 200
        page = gm.page
        name = unique("Table ")
        page.locator("#id_name").fill(name)
        page.locator("#id_system").select_option(system)
        page.get_by_role("button", name="Create table").click()
        page.wait_for_url(re.compile(r"/tables/\d+/$"))
        gm.wait_live()
        return cls(
            people=people,
            gm=gm,
            name=name,
            url=page.url,
            player_link=page.locator("#link-player").input_value(),
            spectator_link=page.locator("#link-spectator").input_value(),
        )

    @property
    def path(self) -> str:  # /tables/<id>/
        return ORIGIN.sub("", self.url)

    @property
    def player_path(self) -> str:
        return ORIGIN.sub("", self.player_link)

    @property
    def spectator_path(self) -> str:
        return ORIGIN.sub("", self.spectator_link)

    def join_player(self, name: str, base_url: str | None = None, *, width: int = 1280, height: int = 900,
                    before: Callable[[P], object] | None = None) -> P:
        """A player seated through the player link; ``before`` readies their page first (a
        route for its socket, say)."""
        player = self.people.new(name, base_url, width=width, height=height)
        if before is not None:
            before(player)
        assert player.goto(self.player_path) == 200
        player.page.locator("#id_display_name").fill(name)
        player.page.get_by_role("button", name="Take a seat").click()
        player.page.wait_for_url(player.url(self.path))
        player.wait_live()
        return player

    def join_spectator(self, name: str = "spectator", base_url: str | None = None) -> P:
        spectator = self.people.new(name, base_url)
        assert spectator.goto(self.spectator_path) == 200
        spectator.page.get_by_role("button", name="Start watching").click()
        spectator.page.wait_for_url(spectator.url(self.path))
        spectator.wait_live()
        return spectator


# The page's height, and the bottom of its lowest element a person can see (and what it is).
CONTENT_BOTTOM_JS = """
() => {
  let bottom = 0, what = "";
  for (const el of document.querySelectorAll("body *")) {
    const r = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    if (!r.width || !r.height || s.visibility === "hidden" || s.display === "none" || s.position === "fixed") continue;
    if (el.closest("details:not([open]) > :not(summary)")) continue;  // folded away: no height of its own
    const at = r.bottom + window.scrollY;
    if (at > bottom) { bottom = at; what = el.tagName.toLowerCase() + "#" + el.id + "." + el.className; }
  }
  return [document.documentElement.scrollHeight, Math.ceil(bottom), what];
}
"""

# Set before an action is sent: window.__action becomes its answer, as ``Answered`` reads it.
ACTION_WATCH_JS = """
(path) => {
  window.__action = null;
  const STATUS = { "not-allowed": 403, "not-found": 404, "unknown-action": 404, invalid: 400, conflict: 409,
                   unavailable: 503 };
  function finish(answer) {
    window.__action = answer;
    document.removeEventListener("tabletop:answered", bySocket);
    document.removeEventListener("htmx:afterRequest", requested);
  }
  function bySocket(e) {
    if (!(e.detail.path || "").includes(path)) return;
    const status = e.detail.outcome === "done" ? 200 : (STATUS[e.detail.error] || 0);
    finish({ status: status, body: e.detail.message || "", by: "socket" });
  }
  function requested(e) {
    const config = e.detail.requestConfig;
    if (!config || config.verb !== "post" || !config.path.includes(path)) return;
    finish({ status: e.detail.xhr ? e.detail.xhr.status : 0, body: e.detail.xhr ? e.detail.xhr.responseText : "",
             by: "http" });
  }
  document.addEventListener("tabletop:answered", bySocket);
  document.addEventListener("htmx:afterRequest", requested);
}
"""

# Set before a form is sent: window.__answered[formId] becomes the outcome of its answer.
ANSWER_WATCH_JS = """
(formId) => {
  window.__answered = window.__answered || {};
  window.__answered[formId] = null;
  let status = 0;
  function finish(outcome) {
    window.__answered[formId] = outcome;
    document.removeEventListener("tabletop:answered", bySocket);
    document.removeEventListener("htmx:afterRequest", requested);
    document.removeEventListener("htmx:afterSettle", settled);
  }
  function bySocket(e) { if (e.target.id === formId) finish(e.detail.outcome); }
  function mine(e) { const elt = e.detail.requestConfig && e.detail.requestConfig.elt; return elt && elt.id === formId; }
  function requested(e) {
    if (!mine(e)) return;
    status = e.detail.xhr ? e.detail.xhr.status : 0;
    if (status !== 200) finish("http " + status);  // an error answer may not be swapped
  }
  function settled(e) { if (mine(e)) finish("http " + (status || 200)); }
  document.addEventListener("tabletop:answered", bySocket);
  document.addEventListener("htmx:afterRequest", requested);
  document.addEventListener("htmx:afterSettle", settled);
}
"""
