"""Issue 38: "accessibility 100 and best practices 100 for every system's page, each lens, and
performance >= 95, checked in the test suite". Lighthouse (pinned in package.json, installed by
``make test``) runs against Debian's Chromium on each system's demo table (``manage.py demo
--system <key>``: its sample characters seated), signed in by the session cookie of the GM, a
player (Mara, by her seat link) and a spectator. All the runs share this suite's daphne and one
node process with one Chromium, so the pages cost seconds each, not a browser start each.
Accessibility and best practices are read on Lighthouse's phone (412 px wide, touch targets
and all), where a table's pages are at their most cramped.

Performance is measured where a page weighs most, the GM's and a player's page at the Demon City
demo (a story so far: a deck in use, a round under way, a long log), on Lighthouse's desktop
settings: its mobile settings slow the CPU fourfold over a machine other tests already load, so
the figure would measure the machine rather than the page."""

from __future__ import annotations

import http.cookiejar
import json
import re
import shutil
import subprocess
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from games import registry
from tests.support.people import CHROMIUM, CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "tests" / "browser" / "lighthouse_run.mjs"
REPORT = ROOT / "test-artifacts" / "lighthouse.json"  # every run's scores and failing audits (kept out of git)
CHROME_FLAGS = ["--headless", *CHROMIUM_ARGS]
LENSES = ("gm", "player", "spectator")
QUALITY = ["accessibility", "best-practices"]
# The pages whose performance is asserted, read on Lighthouse's desktop settings.
MEASURED = {("demon_city", "gm"), ("demon_city", "player")}
PERFORMANCE_AT_LEAST = 0.95
NODE_TIMEOUT_S = 480  # under pytest-timeout's 600 s, so a hung run says so itself


class _Visitor:
    """One person's cookie jar, signing in over plain HTTP the way the page's forms do (a browser
    per person would cost a minute here, and Lighthouse brings its own)."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def post_form(self, url: str, **fields: str) -> str:
        """Opens ``url``, then sends its form with ``fields`` and its CSRF token; the URL it lands on."""
        with self.opener.open(url, timeout=30) as page:
            assert page.status == 200, f"{url} answered {page.status}"
        token = next(c.value for c in self.jar if c.name == "csrftoken")
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **fields}).encode()
        with self.opener.open(urllib.request.Request(url, data=body, headers={"Referer": url}), timeout=30) as landed:
            assert landed.status == 200, f"{url} answered {landed.status}"
            return landed.url

    def cookies(self) -> list[dict[str, Any]]:
        """The cookies that sign Lighthouse in as this person: their session and CSRF cookies."""
        assert any(c.name == "sessionid" for c in self.jar), "no session cookie: the sign-in failed"
        return [{"name": c.name, "value": c.value, "url": self.base_url} for c in self.jar]


def _demo_tables(manage: Any, base_url: str) -> dict[str, str]:
    """Each system's demo table built by ``manage.py demo --system <key>``, all in one process (a
    Django start each would cost seconds apiece): what each printed (its logins and links)."""
    code = ("from django.core.management import call_command\n"
            f"for system in {list(registry.SYSTEMS)!r}:\n"
            "    print('== ' + system)\n"
            f"    call_command('demo', system=system, base_url={base_url!r})\n")
    printed = manage("shell", "-c", code).stdout
    return {part.split("\n", 1)[0].strip(): part for part in printed.split("== ")[1:]}


def _seat_the_demo(printed: str, base_url: str) -> tuple[str, dict[str, _Visitor]]:
    """The demo table (its URL) and its GM, Mara (by her seat link) and a spectator."""
    login = re.search(r"GM: (\S+) / (\S+)", printed)
    seat = re.search(r"Mara's seat: (\S+)", printed)
    watch = re.search(r"Spectator link: (\S+)", printed)
    table = re.search(r"Table: (\S+)", printed)
    assert login and seat and watch and table, printed
    seated = {lens: _Visitor(base_url) for lens in LENSES}
    seated["gm"].post_form(f"{base_url}/accounts/login/", username=login.group(1), password=login.group(2))
    assert seated["player"].post_form(seat.group(1)) == table.group(1)
    assert seated["spectator"].post_form(watch.group(1)) == table.group(1)
    return table.group(1), seated


def _runs(base_url: str, manage: Any) -> list[dict[str, Any]]:
    runs = []
    demos = _demo_tables(manage, base_url)
    assert sorted(demos) == sorted(registry.SYSTEMS), demos
    for system in registry.SYSTEMS:
        table, seated = _seat_the_demo(demos[system], base_url)
        for lens, visitor in seated.items():
            measured = (system, lens) in MEASURED
            runs.append({
                "name": f"{system}/{lens}",
                "url": table,
                "cookies": visitor.cookies(),
                "categories": [*QUALITY, "performance"] if measured else QUALITY,
                "form_factor": "desktop" if measured else "mobile",
            })
    return runs


def _lighthouse(runs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    node = shutil.which("node")
    assert node, "node is not installed (Debian's nodejs and npm: `make test` asks for them)"
    assert (ROOT / "node_modules" / "lighthouse").is_dir(), "Lighthouse is not installed: run `make test` or `npm ci`"
    job = {"chrome_path": CHROMIUM, "chrome_flags": CHROME_FLAGS, "runs": runs}
    done = subprocess.run([node, str(RUNNER)], cwd=ROOT, input=json.dumps(job), capture_output=True,
                          text=True, timeout=NODE_TIMEOUT_S)
    assert done.returncode == 0, f"Lighthouse failed:\n{done.stderr[-4000:]}"
    return {result["name"]: result for result in json.loads(done.stdout)}


@pytest.fixture(scope="module")
def lighthouse(base_url: str, manage: Any) -> dict[str, dict[str, Any]]:
    """Each system's demo table seated, then Lighthouse on every page and lens, once for the module."""
    started = time.monotonic()
    runs = _runs(base_url, manage)
    seated = time.monotonic()
    results = _lighthouse(runs)
    took = f"seated in {seated - started:.1f} s, Lighthouse in {time.monotonic() - seated:.1f} s"
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(json.dumps({"took": took, "results": results}, indent=1))
    return results


def _report(result: dict[str, Any]) -> str:
    lines = [f"{result['name']} at {result['final_url']}: {result['scores']} {result['metrics']}"]
    if result["runtime_error"]:
        lines.append(f"  runtime error: {result['runtime_error']}")
    for audit in result["failing"]:
        lines.append(f"  {audit['category']}: {audit['id']} ({audit['title']}) {audit['shown']}")
        lines.extend(f"      {item}" for item in audit["items"])
    return "\n".join(lines)


@pytest.mark.parametrize("system", list(registry.SYSTEMS))
def test_every_lens_of_each_system_s_table_scores_100_for_accessibility_and_best_practices(
        system: str, lighthouse: dict[str, dict[str, Any]]) -> None:
    results = [lighthouse[f"{system}/{lens}"] for lens in LENSES]
    for result in results:
        # Lighthouse followed no redirect to the login page: it read the table as the seat it was given.
        assert result["final_url"] == result["url"], _report(result)
    # A score of 100 leaves out the audits Lighthouse runs without weighing them (a label whose
    # visible words are not in its control's name, an empty heading): those must pass as well.
    wanting = [r for r in results
               if r["runtime_error"] or any(r["scores"].get(c) != 1 for c in QUALITY)
               or any(a["category"] in QUALITY for a in r["failing"])]
    assert wanting == [], "\n".join(_report(r) for r in wanting)


def test_the_heaviest_pages_score_at_least_95_for_performance(lighthouse: dict[str, dict[str, Any]]) -> None:
    measured = [lighthouse[f"{system}/{lens}"] for system, lens in sorted(MEASURED)]
    slow = [r for r in measured if (r["scores"].get("performance") or 0) < PERFORMANCE_AT_LEAST]
    assert slow == [], "\n".join(_report(r) for r in slow)
