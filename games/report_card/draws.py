"""One attempt at a check: the cards it takes, in the order it takes them, and their judgement.

The cards come through ``take(n)`` (the top ``n`` tokens of the character's deck), so the
engine draws through the cards port and the tests can feed any order they like. The order is
fixed: one card, or two for a Bonus or a Penalty; then, for each Wheel of Fortune among them
(there is only one in a deck), its second card. Seed: "When a Wheel of Fortune is drawn ...
Draw a second card"; issue 14: "A Wheel among them draws its own second card at once".
Each card is judged at the attempt's rank (``judge``: the outcome by ``rules``, the rule that
decided in words a GM can read out, how close it came).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.contract import Character, DeckSpec
from games.core.cards_port import Cards
from games.report_card.rules import (
    CRITICAL_FAILURE, CRITICAL_SUCCESS, LEVEL, card_class, card_of, closeness, critical_of, height, outcome_of,
    succeeded, trigger,
)

Take = Callable[[int], list[str]]

# Each player character draws from its own deck (seed: "having the player draw the top card
# from their decks"), made with the character and named after it, "Marieta's Tarot"
# (``deck_title``), which is how everyone at the table reads it in the log and on the card
# panels, and how the rules find it through the cards port.
DECK_SUFFIX = "'s Tarot"
# A deck's name is at most 60 characters at the table; a character's, too.
_TITLE_ROOM = 60 - len(DECK_SUFFIX)


def deck_title(name: str) -> str:
    """The name of a character's own deck, from the character's name."""
    return " ".join(str(name).split())[:_TITLE_ROOM].rstrip() + DECK_SUFFIX


def decks(character: Character) -> tuple[DeckSpec, ...]:
    """Each player character's own deck (issue 14: "each player character gets its own full
    78-card Tarot deck, created and shuffled (committed) when the character is made"), named
    after it; the rules' (``DeckSpec.rules``), so its player moves none of its cards by hand.
    An NPC has none: the seed's checks are the players' ("the player draws")."""
    if character.is_npc:
        return ()
    return (DeckSpec(name=deck_title(character.name), kind="tarot"),)


# Where a check's cards land: face up in the play area, in front of everyone, while the check
# needs them. Not the discard at once: a Bonus's first card, discarded, could be shuffled back
# in and drawn again as its second when the draw pile ran out mid-draw. When the rules are done
# with a card (``set_aside`` after a pick, ``on_the_table`` after a retry or once the check
# closes) it goes to its deck's discard pile (the decided reading 004: "a check's card goes to the
# discard when the check closes"), so the deck cycles: an empty draw pile reshuffles the
# discard under a new seal. The panel shows a closed check's cards from its events.
LANDS = "play"


def taker(cards: Cards, deck: str) -> Take:
    """``take`` over a cards port: the top ``n`` cards of ``deck``, face up in the play area."""
    return lambda n: [card.token for card in cards.draw(deck, n, to=LANDS)]


_TRIGGER_RULES = {
    "fool": "The Fool is always a Critical Success",
    "world": "The World is always a Critical Success",
    "sun": "The Sun is always a Critical Success",
    "own_major": "their own Major Arcana always triggers a Critical Success",
    "tower": "The Tower is always a Critical Failure",
    "devil": "The Devil is always a Critical Failure",
    "death": "Death is always a Critical Failure",
}
_RANK_RULES = {
    "automatic": "an Automatic check cannot fail",
    "trivial": "a Trivial check fails only on a Critical Failure",
    "easy": "Easy fails on any Minor Arcana of 5 or less, otherwise succeeds",
    "medium": "Medium fails on any Minor Arcana of 9 or less, otherwise succeeds",
    "hard": "Hard fails on any Minor Arcana, otherwise succeeds",
    "unlikely": "an Unlikely check succeeds only on a Critical Success",
    "impossible": "an Impossible check cannot succeed",
}


def rule_text(rank: str, found: str | None, critical: str | None, outcome: str) -> str:
    """The rule that decided, in words a GM can read out."""
    if critical is None:
        return _RANK_RULES[rank][:1].upper() + _RANK_RULES[rank][1:] + "."
    if found == "wheel":
        said = ("The Wheel of Fortune's second card is an Ace to Nine: a Critical Failure"
                if critical == CRITICAL_FAILURE else
                "The Wheel of Fortune's second card is a 10, a court card or a Major Arcana: "
                "a Critical Success")
    else:
        said = _TRIGGER_RULES[found or ""]
        said = said[:1].upper() + said[1:]
    if critical == outcome:
        return said + "."
    if rank == "unlikely" and critical == CRITICAL_SUCCESS:
        return said + ", but on an Unlikely check a Critical Success is just a success."
    return f"{said}, but {_RANK_RULES[rank]}."


def judge(rank: str, token: str, own_major: int | None, second: str | None = None) -> dict[str, Any]:
    """One drawn card (and a Wheel's second card) judged at ``rank``: plain data for an event.

    ``happenstance`` (seed: "When a Critical Success or Critical Failure is triggered by The
    Fool or the Wheel of Fortune ... this success (or failure) was powered by blind luck") is
    true when the Fool or the Wheel set off a critical and the outcome went its way (an
    Unlikely success from the Fool counts, as in the seed's surgery example; an Impossible
    check the Fool cannot save does not)."""
    card = card_of(token).card
    cls = card_class(token, own_major)
    second_cls = card_class(second, own_major) if second is not None else None
    found = trigger(card, own_major)
    critical = critical_of(cls, second_cls)
    outcome = outcome_of(rank, cls, second_cls)
    lucky = found in ("fool", "wheel") and critical is not None and (
        succeeded(outcome) == (critical == CRITICAL_SUCCESS))
    return {
        "card": token, "second": second, "trigger": found, "critical": critical, "outcome": outcome,
        "happenstance": lucky, "rule": rule_text(rank, found, critical, outcome),
        "closeness": closeness(rank, card, outcome) if critical is None else None,
    }


def preferred(edge: str, draws: list[dict[str, Any]]) -> int:
    """The index a Bonus would keep (the best outcome, then the higher card) or a Penalty
    would force (the worst, then the lower card): what the panel suggests; the person
    choosing decides."""
    def key(i: int) -> tuple[int, int]:
        return LEVEL[draws[i]["outcome"]], height(card_of(draws[i]["card"]).card)
    indices = range(len(draws))
    return max(indices, key=key) if edge == "bonus" else min(indices, key=key)


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
