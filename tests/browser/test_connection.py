"""Issue 23: "The connection badge turns to 'Reconnecting' when the socket stops answering (a
heartbeat on the socket, both ways), and back to 'Live' once it has caught up."

The player's socket runs through a route the test holds (Playwright's WebSocketRoute): while
the route swallows what the server sends, the socket is open but dead, as after a laptop sleeps
or a network drops without a close."""

from __future__ import annotations

import re

from playwright.sync_api import WebSocketRoute, expect


class Link:
    """The player's socket, passed through, or swallowed while ``dead``."""

    def __init__(self) -> None:
        self.dead = False
        self.opened = 0

    def route(self, ws: WebSocketRoute) -> None:
        self.opened += 1
        server = ws.connect_to_server()
        ws.on_message(lambda message: None if self.dead else server.send(message))
        server.on_message(lambda message: None if self.dead else ws.send(message))


def test_a_dead_socket_shows_reconnecting_then_live_once_caught_up(make_table) -> None:
    table = make_table()
    ann = table.people.new("Ann")
    link = Link()
    ann.page.route_web_socket(re.compile(r"/ws/tables/"), link.route)
    assert ann.goto(table.player_path) == 200
    ann.page.locator("#id_display_name").fill("Ann")
    ann.page.get_by_role("button", name="Take a seat").click()
    ann.page.wait_for_url(ann.url(table.path))
    ann.wait_live()
    ann.mark_page()
    badge = ann.page.locator("#connection")
    # the tests' heartbeat: a ping after 2 s of quiet, dead if no pong within about 0.6 s
    ann.page.evaluate("document.getElementById('socket').dataset.heartbeatMs = '2000'")
    opened = link.opened
    link.dead = True
    table.gm.roll("1d20+100")  # happens while Ann's socket is dead
    expect(badge).to_have_attribute("data-state", "reconnecting", timeout=8000)
    expect(badge).to_have_text("Reconnecting…")
    assert ann.entry("1d20+100").count() == 0
    link.dead = False
    expect(badge).to_have_attribute("data-state", "live", timeout=10000)
    assert link.opened > opened  # a new socket, which resumed from where the page was
    expect(ann.entry("1d20+100")).to_have_count(1)  # caught up before it said Live
    ann.assert_not_reloaded()


def test_a_quiet_live_socket_stays_live_on_its_heartbeat(make_table) -> None:
    """Pings answered: nothing happens at the table for several heartbeats, and it stays Live."""
    table = make_table()
    gm = table.gm
    gm.page.evaluate("document.getElementById('socket').dataset.heartbeatMs = '1000'")
    pongs = []
    gm.sockets[-1].on("framereceived", lambda payload: pongs.append(payload) if "socket-pong" in str(payload) else None)
    gm.page.wait_for_timeout(4000)
    assert len(pongs) >= 2
    expect(gm.page.locator("#connection")).to_have_attribute("data-state", "live")
