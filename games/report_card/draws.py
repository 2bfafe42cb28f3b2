"""One attempt at a check: the cards it takes, in the order it takes them, and their judgement.

The cards come through ``take(n)`` (the top ``n`` tokens of the character's deck), so the
engine draws through the cards port and the tests can feed any order they like. The order is
fixed: one card, or two for a Bonus or a Penalty; then, for each Wheel of Fortune among them
(there is only one in a deck), its second card. Seed: "When a Wheel of Fortune is drawn ...
Draw a second card"; issue 14: "A Wheel among them draws its own second card at once".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.core.cards_port import Cards
from games.report_card.rules import card_class, judge, preferred

Take = Callable[[int], list[str]]

# Each player character draws from its own deck (seed: "having the player draw the top card
# from their decks"), made with the character and named after it, "Marieta's Tarot"
# (``deck_title``), which is how everyone at the table reads it in the log and on the card
# panels. A command carries each character's deck name (the web's parsers fill it in), so
# the engine draws from the deck the table made; ``deck_name(cid)`` ("Report Card deck c12")
# is only the name of last resort, for a character given without one (the unit tests').
DECK_PREFIX = "Report Card deck "
DECK_SUFFIX = "'s Tarot"
# A deck's name is at most 60 characters at the table; a character's, too.
_TITLE_ROOM = 60 - len(DECK_SUFFIX)


def deck_title(name: str) -> str:
    """The name of a character's own deck, from the character's name."""
    return " ".join(str(name).split())[:_TITLE_ROOM].rstrip() + DECK_SUFFIX


def deck_of(person: Mapping[str, Any], cid: str) -> str:
    """The deck a character draws from: the one its command named, else ``deck_name``."""
    return str(person.get("deck") or deck_name(cid))


# Where a check's cards land: face up in the play area, in front of everyone, while the check
# needs them. Not the discard at once: a Bonus's first card, discarded, could be shuffled back
# in and drawn again as its second when the draw pile ran out mid-draw. When the rules are done
# with a card (``set_aside`` after a pick, ``on_the_table`` after a retry or once the check
# closes) it goes to its deck's discard pile (seeds/README.md, 004: "a check's card goes to the
# discard when the check closes"), so the deck cycles: an empty draw pile reshuffles the
# discard under a new seal. The panel shows a closed check's cards from its events.
LANDS = "play"


def deck_name(character: str | int) -> str:
    """The name of a character's own deck, from its combatant id ("c12") or its id (12)."""
    text = str(character).strip()
    cid = text if text.startswith("c") else f"c{int(text)}"
    return DECK_PREFIX + cid


def deck_owner(name: str) -> str | None:
    """The combatant id whose deck this is, or None for any other deck."""
    cid = name.removeprefix(DECK_PREFIX) if name.startswith(DECK_PREFIX) else ""
    return cid if cid[1:].isdigit() and cid.startswith("c") else None


def taker(cards: Cards, deck: str) -> Take:
    """``take`` over a cards port: the top ``n`` cards of ``deck``, face up in the play area."""
    return lambda n: [card.token for card in cards.draw(deck, n, to=LANDS)]


def draw_attempt(take: Take, rank: str, own_major: int | None, edge: str | None) -> dict[str, Any]:
    """Draws and judges one attempt at ``rank``; ``edge`` is "bonus", "penalty" or None.

    Seed: "While they have Bonus, they draw two cards and use whichever of the two cards they
    would prefer"; "While they have Penalty, they draw two cards and use whichever card the
    GM decides is the worse of the two". With two cards the attempt waits for that choice
    (``pending`` "player" or "gm"), even when both cards give the same outcome: the card kept
    is also the meaning the GM weaves in."""
    tokens = take(1 if edge is None else 2)
    seconds = [take(1)[0] if card_class(t, own_major) == "wheel" else None for t in tokens]
    draws = [judge(rank, t, own_major, s) for t, s in zip(tokens, seconds, strict=True)]
    attempt: dict[str, Any] = {"rank": rank, "edge": edge, "draws": draws}
    if edge is None:
        return {**attempt, "chosen": 0, "pending": None, "suggested": None, "outcome": draws[0]["outcome"]}
    return {**attempt, "chosen": None, "pending": "player" if edge == "bonus" else "gm",
            "suggested": preferred(edge, draws), "outcome": None}


def tokens_of(attempt: Mapping[str, Any]) -> list[str]:
    """Every token an attempt drew, in the order it drew them."""
    firsts = [d["card"] for d in attempt["draws"]]
    return firsts + [d["second"] for d in attempt["draws"] if d["second"] is not None]


def _draw_tokens(draw: Mapping[str, Any]) -> list[str]:
    return [draw["card"]] + ([draw["second"]] if draw["second"] is not None else [])


def set_aside(attempt: Mapping[str, Any]) -> list[str]:
    """The tokens of a Bonus's or Penalty's card not kept (with a Wheel's second card): nothing
    before the choice is made."""
    if attempt["chosen"] is None:
        return []
    return [t for i, d in enumerate(attempt["draws"]) if i != attempt["chosen"] for t in _draw_tokens(d)]


def on_the_table(attempt: Mapping[str, Any] | None) -> list[str]:
    """The tokens of an attempt that still lie face up for its check: the card kept (with a
    Wheel's second card), or every card while the choice is still to be made."""
    if attempt is None:
        return []
    if attempt["chosen"] is None:
        return tokens_of(attempt)
    return _draw_tokens(attempt["draws"][attempt["chosen"]])
