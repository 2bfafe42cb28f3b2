"""Hidden information over the live feed and the HTTP card actions.

"Nobody ever receives a card they may not see": a scripted game runs with a GM, two
players and a spectator connected, and every byte each socket received is scanned for the
names and ids of cards that viewer may not see.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from games.core.cards import card_by_id, tarot
from tabletop import services
from tabletop.asgi import application
from tabletop.models import CardPlacement, Event, PileKind

HTMX = {"HTTP_HX_REQUEST": "true"}


def cookie_for(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


async def connect(table_id: int, user: Any) -> WebsocketCommunicator:
    cookie = await database_sync_to_async(cookie_for)(user)
    comm = WebsocketCommunicator(
        application, f"/ws/tables/{table_id}/",
        headers=[(b"cookie", f"sessionid={cookie}".encode()), (b"origin", b"http://127.0.0.1")],
    )
    connected, _ = await comm.connect()
    assert connected
    await comm.send_to(text_data=json.dumps({"type": "resume", "after": 0}))
    return comm


async def drain(comm: WebsocketCommunicator, needle: str) -> str:
    """Everything received until a frame containing ``needle``."""
    received = []
    while True:
        message = await comm.receive_output(timeout=3)
        received.append(message.get("text", ""))
        if needle in received[-1]:
            return "".join(received)


def mentions(blob: str, token: str) -> bool:
    card = card_by_id(token.split("/")[0])
    return card.name in blob or re.search(re.escape(card.id) + r"(?![0-9])", blob) is not None


def hand(member: Any) -> list[str]:
    return list(
        CardPlacement.objects.filter(pile__kind=PileKind.HAND, pile__owner=member)
        .order_by("position").values_list("card_id", flat=True)
    )


@pytest.mark.django_db(transaction=True)
async def test_no_socket_receives_a_card_it_may_not_see(table, rng) -> None:
    sockets = {name: await connect(table.row.pk, getattr(table, name).user)
               for name in ("gm", "ann", "bob", "watcher")}
    do = database_sync_to_async
    deck = await do(services.deck_create)(table=table.row, actor=table.gm, kind="tarot",
                                          rng=rng, players_may_use=True)
    await do(services.pile_deal)(deck=deck, actor=table.gm, count=3, to=[table.ann, table.bob])
    await do(services.pile_draw)(deck=deck, actor=table.ann, count=2)
    ann_hand, bob_hand = await do(hand)(table.ann), await do(hand)(table.bob)
    await do(services.card_pass)(table=table.row, actor=table.ann, deck_id=deck.pk,
                                 card_id=ann_hand[0], to=table.bob)
    peeked = await do(services.deck_peek)(deck=deck, actor=table.gm, count=4)
    await do(services.deck_reorder)(deck=deck, actor=table.gm, order=[t.split("/")[0] for t in reversed(peeked)])
    await do(services.card_play)(table=table.row, actor=table.bob, deck_id=deck.pk, card_id=bob_hand[0])
    await do(services.card_return)(table=table.row, actor=table.ann, deck_id=deck.pk,
                                   card_id=ann_hand[1], where="top")
    face_up = await do(services.pile_draw)(deck=deck, actor=table.bob, count=1, to="play")
    await do(services.chat_post)(table=table.row, actor=table.gm, text="END-OF-SCRIPT")

    blobs = {name: await drain(comm, "END-OF-SCRIPT") for name, comm in sockets.items()}
    played = {bob_hand[0], face_up[0].split("/")[0]}
    ann_saw = set(ann_hand)  # her own draws and deals, incl. the card she passed and returned
    bob_saw = set(bob_hand) | {ann_hand[0]}
    everyone = {c.id for c in tarot()}
    allowed = {"ann": ann_saw | played, "bob": bob_saw | played, "watcher": played}
    for name, blob in blobs.items():
        if name == "gm":
            continue
        leaked = sorted(c for c in everyone - allowed[name] if mentions(blob, c))
        assert not leaked, f"{name} received {leaked}"
    for token in peeked:  # only the GM saw the peek
        assert mentions(blobs["gm"], token)
    # and what each may see, they did see
    assert all(mentions(blobs["watcher"], c) for c in played)
    assert all(mentions(blobs["ann"], c) for c in ann_saw)
    for comm in sockets.values():
        await comm.disconnect()


pytestmark_db = pytest.mark.django_db  # the HTTP tests need no live transactions


@pytestmark_db
def test_card_actions_over_http_and_their_refusals(table, rng) -> None:
    deck = services.deck_create(table=table.row, actor=table.gm, kind="standard", rng=rng)
    gm, ann, watcher = table.client(table.gm), table.client(table.ann), table.client(table.watcher)
    url = lambda name, action: reverse(name, args=[table.row.pk, action])  # noqa: E731
    before = Event.objects.count()
    # players may not use a deck the GM has not opened
    response = ann.post(url("deck_action", "draw"), {"deck": deck.pk, "count": 1}, **HTMX)
    assert response.status_code == 403 and "not opened" in response.content.decode()
    assert watcher.post(url("deck_action", "draw"), {"deck": deck.pk, "count": 1}, **HTMX).status_code == 403
    assert ann.post(url("deck_action", "peek"), {"deck": deck.pk, "count": 1}, **HTMX).status_code == 403
    assert ann.post(reverse("deck_create", args=[table.row.pk]), {"kind": "tarot"}, **HTMX).status_code == 403
    assert Event.objects.count() == before
    # malformed input
    for data in ({"deck": deck.pk, "count": 0}, {"deck": deck.pk, "count": 21}, {"deck": "x", "count": 1}, {}):
        assert gm.post(url("deck_action", "draw"), data, **HTMX).status_code == 400
    assert gm.post(url("deck_action", "draw"), {"deck": 9999, "count": 1}, **HTMX).status_code == 404
    assert gm.post(url("deck_action", "explode"), {"deck": deck.pk}, **HTMX).status_code == 404
    assert gm.post(url("card_action", "eat"), {"deck": deck.pk, "card": "std:S:1"}, **HTMX).status_code == 404
    assert Event.objects.count() == before
    # the GM deals Ann two cards; she plays one, and a stale second play of it is refused
    response = gm.post(url("deck_action", "deal"), {"deck": deck.pk, "count": 2, "to": [table.ann.pk]}, **HTMX)
    assert response.status_code == 200
    mine = hand(table.ann)
    assert len(mine) == 2
    assert ann.post(url("card_action", "play"), {"deck": deck.pk, "card": mine[0]}, **HTMX).status_code == 200
    before = Event.objects.count()
    stale = ann.post(url("card_action", "play"), {"deck": deck.pk, "card": mine[0]}, **HTMX)
    assert stale.status_code == 400 and "do not hold that card" in stale.content.decode()
    theirs = ann.post(url("card_action", "discard"), {"deck": deck.pk, "card": "std:S:99"}, **HTMX)
    assert theirs.content.decode() == stale.content.decode()  # the same words: no hint of where a card is
    assert ann.post(url("card_action", "pass"), {"deck": deck.pk, "card": mine[1], "to_name": "Nobody"}, **HTMX).status_code == 400
    assert ann.post(url("card_action", "pass"), {"deck": deck.pk, "card": mine[1], "to_name": table.watcher.display_name}, **HTMX).status_code == 400
    assert Event.objects.count() == before
    # deal to a spectator is refused
    assert gm.post(url("deck_action", "deal"), {"deck": deck.pk, "count": 1, "to": [table.watcher.pk]}, **HTMX).status_code == 400
    # empty deck
    services.deck_configure(deck=deck, actor=table.gm, allow_reversed=False, players_may_use=True)
    response = gm.post(url("deck_action", "draw"), {"deck": deck.pk, "count": 20}, **HTMX)
    assert response.status_code == 200
    response = gm.post(url("deck_action", "draw"), {"deck": deck.pk, "count": 20}, **HTMX)
    assert response.status_code == 200
    response = gm.post(url("deck_action", "draw"), {"deck": deck.pk, "count": 20}, **HTMX)
    assert response.status_code == 400 and "left" in response.content.decode()
    assert CardPlacement.objects.filter(deck=deck).count() == 52


@pytestmark_db
def test_pages_show_hands_only_to_their_owner_and_the_gm(table, rng) -> None:
    deck = services.deck_create(table=table.row, actor=table.gm, kind="tarot", rng=rng)
    services.pile_deal(deck=deck, actor=table.gm, count=2, to=[table.ann])
    page_url = reverse("table", args=[table.row.pk])
    ann_cards = [card_by_id(c).name for c in hand(table.ann)]
    gm_page = table.client(table.gm).get(page_url).content.decode()
    ann_page = table.client(table.ann).get(page_url).content.decode()
    for other in (table.bob, table.watcher):
        page = table.client(other).get(page_url).content.decode()
        assert not any(name in page for name in ann_cards)
        for fmt in ("md", "json"):
            answer = table.client(other).get(reverse("export", args=[table.row.pk, fmt]))
            export = b"".join(answer.streaming_content).decode()
            assert not any(name in export for name in ann_cards)
    assert all(name in gm_page and name in ann_page for name in ann_cards)
    assert 'id="hand-count-%d"' % table.ann.pk in table.client(table.watcher).get(page_url).content.decode()
