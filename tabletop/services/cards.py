"""Cards moving between piles: draw, deal, play, discard, return, pass."""

from __future__ import annotations

from typing import Literal

from django.db import transaction

from tabletop.models import Table, CardPlacement, Deck, Membership, PileKind, Role
from tabletop.permissions import DeckVerb, Verb, may_move_card
from tabletop.services import piles
from tabletop.services.base import NotAllowed, ServiceError, acting, lock_table

MAX_DRAW = 20


def _count(count: int) -> int:
    if not 1 <= count <= MAX_DRAW:
        raise ServiceError(f"Draw between 1 and {MAX_DRAW} cards.", field="count")
    return count


def pile_draw(
    *, deck: Deck, actor: Membership, count: int, to: Literal["hand", "play"] = "hand"
) -> list[str]:
    """Takes ``count`` cards off the top: into the actor's hand (hidden) or face up to the play area."""
    _count(count)
    with transaction.atomic():
        locked, me, deck = piles.lock_deck(deck, actor, DeckVerb.DRAW)
        if to not in ("hand", "play"):
            raise ServiceError("Draw to your hand or to the play area.", field="to")
        cards = piles.take_top(deck, count)
        commitment, start = piles.note_dealt(deck, count, held=cards if to == "hand" else None)
        target = piles.hand_of(me) if to == "hand" else piles.play_area(locked)
        piles.move(cards, target, by=me)
        if to == "play":
            piles.note_seen(deck, cards)
        tokens = [c.token for c in cards]
        plural = "card" if count == 1 else "cards"
        where = "" if to == "hand" else " face up"
        piles.card_event(
            locked, "cards.drawn", actor=me, tokens=tokens, public=to == "play",
            summary=f"{me.display_name} draws {count} {plural}{where} from {deck.name}.",
            extra={"deck": deck.pk, "count": count, "commitment": commitment, "start": start},
        )
    return tokens


def pile_deal(*, deck: Deck, actor: Membership, count: int, to: list[Membership]) -> None:
    """Deals ``count`` cards to each chosen player in turn, one round at a time, as at a real table."""
    _count(count)
    with transaction.atomic():
        locked, me, deck = piles.lock_deck(deck, actor, DeckVerb.DEAL)
        ids = [m.pk for m in to]
        members = {m.pk: m for m in locked.members.filter(pk__in=ids, removed_at=None).exclude(role=Role.SPECTATOR)}
        if not ids or len(members) != len(set(ids)):
            raise ServiceError("Deal only to players seated at this table.", field="to")
        order = [members[i] for i in dict.fromkeys(ids)]
        cards = piles.take_top(deck, count * len(order))
        commitment, start = piles.note_dealt(deck, len(cards), held=cards)
        hands: dict[int, list[CardPlacement]] = {m.pk: [] for m in order}
        for i, card in enumerate(cards):  # round-robin: the first card to the first player...
            hands[order[i % len(order)].pk].append(card)
        for member in order:
            piles.move(hands[member.pk], piles.hand_of(member))
        for member in order:
            positions = [start + i for i, c in enumerate(cards) if c in hands[member.pk]]
            piles.card_event(
                locked, "cards.dealt", actor=me, owner=member, tokens=[c.token for c in hands[member.pk]],
                summary=f"{me.display_name} deals {count} {'card' if count == 1 else 'cards'} from {deck.name} to {member.display_name}.",
                extra={"deck": deck.pk, "count": count, "commitment": commitment, "positions": positions},
            )


def _held(table: Table, me: Membership, deck_id: int, card_id: str, *, from_play: bool = False) -> CardPlacement:
    """The card, if ``me`` may move it (permissions.may_move_card): from a hand, or with
    ``from_play`` from the play area."""
    placement = (
        CardPlacement.objects.select_related("pile", "deck", "placed_by")
        .filter(deck_id=deck_id, card_id=card_id, deck__table=table)
        .first()
    )
    kinds = (PileKind.HAND, PileKind.PLAY) if from_play else (PileKind.HAND,)
    if placement is not None and placement.pile.kind in kinds and may_move_card(
        me, pile_kind=placement.pile.kind, pile_owner_id=placement.pile.owner_id, deck=placement.deck,
        placed_by_id=placement.placed_by_id,
    ):
        return placement
    mine = placement is not None and placement.pile.kind == PileKind.HAND and placement.pile.owner_id == me.pk
    if placement is not None and placement.deck.rules and (mine or placement.pile.kind == PileKind.PLAY):
        raise NotAllowed(piles.ruled(placement.deck))  # they see it: its rules are the reason
    if placement is not None and from_play and placement.pile.kind == PileKind.PLAY:  # face up: all see it
        who = placement.placed_by.display_name if placement.placed_by_id else "the GM"
        raise NotAllowed(f"That card on the table is {who}'s to move (or the GM's): nothing was changed.")
    # One message whatever the reason, so a refusal never says where a card is.
    raise ServiceError("You do not hold that card (it may have moved); nothing was changed.")


def card_play(*, table: Table, actor: Membership, deck_id: int, card_id: str) -> None:
    """Lays a card from a hand face up in the play area."""
    with transaction.atomic():
        locked = lock_table(table.pk)
        me = acting(locked, actor, Verb.CARD_PLAY)
        card = _held(locked, me, deck_id, card_id)
        holder = card.pile.owner or me
        piles.move([card], piles.play_area(locked), by=holder)
        piles.note_seen(card.deck, [card])
        piles.card_event(locked, "card.played", actor=me, owner=holder, tokens=[card.token], public=True,
                         summary=f"{holder.display_name} plays a card.", extra={"deck": deck_id})
        piles.reveal_ready(locked, card.deck, me)  # a card face up may be all a seal waited for


def card_discard(*, table: Table, actor: Membership, deck_id: int, card_id: str) -> None:
    """Puts a card from a hand or the play area face up on its deck's discard pile."""
    with transaction.atomic():
        locked = lock_table(table.pk)
        me = acting(locked, actor, Verb.CARD_PLAY)
        card = _held(locked, me, deck_id, card_id, from_play=True)
        holder = card.pile.owner or me
        piles.move([card], piles.deck_pile(card.deck, PileKind.DISCARD))
        piles.note_seen(card.deck, [card])
        piles.card_event(locked, "card.discarded", actor=me, owner=holder, tokens=[card.token], public=True,
                         summary=f"{me.display_name} discards a card.", extra={"deck": deck_id})
        piles.reveal_ready(locked, card.deck, me)


def card_return(
    *, table: Table, actor: Membership, deck_id: int, card_id: str, where: Literal["top", "bottom"]
) -> None:
    """Puts a card back on the top or the bottom of its deck's draw pile, face down."""
    if where not in ("top", "bottom"):
        raise ServiceError("Return a card to the top or the bottom.", field="where")
    with transaction.atomic():
        locked = lock_table(table.pk)
        me = acting(locked, actor, Verb.CARD_PLAY)
        card = _held(locked, me, deck_id, card_id, from_play=True)
        holder = card.pile.owner or me
        was_public = card.pile.kind == PileKind.PLAY
        piles.move([card], piles.deck_pile(card.deck, PileKind.DRAW), top=where == "top", pinned=True)
        piles.card_event(locked, "card.returned", actor=me, owner=holder, tokens=[card.token], public=was_public,
                         summary=f"{me.display_name} returns a card to the {where} of {card.deck.name}.",
                         extra={"deck": deck_id, "where": where})
        piles.commit(locked, card.deck, me, why=f"{me.display_name} reseals")
        piles.reveal_ready(locked, card.deck, me)


def card_pass(*, table: Table, actor: Membership, deck_id: int, card_id: str, to: Membership) -> None:
    """Hands a card to another player, who alone (with the GM) sees which."""
    with transaction.atomic():
        locked = lock_table(table.pk)
        me = acting(locked, actor, Verb.CARD_PLAY)
        receiver = locked.members.filter(pk=to.pk, removed_at=None).exclude(role=Role.SPECTATOR).first()
        if receiver is None:
            raise ServiceError("Pass cards only to players seated at this table.", field="to")
        card = _held(locked, me, deck_id, card_id)
        giver = card.pile.owner or me
        if receiver.pk == giver.pk:
            raise ServiceError("That card is already in that hand.", field="to")
        piles.move([card], piles.hand_of(receiver))
        piles.card_event(locked, "card.passed", actor=me, owner=giver, tokens=[card.token],
                         summary=f"{giver.display_name} passes a card to {receiver.display_name}.",
                         extra={"deck": deck_id, "to": receiver.pk})
        piles.card_event(locked, "card.received", actor=me, owner=receiver, tokens=[card.token],
                         summary=f"{receiver.display_name} takes the card from {giver.display_name}.",
                         extra={"deck": deck_id, "from": giver.pk})
