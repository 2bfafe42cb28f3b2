"""The cards port at the table (issue 12): a rule's cards are real cards.

The project's rule, "Rules that use cards": "a rule's card leaves the draw pile (counts drop live for
everyone), lands where the rule says (play area face up, discard, a hand), is conserved like
every card, and is covered by the deck's shuffle commitment [...] An empty draw pile
reshuffles the discard under a fresh commitment, logged."
"""

from __future__ import annotations

import pytest
from django.db import transaction

from games.core.cards_port import Cards, OutOfCards, UnknownDeck
from games.core.commitment import digest_of
from tabletop import services
from tabletop.models import CardPlacement, Event, PileKind, ShuffleCommitment
from tabletop.selectors import events_for, viewer_of
from tabletop.services.base import lock_table
from tabletop.services.table_cards import TableCards

pytestmark = pytest.mark.django_db


@pytest.fixture
def fate(table, rng):
    return services.deck_create(table=table.row, actor=table.gm, kind="ten_value", rng=rng, name="Fate")


def draw(table, rng, *args, **kwargs):
    with transaction.atomic():
        port = TableCards(lock_table(table.row.pk), table.gm, rng, why="For a test rule")
        assert isinstance(port, Cards)
        return port.draw(*args, **kwargs)


def where(deck) -> dict[str, str]:
    return dict(CardPlacement.objects.filter(deck=deck).values_list("card_id", "pile__kind"))


def drawn_events(table) -> list[Event]:
    return list(Event.objects.filter(table=table.row, kind="cards.drawn").order_by("seq"))


def test_a_rules_card_leaves_the_draw_pile_and_lands_face_up(table, rng, fate) -> None:
    [card] = draw(table, rng, "Fate", 1, to="play")
    assert where(fate)[card.card.id] == PileKind.PLAY
    assert len(where(fate)) == 40  # conserved
    [event] = drawn_events(table)
    assert event.payload["counts"]["decks"][str(fate.pk)]["draw"] == 39  # everyone's count drops
    assert event.payload["cards"] == [card.token] and event.payload["rule"] is True
    seal = ShuffleCommitment.objects.get(pk=event.payload["commitment"])
    assert seal.order[event.payload["start"]] == card.token  # Verify: it came off the sealed top


def test_a_card_drawn_to_the_discard_or_a_hand_lands_there(table, rng, fate) -> None:
    [discarded] = draw(table, rng, "Fate", 1, to="discard")
    held = draw(table, rng, "Fate", 2, to="hand", holder=table.ann.pk)
    assert where(fate)[discarded.card.id] == PileKind.DISCARD
    assert {where(fate)[c.card.id] for c in held} == {PileKind.HAND}
    hand_event = drawn_events(table)[-1]
    bob_sees = [s for s in events_for(viewer_of(table.bob), table.row.pk) if s.event.pk == hand_event.pk]
    assert bob_sees and "cards" not in bob_sees[0].event.payload and bob_sees[0].private is None
    ann_sees = [s for s in events_for(viewer_of(table.ann), table.row.pk) if s.event.pk == hand_event.pk]
    assert ann_sees[0].private["cards"] == [c.token for c in held]
    with pytest.raises(ValueError):
        draw(table, rng, "Fate", 1, to="hand", holder=table.watcher.pk)


def test_an_empty_draw_pile_reshuffles_the_discard_under_a_new_seal_and_the_draw_goes_on(table, rng, fate) -> None:
    draw(table, rng, "Fate", 20, to="discard")
    draw(table, rng, "Fate", 18, to="play")
    seals_before = ShuffleCommitment.objects.filter(deck=fate).count()
    cards = draw(table, rng, "Fate", 5, to="play")  # 2 left in the pile, 20 in the discard
    assert len(cards) == 5
    assert ShuffleCommitment.objects.filter(deck=fate).count() == seals_before + 1
    reshuffle = Event.objects.filter(kind="deck.committed").order_by("-seq").first()
    assert "ran out" in reshuffle.summary and reshuffle.payload["count"] == 20
    first, second = drawn_events(table)[-2:]
    assert first.payload["count"] == 2 and second.payload["count"] == 3
    for event in (first, second):  # each part verifies against its own seal
        seal = ShuffleCommitment.objects.get(pk=event.payload["commitment"])
        start = event.payload["start"]
        assert seal.order[start:start + event.payload["count"]] == event.payload["cards"]
        assert digest_of(seal.order, seal.salt) == seal.digest
    assert [c.token for c in cards] == first.payload["cards"] + second.payload["cards"]
    kinds = where(fate)
    assert len(kinds) == 40
    assert sum(k == PileKind.PLAY for k in kinds.values()) == 23


def test_asking_for_more_than_the_deck_holds_or_a_deck_that_is_not_there_changes_nothing(table, rng, fate) -> None:
    before = (Event.objects.count(), where(fate))
    with pytest.raises(OutOfCards):
        draw(table, rng, "Fate", 41)
    with pytest.raises(UnknownDeck):
        draw(table, rng, "Doom", 1)
    assert (Event.objects.count(), where(fate)) == before


def test_left_lists_the_draw_and_discard_piles_never_their_order(table, rng, fate) -> None:
    draw(table, rng, "Fate", 3, to="play")
    draw(table, rng, "Fate", 2, to="discard")
    with transaction.atomic():
        left = TableCards(lock_table(table.row.pk), table.gm, rng).left("Fate")
    assert len(left) == 37 and all("/" not in c for c in left)
    in_play = {c for c, k in where(fate).items() if k == PileKind.PLAY}
    assert not in_play & set(left)


def port_call(table, rng, method, *args, **kwargs):
    with transaction.atomic():
        port = TableCards(lock_table(table.row.pk), table.gm, rng, why="For a test rule")
        return getattr(port, method)(*args, **kwargs)


def test_a_rule_plays_a_card_from_its_holder_s_hand_face_up(table, rng, fate) -> None:
    """A hidden hand's card, played by a rule (Shadows of Humanity's attack card), is a real
    move: out of the hand, face up, public, conserved."""
    held = draw(table, rng, "Fate", 2, to="hand", holder=table.ann.pk)
    played = port_call(table, rng, "play", "Fate", held[0].card.id, holder=table.ann.pk)
    assert played.token == held[0].token
    assert where(fate)[held[0].card.id] == PileKind.PLAY and where(fate)[held[1].card.id] == PileKind.HAND
    assert len(where(fate)) == 40
    event = Event.objects.filter(table=table.row, kind="card.played").get()
    assert event.payload["cards"] == [held[0].token] and event.owner_id == table.ann.pk
    assert event.private["hand"] and len(event.private["hand"]) == 1  # Ann's page redraws her hand
    port_call(table, rng, "play", "Fate", held[1].card.id, holder=table.ann.pk, to="discard")
    assert where(fate)[held[1].card.id] == PileKind.DISCARD


def test_a_rule_cannot_play_a_card_its_holder_does_not_hold(table, rng, fate) -> None:
    held = draw(table, rng, "Fate", 1, to="hand", holder=table.ann.pk)
    before = where(fate)
    with pytest.raises(LookupError):
        port_call(table, rng, "play", "Fate", held[0].card.id, holder=table.bob.pk)
    with pytest.raises(LookupError):
        port_call(table, rng, "play", "Fate", "ten:S:99", holder=table.ann.pk)
    assert where(fate) == before


def test_a_rule_gathers_the_deck_under_a_new_seal_and_the_hands_are_redrawn(table, rng, fate) -> None:
    draw(table, rng, "Fate", 3, to="hand", holder=table.ann.pk)
    draw(table, rng, "Fate", 2, to="discard")
    seals = ShuffleCommitment.objects.filter(deck=fate).count()
    port_call(table, rng, "gather", "Fate")
    assert set(where(fate).values()) == {PileKind.DRAW} and len(where(fate)) == 40
    assert ShuffleCommitment.objects.filter(deck=fate).count() == seals + 1
    ann = Event.objects.filter(table=table.row, kind="deck.recalled", owner=table.ann).get()
    assert ann.private["hand"] == [] and "For a test rule" in Event.objects.filter(
        table=table.row, kind="deck.recalled").order_by("seq").first().summary


def test_left_without_the_discard_is_what_the_next_card_comes_from(table, rng, fate) -> None:
    draw(table, rng, "Fate", 5, to="discard")
    assert len(port_call(table, rng, "left", "Fate")) == 40
    assert len(port_call(table, rng, "left", "Fate", with_discard=False)) == 35
