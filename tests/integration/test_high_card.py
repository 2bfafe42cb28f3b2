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


def test_a_panel_the_gm_sees_more_of_redraws_the_gm_s_view_for_the_gm_only(game, rng, monkeypatch) -> None:
    """Panel.gm_sees_more: the GM's live redraw carries the GM's view (drawn from the state for
    the GM's frame); the public payload and every other frame carry the spectator's."""
    import dataclasses

    from tabletop import rendering

    table, gm, ann, bob, watcher, heroes = game
    secret = dataclasses.replace(high_card.SYSTEM, panel=dataclasses.replace(
        high_card.SYSTEM.panel, view=lambda state, lens: {"margin": "hidden 7" if lens == "gm" else "?"},
        gm_sees_more=True))
    monkeypatch.setitem(registry.SYSTEMS, "high_card", secret)
    drawn_panels: list[dict] = []
    real = rendering.render_to_string

    def spy(template, context=None, *args, **kwargs):
        if template == secret.panel.template:
            drawn_panels.append(context["panel"])
            return f"<panel>{context['panel']['margin']}</panel>"
        return real(template, context, *args, **kwargs)

    monkeypatch.setattr(rendering, "render_to_string", spy)
    bring_fate(table, gm, rng)
    assert client(gm).post(f"/tables/{table.pk}/commands/duel/",
                           {"characters": [str(heroes["Ann"].pk), str(heroes["Bob"].pk)]},
                           HTTP_HX_REQUEST="true").status_code == 200
    event = Event.objects.filter(table=table, kind="high_card.duel_won").get()
    assert "hidden 7" not in str(event.payload)
    frames = rendering.event_frames(event, ["gm", "private", "public"])
    assert "<panel>hidden 7</panel>" in frames["gm"]
    assert "<panel>?</panel>" in frames["private"] and "<panel>?</panel>" in frames["public"]
    assert "hidden 7" not in frames["private"] + frames["public"]
