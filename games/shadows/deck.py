"""The two decks Shadows of Humanity splits the Tarot into, and what a card is worth.

Seed 000: "the Tarot deck needs to be split into the two separate Minor Arcana and Major
Arcana decks. The Minor Arcana deck will be used for most randomization". Face cards are
"valued at 11 for a Page, 12 for a Knight, 13 for a Queen and 14 for a King".

Cards are handled as tokens (``tarot:<suit>:<1-14>``, ``tarot:major:<0-21>``, a Major
Arcana token ending ``/r`` when it lies reversed), the form events and the state keep.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.core.cards import Card, OrientedCard, major_meaning, minor_arcana
from games.core.tarot import tarot_suit

# The decks' names at the table: the GM brings out a "Minor Arcana" deck and a "Major
# Arcana" deck (deck kinds minor_arcana and major_arcana) under exactly these names.
MINOR = "Minor Arcana"
MAJOR = "Major Arcana"
# A second Minor Arcana the GM brings out for a fight whose hands would leave fewer than ten
# cards of one deck to draw (the decided reading; decks.py).
MINOR_2 = "Second Minor Arcana"
# and more for a fight too big for two (six hands of 30 at the sheet's maximum: each hand comes
# whole from one deck, so each of those takes a deck): offered one at a time, as the second is
EXTRA_MINORS = (MINOR_2, "Third Minor Arcana", "Fourth Minor Arcana", "Fifth Minor Arcana",
                "Sixth Minor Arcana", "Seventh Minor Arcana")
MINORS = (MINOR, *EXTRA_MINORS)

ACE, PAGE, KNIGHT, QUEEN, KING = 1, 11, 12, 13, 14
SUITS = ("cups", "pentacles", "swords", "wands")


def card(token: str) -> Card:
    """The card a token names (its orientation dropped); ``KeyError`` for an unknown one."""
    return OrientedCard.from_token(token).card


def value(token: str) -> int:
    return card(token).value


def suit(token: str) -> str | None:
    return card(token).suit


def is_face(token: str) -> bool:
    """A Page, Knight, Queen or King."""
    return card(token).is_face


def is_minor(token: str) -> bool:
    try:
        return card(token).arcana == "minor" and not token.endswith("/r")
    except KeyError:
        return False


def is_major(token: str) -> bool:
    try:
        return card(token).arcana == "major"
    except KeyError:
        return False


def name(token: str) -> str:
    """The card's name as a log line says it: "Queen of Cups", "The Star (reversed)"."""
    oriented = OrientedCard.from_token(token)
    return oriented.card.name + (" (reversed)" if oriented.reversed else "")


def names(tokens: Iterable[str]) -> str:
    listed = [name(t) for t in tokens]
    if len(listed) <= 1:
        return "".join(listed)
    return ", ".join(listed[:-1]) + " and " + listed[-1]


def middle(values: Sequence[int]) -> int:
    """Seed: "If three cards are drawn, then the middle value of the three cards is used"."""
    if len(values) != 3:
        raise ValueError("the middle value is of three cards")
    return sorted(values)[1]


def meaning(token: str, reversed: bool | None = None) -> str:
    """A Major Arcana card's meaning; ``reversed`` None reads the way the card lies.

    The Tower's are the traditional meanings (seed README: the seed's text copies the
    Devil's), as ``games.core.tarot`` already decided."""
    oriented = OrientedCard.from_token(token)
    flip = oriented.reversed if reversed is None else reversed
    return major_meaning(oriented.card, flip)


def suit_influences(suit_key: str) -> str:
    """Seed, "Minor Arcana Suit Indicators and Influences", for showing beside a card."""
    s = tarot_suit(suit_key)
    return f"{s.name}/{s.other_name}: {', '.join(s.indicators)} -- {', '.join(s.governs)}, {s.wounds}"


def minor_tokens() -> list[str]:
    """The 56 Minor Arcana tokens, in the deck's order."""
    return [c.id for c in minor_arcana()]


def bare(token: str) -> str:
    """The card id without its orientation."""
    return token.split("/")[0]
