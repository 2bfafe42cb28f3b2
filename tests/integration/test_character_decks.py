"""A system may give each character a deck of its own (games/contract.py, DeckSpec; Report
Card: "each player has their own full Tarot deck"): made with the character, shuffled under a
seal, owned by its player; a character claimed later hands its deck to the claimer."""

from __future__ import annotations

import dataclasses

import pytest
from django.contrib.auth import get_user_model

from games import registry
from games.contract import DeckSpec
from tabletop import services
from tabletop.models import CardPlacement, Deck, Role, ShuffleCommitment
from tests.support import high_card

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(monkeypatch):
    own_deck = dataclasses.replace(
        high_card.SYSTEM, character_decks=lambda c: (DeckSpec(f"Deck of {c.cid}", "tarot"),))
    monkeypatch.setitem(registry.SYSTEMS, "high_card", registry.check_registration(own_deck))
    gm_user = get_user_model().objects.create_user("deck-gm", password="a long gm password 1")
    return services.table_create(gm=gm_user, name="Own decks", system="high_card")


def test_a_new_character_gets_its_own_sealed_deck_owned_by_its_player(table) -> None:
    ann = services.membership_join(table=table, user=services.guest_user_create(), role=Role.PLAYER,
                                   display_name="Ann")
    hero = services.character_create(table=table, actor=ann, name="Hero", sheet={})
    deck = Deck.objects.get(table=table, name=f"Deck of c{hero.pk}")
    assert deck.kind == "tarot" and deck.owner_id == ann.pk
    assert CardPlacement.objects.filter(deck=deck).count() == 78
    assert ShuffleCommitment.objects.filter(deck=deck).count() == 1


def test_a_character_made_for_players_hands_its_deck_to_whoever_claims_it(table) -> None:
    gm = table.members.get(role=Role.GM)
    bob = services.membership_join(table=table, user=services.guest_user_create(), role=Role.PLAYER,
                                   display_name="Bob")
    spare = services.character_create(table=table, actor=gm, name="Spare", sheet={}, for_players=True)
    deck = Deck.objects.get(table=table, name=f"Deck of c{spare.pk}")
    assert deck.owner_id is None
    services.character_claim(character=spare, actor=bob)
    assert Deck.objects.get(pk=deck.pk).owner_id == bob.pk


def test_two_decks_of_one_name_are_refused_so_a_rule_finds_its_own(table) -> None:
    gm = table.members.get(role=Role.GM)
    import random

    services.deck_create(table=table, actor=gm, kind="tarot", rng=random.Random(1), name="Fate")
    with pytest.raises(services.ServiceError, match="already a deck called Fate"):
        services.deck_create(table=table, actor=gm, kind="tarot", rng=random.Random(1), name="Fate")
    assert Deck.objects.filter(table=table, name="Fate").count() == 1
