"""Issue 23: "Everyone whose input a step waits for is told ('Your turn' and the tab title), not
only the first of a group check, a contest or a round of declarations." The banner is drawn for
each seat: "Your turn" with its own prompt to every seat the step waits for."""

from __future__ import annotations

from django.urls import reverse

from tabletop.feed import panels
from tabletop.feed.seat import GM, SPECTATOR, Seat
from tests.integration.test_report_card_table import post, school  # noqa: F401 (a fixture)


def banner(page: str) -> str:
    start = page.index('<div id="turn-banner"')
    return page[start:page.index("</div>", start)]


def test_a_group_check_tells_each_player_it_is_their_turn_with_their_own_card(school) -> None:
    form = {"characters": [school["marieta"].pk, school["jo"].pk], "mode": "only_one", "skill": "LAW",
            "rank": "easy", "task": "search the gym"}
    assert post(school, "gm", "call_group", form)[0] == 200
    pages = {who: school["clients"][who].get(reverse("table", args=[school["table"].pk])).content.decode()
             for who in ("ann", "bob", "gm", "watcher")}
    assert "Your turn:</strong> draw Marieta&#x27;s card." in banner(pages["ann"])
    assert "Your turn:</strong> draw Jo&#x27;s card." in banner(pages["bob"])
    for who in ("gm", "watcher"):
        assert "turn-mine" not in banner(pages[who]) and "Marieta and Jo draw." in banner(pages[who])


def test_the_banner_is_each_seat_s_own() -> None:
    view = {"turn": {"combatant": "c1", "gm": False, "says": "Ann and the Ghoul roll", "prompt": "roll for Ann",
                     "waiting": ["c1", "c3"], "prompts": {"c1": "roll for Ann", "c3": "roll for the Ghoul"}},
            "controllers": {"c1": 7, "c2": 8, "c3": None}}
    assert panels.turn_view(view, Seat("player", 7)) == {"says": "Ann and the Ghoul roll", "prompt": "roll for Ann",
                                                             "mine": True}
    assert panels.turn_view(view, GM)["mine"] and panels.turn_view(view, GM)["prompt"] == "roll for the Ghoul"
    assert not panels.turn_view(view, Seat("player", 8))["mine"]
    assert not panels.turn_view(view, SPECTATOR)["mine"]
    assert panels.turn_view({}, GM) is None
