"""Issue 3: "a player's and a spectator's browser never receive a card they may not see, in
a page, a fragment, a websocket frame, an export, an error or a reconnect replay."

A scripted game (deal, draws, a pass, a peek, plays) runs with a GM, two players and a
spectator; every byte each browser received is then scanned for the names and ids of the
cards that person may not see, according to the GM's own export of the log. A second game
replays an outside scan: a card put back face down on top of the deck.
"""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from games.core.cards import minor_arcana

CARDS = {c.id: c.name for c in minor_arcana()}


class HttpRecorder:
    """Keeps every HTTP response a page receives, and reads their bodies before the page
    navigates away (the socket's frames are kept by Person)."""

    def __init__(self, person) -> None:
        self.pending: list = []
        self.bodies: list[str] = []
        person.page.on("response", lambda response: self.pending.append(response))

    def read(self) -> None:
        while self.pending:
            response = self.pending.pop(0)
            if response.request.resource_type in ("document", "fetch", "xhr"):
                try:
                    self.bodies.append(response.text())
                except Exception as exc:  # a redirect has no body of its own
                    if response.status < 300 or response.status >= 400:
                        raise AssertionError(f"no body for {response.url}") from exc


def click_and_wait(person, locator, path: str) -> int:
    with person.expect_answer(path) as answer:
        locator.click()
    return answer.status


def fetch(person, path: str, method: str = "GET", body: dict | None = None) -> tuple[int, str]:
    return tuple(person.page.evaluate(
        """async ([path, method, body]) => {
            const token = JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRFToken'];
            const init = {method, headers: {'X-CSRFToken': token, 'HX-Request': 'true'}};
            if (body) init.body = new URLSearchParams(body);
            const r = await fetch(path, init);
            return [r.status, await r.text()];
        }""",
        [path, method, body],
    ))


def mentions(blob: str, card_id: str) -> bool:
    return CARDS[card_id] in blob or re.search(re.escape(card_id) + r"(?![0-9])", blob) is not None


def who_may_see(gm, table) -> tuple[dict[str, set[str]], set[str]]:
    """From the GM's export of the log: the cards each player and the spectator was shown in
    a private part of their own, and the cards shown to everyone."""
    _, export = fetch(gm, table.url + "export.json")
    allowed: dict[str, set[str]] = {"Ann": set(), "Bob": set(), "spectator": set()}
    public: set[str] = set()
    for event in json.loads(export)["events"]:
        shown = [t.split("/")[0] for t in event["data"].get("cards", [])]
        public |= set(shown)
        hidden = [t.split("/")[0] for t in event.get("private", {}).get("cards", [])]
        if hidden and event["owner"] in allowed:
            allowed[event["owner"]] |= set(hidden)
    return allowed, public


def open_a_deck_and_deal(gm, ann, bob, *, each: int) -> None:
    """The GM brings out a Minor Arcana deck open to players and deals ``each`` cards to Ann
    and Bob, through the page."""
    page = gm.page
    page.get_by_text("Bring out a deck").click()
    page.locator("#deck-kind").select_option("minor_arcana")
    page.locator("input[name=players_may_use]").check()
    assert click_and_wait(gm, page.get_by_role("button", name="Bring it out"), "/decks/new/") == 200
    expect(ann.page.locator(".deck")).to_have_count(1)
    page.locator("summary", has_text="Deal").click()
    page.locator("#deal-count").fill(str(each))
    page.locator("#deal-players input[type=checkbox]").first.check()
    page.locator("#deal-players input[type=checkbox]").nth(1).check()
    assert click_and_wait(gm, page.get_by_role("button", name="Deal", exact=True), "/decks/deal/") == 200
    expect(ann.page.locator("#hands .card-face")).to_have_count(each)
    expect(bob.page.locator("#hands .card-face")).to_have_count(each)


def test_no_browser_receives_a_card_it_may_not_see(make_table) -> None:
    table = make_table()
    gm = table.gm
    ann, bob = table.join_player("Ann"), table.join_player("Bob")
    spectator = table.join_spectator()
    received = {p.name: HttpRecorder(p) for p in (ann, bob, spectator)}
    for person in (ann, bob, spectator):
        assert person.goto(table.url) == 200  # the page itself, recorded this time
        person.wait_live()

    page = gm.page
    open_a_deck_and_deal(gm, ann, bob, each=3)

    draw = ann.page.locator(".deck form").first
    draw.locator("input[name=count]").fill("2")
    assert click_and_wait(ann, draw.get_by_role("button", name="Draw"), "/decks/draw/") == 200
    expect(ann.page.locator("#hands .card-face")).to_have_count(5)

    first = ann.page.locator("#hands .card-row > li").first
    first.locator("details.card-more > summary").click()  # passing is under "More"
    first.locator("input[name=to_name]").fill("Bob")
    assert click_and_wait(ann, first.get_by_role("button", name=re.compile("^Pass")), "/cards/pass/") == 200
    expect(bob.page.locator("#hands .card-face")).to_have_count(4)

    page.locator(".deck details.gm-only summary").click()
    assert click_and_wait(gm, page.get_by_role("button", name="Look"), "/decks/peek/") == 200
    expect(page.locator(".peek .card-face")).to_have_count(3)

    assert click_and_wait(bob, bob.page.locator("#hands .card-row > li").first.get_by_role(
        "button", name=re.compile("^Play")), "/cards/play/") == 200
    draw = ann.page.locator(".deck form").first
    draw.locator("input[name=count]").fill("1")
    draw.locator("select[name=to]").select_option("play")
    assert click_and_wait(ann, draw.get_by_role("button", name="Draw"), "/decks/draw/") == 200
    for person in (gm, ann, bob, spectator):
        expect(person.page.locator("#play-area .card-face")).to_have_count(2)

    # An error about a card someone else holds, exports, and a reconnect replay after a reload.
    ann_card = ann.page.locator("#hands .card-face").first.get_attribute("data-card-id")
    deck_id = ann.page.locator(".deck").first.get_attribute("id").removeprefix("deck-")
    status, _ = fetch(bob, table.url + "cards/play/", "POST", {"deck": deck_id, "card": ann_card})
    assert status == 400
    for person in (ann, bob, spectator):
        for fmt in ("md", "json"):
            assert fetch(person, f"{table.url}export.{fmt}")[0] == 200
        received[person.name].read()
        person.page.reload()
        person.wait_live()
        table.sync(gm, person)

    # Who may see what, from the GM's export: public cards for all, a private part for its owner.
    allowed, public = who_may_see(gm, table)
    assert len(public) == 2 and allowed["Ann"] and allowed["Bob"]
    for person in (ann, bob, spectator):
        received[person.name].read()
        blob = "".join(received[person.name].bodies) + "".join(person.frames)
        may_see = allowed[person.name] | public
        leaked = sorted(CARDS[c] for c in CARDS if c not in may_see and mentions(blob, c))
        assert not leaked, f"{person.name} received {leaked}"
        assert all(mentions(blob, c) for c in may_see), f"{person.name} never saw its own cards"


def test_no_browser_learns_a_card_put_back_face_down_on_top(make_table) -> None:
    """An outside scan: the GM deals two each to Ann and Bob and shuffles; Bob plays one and
    discards the other; Ann plays one and puts her last back face down on top. Whatever the
    server sends then (a revealed shuffle order above all) must not tell Bob or the
    spectator which card Ann put back: it is the card Bob would draw next."""
    table = make_table()
    gm = table.gm
    ann, bob = table.join_player("Ann"), table.join_player("Bob")
    spectator = table.join_spectator()
    received = {p.name: HttpRecorder(p) for p in (bob, spectator)}
    for person in (bob, spectator):
        assert person.goto(table.url) == 200  # the page itself, recorded this time
        person.wait_live()
    page = gm.page
    open_a_deck_and_deal(gm, ann, bob, each=2)
    shuffle = gm.page.locator(".deck").get_by_role("button", name=re.compile("^Shuffle (?!discards)"))
    assert click_and_wait(gm, shuffle, "/decks/shuffle/") == 200

    def act(person, button: str, path: str, left: int) -> None:
        """Uses the first card of the person's hand, and waits until the hand shows it gone."""
        card = person.page.locator("#hands .card-row > li").first
        target = card.get_by_role("button", name=re.compile(f"^{button}"))
        if not target.is_visible():  # returning and passing are under "More"
            card.locator("details.card-more > summary").click()
        assert click_and_wait(person, target, path) == 200
        expect(person.page.locator("#hands .card-face")).to_have_count(left)

    act(bob, "Play", "/cards/play/", 1)
    act(bob, "Discard", "/cards/discard/", 0)
    act(ann, "Play", "/cards/play/", 1)
    returned = ann.page.locator("#hands .card-face").first.get_attribute("data-card-id")
    act(ann, "To top", "/cards/return_top/", 0)
    table.sync(gm, ann, bob, spectator)
    for person in (bob, spectator):  # and after a reload: the snapshot and the replay
        received[person.name].read()
        person.page.reload()
        person.wait_live()
    table.sync(gm, bob, spectator)

    allowed, public = who_may_see(gm, table)
    assert returned not in public and returned in allowed["Ann"]
    for person in (bob, spectator):
        received[person.name].read()
        blob = "".join(received[person.name].bodies) + "".join(person.frames)
        assert not mentions(blob, returned), f"{person.name} can tell that {CARDS[returned]} lies on top"
        may_see = allowed[person.name] | public
        leaked = sorted(CARDS[c] for c in CARDS if c not in may_see and mentions(blob, c))
        assert not leaked, f"{person.name} received {leaked}"
