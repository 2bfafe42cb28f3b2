"""The cards port: how a rule takes real cards, as it takes dice through an ``Rng``.

A rule that needs a card asks the port for "the top n cards of deck D" and says where they
land. The engine stays pure: unit tests pass :class:`StackedCards` (cards in a known order);
the table passes one backed by its locked piles (``tabletop/services/table_cards.py``), where
a rule's card leaves the draw pile, lands where the rule says, is conserved like any other
card, and is covered by the deck's shuffle commitment. An empty draw pile is refilled from
the discard, shuffled under a fresh commitment, and the draw goes on.

Engines record the tokens they were dealt in their events (``OrientedCard.token``), so a
log replays without drawing again and an export shows which cards decided each check.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal, Protocol, runtime_checkable

from games.core.cards import OrientedCard

# Where a drawn card lands: face up in the play area or on its deck's discard pile (everyone
# sees it), or in a member's hand (only they and the GM see it).
Destination = Literal["play", "discard", "hand"]


class OutOfCards(LookupError):
    """The deck has fewer cards than asked for, even with its discard shuffled back in."""


class UnknownDeck(LookupError):
    """No deck of that name at the table."""


@runtime_checkable
class Cards(Protocol):
    """What a rule may ask of a table's decks."""

    def draw(
        self, deck: str, count: int = 1, *, to: Destination = "play", holder: int | None = None
    ) -> list[OrientedCard]:
        """The top ``count`` cards of the deck named ``deck``, now lying at ``to`` (for
        "hand", the hand of member ``holder``), top card first."""
        ...

    def left(self, deck: str, *, with_discard: bool = True) -> list[str]:
        """The card ids a draw could still give, in no particular order: the draw pile and
        the discard pile (which refills it), or the draw pile alone (``with_discard=False``:
        what the next card comes from while the pile lasts). For exact odds where a deck's
        composition is public; never its order."""
        ...

    def play(self, deck: str, card_id: str, *, holder: int, to: Destination = "play") -> OrientedCard:
        """A card of member ``holder``'s hand, laid face up in the play area (or on the
        discard pile): a card a rule lets its holder play. ``LookupError`` if they hold none."""
        ...

    def gather(self, deck: str) -> None:
        """Every card of the deck, from every hand and pile, back into its draw pile, shuffled
        under a fresh commitment (a deck reshuffled for a new combat round)."""
        ...

    def discard(self, deck: str, card_ids: Iterable[str]) -> None:
        """These cards of the deck, face up in the play area or in a hand, onto its discard pile
        face up: a rule done with them (a check closed), so the deck cycles. A card already on the
        discard pile stays; one back in the draw pile is left where it is."""
        ...

    def shuffle_in(self, deck: str, card_ids: Iterable[str]) -> None:
        """These cards of the deck, wherever they lie out of the draw pile, back into it, and the
        draw pile shuffled under a fresh commitment (a fate card spent goes back to the deck)."""
        ...

    def unseen(self, deck: str) -> list[str]:
        """The card ids of the deck that do not lie face up: its draw pile and the cards held in
        hands. What odds shown to everyone are counted from, so no figure lets a viewer subtract
        a card held face down."""
        ...


class StackedCards:
    """A port for unit tests: each deck is a list of tokens, top first; drawn cards go to
    ``placed`` (deck, token, destination, holder), and an empty deck refills from its discard
    in the order it was discarded (a test that cares stacks the refill itself)."""

    def __init__(self, decks: Mapping[str, Iterable[str]]) -> None:
        self.decks = {name: list(tokens) for name, tokens in decks.items()}
        self._original = {name: list(tokens) for name, tokens in self.decks.items()}
        self.discards: dict[str, list[str]] = {name: [] for name in self.decks}
        self.placed: list[tuple[str, str, str, int | None]] = []
        # where each card out of the draw pile lies now: (deck, token) -> (deck, token, to, holder)
        self._where: dict[tuple[str, str], tuple[str, str, str, int | None]] = {}

    def draw(
        self, deck: str, count: int = 1, *, to: Destination = "play", holder: int | None = None
    ) -> list[OrientedCard]:
        if deck not in self.decks:
            raise UnknownDeck(deck)
        if count < 1:
            raise ValueError("draw at least one card")
        pile = self.decks[deck]
        if len(pile) < count:
            pile.extend(self.discards[deck])
            for token in self.discards[deck]:
                self._where.pop((deck, token), None)
            self.discards[deck].clear()
        if len(pile) < count:
            raise OutOfCards(f"{deck} has {len(pile)} cards left; cannot draw {count}")
        drawn, self.decks[deck] = pile[:count], pile[count:]
        for token in drawn:
            self.placed.append((deck, token, to, holder))
            self._where[(deck, token)] = (deck, token, to, holder)
            if to == "discard":
                self.discards[deck].append(token)
        return [OrientedCard.from_token(token) for token in drawn]

    def left(self, deck: str, *, with_discard: bool = True) -> list[str]:
        if deck not in self.decks:
            raise UnknownDeck(deck)
        pool = self.decks[deck] + (self.discards[deck] if with_discard else [])
        return [t.split("/")[0] for t in pool]

    def held(self, deck: str, holder: int) -> list[str]:
        """The tokens of ``deck`` in member ``holder``'s hand (for tests)."""
        return [t for d, t, to, h in self._where.values() if d == deck and to == "hand" and h == holder]

    def play(self, deck: str, card_id: str, *, holder: int, to: Destination = "play") -> OrientedCard:
        if deck not in self.decks:
            raise UnknownDeck(deck)
        token = next((t for t in self.held(deck, holder) if t.split("/")[0] == card_id), None)
        if token is None:
            raise LookupError(f"member {holder} holds no {card_id} of {deck}")
        self.placed.append((deck, token, to, None))
        self._where[(deck, token)] = (deck, token, to, None)
        if to == "discard":
            self.discards[deck].append(token)
        return OrientedCard.from_token(token)

    def gather(self, deck: str) -> None:
        """Every card back on the pile, in the order first stacked: a test that cares about the
        order after a gather stacks it again with ``restack``."""
        if deck not in self.decks:
            raise UnknownDeck(deck)
        for key in [k for k in self._where if k[0] == deck]:
            del self._where[key]
        self.discards[deck].clear()
        self.decks[deck] = list(self._original[deck])
        self.placed.append((deck, "*", "gathered", None))

    def discard(self, deck: str, card_ids: Iterable[str]) -> None:
        if deck not in self.decks:
            raise UnknownDeck(deck)
        for card_id in card_ids:
            key = next((k for k, w in self._where.items() if k[0] == deck and k[1].split("/")[0] == card_id
                        and w[2] in ("play", "hand")), None)
            if key is not None:
                self._where[key] = (deck, key[1], "discard", None)
                self.discards[deck].append(key[1])
                self.placed.append((deck, key[1], "discard", None))

    def shuffle_in(self, deck: str, card_ids: Iterable[str]) -> None:
        """Back on the bottom of the draw pile, in the order given (a test stacks what it needs)."""
        if deck not in self.decks:
            raise UnknownDeck(deck)
        for card_id in card_ids:
            key = next((k for k in self._where if k[0] == deck and k[1].split("/")[0] == card_id), None)
            if key is not None:
                del self._where[key]
                if key[1] in self.discards[deck]:
                    self.discards[deck].remove(key[1])
                self.decks[deck].append(key[1])
                self.placed.append((deck, key[1], "shuffled in", None))

    def unseen(self, deck: str) -> list[str]:
        if deck not in self.decks:
            raise UnknownDeck(deck)
        held = [k[1] for k, w in self._where.items() if k[0] == deck and w[2] == "hand"]
        return [t.split("/")[0] for t in self.decks[deck] + held]

    def restack(self, deck: str, tokens: Iterable[str]) -> None:
        """Puts the deck's draw pile in this order (a test's "shuffle")."""
        self.decks[deck] = list(tokens)
