"""Playing cards and the decks the five systems use.

Every card is a frozen :class:`Card` with an ``id`` that never changes between runs or
releases, because piles, event logs and shuffle commitments store ids, not objects:

- Tarot (78): ``tarot:<suit>:<1-14>`` for the Minor Arcana (suits ``cups``, ``pentacles``,
  ``swords``, ``wands``) and ``tarot:major:<0-21>`` for the Major Arcana. The Minor and
  Major Arcana decks are the two halves of it, with the same ids.
- Harsh Light's ten-value deck (40): ``ten:<S|H|D|C>:<1-10>``.
- Standard deck (52, plus two jokers on request): ``std:<S|H|D|C>:<1-13>``, ``std:joker:<1|2>``.

A dealt card may lie reversed; :class:`OrientedCard` carries that, and its ``token`` (the
id, plus ``/r`` when reversed) is what a pile's order and its commitment are made of.
Randomness only comes in through an :class:`~games.core.rng.Rng`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import TypeVar

from games.core.rng import Rng
from games.core.tarot import MAJOR_ARCANA, TAROT_SUITS, major_arcanum

T = TypeVar("T")

REVERSED_SUFFIX = "/r"

_NUMBER_WORDS = ("Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten")
_TAROT_COURT = {11: ("Page", "P"), 12: ("Knight", "Kn"), 13: ("Queen", "Q"), 14: ("King", "K")}
_STD_COURT = {11: ("Jack", "J"), 12: ("Queen", "Q"), 13: ("King", "K")}
# (key, name, symbol, colour)
_STD_SUITS = (
    ("S", "Spades", "♠", "black"),
    ("H", "Hearts", "♥", "red"),
    ("D", "Diamonds", "♦", "red"),
    ("C", "Clubs", "♣", "black"),
)
# White pips tell Tarot suits from French ones in a text log; the pairing is the usual one
# (Cups with hearts: seed 000 lists "Heart" among the Cups' indicators).
_TAROT_SYMBOLS = {"cups": "♡", "pentacles": "♢", "swords": "♤", "wands": "♧"}
_ROMAN = (
    "0", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X",
    "XI", "XII", "XIII", "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI",
)

# SVG path data on a 24x24 grid, drawn for this project. Outlines run clockwise so the
# default nonzero fill unites overlapping parts; only the inside of the pentacle's ring runs
# the other way, to cut the ring's hole.
_CLUB = (
    "M8 6.5a4 4 0 1 1 8 0a4 4 0 1 1-8 0Z M2.5 13.5a4 4 0 1 1 8 0a4 4 0 1 1-8 0Z "
    "M13.5 13.5a4 4 0 1 1 8 0a4 4 0 1 1-8 0Z M11 9H13L14.5 22H9.5Z"
)
_GLYPHS = {
    "S": "M12 2C18.5 7.5 22 10.7 22 15A5 5 0 0 1 13 17.5L14.5 22H9.5L11 17.5A5 5 0 0 1 2 15"
    "C2 10.7 5.5 7.5 12 2Z",
    "H": "M12 21C5.5 15.5 2 12.3 2 8A5 5 0 0 1 12 6A5 5 0 0 1 22 8C22 12.3 18.5 15.5 12 21Z",
    "D": "M12 2L20 12L12 22L4 12Z",
    "C": _CLUB,
    "cups": "M5 3H19C19 9 16 12.5 13 12.8V18.5L17 20V22H7V20L11 18.5V12.8C8 12.5 5 9 5 3Z",
    "pentacles": "M2 12a10 10 0 1 1 20 0a10 10 0 1 1-20 0Z M3.5 12a8.5 8.5 0 1 0 17 0"
    "a8.5 8.5 0 1 0-17 0Z M12 3.5L17 18.88L3.92 9.37L20.08 9.37L7 18.88Z",
    "swords": "M12 1L14 4V15H18V17H13.5V21.5H10.5V17H6V15H10V4Z",
    "wands": "M10.5 2H13.5V22H10.5Z M13.5 6L18 4L16.5 8.5L13.5 9Z M10.5 13V16L7.5 15.5L6 11Z",
    # A five-pointed star points up, so a reversed trump is seen to be reversed.
    "major": "M12 2.5L17.88 20.59L2.49 9.41L21.51 9.41L6.12 20.59Z",
    "joker": "M3 20L4.5 8L9 13.5L12 4L15 13.5L19.5 8L21 20Z",
}


@dataclass(frozen=True, slots=True)
class Card:
    """One card. ``suit`` is ``None`` for the Major Arcana and jokers; ``arcana`` is
    ``"major"``/``"minor"`` for Tarot cards and ``None`` otherwise."""

    id: str
    name: str
    value: int
    deck: str
    suit: str | None
    arcana: str | None
    rank_label: str
    symbol: str
    colour: str

    @property
    def is_face(self) -> bool:
        """Pages, Knights, Queens, Kings (Tarot) and Jacks, Queens, Kings (standard)."""
        return self.suit is not None and self.value >= 11

    @property
    def reversible(self) -> bool:
        """Whether lying reversed means anything: only the Major Arcana have reversed
        meanings in the rules we run (seed 000: "the standard or inverted ... meaning")."""
        return self.arcana == "major"

    @property
    def is_major(self) -> bool:
        return self.arcana == "major"

    @property
    def slug(self) -> str:
        """The id as an HTML id may hold it: ``tarot-major-0``."""
        return self.id.replace(":", "-")

    @property
    def upright_meaning(self) -> str:
        """A Major Arcana card's upright meaning (seed 000's words); empty for other cards."""
        return major_arcanum(self.value).meaning(False) if self.arcana == "major" else ""

    @property
    def reversed_meaning(self) -> str:
        return major_arcanum(self.value).meaning(True) if self.arcana == "major" else ""

    @property
    def glyph(self) -> str:
        """SVG path data (24x24) of the suit, or of the Major Arcana / joker emblem."""
        if self.arcana == "major":
            return _GLYPHS["major"]
        return _GLYPHS[self.suit or "joker"]


@dataclass(frozen=True, slots=True)
class OrientedCard:
    """A card as it lies in a pile. ``reversed`` is only ever true for reversible cards."""

    card: Card
    reversed: bool = False

    @property
    def token(self) -> str:
        """The card's entry in a pile's order: its id, plus ``/r`` when reversed."""
        return self.card.id + (REVERSED_SUFFIX if self.reversed else "")

    @classmethod
    def from_token(cls, token: str) -> OrientedCard:
        """Inverse of :attr:`token`; ``KeyError`` for an unknown card id."""
        if token.endswith(REVERSED_SUFFIX):
            return cls(card_by_id(token[: -len(REVERSED_SUFFIX)]), reversed=True)
        return cls(card_by_id(token))


def _rank(value: int, court: Mapping[int, tuple[str, str]]) -> tuple[str, str]:
    """(word, short label) for a pip or court value."""
    if value in court:
        return court[value]
    return _NUMBER_WORDS[value - 1], "A" if value == 1 else str(value)


@cache
def _tarot_minor() -> tuple[Card, ...]:
    cards = []
    for suit in TAROT_SUITS:
        for value in range(1, 15):
            word, label = _rank(value, _TAROT_COURT)
            cards.append(
                Card(
                    id=f"tarot:{suit.key}:{value}",
                    name=f"{word} of {suit.name}",
                    value=value,
                    deck="tarot",
                    suit=suit.key,
                    arcana="minor",
                    rank_label=label,
                    symbol=_TAROT_SYMBOLS[suit.key],
                    colour=suit.colour.lower(),
                )
            )
    return tuple(cards)


@cache
def _tarot_major() -> tuple[Card, ...]:
    return tuple(
        Card(
            id=f"tarot:major:{trump.number}",
            name=trump.name,
            value=trump.number,
            deck="tarot",
            suit=None,
            arcana="major",
            rank_label=_ROMAN[trump.number],
            symbol="★",
            colour="gold",
        )
        for trump in MAJOR_ARCANA
    )


@cache
def _french(deck: str, top: int) -> tuple[Card, ...]:
    """Ace..``top`` in the four French suits, ids ``<deck>:<suit>:<value>``."""
    cards = []
    for key, suit_name, symbol, colour in _STD_SUITS:
        for value in range(1, top + 1):
            word, label = _rank(value, _STD_COURT)
            cards.append(
                Card(
                    id=f"{deck}:{key}:{value}",
                    name=f"{word} of {suit_name}",
                    value=value,
                    deck=deck,
                    suit=key,
                    arcana=None,
                    rank_label=label,
                    symbol=symbol,
                    colour=colour,
                )
            )
    return tuple(cards)


_JOKERS = (
    Card("std:joker:1", "Black Joker", 0, "std", None, None, "JK", "🃏", "black"),
    Card("std:joker:2", "Red Joker", 0, "std", None, None, "JK", "🃏", "red"),
)


def minor_arcana() -> list[Card]:
    """The 56 Minor Arcana: Ace (1) to 10, Page 11, Knight 12, Queen 13, King 14, per suit."""
    return list(_tarot_minor())


def major_arcana() -> list[Card]:
    """The 22 Major Arcana, 0 The Fool to 21 The World."""
    return list(_tarot_major())


def tarot() -> list[Card]:
    """The full 78-card Tarot: the Minor Arcana, then the Major Arcana."""
    return minor_arcana() + major_arcana()


def ten_value_deck() -> list[Card]:
    """Harsh Light's deck: Ace (1) to 10 in the four French suits, 40 cards.

    Seed 002 only asks for "a single card value from 1-10"; a standard deck without its
    court cards is the deck a table has to hand, so the suits are the French ones.
    """
    return list(_french("ten", 10))


def standard_deck(jokers: bool = False) -> list[Card]:
    """The 52-card deck (Ace 1 ... King 13), with two jokers (value 0) when asked."""
    return list(_french("std", 13)) + (list(_JOKERS) if jokers else [])


@cache
def _index() -> Mapping[str, Card]:
    every = tarot() + ten_value_deck() + standard_deck(jokers=True)
    return MappingProxyType({card.id: card for card in every})


def card_by_id(card_id: str) -> Card:
    """The card with this id, from any deck; ``KeyError`` if there is none."""
    try:
        return _index()[card_id]
    except KeyError:
        raise KeyError(f"no card with id {card_id!r}") from None


def major_meaning(card: Card, reversed: bool = False) -> str:
    """Seed 000's meaning of a Major Arcana card; ``ValueError`` for any other card."""
    if card.arcana != "major":
        raise ValueError(f"{card.name} is not a Major Arcana card")
    return major_arcanum(card.value).meaning(reversed)


def shuffled(items: Iterable[T], rng: Rng) -> list[T]:
    """A new list of ``items`` in random order (Fisher-Yates, by ``rng.shuffle``)."""
    order = list(items)
    rng.shuffle(order)
    return order


def orient(cards: Iterable[Card], rng: Rng) -> list[OrientedCard]:
    """Lay ``cards`` out in the given order, each reversible card reversed with
    probability 1/2 (one ``rng.randrange(2)`` per reversible card, in order)."""
    return [OrientedCard(card, card.reversible and rng.randrange(2) == 1) for card in cards]


def upright(cards: Iterable[Card]) -> list[OrientedCard]:
    """Lay ``cards`` out in the given order, all upright."""
    return [OrientedCard(card) for card in cards]


@dataclass(frozen=True, slots=True)
class DeckKind:
    """A deck a GM can create: ``reversible`` says whether its cards may lie reversed."""

    key: str
    label: str
    factory: Callable[[], list[Card]]
    reversible: bool


DECK_KINDS: Mapping[str, DeckKind] = MappingProxyType(
    {
        kind.key: kind
        for kind in (
            DeckKind("tarot", "Tarot (78 cards)", tarot, True),
            DeckKind("minor_arcana", "Minor Arcana (56 cards)", minor_arcana, False),
            DeckKind("major_arcana", "Major Arcana (22 cards)", major_arcana, True),
            DeckKind("ten_value", "Ace to 10 (40 cards)", ten_value_deck, False),
            DeckKind("standard", "Standard (52 cards)", standard_deck, False),
            DeckKind(
                "standard_jokers",
                "Standard with jokers (54 cards)",
                lambda: standard_deck(jokers=True),
                False,
            ),
        )
    }
)


def deck_kind(key: str) -> DeckKind:
    """The deck kind registered under ``key``; ``KeyError`` if there is none."""
    try:
        return DECK_KINDS[key]
    except KeyError:
        raise KeyError(f"no deck kind {key!r}") from None


def deck_kind_choices() -> list[tuple[str, str]]:
    """``(key, label)`` pairs in registry order, ready for a form's ``choices``."""
    return [(kind.key, kind.label) for kind in DECK_KINDS.values()]
