"""What decks and cards share: finding piles, who may use a deck, the table's card counts,
and the shuffle commitments that let players check no order was tampered with."""

from __future__ import annotations

from typing import Any

from games.core import commitment as commit_lib
from games.core.cards import card_by_id, orient, upright
from games.core.rng import Rng
from tabletop.models import Table, CardPlacement, Deck, Membership, Pile, PileKind, ShuffleCommitment
from tabletop.feed.seat import GM_ONLY
from tabletop.permissions import DECK_TABLE_VERB, DeckStanding, DeckVerb, deck_standing, may_on_deck
from tabletop.selectors import counts_shown, hand_contents
from tabletop.feed import panels
from tabletop.services.base import NotAllowed, NotFound, ServiceError, append, lock_member


def card_name(token: str) -> str:
    card_id, _, flag = token.partition("/")
    return card_by_id(card_id).name + (" (reversed)" if flag else "")


def names(tokens: list[str]) -> str:
    return ", ".join(card_name(t) for t in tokens)


def get_deck(table: Table, deck_id: int) -> Deck:
    deck = Deck.objects.filter(pk=deck_id, table=table).first()
    if deck is None:
        raise NotFound("There is no such deck at this table.")
    return deck


def deck_pile(deck: Deck, kind: str) -> Pile:
    return Pile.objects.get(deck=deck, kind=kind)


def play_area(table: Table) -> Pile:
    pile, _ = Pile.objects.get_or_create(table=table, kind=PileKind.PLAY)
    return pile


def hand_of(member: Membership) -> Pile:
    pile, _ = Pile.objects.get_or_create(
        table_id=member.table_id, kind=PileKind.HAND, owner=member
    )
    return pile


def lock_deck(deck: Deck, actor: Membership, verb: DeckVerb) -> tuple[Table, Membership, Deck]:
    """Inside a transaction: locks the deck's table, reads the actor's membership and the deck
    afresh, and refuses unless the actor may ``verb`` this deck (permissions.DECK_MATRIX)."""
    locked, me = lock_member(deck.table_id, actor, DECK_TABLE_VERB[verb])
    fresh = get_deck(locked, deck.pk)
    if not may_on_deck(me, fresh, verb):
        if deck_standing(me, fresh) == DeckStanding.RULED:
            raise NotAllowed(ruled(fresh))
        if deck_standing(me, fresh) == DeckStanding.CLOSED:
            raise NotAllowed(f"The GM has not opened {fresh.name} to players.")
        raise NotAllowed(f"Only the GM or the dealer of {fresh.name} may do that.")
    return locked, me, fresh


def ruled(deck: Deck) -> str:
    """The refusal of a player's own card verb on a deck the rules draw from."""
    return (f"Only the rules move the cards of {deck.name} (the GM can, by hand, for everyone to see): "
            "play them from the table's panel.")


def pile_tokens(pile: Pile) -> list[str]:
    return [p.token for p in pile.cards.order_by("position")]


def next_position(pile: Pile, *, top: bool = False) -> int:
    positions = pile.cards.values_list("position", flat=True)
    if not positions:
        return 0
    return (min(positions) - 1) if top else (max(positions) + 1)


def move(
    placements: list[CardPlacement], pile: Pile, *, top: bool = False, pinned: bool = False,
    by: Membership | None = None,
) -> None:
    """Puts cards on ``pile`` in the order given (all on top, or all at the bottom);
    ``pinned`` when everyone saw where in a draw pile they went (see ``CardPlacement.pinned``);
    ``by``, who laid them there (the play area shows it)."""
    start = next_position(pile, top=top)
    step = -1 if top else 1
    ordered = list(reversed(placements)) if top else placements
    for i, placement in enumerate(ordered):
        placement.pile = pile
        placement.position = start + step * i
        placement.pinned = pinned
        placement.placed_by = by
        placement.save(update_fields=["pile", "position", "pinned", "placed_by"])


def take_top(deck: Deck, count: int) -> list[CardPlacement]:
    """The top ``count`` cards of the draw pile, refusing if there are fewer."""
    if count < 1:
        raise ServiceError("Draw at least one card.", field="count")
    pile = deck_pile(deck, PileKind.DRAW)
    cards = list(pile.cards.order_by("position")[:count])
    if len(cards) < count:
        left = len(cards)
        raise ServiceError(
            f"{deck.name} has {left} card{'s' if left != 1 else ''} left; cannot draw {count}.",
            field="count",
        )
    return cards


def card_event(
    table: Table,
    kind: str,
    *,
    actor: Membership,
    summary: str,
    owner: Membership | None = None,
    tokens: list[str] | None = None,
    public: bool = False,
    extra: dict[str, Any] | None = None,
    redraw: bool = True,
    secret: dict[str, Any] | None = None,
) -> None:
    """Appends a card event: counts for everyone; the cards (and the owner's hand after the
    change) for the owner and the GM, or for everyone when ``public``. At a table whose system
    panel reads its decks (its odds), the event redraws that panel too, unless a rule moved the
    cards (``redraw`` False: the rule's own events redraw it once it is done)."""
    owner = owner or actor
    counts, whole = counts_shown(table)
    payload: dict[str, Any] = {"counts": counts, **(extra or {})}
    private: dict[str, Any] = {"hand": hand_contents(owner), **(secret or {})}  # ``secret``: more for them alone
    if whole is not None:  # a draw pile the GM's alone (selectors.draw_counts_held_back): its count and positions
        gm = {"counts": whole}
        if counts["decks"].get(str(payload.get("deck")), {}).get("held"):
            gm |= {k: payload.pop(k) for k in ("start", "positions") if k in payload}
        private[GM_ONLY] = gm
    detail = f"{summary.rstrip('.')}: {names(tokens)}." if tokens else ""
    if tokens and public:
        payload["cards"] = tokens
        summary = detail
    elif tokens:
        private["cards"] = tokens
    envelope = append(
        table, kind, actor=actor, owner=owner, summary=summary,
        private_summary="" if public else detail, payload=payload, private=private,
    )
    if redraw:
        panels.attach_if_it_reads_decks(envelope, table)


# Shuffle commitments


def open_commitment(deck: Deck) -> ShuffleCommitment | None:
    return deck.commitments.filter(closed=False).order_by("-pk").first()


def note_dealt(deck: Deck, count: int, *, held: list[CardPlacement] | None = None) -> tuple[int | None, int]:
    """Records ``count`` cards dealt off the top; returns (commitment id, first position).
    ``held``: those of them that go face down into a hand (``ShuffleCommitment.unseen``)."""
    current = open_commitment(deck)
    if current is None:
        return None, 0
    start = current.dealt
    current.dealt += count
    if current.dealt >= len(current.order):
        current.closed = current.scrambled = True
    current.unseen = list(current.unseen) + [c.card_id for c in held or []]
    current.save(update_fields=["dealt", "closed", "scrambled", "unseen"])
    return current.pk, start


def note_seen(deck: Deck, cards: list[CardPlacement]) -> None:
    """These cards now lie face up for everyone: no seal need keep their holder's secret."""
    ids = {c.card_id for c in cards}
    for record in deck.commitments.filter(revealed_seq__isnull=True):
        if ids & set(record.unseen):
            record.unseen = [i for i in record.unseen if i not in ids]
            record.save(update_fields=["unseen"])


def held_secrets(deck: Deck) -> list[str]:
    """The cards of ``deck`` whose whereabouts a new seal's order would give away: every card in a
    hand (the order leaves exactly those out), and every card that went face down from a hand
    back into the draw pile where someone could place it (put back on the top or the bottom:
    the order names it there) and was never seen face up since."""
    lying = CardPlacement.objects.filter(deck=deck)
    held = set(lying.filter(pile__kind=PileKind.HAND).values_list("card_id", flat=True))
    placed = set(lying.filter(pile__kind=PileKind.DRAW, pinned=True).values_list("card_id", flat=True))
    if placed:
        unseen = {card for record in deck.commitments.filter(revealed_seq__isnull=True) for card in record.unseen}
        held |= placed & unseen
    return sorted(held)


def commit(table: Table, deck: Deck, actor: Membership, *, why: str) -> None:
    """Closes the open commitment and publishes one for the draw pile as it lies now. The new
    seal keeps closed, as one that dealt into a hand does, while a card it could give away is
    unseen (``held_secrets``): a hand's cards that were never played stay its holder's, whatever
    kind of seal came after them (a return, a rearrangement, a reshuffle while hands hold cards)."""
    deck.commitments.filter(closed=False).update(closed=True)
    order = pile_tokens(deck_pile(deck, PileKind.DRAW))
    promise = commit_lib.commit(order)
    seq = table.next_seq
    record = ShuffleCommitment.objects.create(
        deck=deck, digest=promise.digest, salt=promise.salt, order=order, committed_seq=seq,
        unseen=held_secrets(deck),
    )
    counts, whole = counts_shown(table)
    size: dict[str, Any] = {"count": len(order)}
    if counts["decks"].get(str(deck.pk), {}).get("held"):  # the seal's size is the draw pile's: the GM's now
        hidden, size, many = size, {}, "how many cards is the GM's while the GM holds cards of it"
    else:
        hidden, many = {}, f"{len(order)} cards"
    append(
        table, "deck.committed", actor=actor,
        summary=f"{why} {deck.name} ({many}); the order is sealed.",
        payload={"deck": deck.pk, "commitment": record.pk, "digest": promise.digest, **size, "counts": counts},
        private={GM_ONLY: {**hidden, "counts": whole}} if whole is not None else None,
    )


def shuffle_draw_pile(table: Table, deck: Deck, actor: Membership, rng: Rng, *, why: str) -> None:
    """Fisher-Yates over the draw pile (orientation too, where the deck allows it), then commit."""
    pile = deck_pile(deck, PileKind.DRAW)
    placements = list(pile.cards.all())
    rng.shuffle(placements)
    faces = [card_by_id(p.card_id) for p in placements]
    laid = orient(faces, rng) if deck.allow_reversed else upright(faces)
    for position, (placement, card) in enumerate(zip(placements, laid)):
        placement.position = position
        placement.reversed = card.reversed
        placement.pinned = False
        placement.save(update_fields=["position", "reversed", "pinned"])
    deck.commitments.filter(closed=True).update(scrambled=True)
    deck.commitments.filter(closed=False).update(closed=True, scrambled=True)
    commit(table, deck, actor, why=why)
    reveal_ready(table, deck, actor)


def card_lies(deck: Deck) -> dict[str, commit_lib.Lie]:
    """Where each card of ``deck`` lies now, in the terms of ``commitment.reveal_is_safe``."""
    lies: dict[str, commit_lib.Lie] = {}
    for card_id, kind, pinned in CardPlacement.objects.filter(deck=deck).values_list(
        "card_id", "pile__kind", "pinned"
    ):
        if kind in (PileKind.PLAY, PileKind.DISCARD):
            lies[card_id] = commit_lib.Lie.FACE_UP
        elif kind == PileKind.DRAW:
            lies[card_id] = commit_lib.Lie.PINNED if pinned else commit_lib.Lie.SHUFFLED
        else:
            lies[card_id] = commit_lib.Lie.HAND
    return lies


def reveal_ready(table: Table, deck: Deck, actor: Membership) -> None:
    """Reveals every closed commitment that ``commitment.reveal_is_safe`` allows: none while
    a card of the deck is in a hand or lies face down where someone could place it."""
    waiting = list(deck.commitments.filter(closed=True, revealed_seq__isnull=True))
    if not waiting:
        return
    lies = card_lies(deck)
    for record in waiting:
        if not commit_lib.reveal_is_safe(record.order, record.dealt, scrambled=record.scrambled, lies=lies,
                                         held_unseen=bool(record.unseen)):
            continue
        record.revealed_seq = table.next_seq
        record.save(update_fields=["revealed_seq"])
        append(
            table, "deck.revealed", actor=actor,
            summary=(
                f"A shuffle of {deck.name} can now be checked: its sealed order is revealed "
                f"({record.dealt} of its {len(record.order)} cards were dealt from it)."
            ),
            payload={
                "deck": deck.pk, "commitment": record.pk, "digest": record.digest,
                "salt": record.salt, "order": record.order, "dealt": record.dealt,
            },
        )
