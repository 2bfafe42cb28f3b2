"""Each system's demo table (``manage.py demo --system <key>``: its sample characters seated),
taken by its GM, its player Mara (by her seat link) and a spectator, for the tests that look
at every system's table the same way (axe-core, the phone)."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect


def seat_the_demo(system: str, manage: Any, people: Any, base_url: str, *,
                  width: int = 1280, height: int = 900) -> tuple[Any, Any, Any]:
    """(the GM, Mara, the spectator), each live at the demo table of ``system``."""
    printed = manage("demo", "--system", system, "--base-url", base_url).stdout
    login = re.search(r"GM: (\S+) / (\S+)", printed)
    assert login is not None, printed
    seat = re.search(r"Mara's seat: (\S+)", printed).group(1)
    watch = re.search(r"Spectator link: (\S+)", printed).group(1)
    table = re.search(r"Table: (\S+)", printed).group(1)

    gm = people.new("GM", width=width, height=height)
    gm.goto("/accounts/login/")
    gm.page.locator("#id_username").fill(login.group(1))
    gm.page.locator("#id_password").fill(login.group(2))
    gm.page.locator("main").get_by_role("button", name=re.compile("Log in", re.I)).click()
    gm.page.wait_for_url(re.compile(r"/$"))
    assert gm.goto(table) == 200
    gm.wait_live()

    mara = people.new("Mara", width=width, height=height)
    assert mara.goto(seat) == 200
    mara.page.locator("main form button[type=submit]").first.click()
    mara.page.wait_for_url(re.compile(r"/tables/\d+/$"))
    mara.wait_live()

    watcher = people.new("Watcher", width=width, height=height)
    assert watcher.goto(watch) == 200
    watcher.page.get_by_role("button", name="Start watching").click()
    watcher.page.wait_for_url(re.compile(r"/tables/\d+/$"))
    watcher.wait_live()
    for person in (gm, mara, watcher):
        expect(person.page.locator("#characters article")).not_to_have_count(0)
    return gm, mara, watcher
