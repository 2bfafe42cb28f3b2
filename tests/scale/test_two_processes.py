"""Two daphne processes serve one table (issue 5): PostgreSQL holds the log and the row locks,
Redis carries "seq N exists" between the processes.

"With DATABASE_URL and REDIS_URL set, any number of daphne processes serve the same tables;
a member connected to one process sees, live, what a member on another process does."
"""

from __future__ import annotations

import http.cookiejar
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.scale

PLAYERS = 8
DRAWS_EACH = 6  # 48 of the Minor Arcana's 56 cards
MINOR_ARCANA = 56
# Longer than channels-redis's blocking read of the process's channel (5 s), twice over.
IDLE_S = 12


def test_a_member_on_one_process_sees_live_what_a_member_on_the_other_does(cluster, make_table) -> None:
    one, two = cluster.daphne_url(1), cluster.daphne_url(2)
    table = make_table(one)
    ann = table.join_player("Ann", one)
    bob = table.join_player("Bob", two)
    # Each socket is pinned to the process whose port the page came from.
    assert set(ann.socket_ports()) == {cluster.daphne_ports[0]}
    assert set(bob.socket_ports()) == {cluster.daphne_ports[1]}
    assert table.gm.post(table.path + "decks/new/", {"kind": "minor_arcana", "players_may_use": "1"}) == 200
    deck = bob.page.locator("article.deck")
    expect(deck).to_have_count(1)  # the new deck reached process 2 live
    for person in (ann, bob):
        person.mark_page()

    seq = ann.roll("7d6+13")
    expect(bob.page.locator(f"#event-{seq}")).to_contain_text("7d6")
    seq = bob.roll("3d12")
    expect(ann.page.locator(f"#event-{seq}")).to_contain_text("3d12")

    deck.locator("form[hx-post$='/decks/draw/'] button[type=submit]").click()
    expect(ann.page.locator(f"#hand-count-{bob.member_id}")).to_have_text("1")
    drawn = bob.newest_own_position("cards.drawn")  # a public event: the same number for all
    expect(ann.page.locator(f"#event-{drawn}")).to_be_attached()
    expect(table.gm.page.locator(f"#event-{drawn}")).to_be_attached()

    ann.page.locator("article.deck form[hx-post$='/decks/draw/'] button[type=submit]").click()
    expect(bob.page.locator(f"#hand-count-{ann.member_id}")).to_have_text("1")
    expect(bob.page.locator("article.deck .count-draw strong")).to_have_text(str(MINOR_ARCANA - 2))

    table.assert_everyone_matches_the_log(table.gm, ann, bob)
    for person in (ann, bob):
        person.assert_not_reloaded()
        assert not person.page_errors


def test_an_idle_socket_stays_open_on_either_process(cluster, make_table) -> None:
    """A quiet table keeps its sockets: nothing but a failure may close one. Each reconnect
    costs a replay query and flips the member's presence off and on for the whole table."""
    table = make_table(cluster.daphne_url(1))
    bob = table.join_player("Bob", cluster.daphne_url(2))
    table.gm.page.wait_for_timeout(IDLE_S * 1000)
    for person in (table.gm, bob):
        closed = [ws.url for ws in person.sockets if ws.is_closed()]
        assert not closed and len(person.sockets) == 1, (
            f"{person.name}'s socket closed while the table was quiet ({len(person.sockets)} opened); "
            "see the daphne log for the exception that ended it"
        )


class Browserless:
    """A cookie-keeping HTTP client for one person, pinned to one server."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str) -> tuple[int, str]:
        with self.opener.open(self.base_url + path, timeout=30) as response:
            return response.status, response.read().decode()

    def post(self, path: str, data: dict[str, object], *, htmx: bool = True) -> tuple[int, str]:
        token = next(c.value for c in self.jar if c.name == "csrftoken")
        request = urllib.request.Request(
            self.base_url + path, data=urlencode(data).encode(), method="POST",
            headers={"X-CSRFToken": token, **({"HX-Request": "true"} if htmx else {})},
        )
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()


def test_concurrent_draws_through_both_processes_never_deal_a_card_twice(
    cluster, make_table, unique_name: Callable[[str], str]
) -> None:
    """Issue 3's rule across processes: the draws meet at PostgreSQL's row lock on the table,
    whichever daphne took them."""
    table = make_table(cluster.daphne_url(2))  # the GM watches from process 2
    assert table.gm.post(table.path + "decks/new/", {"kind": "minor_arcana", "players_may_use": "1"}) == 200
    players = []
    for i in range(PLAYERS):
        player = Browserless(cluster.daphne_url(1 + i % 2))
        player.get(table.player_path)
        status, _ = player.post(table.player_path, {"display_name": unique_name(f"Racer{i}-")}, htmx=False)
        assert status == 200  # followed the redirect to the table
        players.append(player)
    _, page = players[0].get(table.path)
    deck_id = int(page.split('id="deck-', 1)[1].split('"', 1)[0])

    start = threading.Barrier(PLAYERS)

    def race(player: Browserless) -> list[int]:
        start.wait(timeout=30)
        return [player.post(table.path + "decks/draw/", {"deck": deck_id, "count": 1})[0] for _ in range(DRAWS_EACH)]

    with ThreadPoolExecutor(max_workers=PLAYERS) as pool:
        statuses = [s for result in pool.map(race, players) for s in result]
    assert statuses == [200] * PLAYERS * DRAWS_EACH

    events = table.gm.export(table.path)
    seqs = [int(e["position"]) for e in events]  # the GM's positions are the seqs
    assert seqs == list(range(1, len(seqs) + 1)), "the table's seqs have a gap or a repeat"
    drawn = [card for e in events if e["kind"] == "cards.drawn" for card in e["private"]["cards"]]
    assert len(drawn) == PLAYERS * DRAWS_EACH
    assert len(set(drawn)) == len(drawn), "a card was dealt twice"
    left = MINOR_ARCANA - PLAYERS * DRAWS_EACH
    for player in players:  # both processes read the same piles; each hand holds its own draws
        _, mine = player.get(table.path)
        assert f"<strong>{left}</strong> in the deck" in mine
        assert mine.count('class="card-face') == DRAWS_EACH
    # The GM's page on process 2 received every draw, half of them taken by process 1.
    table.assert_everyone_matches_the_log(table.gm)
