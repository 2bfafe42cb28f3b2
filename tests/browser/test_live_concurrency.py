"""Many players drawing from one deck at the same instant, through a live daphne on SQLite.

Issue 3: "two players drawing from the same deck at the same instant never get the same card."
Every draw locks the table row, so draws queue; none may hand out a card twice or lose one.
"""

from __future__ import annotations

import http.cookiejar
import json
import threading
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from http.cookiejar import CookieJar
from urllib.parse import urlencode

PLAYERS = 8
DRAWS_EACH = 6  # 48 of the Minor Arcana's 56 cards


class Browserless:
    """A cookie-keeping HTTP client for one person (sessions and CSRF as a browser has them)."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name: str) -> str:
        return next(c.value for c in self.jar if c.name == name)

    def get(self, path: str) -> tuple[int, str]:
        with self.opener.open(self.base_url + path, timeout=30) as response:
            return response.status, response.read().decode()

    def post(self, path: str, data: dict | list, *, htmx: bool = True) -> tuple[int, str]:
        request = urllib.request.Request(
            self.base_url + path, data=urlencode(data, doseq=True).encode(), method="POST",
            headers={"X-CSRFToken": self.cookie("csrftoken"), **({"HX-Request": "true"} if htmx else {})},
        )
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()


def test_concurrent_draws_never_deal_the_same_card_twice(make_table, base_url) -> None:
    table = make_table()
    table_path = table.url[len(base_url):]
    gm = Browserless(base_url)
    for cookie in table.gm.context.cookies():
        gm.jar.set_cookie(_cookie(cookie))
    status, _ = gm.post(table_path + "decks/new/", {"kind": "minor_arcana", "players_may_use": "1"})
    assert status == 200
    players = []
    for i in range(PLAYERS):
        player = Browserless(base_url)
        player.get(table.player_link[len(base_url):])
        status, _ = player.post(table.player_link[len(base_url):], {"display_name": f"Racer {i}"}, htmx=False)
        assert status == 200  # followed the redirect to the table
        players.append(player)
    _, page = gm.get(table_path)
    deck_id = int(page.split('id="deck-', 1)[1].split('"', 1)[0])

    start = threading.Barrier(PLAYERS)

    def race(player: Browserless) -> list[int]:
        start.wait(timeout=30)
        return [player.post(table_path + "decks/draw/", {"deck": deck_id, "count": 1})[0]
                for _ in range(DRAWS_EACH)]

    with ThreadPoolExecutor(max_workers=PLAYERS) as pool:
        statuses = [s for result in pool.map(race, players) for s in result]
    assert statuses == [200] * PLAYERS * DRAWS_EACH

    _, export = gm.get(table_path + "export.json")
    drawn = [card for e in json.loads(export)["events"] if e["kind"] == "cards.drawn"
             for card in e["private"]["cards"]]
    assert len(drawn) == PLAYERS * DRAWS_EACH
    assert len(set(drawn)) == len(drawn), "a card was dealt twice"
    _, page = gm.get(table_path)
    left = 56 - PLAYERS * DRAWS_EACH
    assert f'<strong>{left}</strong> in the deck' in page
    for player in players:  # every player holds exactly what the log says they drew
        _, mine = player.get(table_path)
        assert mine.count('class="card-face') == DRAWS_EACH


def _cookie(c: dict) -> http.cookiejar.Cookie:
    """A Playwright cookie as the standard library's cookie jar keeps it."""
    return http.cookiejar.Cookie(
        version=0, name=c["name"], value=c["value"], port=None, port_specified=False,
        domain=c["domain"], domain_specified=True, domain_initial_dot=False, path=c["path"],
        path_specified=True, secure=c["secure"], expires=None, discard=True, comment=None,
        comment_url=None, rest={}, rfc2109=False,
    )
