"""The cards port at a table: a rule's cards come off the real decks, under the table lock.

``TableCards`` is what a service hands an engine as its ``cards`` (``games/core/cards_port.py``),
inside the service's transaction, after it has locked the table. A card a rule draws moves as
a player's draw does: it leaves the draw pile (counts drop for everyone, live), lands where the
rule says, is logged as ``cards.drawn`` with the commitment and position it came from (so
Verify proves it came from the sealed order), and is conserved like any other card. When the
draw pile runs out mid-draw, what is left is drawn, the discard pile is shuffled back in under
a fresh commitment (logged), and the draw goes on.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.core.cards import OrientedCard
from games.core import words
from games.core.cards_port import Destination, OutOfCards, UnknownDeck
from games.core.rng import Rng
from tabletop.models import Table, CardPlacement, Deck, Membership, PileKind, Role
from tabletop import selectors
from tabletop.services import piles
from tabletop.services.decks import gather_and_shuffle


class TableCards:
    """The decks of one locked table, for the rules of one action by ``actor``."""

    def __init__(self, table: Table, actor: Membership, rng: Rng, *, why: str = "") -> None:
        self.table = table
        self.actor = actor
        self.rng = rng
        # whose move the cards are for, as a line opens: "For Ann's check", "As Pip chooses a card"
        self.why = why or "For the rules"

    def _deck(self, name: str) -> Deck:
        decks = list(Deck.objects.filter(table=self.table, name=name).order_by("pk")[:2])
        if len(decks) != 1:
            raise UnknownDeck(f"no one deck called {name!r} at this table")
        return decks[0]

    def left(self, deck: str, *, with_discard: bool = True) -> list[str]:
        row = self._deck(deck)
        kinds = [PileKind.DRAW, PileKind.DISCARD] if with_discard else [PileKind.DRAW]
        return list(CardPlacement.objects.filter(deck=row, pile__kind__in=kinds).values_list("card_id", flat=True))

    def play(self, deck: str, card_id: str, *, holder: int, to: Destination = "play") -> OrientedCard:
        """A card of a member's hand, laid face up as a rule lets its holder play it: logged
        as a played (or discarded) card, public, as a player's own play is."""
        row = self._deck(deck)
        owner = self._holder(holder)
        card = (CardPlacement.objects.select_related("pile")
                .filter(deck=row, card_id=card_id, pile__kind=PileKind.HAND, pile__owner=owner).first())
        if card is None:
            raise LookupError(f"{owner.display_name} holds no such card of {row.name}")
        target = piles.deck_pile(row, PileKind.DISCARD) if to == "discard" else piles.play_area(self.table)
        piles.move([card], target, by=owner)
        piles.note_seen(row, [card])
        verb = "discards" if to == "discard" else "plays"
        piles.card_event(
            self.table, "card.discarded" if to == "discard" else "card.played", actor=self.actor, redraw=False,
            owner=owner, tokens=[card.token], public=True,
            summary=f"{self.why}, {owner.display_name} {verb} a card.", extra={"deck": row.pk, "rule": True},
        )
        piles.reveal_ready(self.table, row, self.actor)
        return OrientedCard.from_token(card.token)

    def discard(self, deck: str, card_ids: Iterable[str]) -> None:
        """A rule's cards, face up in the play area or in a hand, onto the deck's discard pile."""
        row = self._deck(deck)
        wanted = list(dict.fromkeys(card_ids))
        cards = list(CardPlacement.objects.select_related("pile").filter(
            deck=row, card_id__in=wanted, pile__kind__in=[PileKind.PLAY, PileKind.HAND]))
        if not cards:
            return
        cards.sort(key=lambda c: wanted.index(c.card_id))
        piles.move(cards, piles.deck_pile(row, PileKind.DISCARD))
        piles.note_seen(row, cards)
        piles.card_event(
            self.table, "card.discarded", actor=self.actor, redraw=False, tokens=[c.token for c in cards], public=True,
            summary=f"{self.why}, {words.count(len(cards), 'card')} of {row.name} go{'es' if len(cards) == 1 else ''} "
                    "to its discard pile.",
            extra={"deck": row.pk, "rule": True},
        )
        piles.reveal_ready(self.table, row, self.actor)

    def shuffle_in(self, deck: str, card_ids: Iterable[str]) -> None:
        """A rule's cards back into the deck's draw pile, shuffled under a new seal."""
        row = self._deck(deck)
        draw = piles.deck_pile(row, PileKind.DRAW)
        cards = list(CardPlacement.objects.select_related("pile__owner")
                     .filter(deck=row, card_id__in=list(card_ids)).exclude(pile=draw))
        if not cards:
            return
        holders: dict[int, tuple[Membership, int]] = {}
        for c in cards:
            if c.pile.kind == PileKind.HAND and c.pile.owner is not None:
                holders[c.pile.owner.pk] = (c.pile.owner, holders.get(c.pile.owner.pk, (c.pile.owner, 0))[1] + 1)
        piles.move(cards, draw)
        for holder, n in holders.values():  # each hand it takes from is redrawn on its holder's page
            piles.card_event(self.table, "deck.recalled", actor=self.actor, redraw=False, owner=holder,
                             summary=f"{self.why}, {holder.display_name} gives back {words.count(n, 'card')} of {row.name}.",
                             extra={"deck": row.pk, "rule": True})
        piles.shuffle_draw_pile(
            self.table, row, self.actor, self.rng,
            why=f"{self.why}, {words.count(len(cards), 'card')} go{'es' if len(cards) == 1 else ''} back into",
        )

    def unseen(self, deck: str) -> list[str]:
        row = self._deck(deck)
        return list(CardPlacement.objects.filter(deck=row, pile__kind__in=[PileKind.DRAW, PileKind.HAND])
                    .values_list("card_id", flat=True))

    def gather(self, deck: str) -> None:
        """Every card of the deck back into its draw pile and shuffled, as the GM's Recall does
        (each hand it takes from is redrawn on its holder's page)."""
        gather_and_shuffle(self.table, self._deck(deck), self.actor, self.rng, why=f"{self.why}, ")

    def draw(
        self, deck: str, count: int = 1, *, to: Destination = "play", holder: int | None = None
    ) -> list[OrientedCard]:
        if count < 1:
            raise ValueError("draw at least one card")
        row = self._deck(deck)
        owner = self._holder(holder) if to == "hand" else None
        in_draw = CardPlacement.objects.filter(deck=row, pile__kind=PileKind.DRAW).count()
        in_discard = CardPlacement.objects.filter(deck=row, pile__kind=PileKind.DISCARD).count()
        if in_draw + in_discard < count:
            raise OutOfCards(f"{row.name} has {in_draw + in_discard} cards left; cannot draw {count}")
        drawn = self._take(row, min(count, in_draw), to, owner) if in_draw else []
        if len(drawn) < count:
            discard = list(piles.deck_pile(row, PileKind.DISCARD).cards.order_by("position"))
            piles.move(discard, piles.deck_pile(row, PileKind.DRAW))
            piles.shuffle_draw_pile(
                self.table, row, self.actor, self.rng,
                why=f"The draw pile ran out: {words.count(len(discard), 'discarded card')} shuffled back into",
            )
            drawn += self._take(row, count - len(drawn), to, owner)
        return [OrientedCard.from_token(token) for token in drawn]

    def _holder(self, holder: int | None) -> Membership:
        member = (
            self.table.members.filter(pk=holder, removed_at=None).exclude(role=Role.SPECTATOR).first()
            if holder is not None else None
        )
        if member is None:
            raise ValueError("a card drawn to a hand goes to a player seated at this table")
        return member

    def _take(self, deck: Deck, count: int, to: Destination, owner: Membership | None) -> list[str]:
        """Draws ``count`` (no more than the draw pile holds) under the open commitment."""
        cards = piles.take_top(deck, count)
        commitment, start = piles.note_dealt(deck, count, held=cards if to == "hand" else None)
        if to == "hand":
            assert owner is not None
            target = piles.hand_of(owner)
        elif to == "discard":
            target = piles.deck_pile(deck, PileKind.DISCARD)
        else:
            target = piles.play_area(self.table)
        piles.move(cards, target, by=owner or self.actor)
        if to != "hand":
            piles.note_seen(deck, cards)
        tokens = [c.token for c in cards]
        where = {"play": " face up", "discard": " onto the discard pile", "hand": ""}[to]
        whose = f" to {owner.display_name}'s hand" if owner is not None else ""
        many = f"{words.count(count, 'card')} come{'s' if count == 1 else ''}"
        extra = {"deck": deck.pk, "count": count, "commitment": commitment, "start": start, "rule": True}
        # into the GM's hand, where an NPC's hand lies: how many is the GM's (selectors.gm_hand_is_secret)
        secret = {k: extra.pop(k) for k in ("count", "start")} if selectors.gm_hand_is_secret(self.table, owner) else {}
        piles.card_event(
            self.table, "cards.drawn", actor=self.actor, redraw=False, owner=owner or self.actor, tokens=tokens,
            public=to != "hand",
            summary=f"{self.why}, {'cards come' if secret else many} off {deck.name}{where}{whose}.",
            extra=extra, secret=secret,
        )
        return tokens
