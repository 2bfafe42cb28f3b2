"""A system may give each character a deck of its own (games/contract.py, DeckSpec; Report
Card: "each player has their own full Tarot deck"): made with the character, shuffled under a
seal, owned by its player; a character claimed later hands its deck to the claimer."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games import registry
from games.contract import DeckSpec
from tabletop import services
from tabletop.models import CardPlacement, Deck, Event, Role, ShuffleCommitment
from tests.support import high_card

pytestmark = pytest.mark.django_db


def _table_giving(monkeypatch, decks) -> Any:
    """A High Card table whose system gives each character the decks ``decks(character)``."""
    own_deck = dataclasses.replace(high_card.SYSTEM, character_decks=decks)
    monkeypatch.setitem(registry.SYSTEMS, "high_card", registry.check_registration(own_deck))
    gm_user = get_user_model().objects.create_user("deck-gm", password="a long gm password 1")
    return services.table_create(gm=gm_user, name="Own decks", system="high_card")


@pytest.fixture
def table(monkeypatch):
    return _table_giving(monkeypatch, lambda c: (DeckSpec(f"Deck of {c.cid}", "tarot"),))


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


def _player(table, name: str) -> Any:
    return services.membership_join(table=table, user=services.guest_user_create(), role=Role.PLAYER,
                                    display_name=name)


@pytest.fixture
def named_table(monkeypatch):
    """Character decks named after the character, as Report Card's are."""
    return _table_giving(monkeypatch, lambda c: (DeckSpec(f"{c.name}'s deck", "tarot"),))


def test_a_renamed_character_s_deck_follows_its_name_so_its_rules_still_find_it(named_table) -> None:
    ann = _player(named_table, "Ann")
    hero = services.character_create(table=named_table, actor=ann, name="Hero", sheet={})
    deck = Deck.objects.get(table=named_table, name="Hero's deck")
    services.character_update(character=hero, actor=ann, name="Heroine", sheet={})
    deck.refresh_from_db()
    assert deck.name == "Heroine's deck" and CardPlacement.objects.filter(deck=deck).count() == 78
    renamed = Event.objects.filter(table=named_table, kind="deck.configured").latest("seq")
    assert renamed.summary == "Hero's deck is now called Heroine's deck."
    assert renamed.payload["deck_info"]["name"] == "Heroine's deck"


def test_a_rename_onto_another_deck_s_name_is_refused_and_changes_nothing(named_table) -> None:
    ann = _player(named_table, "Ann")
    gm = named_table.members.get(role=Role.GM)
    import random

    services.deck_create(table=named_table, actor=gm, kind="tarot", rng=random.Random(1), name="Fate's deck")
    other = services.character_create(table=named_table, actor=ann, name="Other", sheet={})
    with pytest.raises(services.ServiceError, match="already a deck called Fate's deck"):
        services.character_update(character=other, actor=ann, name="Fate", sheet={})
    other.refresh_from_db()
    assert other.name == "Other" and Deck.objects.filter(table=named_table, name="Other's deck").count() == 1


def test_two_characters_of_one_name_are_refused_so_each_has_its_own_deck(named_table) -> None:
    """Two characters called alike could not be told apart in the log, the turn banner or a
    "who" list, and a deck named after one would be the other's: the second name is refused
    (in any case), whether made or renamed, and nothing changes."""
    ann, bob = _player(named_table, "Ann"), _player(named_table, "Bob")
    services.character_create(table=named_table, actor=ann, name="Hero", sheet={})
    before = Event.objects.filter(table=named_table).count()
    with pytest.raises(services.ServiceError, match="already a character called hero at this table"):
        services.character_create(table=named_table, actor=bob, name="hero", sheet={})
    assert Event.objects.filter(table=named_table).count() == before
    assert named_table.characters.count() == 1 and Deck.objects.filter(table=named_table).count() == 1
    other = services.character_create(table=named_table, actor=bob, name="Other", sheet={})
    with pytest.raises(services.ServiceError, match="already a character called HERO"):
        services.character_update(character=other, actor=bob, name="HERO", sheet={})
    other.refresh_from_db()
    assert other.name == "Other"
    # a character keeps its own name through an edit, and may change its case
    services.character_update(character=other, actor=bob, name="OTHER", sheet={})
    assert Deck.objects.filter(table=named_table, name="OTHER's deck").count() == 1
