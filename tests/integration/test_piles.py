"""Piles at the service level: who sees which cards, what is refused, and two draws at once.

Issue 3 ("Decks, hands and hidden information"). A public event may hold a private part:
"Ann draws 3 cards" for all; the cards themselves for Ann and the GM.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connections

from games.core.cards import card_by_id, deck_kind, standard_deck, tarot, ten_value_deck
from tabletop import services
from tabletop.models import Table, CardPlacement, Deck, Event, Pile, PileKind, Role, ShuffleCommitment
from tabletop.feed.seat import private_part
from tabletop.selectors import SeenEvent, events_for, viewer_of
from tabletop.services import NotAllowed, ServiceError

pytestmark = pytest.mark.django_db

EVERY_CARD = tarot() + ten_value_deck() + standard_deck(jokers=True)
NOT_HELD = "You do not hold that card (it may have moved); nothing was changed."


def snapshot(table: Table) -> tuple:
    """Everything a refusal must leave untouched."""
    table.refresh_from_db()
    return (
        table.next_seq,
        list(CardPlacement.objects.order_by("pk").values_list(
            "pk", "deck_id", "card_id", "pile_id", "position", "reversed")),
        list(Event.objects.order_by("pk").values_list(
            "pk", "seq", "kind", "summary", "private_summary", "payload", "private", "audience", "owner_id")),
        list(ShuffleCommitment.objects.order_by("pk").values_list(
            "pk", "digest", "salt", "order", "dealt", "closed", "scrambled", "revealed_seq")),
        list(Deck.objects.order_by("pk").values_list("pk", "allow_reversed", "players_may_use", "owner_id")),
        list(Pile.objects.order_by("pk").values_list("pk", "kind", "deck_id", "owner_id")),
    )


def refused(table: Table, attempt: Callable[[], Any], error: type[ServiceError] = ServiceError) -> str:
    """Runs an attempt that must be refused, checks it changed nothing, and returns the message."""
    before = snapshot(table)
    with pytest.raises(error) as caught:
        attempt()
    assert snapshot(table) == before
    assert caught.value.message.strip()
    return caught.value.message


def move(table, verb: str, member, deck: Deck | int, card: str, **extra: Any) -> None:
    """Plays, discards, returns or passes one card (by id or token) at the test table."""
    action = {"play": services.card_play, "discard": services.card_discard,
              "return": services.card_return, "pass": services.card_pass}[verb]
    deck_id = deck if isinstance(deck, int) else deck.pk
    action(table=table.row, actor=member, deck_id=deck_id, card_id=card.removesuffix("/r"), **extra)


def new_deck(table, rng, kind: str = "standard", **options) -> Deck:
    return services.deck_create(table=table.row, actor=table.gm, kind=kind, rng=rng, **options)


def hand(member) -> list[str]:
    return list(CardPlacement.objects.filter(pile__kind=PileKind.HAND, pile__owner=member)
                .order_by("position").values_list("card_id", flat=True))


def in_pile(deck: Deck, kind: str) -> list[str]:
    return list(CardPlacement.objects.filter(deck=deck, pile__kind=kind).order_by("position")
                .values_list("card_id", flat=True))


def seen_by(member, table: Table) -> list[SeenEvent]:
    return events_for(viewer_of(member), table.pk)


def last_seen(member, table: Table, kind: str) -> SeenEvent:
    return [s for s in seen_by(member, table) if s.event.kind == kind][-1]


def shown(seen: SeenEvent) -> str:
    """Everything of an event that its viewer receives, as one text."""
    return seen.summary + json.dumps(seen.event.payload) + json.dumps(seen.private or {})


def cards_named(text: str, ids: list[str]) -> list[str]:
    """The cards among ``ids`` that ``text`` names, by id (as a whole JSON string) or by name."""
    return [i for i in ids if f'"{i}"' in text or f'"{i}/r"' in text or card_by_id(i).name in text]


def expected_counts(table: Table, *, gm: bool = False) -> dict[str, Any]:
    """What everyone may count at the table (or the GM, ``gm``), computed from the database here.
    At a table keeping NPC sheets secret, the GM's hand size is the GM's (read off the hand), and
    so is the draw pile's size of a deck the GM holds cards of (selectors.draw_counts_held_back)."""
    secret = table.npc_sheets_secret
    held = set(CardPlacement.objects.filter(pile__table=table, pile__kind=PileKind.HAND, pile__owner__role=Role.GM)
               .values_list("deck_id", flat=True)) if secret else set()
    decks = {}
    for deck in Deck.objects.filter(table=table):
        discard = list(CardPlacement.objects.filter(deck=deck, pile__kind=PileKind.DISCARD).order_by("position"))
        draw = {"held": True} if deck.pk in held and not gm else {"draw": len(in_pile(deck, PileKind.DRAW))}
        decks[str(deck.pk)] = {"name": deck.name, **draw,
                               "discard": len(discard), "discard_top": discard[-1].token if discard else None}
    hands = {str(p.owner_id): p.cards.count() for p in Pile.objects.filter(table=table, kind=PileKind.HAND)
             .select_related("owner") if not (secret and p.owner.role == Role.GM)}
    play = [{"deck": c.deck_id, "token": c.token, "by": c.placed_by.display_name if c.placed_by else "",
             "by_id": c.placed_by_id} for c in
            CardPlacement.objects.filter(pile__table=table, pile__kind=PileKind.PLAY).order_by("position")]
    return {"decks": decks, "hands": hands, "play": play}


def gm_part(event: Event) -> dict[str, Any]:
    """An event as the GM reads it: its public part with its private part laid over it."""
    return {**event.payload, **private_part(event.private, "gm")}


# Who sees what


def test_a_player_sees_the_cards_of_their_own_draw(table, rng) -> None:
    deck = new_deck(table, rng, players_may_use=True)
    drawn = services.pile_draw(deck=deck, actor=table.ann, count=3)
    seen = last_seen(table.ann, table.row, "cards.drawn")
    assert seen.reading == "private"
    assert seen.private["cards"] == drawn
    assert [h["token"] for h in seen.private["hand"]] == drawn
    assert cards_named(seen.summary, hand(table.ann)) == hand(table.ann)


def test_other_players_and_spectators_never_see_a_hidden_draw(table, rng) -> None:
    deck = new_deck(table, rng, players_may_use=True)
    services.pile_draw(deck=deck, actor=table.ann, count=3)
    for member in (table.bob, table.watcher):
        seen = last_seen(member, table.row, "cards.drawn")
        assert seen.reading == "public" and seen.private is None
        assert seen.summary == "Ann draws 3 cards from Standard."
        assert cards_named(shown(seen), hand(table.ann)) == []


def test_the_gm_sees_every_hidden_card(table, rng) -> None:
    deck = new_deck(table, rng, players_may_use=True)
    drawn = services.pile_draw(deck=deck, actor=table.ann, count=2)
    services.pile_deal(deck=deck, actor=table.gm, count=1, to=[table.bob])
    gm_view = {s.event.kind: s for s in seen_by(table.gm, table.row)}
    assert gm_view["cards.drawn"].reading == "gm" and gm_view["cards.drawn"].private["cards"] == drawn
    assert gm_view["cards.dealt"].private["cards"] == hand(table.bob)
    assert cards_named(gm_view["cards.dealt"].summary, hand(table.bob)) == hand(table.bob)
    assert [s.event.seq for s in seen_by(table.gm, table.row)] == list(
        Event.objects.filter(table=table.row).order_by("seq").values_list("seq", flat=True))


@pytest.mark.parametrize("kind", ["standard", "tarot", "major_arcana", "ten_value"])
def test_the_public_part_of_a_hidden_draw_or_deal_holds_counts_only(table, rng, kind) -> None:
    """No card name or id from games.core.cards in the summary or payload of a hidden draw."""
    deck = new_deck(table, rng, kind=kind, players_may_use=True, allow_reversed=True)
    services.pile_draw(deck=deck, actor=table.ann, count=5)
    services.pile_deal(deck=deck, actor=table.gm, count=2, to=[table.ann, table.bob, table.gm])
    hidden = Event.objects.filter(table=table.row, kind__in=("cards.drawn", "cards.dealt"))
    assert hidden.count() == 4
    for event in hidden:
        assert set(event.payload) <= {"counts", "deck", "count", "commitment", "start", "positions"}
        text = event.summary + json.dumps(event.payload)
        assert not [c.id for c in EVERY_CARD if c.id in text]
        assert not [c.name for c in EVERY_CARD if c.name in event.summary]


def test_face_up_draws_plays_and_discards_are_public(table, rng) -> None:
    deck = new_deck(table, rng, players_may_use=True)
    face_up = services.pile_draw(deck=deck, actor=table.ann, count=2, to="play")
    held = services.pile_draw(deck=deck, actor=table.ann, count=2)
    move(table, "play", table.ann, deck, held[0])
    move(table, "discard", table.ann, deck, held[1])
    move(table, "discard", table.ann, deck, face_up[0])
    public = [s for s in seen_by(table.watcher, table.row)
              if s.event.kind in ("cards.drawn", "card.played", "card.discarded")]
    assert [(s.event.kind, s.event.payload.get("cards")) for s in public] == [
        ("cards.drawn", face_up), ("cards.drawn", None), ("card.played", [held[0]]),
        ("card.discarded", [held[1]]), ("card.discarded", [face_up[0]]),
    ]
    for seen in public:
        cards = seen.event.payload.get("cards", [])
        assert seen.reading == "public" and cards_named(seen.summary, cards) == cards


def test_a_passed_card_is_seen_by_giver_and_receiver_only(table, rng) -> None:
    deck = new_deck(table, rng, players_may_use=True)
    [card] = services.pile_draw(deck=deck, actor=table.ann, count=1)
    move(table, "pass", table.ann, deck, card, to=table.bob)
    assert hand(table.bob) == [card] and hand(table.ann) == []
    passed = last_seen(table.ann, table.row, "card.passed")
    received = last_seen(table.bob, table.row, "card.received")
    assert passed.private["cards"] == [card] and received.private["cards"] == [card]
    assert [h["token"] for h in received.private["hand"]] == [card]
    for seen in (last_seen(table.watcher, table.row, "card.passed"),
                 last_seen(table.watcher, table.row, "card.received"),
                 last_seen(table.bob, table.row, "card.passed")):
        assert seen.private is None
        assert cards_named(shown(seen), [card]) == []


def test_a_player_never_sees_another_players_hand_cards(table, rng) -> None:
    """Deal, draw, pass and return: nothing Bob or a spectator receives names a card in Ann's hand."""
    deck = new_deck(table, rng, kind="ten_value", players_may_use=True)
    services.pile_deal(deck=deck, actor=table.gm, count=3, to=[table.ann, table.bob, table.gm])
    services.pile_draw(deck=deck, actor=table.ann, count=2)
    move(table, "pass", table.gm, deck, hand(table.gm)[0], to=table.ann)
    move(table, "pass", table.ann, deck, hand(table.ann)[0], to=table.bob)
    move(table, "return", table.ann, deck, hand(table.ann)[0], where="bottom")
    move(table, "play", table.ann, deck, hand(table.ann)[0])
    services.deck_shuffle(deck=deck, actor=table.bob, rng=rng)
    services.pile_draw(deck=deck, actor=table.bob, count=1)
    secret = hand(table.ann)
    assert len(secret) == 3
    for member in (table.bob, table.watcher):
        for seen in seen_by(member, table.row):
            assert cards_named(shown(seen), secret) == [], f"{member} sees {seen.event}"
    told_ann = {c for s in seen_by(table.ann, table.row) if s.private for c in s.private.get("cards", [])}
    assert told_ann >= set(secret)


def test_spectators_never_see_a_private_part(table, rng) -> None:
    deck = new_deck(table, rng, players_may_use=True)
    services.pile_deal(deck=deck, actor=table.gm, count=2, to=[table.ann, table.bob, table.gm])
    services.pile_draw(deck=deck, actor=table.bob, count=1)
    move(table, "pass", table.ann, deck, hand(table.ann)[0], to=table.bob)
    services.deck_peek(deck=deck, actor=table.gm, count=3)
    move(table, "return", table.bob, deck, hand(table.bob)[0], where="top")
    seen = [s for s in seen_by(table.watcher, table.row) if s.event.kind.startswith(("card", "deck"))]
    assert len(seen) == Event.objects.filter(table=table.row, kind__regex=r"^(card|deck)").count()
    assert all(s.reading == "public" and s.private is None and s.summary == s.event.summary for s in seen)
    held = CardPlacement.objects.filter(deck=deck, pile__kind=PileKind.HAND).values_list("card_id", flat=True)
    assert all(cards_named(shown(s), list(held)) == [] for s in seen)


def test_a_gm_peek_is_seen_by_the_gm_alone(table, rng) -> None:
    deck = new_deck(table, rng, players_may_use=True)
    top = services.deck_peek(deck=deck, actor=table.gm, count=3)
    assert top == in_pile(deck, PileKind.DRAW)[:3]
    assert last_seen(table.gm, table.row, "deck.peeked").private["cards"] == top
    for member in (table.ann, table.bob, table.watcher):
        seen = last_seen(member, table.row, "deck.peeked")
        assert seen.private is None and cards_named(shown(seen), top) == []


def test_counts_in_every_card_event_match_the_database(table, rng) -> None:
    deck = new_deck(table, rng, players_may_use=True)
    other = new_deck(table, rng, kind="major_arcana", owner=table.bob)
    steps = [
        lambda: services.pile_draw(deck=deck, actor=table.ann, count=3),
        lambda: services.pile_draw(deck=other, actor=table.bob, count=2, to="play"),
        lambda: services.pile_deal(deck=deck, actor=table.gm, count=2, to=[table.bob, table.gm]),
        lambda: move(table, "play", table.ann, deck, hand(table.ann)[0]),
        lambda: move(table, "discard", table.ann, deck, hand(table.ann)[0]),
        lambda: move(table, "pass", table.ann, deck, hand(table.ann)[0], to=table.bob),
        lambda: move(table, "return", table.bob, deck, hand(table.bob)[0], where="top"),
        lambda: services.deck_configure(deck=other, actor=table.gm, allow_reversed=True, players_may_use=True),
        lambda: services.deck_recall(deck=other, actor=table.gm, rng=rng),
    ]
    for step in steps:
        after = table.row.events.order_by("-seq").first().seq
        step()
        with_counts = [e for e in table.row.events.filter(seq__gt=after) if "counts" in e.payload]
        assert with_counts
        for event in with_counts:
            assert event.payload["counts"] == expected_counts(table.row), event
            assert gm_part(event)["counts"] == expected_counts(table.row, gm=True), event


def test_a_discard_reshuffle_publishes_the_new_counts(table, rng) -> None:
    """Counts in payload["counts"] match the database: a reshuffle empties the discard pile
    and fills the draw pile, so the event it appends must carry the counts as they are now
    (the live panels redraw the counts only from an event that carries them)."""
    deck = new_deck(table, rng, kind="major_arcana")
    for token in services.pile_draw(deck=deck, actor=table.gm, count=3, to="play"):
        move(table, "discard", table.gm, deck, token.removesuffix("/r"))
    after = table.row.events.order_by("-seq").first().seq
    services.deck_discard_reshuffle(deck=deck, actor=table.gm, rng=rng)
    new = list(table.row.events.filter(seq__gt=after).order_by("seq"))
    with_counts = [e for e in new if "counts" in e.payload]
    assert with_counts, f"no event of the reshuffle carries counts: {[e.kind for e in new]}"
    assert with_counts[-1].payload["counts"] == expected_counts(table.row)
    assert with_counts[-1].payload["counts"]["decks"][str(deck.pk)]["discard"] == 0


def test_the_deck_order_appears_in_no_payload_but_deck_revealed(table, rng) -> None:
    """Deck order never leaves the server, until a reveal shows it can no longer matter."""
    deck = new_deck(table, rng, kind="tarot", players_may_use=True, allow_reversed=True)
    services.pile_deal(deck=deck, actor=table.gm, count=2, to=[table.ann, table.bob])
    services.pile_draw(deck=deck, actor=table.bob, count=2)
    services.deck_shuffle(deck=deck, actor=table.ann, rng=rng)
    top = services.deck_peek(deck=deck, actor=table.gm, count=4)
    services.deck_reorder(deck=deck, actor=table.gm, order=[t.removesuffix("/r") for t in top[::-1]])
    move(table, "return", table.ann, deck, hand(table.ann)[0], where="top")
    move(table, "pass", table.bob, deck, hand(table.bob)[0], to=table.ann)
    services.deck_recall(deck=deck, actor=table.gm, rng=rng)
    hidden_until = table.row.events.order_by("-seq").first().seq
    # every card seen face up at last: the seals that waited on the hands may come out
    for count in (20, 20, 20, 18):
        services.pile_draw(deck=deck, actor=table.gm, count=count, to="play")
    services.deck_recall(deck=deck, actor=table.gm, rng=rng)
    ids = [c.id for c in deck_kind("tarot").factory()]
    reveals = 0
    for event in Event.objects.filter(table=table.row):
        if event.kind == "deck.revealed":
            reveals += 1
            continue
        if event.seq <= hidden_until:  # later, every card is drawn face up for all to see
            assert cards_named(json.dumps(event.payload), ids) == [], event
    # every seal but the open one is revealed, except those that dealt a card into a hand that
    # went back unseen (a hand's unplayed cards stay its holder's)
    closed = ShuffleCommitment.objects.filter(deck=deck, closed=True)
    assert reveals == closed.filter(unseen=[]).count() and reveals >= 1
    assert all(seal.unseen and seal.revealed_seq is None for seal in closed.exclude(unseen=[]))


# Refusals: a clear message, and nothing changed


@pytest.mark.parametrize("count", [0, -1, 21, 100])
def test_drawing_fewer_than_one_or_more_than_twenty_is_refused(table, rng, count) -> None:
    deck = new_deck(table, rng, players_may_use=True)
    message = refused(table.row, lambda: services.pile_draw(deck=deck, actor=table.ann, count=count))
    assert message == "Draw between 1 and 20 cards."
    refused(table.row, lambda: services.pile_deal(deck=deck, actor=table.gm, count=count, to=[table.ann]))


def test_drawing_from_an_empty_deck_is_refused(table, rng) -> None:
    deck = new_deck(table, rng, kind="major_arcana")
    services.pile_draw(deck=deck, actor=table.gm, count=20, to="play")
    services.pile_draw(deck=deck, actor=table.gm, count=2, to="play")
    message = refused(table.row, lambda: services.pile_draw(deck=deck, actor=table.gm, count=1))
    assert message == "Major Arcana has 0 cards left; cannot draw 1."
    refused(table.row, lambda: services.pile_deal(deck=deck, actor=table.gm, count=1, to=[table.ann]))
    refused(table.row, lambda: services.deck_peek(deck=deck, actor=table.gm, count=1))


def test_drawing_or_dealing_more_than_are_left_is_refused(table, rng) -> None:
    deck = new_deck(table, rng, kind="major_arcana")
    services.pile_draw(deck=deck, actor=table.gm, count=20, to="play")
    message = refused(table.row, lambda: services.pile_draw(deck=deck, actor=table.gm, count=3))
    assert message == "Major Arcana has 2 cards left; cannot draw 3."
    everyone = [table.ann, table.bob, table.gm]
    refused(table.row, lambda: services.pile_deal(deck=deck, actor=table.gm, count=1, to=everyone))
    services.pile_deal(deck=deck, actor=table.gm, count=1, to=[table.ann, table.bob])
    assert in_pile(deck, PileKind.DRAW) == []


@pytest.mark.parametrize("where", ["in Bob's hand", "in the draw pile", "in the discard pile", "in the play area",
                                   "not in this deck", "no card at all", "of another table's deck"])
def test_moving_a_card_one_does_not_hold_is_refused_without_saying_where_it_is(table, rng, where) -> None:
    """The refusal is the same whether the card is in another hand, in the deck or nonexistent."""
    deck = new_deck(table, rng, players_may_use=False)
    services.pile_deal(deck=deck, actor=table.gm, count=2, to=[table.ann, table.bob])
    [face_up, discarded] = services.pile_draw(deck=deck, actor=table.gm, count=2, to="play")
    move(table, "discard", table.gm, deck, discarded)
    deck_id, card_id = {
        "in Bob's hand": (deck.pk, hand(table.bob)[0]),
        "in the draw pile": (deck.pk, in_pile(deck, PileKind.DRAW)[0]),
        "in the discard pile": (deck.pk, discarded),
        "in the play area": (deck.pk, face_up),
        "not in this deck": (deck.pk, "tarot:major:0"),
        "no card at all": (deck.pk, "std:S:99"),
        "of another table's deck": (elsewhere_deck(rng).pk, "std:S:1"),
    }[where]
    attempts = {
        "play": lambda: move(table, "play", table.ann, deck_id, card_id),
        "discard": lambda: move(table, "discard", table.ann, deck_id, card_id),
        "return": lambda: move(table, "return", table.ann, deck_id, card_id, where="top"),
        "pass": lambda: move(table, "pass", table.ann, deck_id, card_id, to=table.bob),
    }
    for what, attempt in attempts.items():
        felt = where == "in the play area" and what in ("discard", "return")  # face up: everyone sees it
        expected = f"That card on the table is {table.gm.display_name}'s to move (or the GM's): nothing was changed."
        assert refused(table.row, attempt) == (expected if felt else NOT_HELD), what


def elsewhere_deck(rng) -> Deck:
    users = get_user_model()
    table = services.table_create(gm=users.objects.create_user("otto"), name="Elsewhere", system="freeform")
    gm = table.members.get(role=Role.GM)
    return services.deck_create(table=table, actor=gm, kind="standard", rng=rng)


def test_a_stale_request_for_a_card_that_moved_is_refused(table, rng) -> None:
    deck = new_deck(table, rng, players_may_use=True)
    [card, other] = services.pile_draw(deck=deck, actor=table.ann, count=2)
    move(table, "play", table.ann, deck, card)
    assert refused(table.row, lambda: move(table, "play", table.ann, deck, card)) == NOT_HELD
    move(table, "pass", table.ann, deck, other, to=table.bob)
    for attempt in (
        lambda: move(table, "pass", table.ann, deck, other, to=table.bob),
        lambda: move(table, "discard", table.ann, deck, other),
        lambda: move(table, "return", table.ann, deck, other, where="top"),
    ):
        assert refused(table.row, attempt) == NOT_HELD
    assert hand(table.bob) == [other]


@pytest.mark.parametrize("to", ["a spectator", "a removed player", "someone at another table", "oneself"])
def test_passing_is_refused_to_anyone_but_another_seated_player(table, rng, to) -> None:
    deck = new_deck(table, rng, players_may_use=True)
    [card] = services.pile_draw(deck=deck, actor=table.ann, count=1)
    target = {
        "a spectator": lambda: table.watcher,
        "a removed player": lambda: removed_player(table),
        "someone at another table": lambda: elsewhere_deck(rng).table.members.get(),
        "oneself": lambda: table.ann,
    }[to]()
    message = refused(table.row, lambda: move(table, "pass", table.ann, deck, card, to=target))
    assert message in ("Pass cards only to players seated at this table.", "That card is already in that hand.")
    assert hand(table.ann) == [card]


def removed_player(table):
    cleo = services.membership_join(table=table.row, user=services.guest_user_create(),
                                    role=Role.PLAYER, display_name="Cleo")
    services.membership_remove(target=cleo, actor=table.gm)
    return cleo


@pytest.mark.parametrize("to", ["a spectator", "a removed player", "someone at another table", "nobody"])
def test_dealing_is_refused_to_anyone_but_seated_players(table, rng, to) -> None:
    deck = new_deck(table, rng)
    targets = {
        "a spectator": lambda: [table.ann, table.watcher],
        "a removed player": lambda: [removed_player(table), table.bob],
        "someone at another table": lambda: [elsewhere_deck(rng).table.members.get()],
        "nobody": list,
    }[to]()
    message = refused(table.row, lambda: services.pile_deal(deck=deck, actor=table.gm, count=1, to=targets))
    assert message == "Deal only to players seated at this table."


@pytest.mark.parametrize(
    "mistake", ["not the top cards", "a card twice", "no such card", "more than the pile", "nothing"]
)
def test_rearranging_with_the_wrong_cards_is_refused(table, rng, mistake) -> None:
    deck = new_deck(table, rng, kind="major_arcana")
    services.pile_draw(deck=deck, actor=table.gm, count=19, to="play")
    top = in_pile(deck, PileKind.DRAW)
    order = {
        "not the top cards": [top[2], top[1]],
        "a card twice": [top[0], top[0]],
        "no such card": [top[1], "std:S:99"],
        "more than the pile": [*top[::-1], "tarot:major:0"],
        "nothing": [],
    }[mistake]
    refused(table.row, lambda: services.deck_reorder(deck=deck, actor=table.gm, order=order))
    assert in_pile(deck, PileKind.DRAW) == top


@pytest.mark.parametrize("who", ["ann", "watcher"])
def test_only_the_gm_peeks_rearranges_configures_or_brings_out_decks(table, rng, who) -> None:
    deck = new_deck(table, rng, players_may_use=True, owner=table.ann)
    member = getattr(table, who)
    top = in_pile(deck, PileKind.DRAW)[:2]
    for attempt in (
        lambda: services.deck_peek(deck=deck, actor=member, count=1),
        lambda: services.deck_reorder(deck=deck, actor=member, order=top[::-1]),
        lambda: services.deck_configure(deck=deck, actor=member, allow_reversed=False, players_may_use=False),
        lambda: services.deck_create(table=table.row, actor=member, kind="standard", rng=rng),
    ):
        assert refused(table.row, attempt, NotAllowed) == (
            "Only the GM may make and arrange the decks." if who == "ann"
            else "You are watching this table: a spectator sees the play but does not act.")


@pytest.mark.parametrize("who", ["a spectator", "a removed player"])
def test_spectators_and_removed_members_may_not_touch_cards(table, rng, who) -> None:
    deck = new_deck(table, rng, players_may_use=True)
    [card] = services.pile_draw(deck=deck, actor=table.gm, count=1, to="play")
    member = table.watcher if who == "a spectator" else removed_player(table)
    for attempt in (
        lambda: services.pile_draw(deck=deck, actor=member, count=1),
        lambda: services.pile_deal(deck=deck, actor=member, count=1, to=[table.ann]),
        lambda: services.deck_shuffle(deck=deck, actor=member, rng=rng),
        lambda: services.deck_recall(deck=deck, actor=member, rng=rng),
        lambda: move(table, "discard", member, deck, card),
        lambda: move(table, "return", member, deck, card, where="top"),
    ):
        assert refused(table.row, attempt, NotAllowed) == (
            "You are watching this table: a spectator sees the play but does not act." if who == "a spectator"
            else "The GM removed you from this table.")


def test_players_may_not_use_a_deck_the_gm_has_not_opened_to_them(table, rng) -> None:
    deck = new_deck(table, rng)
    [card] = services.pile_draw(deck=deck, actor=table.gm, count=1, to="play")
    move(table, "discard", table.gm, deck, card)
    [face_up] = services.pile_draw(deck=deck, actor=table.gm, count=1, to="play")
    for attempt in (
        lambda: services.pile_draw(deck=deck, actor=table.ann, count=1),
        lambda: services.pile_draw(deck=deck, actor=table.ann, count=1, to="play"),
        lambda: services.pile_deal(deck=deck, actor=table.ann, count=1, to=[table.bob]),
        lambda: services.deck_shuffle(deck=deck, actor=table.ann, rng=rng),
        lambda: services.deck_discard_reshuffle(deck=deck, actor=table.ann, rng=rng),
        lambda: services.deck_recall(deck=deck, actor=table.ann, rng=rng),
    ):
        assert refused(table.row, attempt, NotAllowed) == "The GM has not opened Standard to players."
    felt = f"That card on the table is {table.gm.display_name}'s to move (or the GM's): nothing was changed."
    assert refused(table.row, lambda: move(table, "discard", table.ann, deck, face_up), NotAllowed) == felt
    services.deck_configure(deck=deck, actor=table.gm, allow_reversed=False, players_may_use=True)
    [mine] = services.pile_draw(deck=deck, actor=table.ann, count=1, to="play")
    move(table, "discard", table.ann, deck, mine)  # once it is open, her own card on the felt is hers to move
    assert refused(table.row, lambda: move(table, "discard", table.ann, deck, face_up), NotAllowed) == felt


def test_a_personal_deck_is_for_its_owner_and_the_gm(table, rng) -> None:
    deck = new_deck(table, rng, kind="major_arcana", owner=table.ann)
    services.pile_draw(deck=deck, actor=table.ann, count=2)
    services.deck_shuffle(deck=deck, actor=table.ann, rng=rng)
    refused(table.row, lambda: services.pile_draw(deck=deck, actor=table.bob, count=1), NotAllowed)
    services.pile_deal(deck=deck, actor=table.gm, count=1, to=[table.bob])
    assert len(hand(table.ann)) == 2 and len(hand(table.bob)) == 1
    def personal_deck_for(owner) -> Callable[[], Deck]:
        return lambda: services.deck_create(table=table.row, actor=table.gm, kind="standard", rng=rng,
                                            owner=owner)

    for owner in (table.watcher, removed_player(table)):
        message = refused(table.row, personal_deck_for(owner))
        assert message == "A personal deck belongs to a player at this table."


def test_bad_destinations_and_empty_discards_are_refused(table, rng) -> None:
    deck = new_deck(table, rng)
    [card] = services.pile_draw(deck=deck, actor=table.gm, count=1)
    assert refused(table.row, lambda: services.pile_draw(deck=deck, actor=table.gm, count=1, to="floor")) == (
        "Draw to your hand or to the play area.")
    assert refused(table.row, lambda: move(table, "return", table.gm, deck, card, where="middle")) == (
        "Return a card to the top or the bottom.")
    assert refused(table.row, lambda: services.deck_discard_reshuffle(
        deck=deck, actor=table.gm, rng=rng)) == "The discard pile of Standard is empty."
    assert refused(table.row, lambda: services.deck_create(
        table=table.row, actor=table.gm, kind="uno", rng=rng)) == "Choose a kind of deck."


# Two draws at once


@pytest.fixture
def file_database(transactional_db, tmp_path):
    """The table, copied into a real SQLite file opened with the project's own settings
    (WAL, IMMEDIATE transactions, a busy timeout), and a way to use it from any thread.

    The test database is in memory, in SQLite's shared-cache mode: there a second writer
    fails at once with "database table is locked" instead of waiting, which no deployment
    does. On PostgreSQL the test database is used as it is.
    """
    memory = connections["default"]
    if memory.vendor != "sqlite" or not memory.is_in_memory_db():
        yield lambda: None
        return
    memory.ensure_connection()
    path = tmp_path / "table.sqlite3"
    target = sqlite3.connect(path)
    memory.connection.backup(target)
    target.close()
    file_settings = {**memory.settings_dict, "NAME": str(path)}

    def use() -> None:
        connections["default"] = type(memory)(file_settings, "default")

    use()
    try:
        yield use
    finally:
        connections["default"].close()
        connections["default"] = memory


@pytest.mark.django_db(transaction=True)
def test_players_drawing_from_one_deck_at_once_never_get_the_same_card(table, rng, file_database) -> None:
    """Three threads, ten single-card draws each, all at once, through services.pile_draw."""
    if connections["default"].vendor == "sqlite":
        assert not connections["default"].is_in_memory_db()
    deck = new_deck(table, rng, players_may_use=True)
    drawers = [table.gm, table.ann, table.bob]
    drawn: dict[int, list[str]] = {}
    failures: list[Exception] = []
    start = threading.Barrier(len(drawers))

    def draw_ten(member) -> None:
        file_database()
        try:
            start.wait()
            drawn[member.pk] = [t for _ in range(10) for t in services.pile_draw(deck=deck, actor=member, count=1)]
        except Exception as exc:  # noqa: BLE001 -- reported below, in the test's own thread
            failures.append(exc)
        finally:
            connections["default"].close()

    threads = [threading.Thread(target=draw_ten, args=(m,)) for m in drawers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not failures, failures
    every = [card for cards in drawn.values() for card in cards]
    assert len(every) == 30 and len(set(every)) == 30, "the same card was drawn twice"
    for member in drawers:
        assert sorted(hand(member)) == sorted(drawn[member.pk])
    placed = sorted(CardPlacement.objects.filter(deck=deck).values_list("card_id", flat=True))
    assert placed == sorted(c.id for c in standard_deck())
    assert len(in_pile(deck, PileKind.DRAW)) == 22
    seqs = list(Event.objects.filter(table=table.row).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    seal = ShuffleCommitment.objects.get(deck=deck)
    draws = sorted((gm_part(e)["start"], e.private["cards"]) for e in Event.objects.filter(kind="cards.drawn"))
    assert [start for start, _ in draws] == list(range(30)) and seal.dealt == 30
    assert [token for _, cards in draws for token in cards] == seal.order[:30]


def test_shuffling_one_discarded_card_back_says_one_card(table, rng) -> None:
    """Issue 13, bug 10: the log had said "1 discarded cards"."""
    deck = new_deck(table, rng)
    [card] = services.pile_draw(deck=deck, actor=table.gm, count=1, to="play")
    move(table, "discard", table.gm, deck, card)
    services.deck_discard_reshuffle(deck=deck, actor=table.gm, rng=rng)
    line = Event.objects.filter(kind="deck.committed").order_by("-seq").first().summary
    assert "shuffles 1 discarded card back into" in line, line


def test_a_recall_redraws_every_hand_it_empties_on_its_holder_s_open_page(table, rng) -> None:
    """Issue 13, bug 3: after "Recall all", a player whose page was open still saw "Your
    hand (2)" (and the GM that hand) while the deck showed every card back. Each hand the
    recall takes from gets an event owned by its holder, carrying the hand as it is now."""
    from tabletop.feed.catalogue import Envelope
    from tabletop.feed.frames import event_frames

    deck = new_deck(table, rng, players_may_use=True)
    services.pile_deal(deck=deck, actor=table.gm, count=2, to=[table.ann, table.bob])
    after = table.row.events.order_by("-seq").first().seq
    services.deck_recall(deck=deck, actor=table.gm, rng=rng)
    assert hand(table.ann) == [] and hand(table.bob) == []
    new = list(table.row.events.filter(seq__gt=after).order_by("seq"))
    for member in (table.ann, table.bob):
        own = [e for e in new if e.owner_id == member.pk and "hand" in e.private]
        assert own, f"no event of the recall redraws {member.display_name}'s hand"
        assert own[-1].private["hand"] == []
        assert own[-1].summary == f"{member.display_name} gives back 2 cards of {deck.name}."
        frames, _ = event_frames(Envelope.of(own[-1]))
        for reading in ("private", "gm"):  # the holder's page and the GM's redraw the hand, empty
            assert f'id="hand-{member.pk}"' in frames[reading]
            assert not any(card_by_id(c).name in frames[reading] for c in in_pile(deck, PileKind.DRAW))
        assert f'id="hand-{member.pk}"' not in frames["public"]


def test_the_play_area_says_who_played_each_card(table, rng) -> None:
    """Issue 13, cards as cards: "the play area says who played each card"."""
    deck = new_deck(table, rng, players_may_use=True)
    services.pile_draw(deck=deck, actor=table.gm, count=1, to="play")
    drawn = services.pile_draw(deck=deck, actor=table.ann, count=1)
    services.card_play(table=table.row, actor=table.ann, deck_id=deck.pk, card_id=drawn[0].removesuffix("/r"))
    play = table_counts_now(table)["play"]
    assert [p["by"] for p in play] == ["gail", "Ann"]
    page = table.client(table.bob).get(f"/tables/{table.row.pk}/").content.decode()
    assert "played by Ann" in page and "played by gail" in page


def table_counts_now(table):
    from tabletop.selectors import table_counts

    return table_counts(table.row)
