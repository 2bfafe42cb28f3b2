"""Issue 23: "axe-core, run in the browser tests, finds no serious or critical accessibility
violation on the table page of each system, for each lens." Each system's demo table
(``manage.py demo --system <key>``: its sample characters seated) through the GM's, a player's
and a spectator's eyes, with axe-core (axe-playwright-python ships it) run in the page."""

from __future__ import annotations

import pytest

from games import registry
from tests.browser.axe_check import serious_violations
from tests.browser.demo_seats import seat_the_demo



@pytest.mark.parametrize("system", list(registry.SYSTEMS))
def test_no_serious_accessibility_violation_on_each_system_s_table_for_each_seat(system, manage, people,
                                                                                 base_url) -> None:
    for person in seat_the_demo(system, manage, people, base_url):
        found = serious_violations(person.page)
        assert found == [], f"{system}, {person.name}: {found}"
