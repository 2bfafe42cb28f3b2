"""Issue 28, in the style of Zulip's ``verify_action``, and issue 23's "Numbers never go stale":
for every system, each seat's page as it loaded, with every frame the seat was sent during a
random campaign swapped in as the browser swaps it (tests/support/dom.py), reads as the page
that seat loads afresh: the same elements, each the same, counts, odds, hands, panel and log."""

from __future__ import annotations

import difflib

import pytest
from django.urls import reverse

from games import registry
from tests.integration.test_contract_kit import campaign, page_seat
from tests.support import dom
from tests.support.frames import seat_frame
from tests.support.kit import make_table

pytestmark = pytest.mark.django_db


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


@pytest.mark.parametrize("system", [s.key for s in registry.available()])
def test_each_seat_s_page_with_its_frames_swapped_in_reads_as_its_page_loaded_afresh(system: str) -> None:
    kt = make_table(system, f"v-{system}")
    url = reverse("table", args=[kt.table.pk])
    loaded = {seat.name: dom.page(seat.client.get(url).content.decode()) for seat in kt.seats}
    _, _, events = campaign(kt, seed=11 + sum(map(ord, system)), steps=80)
    assert len(events) > 20, f"{system}: too little happened to check"
    for seat in kt.seats:
        live = loaded[seat.name]
        member = seat.member.pk if seat.role == "player" else None
        for event in events:
            frame = seat_frame(event, page_seat(seat))
            if frame:
                missing = dom.swap(live, frame, player_member=member)
                assert not missing, f"{system}: {seat.name}'s page has no {missing} for {event.kind}"
        fresh = dom.page(seat.client.get(url).content.decode())
        assert differences(live, fresh) == [], f"{system}, {seat.name}"
