"""Issue 28, in the style of Zulip's ``verify_action``, and issue 23's "Numbers never go stale":
for every system, each seat's page as it loaded, with every frame the seat was sent during a
random campaign swapped in as the browser swaps it (tests/support/dom.py), reads as the page
that seat loads afresh: the same elements, each the same, counts, odds, hands, panel and log."""

from __future__ import annotations

import difflib
from collections.abc import Callable

import pytest
from django.urls import reverse

from games import registry
from tabletop.models import CardPlacement, Deck, PileKind
from tests.integration.test_contract_kit import campaign, page_seat
from tests.support import dom
from tests.support.frames import committed, logged, seat_frame
from tests.support.kit import KitTable, Seat, make_table

pytestmark = pytest.mark.django_db


def hand(kt: KitTable, seat: Seat, deck: Deck) -> list[str]:
    return list(CardPlacement.objects.filter(deck=deck, pile__kind=PileKind.HAND, pile__owner=seat.member)
                .order_by("position").values_list("card_id", flat=True))


def card_evening(kt: KitTable, check: Callable[[str], None]) -> None:
    """Every card move a table's own card panel offers, from the seats that may make them: an
    open Tarot deck brought out, dealt, drawn to hands and face up, played, discarded, returned to
    the top and the bottom, passed, the discards shuffled back, recalled; dice and chat between.
    Each is done (none refused), then ``check``ed."""
    t = kt.table.pk
    gm, ann, bob = kt.gm, *kt.players

    def post(seat: Seat, path: str, **data: object) -> None:
        assert kt.post(seat, f"/tables/{t}/{path}", data) < 400, f"{kt.game.key}: {seat.name} {path} refused"
        check(f"{seat.name} {path}")

    post(gm, "decks/new/", kind="tarot", name="Open Tarot", players_may_use="on")
    deck = Deck.objects.get(table=kt.table, name="Open Tarot")
    d = deck.pk
    post(gm, "decks/deal/", deck=d, count=3, to=[ann.member.pk, bob.member.pk])
    post(ann, "decks/draw/", deck=d, count=2, to="hand")
    post(bob, "decks/draw/", deck=d, count=1, to="play")
    post(ann, "roll/", notation="2d6+1", mode="public")
    post(ann, "cards/play/", deck=d, card=hand(kt, ann, deck)[0])
    post(bob, "cards/discard/", deck=d, card=hand(kt, bob, deck)[0])
    post(ann, "cards/return_top/", deck=d, card=hand(kt, ann, deck)[0])
    post(ann, "cards/return_bottom/", deck=d, card=hand(kt, ann, deck)[0])
    post(bob, "cards/pass/", deck=d, card=hand(kt, bob, deck)[0], to_name=ann.member.display_name)
    post(bob, "chat/", text="Your move.")
    post(gm, "decks/reshuffle_discard/", deck=d)
    post(gm, "decks/draw/", deck=d, count=2, to="hand")
    post(gm, "decks/recall/", deck=d)
    post(gm, "decks/shuffle/", deck=d)
    post(ann, "decks/draw/", deck=d, count=1, to="play")


def differences(live: dom.Element, fresh: dom.Element) -> list[str]:
    """The innermost elements (by id) that differ between the two pages, each with its diff."""
    ids = [el.get("id") for el in fresh.xpath("//*[@id]")]
    differ = [i for i in ids if dom.text_of(dom.by_id(live, i)) != dom.text_of(dom.by_id(fresh, i))]
    innermost = [i for i in differ
                 if not any(dom.by_id(fresh, j) in dom.by_id(fresh, i).iterdescendants() for j in differ if j != i)]
    extra = sorted({el.get("id") for el in live.xpath("//*[@id]")} - set(ids))
    said = []
    for i in innermost[:5]:
        a, b = dom.text_of(dom.by_id(live, i)), dom.text_of(dom.by_id(fresh, i))
        changes = [f"{a[x0 - 30:x1 + 30]!r} live, {b[y0 - 30:y1 + 30]!r} afresh"
                   for op, x0, x1, y0, y1 in difflib.SequenceMatcher(None, a, b).get_opcodes() if op != "equal"]
        said.append(f"#{i}: {changes[:2]}")
    return said + ([f"only live: {extra[:10]}"] if extra else [])


@pytest.mark.parametrize("system", list(registry.SYSTEMS))
def test_each_seat_s_page_with_its_frames_swapped_in_reads_as_its_page_loaded_afresh(system: str) -> None:
    """Checked after each card move, and after each ten steps of a random campaign from the
    system's own panel (eight such stretches)."""
    kt = make_table(system, f"v-{system}")
    url = reverse("table", args=[kt.table.pk])
    live = {seat.name: dom.page(seat.client.get(url).content.decode()) for seat in kt.seats}
    happened: list[int] = []

    def check(after: str) -> None:
        events = committed(list(recorded))
        recorded.clear()
        happened.append(len(events))
        for seat in kt.seats:
            member = seat.member.pk if seat.role == "player" else None
            for event in events:
                frame = seat_frame(event, page_seat(seat))
                if frame:
                    missing = dom.swap(live[seat.name], frame, player_member=member)
                    assert not missing, f"{system}: {seat.name}'s page has no {missing} for {event.kind}"
            fresh = dom.page(seat.client.get(url).content.decode())
            assert differences(live[seat.name], fresh) == [], f"{system}, {seat.name}, after {after}"

    with logged() as recorded:
        card_evening(kt, check)
        for stretch in range(8):
            campaign(kt, seed=11 + stretch + sum(map(ord, system)), steps=10)
            check(f"campaign stretch {stretch}")
    assert sum(happened[:15]) >= 15 and (sum(happened[15:]) >= 15 or kt.game.engine is None), \
        f"{system}: too little happened to check: {happened}"
