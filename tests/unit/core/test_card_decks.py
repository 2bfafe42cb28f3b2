"""The decks: sizes, stable ids, values, the Tarot split, lookups and the deck registry."""

from __future__ import annotations

import dataclasses
import random
import re
from collections import Counter

import pytest

from games.core import cards
from games.core.cards import Card, OrientedCard

FACTORIES = {
    "tarot": (cards.tarot, 78),
    "minor_arcana": (cards.minor_arcana, 56),
    "major_arcana": (cards.major_arcana, 22),
    "ten_value": (cards.ten_value_deck, 40),
    "standard": (cards.standard_deck, 52),
    "standard_jokers": (lambda: cards.standard_deck(jokers=True), 54),
}


@pytest.mark.parametrize("key", FACTORIES)
def test_each_deck_has_its_size_and_unique_ids(key: str) -> None:
    factory, size = FACTORIES[key]
    deck = factory()
    assert len(deck) == size
    assert len({card.id for card in deck}) == size


def test_ids_are_unique_across_every_deck_kind() -> None:
    every = cards.tarot() + cards.ten_value_deck() + cards.standard_deck(jokers=True)
    assert len({card.id for card in every}) == 78 + 40 + 54


def test_minor_and_major_arcana_together_are_the_tarot() -> None:
    """Seed 000: "the Tarot deck needs to be split into the two separate Minor Arcana and
    Major Arcana decks"."""
    assert cards.minor_arcana() + cards.major_arcana() == cards.tarot()
    assert {c.arcana for c in cards.minor_arcana()} == {"minor"}
    assert {c.arcana for c in cards.major_arcana()} == {"major"}


@pytest.mark.parametrize("key", FACTORIES)
def test_ids_are_stable_across_calls_and_each_call_is_a_fresh_list(key: str) -> None:
    factory, _ = FACTORIES[key]
    first = factory()
    first.clear()
    assert [c.id for c in factory()] == [c.id for c in factory()]
    assert factory(), "clearing one returned list must not empty the deck"


@pytest.mark.parametrize(
    ("card_id", "name", "value"),
    [
        ("tarot:cups:1", "Ace of Cups", 1),
        ("tarot:cups:11", "Page of Cups", 11),
        ("tarot:pentacles:12", "Knight of Pentacles", 12),
        ("tarot:swords:13", "Queen of Swords", 13),
        ("tarot:wands:14", "King of Wands", 14),
        ("tarot:major:0", "The Fool", 0),
        ("tarot:major:10", "Wheel of Fortune", 10),
        ("tarot:major:16", "The Tower", 16),
        ("tarot:major:21", "The World", 21),
        ("ten:S:1", "Ace of Spades", 1),
        ("ten:D:10", "Ten of Diamonds", 10),
        ("std:S:12", "Queen of Spades", 12),
        ("std:H:11", "Jack of Hearts", 11),
        ("std:C:13", "King of Clubs", 13),
        ("std:joker:1", "Black Joker", 0),
        ("std:joker:2", "Red Joker", 0),
    ],
)
def test_pinned_ids_keep_their_name_and_value(card_id: str, name: str, value: int) -> None:
    """Ids are stored in piles, logs and commitments, so these must never change."""
    card = cards.card_by_id(card_id)
    assert (card.id, card.name, card.value) == (card_id, name, value)


def test_tarot_face_cards_are_valued_11_to_14() -> None:
    """Seed 000: "the “face” cards are valued at 11 for a Page, 12 for a Knight, 13 for a
    Queen and 14 for a King"."""
    for suit in ("cups", "pentacles", "swords", "wands"):
        in_suit = [c for c in cards.minor_arcana() if c.suit == suit]
        assert [c.value for c in in_suit] == list(range(1, 15))
        court = {c.name.split(" of ")[0]: c.value for c in in_suit if c.is_face}
        assert court == {"Page": 11, "Knight": 12, "Queen": 13, "King": 14}


def test_minor_arcana_suits_and_their_other_names() -> None:
    """Seed 000 names the suits "Cups/Chalice", "Coins/Pentacles", "Swords", "Staves/Wands"."""
    assert Counter(c.suit for c in cards.minor_arcana()) == {
        "cups": 14, "pentacles": 14, "swords": 14, "wands": 14,
    }


def test_major_arcana_run_from_the_fool_0_to_the_world_21() -> None:
    """Seed 004: "If they draw a Magician (2), that's a closer success than if they had drawn
    a Judgement (20)". We number the Magician 1, as seed 000's list order and every Tarot do;
    the "(2)" is taken as a slip, and Judgement 20 agrees with this numbering."""
    majors = cards.major_arcana()
    assert [c.value for c in majors] == list(range(22))
    assert majors[1].name == "The Magician" and majors[1].value == 1
    assert majors[20].name == "Judgement" and majors[20].value == 20
    assert all(c.suit is None and not c.is_face for c in majors)


def test_report_card_special_cards_are_in_the_tarot() -> None:
    """Seed 004: "A Fool is always a Critical Success", "The World", "The Sun", "A Tower is
    always a Critical Failure", "The Devil", "Death", "The Wheel of Fortune"."""
    names = {c.name for c in cards.tarot()}
    for name in ("The Fool", "The World", "The Sun", "The Tower", "The Devil", "Death",
                 "Wheel of Fortune"):
        assert name in names


def test_ten_value_deck_holds_values_1_to_10_four_times() -> None:
    """Seed 002: "you pull a single card value from 1-10 and add your pool to that number"."""
    assert Counter(c.value for c in cards.ten_value_deck()) == {v: 4 for v in range(1, 11)}
    assert not any(c.is_face for c in cards.ten_value_deck())


def test_standard_deck_values_and_jokers() -> None:
    deck = cards.standard_deck()
    assert Counter(c.value for c in deck) == {v: 4 for v in range(1, 14)}
    assert Counter(c.suit for c in deck) == {"S": 13, "H": 13, "D": 13, "C": 13}
    jokers = cards.standard_deck(jokers=True)[52:]
    assert [(c.id, c.value, c.suit) for c in jokers] == [
        ("std:joker:1", 0, None), ("std:joker:2", 0, None),
    ]
    assert sum(c.is_face for c in deck) == 12


def test_card_by_id_finds_every_card_and_rejects_unknown_ids() -> None:
    for factory, _ in FACTORIES.values():
        for card in factory():
            assert cards.card_by_id(card.id) == card
    with pytest.raises(KeyError):
        cards.card_by_id("tarot:cups:15")


def test_cards_are_frozen() -> None:
    card = cards.card_by_id("std:S:1")
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.value = 14  # type: ignore[misc]


def test_every_card_has_a_face_symbol_label_and_svg_glyph() -> None:
    path_data = re.compile(r"[MLHVCAZmlhvcaz0-9 .,-]+")
    for factory, _ in FACTORIES.values():
        for card in factory():
            assert card.symbol and card.rank_label and card.colour
            assert path_data.fullmatch(card.glyph), card.id


def test_only_major_arcana_are_reversible() -> None:
    """Seed 000 gives reversed meanings for the Major Arcana only ("the standard or inverted
    (players choice) meaning of the Major Arcana")."""
    reversible = {c.id for c in cards.tarot() + cards.standard_deck(jokers=True) if c.reversible}
    assert reversible == {c.id for c in cards.major_arcana()}


def test_major_meaning_reads_seed_000_and_refuses_other_cards() -> None:
    fool = cards.card_by_id("tarot:major:0")
    assert cards.major_meaning(fool) == "Beginnings, innocence, spontaneity, a free spirit"
    assert cards.major_meaning(fool, reversed=True).startswith("Naivety")
    with pytest.raises(ValueError):
        cards.major_meaning(cards.card_by_id("tarot:cups:13"))


def test_oriented_card_tokens_round_trip() -> None:
    tower = cards.card_by_id("tarot:major:16")
    assert OrientedCard(tower, reversed=True).token == "tarot:major:16/r"
    assert OrientedCard(tower).token == "tarot:major:16"
    for oriented in (OrientedCard(tower, True), OrientedCard(tower), OrientedCard(cards.tarot()[0])):
        assert OrientedCard.from_token(oriented.token) == oriented
    with pytest.raises(KeyError):
        OrientedCard.from_token("nope/r")


def test_orient_reverses_only_reversible_cards_and_about_half_of_them() -> None:
    deck = cards.tarot() * 20
    laid = cards.orient(deck, random.Random(3))
    assert [o.card for o in laid] == deck
    assert not any(o.reversed for o in laid if not o.card.reversible)
    reversed_share = sum(o.reversed for o in laid) / (22 * 20)
    assert 0.4 < reversed_share < 0.6
    assert not any(o.reversed for o in cards.upright(deck))


def test_registry_offers_every_deck_kind_with_its_factory_and_orientation() -> None:
    assert [key for key, _ in cards.deck_kind_choices()] == list(FACTORIES)
    for key, (factory, size) in FACTORIES.items():
        kind = cards.deck_kind(key)
        assert kind.key == key and kind.label
        assert [c.id for c in kind.factory()] == [c.id for c in factory()]
        assert len(kind.factory()) == size
        assert kind.reversible == any(c.reversible for c in factory())
    with pytest.raises(KeyError):
        cards.deck_kind("uno")


def test_card_is_a_plain_dataclass() -> None:
    assert {f.name for f in dataclasses.fields(Card)} >= {"id", "name", "value", "suit", "arcana"}
