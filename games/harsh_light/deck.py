"""The Harsh Light deck through the cards port: taking a pull's cards, and counting the cards the
odds before a pull count.

The deck is a rule deck (``GameSystem.rule_decks``): only the rules, and the Storyteller by hand,
move its cards. A pull's cards end on its discard pile once the pull is judged, so the deck
cycles: an empty draw pile is refilled from the discard under a new seal, and no pull dead-ends
for lack of cards while any card is out of hands and off the table.
"""

from __future__ import annotations

from typing import Any

from games.contract import DeckView
from games.core.cards_port import Cards, UnknownDeck
from games.core.engine import RuleError
from games.harsh_light import odds, rules
from games.harsh_light.state import DECK

NO_DECK = (f"There is no {DECK} deck on the table yet. The GM brings one out: the button \"Bring out the "
           f"{DECK} deck\" on this panel, or under Cards, \"Bring out a deck\": Ace to 10 (40 cards), "
           f"named {DECK}.")

# What the odds count, as the panel says it (``counted``).
UNSEEN, DISCARD = "unseen", "discard"


def take(cards: Cards, count: int = 1, *, to: Any = "discard") -> list[Any]:
    try:
        return cards.draw(DECK, count, to=to)
    except UnknownDeck:
        raise RuleError(NO_DECK) from None


def _in_draw_pile(cards: Cards) -> int:
    try:
        return len(cards.left(DECK, with_discard=False))
    except UnknownDeck:
        raise RuleError(NO_DECK) from None


def pull_cards(cards: Cards, again: int) -> tuple[list[str], list[int]]:
    """Seed: "A pull of 10 (or ... 8 or 9) allows you pull a second card, adding both cards";
    "Pulling a second 10 in a row doesn't let you keep adding": never a third card.

    Both cards end on the discard pile. When the draw pile holds fewer than two cards the first
    lies face up in the play area until the pull is done: a second card would come from the
    discard pile shuffled back in, and that must not hand the pull the same card again."""
    last_card = _in_draw_pile(cards) < 2
    [first] = take(cards, to="play" if last_card else "discard")
    drawn = [first]
    if rules.pulls_second(first.card.value, again):
        drawn += take(cards)
    if last_card:
        cards.discard(DECK, [first.card.id])
    return [c.token for c in drawn], [c.card.value for c in drawn]


def counted(seen: DeckView | None) -> tuple[tuple[int, ...] | None, str, tuple[int, ...]]:
    """How many cards of each value the odds before the next pull count, and from where, from
    what anyone at the table may know of the deck (``Seat.decks``, handed to the panel).

    Never the draw pile alone: that count, taken from the deck's forty with the cards lying face
    up, would give away the values of the cards held face down in a hand (the Storyteller may
    draw some by hand). So the odds count every card not lying face up (``unseen``: the draw
    pile and the hands): from where anyone at the table sits, the next card is any of them.
    When the draw pile is empty the next pull shuffles the discard pile back in: the odds count
    its cards, which lie face up for everyone. ``(None, UNSEEN, ())`` when there is no deck.

    The third part is what a second card would come from when the first is the last card
    counted: the discard pile, shuffled back in (pull_cards), its cards face up for everyone;
    so a lone 10 left still gives a second card in the odds, as it does at the table."""
    if seen is None:
        return None, UNSEEN, ()
    if seen.draw:
        refill = odds.counts_of(seen.discard) if len(seen.unseen) == 1 else ()
        return odds.counts_of(seen.unseen), UNSEEN, refill
    return odds.counts_of(seen.discard), DISCARD, ()
