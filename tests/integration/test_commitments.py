"""Sealed shuffles at the service level: every shuffle publishes a digest, a reveal verifies
against it, the cards dealt under a seal are the top of its order, and no reveal gives away
a card that is hidden in a hand."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from games.core.cards import deck_kind
from games.core.commitment import verify
from tabletop import services
from tabletop.models import CardPlacement, Deck, Event, PileKind, ShuffleCommitment
from tabletop.selectors import events_for, last_seq, viewer_of
from tabletop.views.exports import pages

pytestmark = pytest.mark.django_db

HEX64 = re.compile(r"[0-9a-f]{64}")


def events(table_id: int, kind: str) -> list[Event]:
    return list(Event.objects.filter(table_id=table_id, kind=kind).order_by("seq"))


def committed(deck: Deck) -> list[dict[str, Any]]:
    return [e.payload for e in events(deck.table_id, "deck.committed") if e.payload["deck"] == deck.pk]


def revealed(deck: Deck) -> list[dict[str, Any]]:
    return [e.payload for e in events(deck.table_id, "deck.revealed") if e.payload["deck"] == deck.pk]


def revealed_ids(deck: Deck) -> set[int]:
    return {p["commitment"] for p in revealed(deck)}


def card_ids(tokens: list[str]) -> list[str]:
    return [t.removesuffix("/r") for t in tokens]


def hand_ids(member) -> list[str]:
    return list(CardPlacement.objects.filter(pile__kind=PileKind.HAND, pile__owner=member)
                .order_by("position").values_list("card_id", flat=True))


def dealt_under(deck: Deck, gm) -> dict[int, list[tuple[int, str]]]:
    """(position in the sealed order, token) of every card dealt off each seal, read from the
    events as the GM sees them (the private part holds a hidden draw's cards)."""
    found: dict[int, list[tuple[int, str]]] = {}
    for seen in events_for(viewer_of(gm), deck.table_id):
        event = seen.event
        if event.kind not in ("cards.drawn", "cards.dealt") or event.payload["deck"] != deck.pk:
            continue
        tokens = event.payload.get("cards") or seen.private["cards"]
        data = {**event.payload, **seen.private}  # the GM's: a draw's place may be theirs alone
        if event.kind == "cards.drawn":
            positions = range(data["start"], data["start"] + data["count"])
        else:
            positions = data["positions"]
        found.setdefault(event.payload["commitment"], []).extend(zip(positions, tokens, strict=True))
    return found


def move(table, verb: str, member, deck: Deck | int, card: str, **extra: Any) -> None:
    """Plays, discards, returns or passes one card (by id or token) at the test table."""
    action = {"play": services.card_play, "discard": services.card_discard,
              "return": services.card_return, "pass": services.card_pass}[verb]
    deck_id = deck if isinstance(deck, int) else deck.pk
    action(table=table.row, actor=member, deck_id=deck_id, card_id=card.removesuffix("/r"), **extra)


def lay_down(table, deck: Deck, *members) -> None:
    """Each of these members plays every card of ``deck`` they hold, face up: a seal that dealt
    into a hand is revealed only once each of its hand cards has been seen (see below)."""
    for member in members:
        for card in hand_ids(member):
            if CardPlacement.objects.filter(deck=deck, card_id=card).exists():
                move(table, "play", member, deck, card)


def new_deck(table, rng, kind: str = "major_arcana", **options) -> Deck:
    return services.deck_create(table=table.row, actor=table.gm, kind=kind, rng=rng, **options)


def test_every_shuffle_appends_a_deck_committed_event_with_a_digest(table, rng) -> None:
    """Issue 3: each shuffle publishes a digest of the new order at once."""
    deck = new_deck(table, rng, players_may_use=True)
    services.pile_draw(deck=deck, actor=table.ann, count=2, to="play")
    move(table, "discard", table.ann, deck, CardPlacement.objects.filter(pile__kind=PileKind.PLAY).first().card_id)
    assert len(committed(deck)) == 1  # deck_create shuffles once
    services.deck_shuffle(deck=deck, actor=table.ann, rng=rng)
    services.deck_discard_reshuffle(deck=deck, actor=table.gm, rng=rng)
    services.deck_recall(deck=deck, actor=table.gm, rng=rng)
    seals = committed(deck)
    assert len(seals) == 4
    assert all(HEX64.fullmatch(p["digest"]) for p in seals)
    assert len({p["digest"] for p in seals}) == 4
    assert [p["count"] for p in seals] == [22, 20, 21, 22]
    assert [p["commitment"] for p in seals] == list(
        ShuffleCommitment.objects.filter(deck=deck).order_by("pk").values_list("pk", flat=True)
    )


def test_a_published_seal_holds_no_card(table, rng) -> None:
    """Deck order never leaves the server until it is revealed."""
    deck = new_deck(table, rng, kind="tarot", allow_reversed=True)
    names = {card.name for card in deck_kind("tarot").factory()}
    ids = {card.id for card in deck_kind("tarot").factory()}
    for event in events(table.row.pk, "deck.committed"):
        assert set(event.payload) <= {"deck", "commitment", "digest", "count", "counts"}
        assert not event.private
        assert not [n for n in names if n in event.summary]
        text = json.dumps(event.payload)
        assert not [i for i in ids if f'"{i}"' in text or f'"{i}/r"' in text]
    assert ShuffleCommitment.objects.get(deck=deck).order == [
        c.token for c in CardPlacement.objects.filter(deck=deck).order_by("position")
    ]


def test_after_a_recall_the_revealed_order_and_salt_verify_against_the_published_digest(table, rng) -> None:
    deck = new_deck(table, rng)
    services.pile_deal(deck=deck, actor=table.gm, count=2, to=[table.ann, table.bob])
    lay_down(table, deck, table.ann, table.bob)
    services.deck_recall(deck=deck, actor=table.gm, rng=rng)
    [reveal] = revealed(deck)
    [first, _] = committed(deck)
    assert reveal["commitment"] == first["commitment"]
    assert reveal["digest"] == first["digest"]
    assert verify(reveal["order"], reveal["salt"], first["digest"])
    assert "committed_seq" not in reveal  # a seq would count the hidden events before it
    assert Event.objects.get(table=table.row, kind="deck.committed",
                             payload__commitment=reveal["commitment"]).payload == first
    assert sorted(card_ids(reveal["order"])) == sorted(c.id for c in deck_kind("major_arcana").factory())


def test_a_tampered_order_or_salt_fails_verify(table, rng) -> None:
    deck = new_deck(table, rng)
    services.deck_recall(deck=deck, actor=table.gm, rng=rng)
    [reveal] = revealed(deck)
    order, salt, digest = reveal["order"], reveal["salt"], reveal["digest"]
    assert verify(order, salt, digest)
    swapped = [order[1], order[0], *order[2:]]
    other_salt = salt[:-1] + ("0" if salt[-1] != "0" else "1")
    assert not verify(swapped, salt, digest)
    assert not verify(order[:-1], salt, digest)
    assert not verify([*order[:-1], "std:S:1"], salt, digest)
    assert not verify(order, other_salt, digest)


def test_cards_drawn_and_dealt_under_a_seal_are_the_top_of_its_revealed_order(table, rng) -> None:
    """Cards dealt in between came off the top of the sealed order, where each event says."""
    deck = new_deck(table, rng, kind="ten_value", players_may_use=True)
    services.pile_draw(deck=deck, actor=table.ann, count=2)
    services.pile_draw(deck=deck, actor=table.gm, count=1, to="play")
    services.pile_deal(deck=deck, actor=table.gm, count=3, to=[table.ann, table.bob, table.gm])
    services.pile_draw(deck=deck, actor=table.bob, count=1)
    lay_down(table, deck, table.ann, table.bob, table.gm)
    services.deck_recall(deck=deck, actor=table.gm, rng=rng)
    [reveal] = revealed(deck)
    dealt = dealt_under(deck, table.gm)[reveal["commitment"]]
    assert sorted(position for position, _ in dealt) == list(range(13))
    assert all(reveal["order"][position] == token for position, token in dealt)
    assert reveal["dealt"] == 13


def test_each_seal_covers_exactly_the_cards_dealt_under_it(table, rng) -> None:
    """After a recall every sealed order is revealed, and each accounts for its own draws."""
    deck = new_deck(table, rng, players_may_use=True)
    services.pile_draw(deck=deck, actor=table.ann, count=3)
    services.deck_shuffle(deck=deck, actor=table.gm, rng=rng)
    services.pile_deal(deck=deck, actor=table.gm, count=2, to=[table.bob, table.ann])
    hand = hand_ids(table.bob)
    move(table, "return", table.bob, deck, hand[0], where="top")
    services.pile_draw(deck=deck, actor=table.ann, count=2)
    lay_down(table, deck, table.ann, table.bob)
    services.deck_recall(deck=deck, actor=table.gm, rng=rng)
    seals = list(ShuffleCommitment.objects.filter(deck=deck).order_by("pk"))
    assert len(seals) == 4
    assert revealed_ids(deck) == {s.pk for s in seals[:-1]}
    by_seal = dealt_under(deck, table.gm)
    for reveal in revealed(deck):
        dealt = by_seal.get(reveal["commitment"], [])
        assert verify(reveal["order"], reveal["salt"], reveal["digest"])
        assert sorted(position for position, _ in dealt) == list(range(reveal["dealt"]))
        assert all(reveal["order"][position] == token for position, token in dealt)
    # the returned card went on top and was the next card drawn, under the new seal
    assert card_ids(revealed(deck)[2]["order"])[0] == hand[0]


def test_reversed_cards_are_sealed_as_they_lie(table, rng) -> None:
    deck = new_deck(table, rng, kind="major_arcana", allow_reversed=True)
    drawn = services.pile_draw(deck=deck, actor=table.gm, count=20, to="play")
    services.deck_recall(deck=deck, actor=table.gm, rng=rng)
    [reveal] = revealed(deck)
    assert any(t.endswith("/r") for t in reveal["order"]), "22 coin flips all came up upright"
    assert reveal["order"][:20] == drawn


def test_returning_a_card_or_rearranging_the_top_reseals_the_pile(table, rng) -> None:
    deck = new_deck(table, rng)
    services.pile_draw(deck=deck, actor=table.gm, count=1)
    move(table, "return", table.gm, deck, hand_ids(table.gm)[0], where="bottom")
    assert len(committed(deck)) == 2
    top = card_ids(services.deck_peek(deck=deck, actor=table.gm, count=3))
    assert len(committed(deck)) == 2, "looking changes no order"
    services.deck_reorder(deck=deck, actor=table.gm, order=top[::-1])
    assert len(committed(deck)) == 3
    seal = ShuffleCommitment.objects.filter(deck=deck, closed=False).get()
    assert card_ids(seal.order[:3]) == top[::-1]
    assert seal.pk == committed(deck)[-1]["commitment"]
    assert services.pile_draw(deck=deck, actor=table.gm, count=1, to="play") == seal.order[:1]


def test_no_reveal_while_a_card_dealt_under_the_seal_is_still_in_a_hand(table, rng) -> None:
    """The order and salt stay secret until revealing them shows nobody a card hidden from them."""
    deck = new_deck(table, rng)
    services.pile_deal(deck=deck, actor=table.gm, count=1, to=[table.ann])
    first = committed(deck)[0]["commitment"]
    [secret] = hand_ids(table.ann)
    services.deck_shuffle(deck=deck, actor=table.gm, rng=rng)
    assert first not in revealed_ids(deck)
    drawn = services.pile_draw(deck=deck, actor=table.gm, count=2, to="play")
    for token in drawn:
        move(table, "discard", table.gm, deck, token.removesuffix("/r"))
    services.deck_discard_reshuffle(deck=deck, actor=table.gm, rng=rng)
    move(table, "pass", table.ann, deck, secret, to=table.bob)
    services.deck_shuffle(deck=deck, actor=table.gm, rng=rng)
    assert first not in revealed_ids(deck), "revealed while the dealt card is in Bob's hand"
    move(table, "discard", table.bob, deck, secret)
    assert first in revealed_ids(deck), "once the card is face up nothing is hidden any more"


def test_a_played_card_no_longer_holds_back_the_reveal(table, rng) -> None:
    deck = new_deck(table, rng)
    services.pile_deal(deck=deck, actor=table.gm, count=1, to=[table.ann])
    first = committed(deck)[0]["commitment"]
    services.deck_shuffle(deck=deck, actor=table.gm, rng=rng)
    assert first not in revealed_ids(deck)
    move(table, "play", table.ann, deck, hand_ids(table.ann)[0])
    services.deck_shuffle(deck=deck, actor=table.gm, rng=rng)
    assert first in revealed_ids(deck)


def test_a_revealed_order_never_gives_away_a_card_still_in_a_hand(table, rng) -> None:
    """A seal is revealed "only when revealing them shows nobody a card hidden from them"
    (ShuffleCommitment). A sealed order lists every card in the draw pile, so whatever it
    leaves out was elsewhere: revealing it while Ann still holds the one card missing from it
    tells Bob and the spectators which card Ann holds."""
    deck = new_deck(table, rng)
    services.pile_deal(deck=deck, actor=table.gm, count=1, to=[table.ann])
    [secret] = hand_ids(table.ann)
    services.deck_shuffle(deck=deck, actor=table.gm, rng=rng)  # seals the 21 cards left
    services.deck_shuffle(deck=deck, actor=table.gm, rng=rng)  # ...and reshuffles them
    every_card = {c.id for c in deck_kind("major_arcana").factory()}
    for seen in events_for(viewer_of(table.bob), table.row.pk):
        if seen.event.kind == "deck.revealed":
            missing = every_card - set(card_ids(seen.event.payload["order"]))
            assert missing != {secret}, (
                f"deck.revealed #{seen.event.seq} lists every card but {secret}, which Ann still holds"
            )


def test_a_recall_reveals_every_sealed_order_whose_hand_cards_were_all_seen(table, rng) -> None:
    deck = new_deck(table, rng, players_may_use=True)
    services.pile_deal(deck=deck, actor=table.gm, count=2, to=[table.ann, table.bob])
    services.deck_shuffle(deck=deck, actor=table.ann, rng=rng)
    services.pile_draw(deck=deck, actor=table.bob, count=1)
    services.deck_shuffle(deck=deck, actor=table.bob, rng=rng)
    assert revealed(deck) == []
    lay_down(table, deck, table.ann, table.bob)
    services.deck_recall(deck=deck, actor=table.gm, rng=rng)
    seals = list(ShuffleCommitment.objects.filter(deck=deck).order_by("pk"))
    assert revealed_ids(deck) == {s.pk for s in seals[:-1]}
    assert not seals[-1].closed and seals[-1].revealed_seq is None
    for seal in seals[:-1]:
        event = Event.objects.get(table=table.row, seq=seal.revealed_seq)
        assert event.kind == "deck.revealed" and event.payload["commitment"] == seal.pk


def test_no_reveal_names_a_card_put_back_face_down_on_top_of_the_deck(table, rng) -> None:
    """An outside scan: the GM deals two each to Ann and Bob and shuffles; Bob plays one and
    discards the other; Ann plays one and puts her last back face down on top. Revealing the
    first order then would tell everyone which card Ann held, so which card lies on top, so
    which card Bob draws next. No order is revealed while it could place a card hidden from
    the spectator: in a hand, or face down in the draw pile where a public move put it."""
    deck = new_deck(table, rng)
    every_card = {c.id for c in deck_kind("major_arcana").factory()}
    pinned: set[str] = set()  # face down in the draw pile, put there in plain sight since a shuffle
    seen = {"watcher": 0, "bob": 0}

    def hidden_now() -> set[str]:
        """Cards the spectator cannot see but could place: in a hand, or pinned in the draw pile."""
        lying = dict(CardPlacement.objects.filter(deck=deck).values_list("card_id", "pile__kind"))
        return {c for c, kind in lying.items() if kind == PileKind.HAND or (kind == PileKind.DRAW and c in pinned)}

    def check_reveals() -> None:
        hidden = hidden_now()
        for name in seen:
            member = getattr(table, name)
            for shown in events_for(viewer_of(member), table.row.pk, after=seen[name]):
                seen[name] = shown.event.seq
                if shown.event.kind != "deck.revealed":
                    continue
                named = set(card_ids(shown.event.payload["order"]))
                assert not named & pinned & hidden, (
                    f"{name} is shown an order naming {named & pinned & hidden}, face down on the deck"
                )
                assert not named & hidden, f"{name} is shown an order naming {named & hidden}, hidden now"
                missing = every_card - named
                assert not missing & hidden, f"{name} is shown an order leaving out {missing & hidden}, hidden now"

    services.pile_deal(deck=deck, actor=table.gm, count=2, to=[table.ann, table.bob])
    check_reveals()
    services.deck_shuffle(deck=deck, actor=table.gm, rng=rng)
    check_reveals()
    bob_first, bob_second = hand_ids(table.bob)
    move(table, "play", table.bob, deck, bob_first)
    check_reveals()
    move(table, "discard", table.bob, deck, bob_second)
    check_reveals()
    ann_first, ann_last = hand_ids(table.ann)
    move(table, "play", table.ann, deck, ann_first)
    check_reveals()
    move(table, "return", table.ann, deck, ann_last, where="top")
    pinned.add(ann_last)
    check_reveals()
    assert revealed(deck) == [], "every order names Ann's card, face down on top, or leaves it out"

    # The GM deals it to Bob: hidden in his hand now, and no order may tell which it is.
    services.pile_deal(deck=deck, actor=table.gm, count=1, to=[table.bob])
    pinned.discard(ann_last)
    assert hand_ids(table.bob) == [ann_last]
    check_reveals()
    assert revealed(deck) == []
    # Once he plays it nothing of the deck is hidden but the shuffled draw pile: the first
    # order may show what was dealt. The second, resealed when Ann put her card back
    # without a shuffle, still says how the draw pile lies and waits.
    move(table, "play", table.bob, deck, ann_last)
    check_reveals()
    first, *waiting = ShuffleCommitment.objects.filter(deck=deck).order_by("pk")
    assert revealed_ids(deck) == {first.pk}
    services.deck_shuffle(deck=deck, actor=table.gm, rng=rng)  # scrambles the rest of the others
    check_reveals()
    assert revealed_ids(deck) == {first.pk, *(seal.pk for seal in waiting)}


def test_an_order_that_dealt_a_card_never_played_stays_sealed_even_after_a_recall(table, rng) -> None:
    """Issue 16: "only the GM and the particular player will see their own card draws". A
    revealed order tells who was dealt which card, so an order that dealt a card face down into
    a hand stays sealed while that card was never seen face up: gathered back and shuffled, a
    hand's unplayed cards stay its holder's. Once every such card is seen, the order reveals."""
    deck = new_deck(table, rng, players_may_use=True)
    services.pile_deal(deck=deck, actor=table.gm, count=2, to=[table.ann, table.bob])
    kept = hand_ids(table.ann)[1]
    move(table, "play", table.ann, deck, hand_ids(table.ann)[0])
    lay_down(table, deck, table.bob)
    services.deck_recall(deck=deck, actor=table.gm, rng=rng)  # Ann's second card goes back unseen
    first = ShuffleCommitment.objects.filter(deck=deck).order_by("pk").first()
    assert first.closed and first.revealed_seq is None and first.unseen == [kept]
    assert revealed(deck) == []
    everything = json.dumps([e.payload for e in Event.objects.filter(table=table.row)])
    assert first.salt not in everything  # not a byte of the sealed order went out
    # the same deal, every card played: the order comes out at the recall
    services.pile_deal(deck=deck, actor=table.gm, count=1, to=[table.ann])
    lay_down(table, deck, table.ann)
    services.deck_recall(deck=deck, actor=table.gm, rng=rng)
    assert len(revealed(deck)) == 1 and ShuffleCommitment.objects.get(pk=first.pk).revealed_seq is None


def test_no_kind_of_seal_reveals_what_a_hand_held_unplayed(table, rng) -> None:
    """Issue 21: "The GM deals A two cards of an open Tarot deck; A returns one face down to the
    top; the GM recalls; B's export now holds the deck.revealed order of 'A reseals ...': A's
    returned card on top, and A's other card the one it leaves out". reveal_is_safe promises "A
    hand's cards that were never played stay its holder's secret, even after they were gathered
    back and shuffled": true now for every kind of seal (a return, a shuffle while hands hold
    cards, a reshuffle of the discards)."""
    deck = new_deck(table, rng, kind="tarot", players_may_use=True)
    services.pile_deal(deck=deck, actor=table.gm, count=2, to=[table.ann])
    returned, kept = hand_ids(table.ann)
    move(table, "return", table.ann, deck, returned, where="top")  # "Ann reseals": its order names it on top
    reseal = ShuffleCommitment.objects.filter(deck=deck).order_by("pk").last()
    assert set(reseal.unseen) == {returned, kept}  # it names one on top and leaves out the other
    services.deck_shuffle(deck=deck, actor=table.bob, rng=rng)  # a shuffle while Ann holds her other card
    assert ShuffleCommitment.objects.filter(deck=deck).order_by("pk").last().unseen == [kept]
    services.pile_draw(deck=deck, actor=table.gm, count=2, to="play")
    face_up = CardPlacement.objects.filter(deck=deck, pile__kind=PileKind.PLAY).values_list("card_id", flat=True)
    services.card_discard(table=table.row, actor=table.gm, deck_id=deck.pk, card_id=face_up[0])
    services.deck_discard_reshuffle(deck=deck, actor=table.gm, rng=rng)  # a reshuffle of the discards
    services.deck_recall(deck=deck, actor=table.gm, rng=rng)
    for order in [p["order"] for p in revealed(deck)]:
        named = card_ids(order)
        assert returned not in named[:1], "a revealed order puts Ann's returned card on top"
        assert kept in named, "a revealed order leaves out the card Ann kept and never played"
    seals = list(ShuffleCommitment.objects.filter(deck=deck).order_by("pk"))
    bob_sees = json.dumps(list(pages(viewer_of(table.bob), table.row.pk, last_seq(table.row.pk))))
    for seal in seals[1:4]:  # the reseal, the shuffle while Ann held a card, the reshuffle
        assert seal.revealed_seq is None and seal.salt not in bob_sees
    # once every card has been seen face up, nothing of a hand is left to give away
    for count in (20, 20, 20, 18):
        services.pile_draw(deck=deck, actor=table.gm, count=count, to="play")
    services.deck_recall(deck=deck, actor=table.gm, rng=rng)
    assert {s.pk for s in seals[1:4]} <= revealed_ids(deck)
