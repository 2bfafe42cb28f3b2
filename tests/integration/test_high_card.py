"""A system's rules draw real cards through the seam (issue 12): "Prove it with a small
test-only system in tests/ that draws through the port: its cards move, are conserved, and
verify." The system is tests/support/high_card.py, registered for each test."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import registry
from games.core.cards import card_by_id
from tabletop import services
from tabletop.models import CardPlacement, Event, PileKind, Role, ShuffleCommitment
from tabletop.selectors import events_for, viewer_of
from tests.support import high_card

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(monkeypatch, rng):
    monkeypatch.setitem(registry.SYSTEMS, "high_card", registry.check_registration(high_card.SYSTEM))
    gm_user = get_user_model().objects.create_user("hc-gm", password="a long gm password 1")
    table = services.table_create(gm=gm_user, name="Duels", system="high_card")
    gm = table.members.get(role=Role.GM)
    ann, bob = (
        services.membership_join(table=table, user=services.guest_user_create(), role=Role.PLAYER,
                                 display_name=name)
        for name in ("Ann", "Bob")
    )
    watcher = services.membership_join(table=table, user=services.guest_user_create(), role=Role.SPECTATOR)
    heroes = {
        who.display_name: services.character_create(table=table, actor=who, name=f"{who.display_name}'s hero",
                                                    sheet={})
        for who in (ann, bob)
    }
    return table, gm, ann, bob, watcher, heroes


def bring_fate(table, gm, rng):
    return services.deck_create(table=table, actor=gm, kind="ten_value", rng=rng, name="Fate")


def client(member):
    from django.test import Client

    c = Client()
    c.force_login(member.user)
    return c


def check(table, member, character, difficulty="5"):
    return client(member).post(f"/tables/{table.pk}/checks/draw/",
                               {"character": str(character.pk), "difficulty": difficulty}, HTTP_HX_REQUEST="true")


def verify_drawn(event: Event) -> None:
    """What the Verify button checks: the drawn cards lay where the sealed order put them."""
    seal = ShuffleCommitment.objects.get(pk=event.payload["commitment"])
    start = event.payload["start"]
    cards = event.payload.get("cards") or event.private["cards"]
    assert seal.order[start:start + len(cards)] == cards


def test_a_check_draws_the_top_card_face_up_and_it_verifies(game, rng) -> None:
    table, gm, ann, bob, watcher, heroes = game
    deck = bring_fate(table, gm, rng)
    assert check(table, ann, heroes["Ann"]).status_code == 200
    [drew] = Event.objects.filter(table=table, kind="high_card.drew")
    token = drew.payload["draw"]["card"]
    assert drew.payload["draw"]["success"] == (card_by_id(token).value >= 5)
    assert CardPlacement.objects.get(deck=deck, card_id=token).pile.kind == PileKind.PLAY
    assert CardPlacement.objects.filter(deck=deck).count() == 40
    [drawn] = Event.objects.filter(table=table, kind="cards.drawn")
    assert drawn.payload["cards"] == [token] and drawn.payload["counts"]["decks"][str(deck.pk)]["draw"] == 39
    verify_drawn(drawn)
    assert check(table, bob, heroes["Ann"]).status_code == 403  # not Bob's character


def test_when_fate_runs_out_the_discards_are_shuffled_back_and_the_check_goes_on(game, rng) -> None:
    table, gm, ann, bob, watcher, heroes = game
    deck = bring_fate(table, gm, rng)
    face_up = services.pile_draw(deck=deck, actor=gm, count=20, to="play")
    for token in face_up[:12]:
        services.card_discard(table=table, actor=gm, deck_id=deck.pk, card_id=token)
    services.pile_draw(deck=deck, actor=gm, count=19, to="play")  # one card left in Fate
    seals = ShuffleCommitment.objects.filter(deck=deck).count()
    assert check(table, ann, heroes["Ann"]).status_code == 200  # the last card
    assert check(table, ann, heroes["Ann"]).status_code == 200  # from the reshuffled discards
    assert ShuffleCommitment.objects.filter(deck=deck).count() == seals + 1
    assert "ran out" in Event.objects.filter(kind="deck.committed").order_by("-seq").first().summary
    for event in Event.objects.filter(table=table, kind="cards.drawn"):
        verify_drawn(event)
    assert CardPlacement.objects.filter(deck=deck).count() == 40
    assert CardPlacement.objects.filter(deck=deck, pile__kind=PileKind.DRAW).count() == 11


def test_a_check_with_no_deck_to_draw_from_is_refused_and_changes_nothing(game, rng) -> None:
    table, gm, ann, bob, watcher, heroes = game
    before = Event.objects.filter(table=table).count()
    answer = check(table, ann, heroes["Ann"])
    assert answer.status_code == 400 and "does not have" in answer.content.decode()
    assert Event.objects.filter(table=table).count() == before


def test_a_duel_deals_hidden_cards_that_only_their_holders_and_the_gm_see(game, rng) -> None:
    table, gm, ann, bob, watcher, heroes = game
    deck = bring_fate(table, gm, rng)
    answer = client(gm).post(f"/tables/{table.pk}/commands/duel/",
                             {"characters": [str(heroes["Ann"].pk), str(heroes["Bob"].pk)]}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200, answer.content
    held = {m.display_name: list(CardPlacement.objects.filter(pile__kind=PileKind.HAND, pile__owner=m)
                                 .values_list("card_id", flat=True)) for m in (ann, bob)}
    assert len(held["Ann"]) == len(held["Bob"]) == 1
    assert CardPlacement.objects.filter(deck=deck).count() == 40
    for event in Event.objects.filter(table=table, kind="cards.drawn"):
        verify_drawn(event)
    names = {who: card_by_id(cards[0]).name for who, cards in held.items()}
    for viewer, may_see in ((ann, {"Ann"}), (bob, {"Bob"}), (watcher, set()), (gm, {"Ann", "Bob"})):
        seen = " ".join(
            str(s.event.payload) + s.summary + str(s.private or "") for s in events_for(viewer_of(viewer), table.pk)
        )
        for who, card_id in held.items():
            shown = card_id[0] in seen or names[who] in seen
            assert shown == (who in may_see), (viewer.display_name, who)
    won = Event.objects.get(table=table, kind="high_card.duel_won")
    assert "cards" not in won.payload["event"] and won.private["cards"]
    assert client(ann).post(f"/tables/{table.pk}/commands/duel/",
                            {"characters": [str(heroes["Ann"].pk), str(heroes["Bob"].pk)]},
                            HTTP_HX_REQUEST="true").status_code == 400  # the GM's


def test_each_seat_s_live_redraw_carries_its_own_view_and_no_other(game, rng, monkeypatch) -> None:
    """Issue 21: "The GM, each player and the spectator each get their own panel, live and on
    reload". A redraw carried the spectator's view to every player, and the GM's was read again
    from the database for the GM's frame; now each seat's view of the state after the command
    rides, in memory, on the last event that seat sees, and no panel is stored in the log."""
    import dataclasses

    from tabletop.feed import panels
    from tabletop.feed.seat import GM, SPECTATOR, Seat
    from tests.support.frames import logged, seat_frame

    table, gm, ann, bob, watcher, heroes = game

    def view(state, seat):
        return {"margin": "hidden 7" if seat.is_gm else f"for {seat.role} {seat.member}"}

    secret = dataclasses.replace(high_card.SYSTEM, panel=dataclasses.replace(high_card.SYSTEM.panel, view=view))
    monkeypatch.setitem(registry.SYSTEMS, "high_card", secret)
    monkeypatch.setattr(panels, "panel_html", lambda template, v, seat, table_id: f"<panel>{v['margin']}</panel>")
    bring_fate(table, gm, rng)
    with logged() as events:
        assert client(gm).post(f"/tables/{table.pk}/commands/duel/",
                               {"characters": [str(heroes["Ann"].pk), str(heroes["Bob"].pk)]},
                               HTTP_HX_REQUEST="true").status_code == 200
    mine = [e for e in events if e.kind.startswith("high_card.")]
    assert all("panel" not in e.payload for e in mine)
    last = mine[-1]
    assert "hidden 7" not in str(last.payload)
    frames = {seat: seat_frame(last, seat) or "" for seat in (GM, SPECTATOR, Seat("player", ann.pk),
                                                                Seat("player", bob.pk))}
    assert "<panel>hidden 7</panel>" in frames[GM]
    assert f"<panel>for player {ann.pk}</panel>" in frames[Seat("player", ann.pk)]
    assert f"<panel>for player {bob.pk}</panel>" in frames[Seat("player", bob.pk)]
    assert "<panel>for spectator None</panel>" in frames[SPECTATOR]
    assert "hidden 7" not in "".join(f for seat, f in frames.items() if seat != GM)
    # each seat's panel rides once, on the last event of the command it sees
    assert sum("<panel>" in (seat_frame(e, GM) or "") for e in mine) == 1


def page_and_export(table, member) -> str:
    c = client(member)
    export = b"".join(c.get(f"/tables/{table.pk}/export.json").streaming_content)
    return c.get(f"/tables/{table.pk}/").content.decode() + export.decode()


def test_a_line_unfolds_to_its_working_for_those_who_read_the_whole_event(game, rng) -> None:
    """Issue 23: "each line can unfold to show the arithmetic and the rule it applied". The
    check is public, so its working is everyone's; the duel's names the cards dealt face down,
    so only the GM (who reads the duel's private part) has it, in no byte of anyone else's."""
    table, gm, ann, bob, watcher, heroes = game
    bring_fate(table, gm, rng)
    assert check(table, ann, heroes["Ann"]).status_code == 200
    drew = Event.objects.get(table=table, kind="high_card.drew")
    card = card_by_id(drew.payload["draw"]["card"])
    assert drew.payload["working"]["rule"] == high_card.RULE
    for member in (gm, ann, bob, watcher):
        text = page_and_export(table, member)
        assert '<details class="working"><summary>How</summary>' in text
        assert f"<li>{card.name}: {card.value}</li>" in text.replace("&#39;", "'")
        assert high_card.RULE in text and "High Card, the one rule" in text
    assert client(gm).post(f"/tables/{table.pk}/commands/duel/",
                           {"characters": [str(heroes["Ann"].pk), str(heroes["Bob"].pk)]},
                           HTTP_HX_REQUEST="true").status_code == 200
    won = Event.objects.get(table=table, kind="high_card.duel_won")
    # declared public, with a private twin: everyone unfolds the duel, the GM reads the cards
    assert won.payload["working"]["steps"] == ["both cards compared face down"]
    assert [s.split(" holds ")[0] for s in won.private["working"]["steps"]] == list(won.private["cards"])
    gm_text = page_and_export(table, gm)
    assert " holds " in gm_text and "both cards compared face down" in gm_text
    # a dealt card's working, undeclared, stays with its private part: its holder's and the GM's
    dealt = {e.private["card"]: e for e in Event.objects.filter(table=table, kind="high_card.dealt")}
    assert all("working" not in e.payload and e.private["working"]["steps"] for e in dealt.values())
    for member in (ann, bob, watcher):
        text = page_and_export(table, member)
        assert high_card.DUEL_RULE in text and "both cards compared face down" in text
        assert " holds " not in text
        mine = [c for c, e in dealt.items() if e.owner_id == member.pk]
        for card, event in dealt.items():
            assert (f"dealt {card_by_id(card).name}" in text) == (card in mine), (member.display_name, card)
