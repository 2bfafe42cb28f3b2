"""Issue 23: "axe-core, run in the browser tests, finds no serious or critical accessibility
violation on the table page of each system, for each lens." Each system's demo table
(``manage.py demo --system <key>``: its sample characters seated) through the GM's, a player's
and a spectator's eyes, with axe-core (axe-playwright-python ships it) run in the page."""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from games import registry

SERIOUS = ("serious", "critical")


def violations(page) -> list[str]:
    results = Axe().run(page)
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:4]}"
            for v in results.response["violations"] if v.get("impact") in SERIOUS]


@pytest.mark.parametrize("system", [s.key for s in registry.available()])
def test_no_serious_accessibility_violation_on_each_system_s_table_for_each_seat(system, manage, people,
                                                                                 base_url) -> None:
    printed = manage("demo", "--system", system, "--base-url", base_url).stdout
    login = re.search(r"GM: (\S+) / (\S+)", printed)
    assert login is not None
    seat = re.search(r"Mara's seat: (\S+)", printed).group(1)
    watch = re.search(r"Spectator link: (\S+)", printed).group(1)
    table = re.search(r"Table: (\S+)", printed).group(1)

    gm = people.new("GM")
    gm.goto("/accounts/login/")
    gm.page.locator("#id_username").fill(login.group(1))
    gm.page.locator("#id_password").fill(login.group(2))
    gm.page.locator("main").get_by_role("button", name=re.compile("Log in", re.I)).click()
    gm.page.wait_for_url(re.compile(r"/$"))
    assert gm.goto(table) == 200
    gm.wait_live()

    mara = people.new("Mara")
    assert mara.goto(seat) == 200
    mara.page.locator("main form button[type=submit]").first.click()
    mara.page.wait_for_url(re.compile(r"/tables/\d+/$"))
    mara.wait_live()

    watcher = people.new("Watcher")
    assert watcher.goto(watch) == 200
    watcher.page.get_by_role("button", name="Start watching").click()
    watcher.page.wait_for_url(re.compile(r"/tables/\d+/$"))
    watcher.wait_live()

    for person in (gm, mara, watcher):
        expect(person.page.locator("#characters article")).not_to_have_count(0)
        found = violations(person.page)
        assert found == [], f"{system}, {person.name}: {found}"
