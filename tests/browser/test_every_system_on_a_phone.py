"""Issue 23: "a phone at 390 px with no sideways scroll", and "No blank scroll area below the
content (a phone page 6,125 px tall for 3,286 px of content)", for every system's table: its
demo (sample characters seated), through the GM's, a player's and a spectator's phone."""

from __future__ import annotations

import pytest

from games import registry
from tests.browser import test_screens as screens
from tests.browser.demo_seats import seat_the_demo
from tests.browser.test_phone_keyboard_a11y import OVERFLOW_JS, PHONE_WIDTH


@pytest.mark.parametrize("system", list(registry.SYSTEMS))
def test_each_system_s_table_fits_a_390_px_phone_with_nothing_blank_below(system, manage, people,
                                                                         base_url) -> None:
    for person in seat_the_demo(system, manage, people, base_url, width=PHONE_WIDTH, height=844):
        screens.shot(person, f"phone-{system}-{person.name.lower()}")
        width = person.page.evaluate("document.documentElement.scrollWidth")
        overflowing = person.page.evaluate(OVERFLOW_JS, PHONE_WIDTH)
        assert width <= PHONE_WIDTH and not overflowing, (system, person.name, width, overflowing)
        person.assert_no_blank_below()
