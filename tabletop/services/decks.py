"""Decks as a whole: create, configure, shuffle, gather back, and the GM's look at the top."""

from __future__ import annotations

from django.db import transaction

from games import registry
from games.core.cards import deck_kind
from games.core.words import count
from games.core.rng import Rng
from tabletop.models import Table, CardPlacement, Deck, Membership, Pile, PileKind, Role
from tabletop.permissions import DeckVerb, Verb
from tabletop.selectors import deck_data
from tabletop.services import piles
from tabletop.services.base import ServiceError, acting, append, clean_name, lock_table

MAX_DECKS = 20


def deck_create(
    *,
    table: Table,
    actor: Membership,
    kind: str,
    rng: Rng,
    name: str = "",
    owner: Membership | None = None,
    allow_reversed: bool = False,
    players_may_use: bool = False,
) -> Deck:
    """A new deck, shuffled, for the table or for one member (a personal deck)."""
    try:
        spec = deck_kind(kind)
    except KeyError:
        raise ServiceError("Choose a kind of deck.", field="kind") from None
    with transaction.atomic():
        locked = lock_table(table.pk)
        me = acting(locked, actor, Verb.DECK_MANAGE)
        rules = name.strip() in registry.get(locked.system).rule_decks  # a deck the rules find by its name
        return make_deck(locked, me, kind=kind, rng=rng, name=name, owner=owner, rules=rules,
                         allow_reversed=allow_reversed, players_may_use=players_may_use)


def make_deck(
    locked: Table, me: Membership, *, kind: str, rng: Rng, name: str = "", owner: Membership | None = None,
    allow_reversed: bool = False, players_may_use: bool = False, rules: bool = False,
) -> Deck:
    """Under the (held) table lock, once ``me`` may: a new deck, shuffled under its first seal.
    Also what a system's own decks are made with (a Report Card character's Tarot). ``rules``:
    the system's rules draw from it (Deck.rules)."""
    spec = deck_kind(kind)
    if locked.decks.count() >= MAX_DECKS:
        raise ServiceError(f"A table holds at most {MAX_DECKS} decks.")
    if owner is not None:
        owner = Membership.objects.filter(pk=owner.pk, table=locked, removed_at=None).first()
        if owner is None or owner.role == "spectator":
            raise ServiceError("A personal deck belongs to a player at this table.", field="owner")
    title = clean_name(name or spec.label.split(" (")[0], what="deck name", max_length=60)
    if name and locked.decks.filter(name=title).exists():  # a rule finds its deck by its name
        raise ServiceError(f"There is already a deck called {title} at this table.", field="name")
    deck = Deck.objects.create(
        table=locked, name=title, kind=kind, owner=owner, rules=rules,
        allow_reversed=allow_reversed and spec.reversible, players_may_use=players_may_use and not rules,
    )
    draw = Pile.objects.create(table=locked, kind=PileKind.DRAW, deck=deck)
    Pile.objects.create(table=locked, kind=PileKind.DISCARD, deck=deck)
    CardPlacement.objects.bulk_create(
        CardPlacement(deck=deck, card_id=card.id, pile=draw, position=i)
        for i, card in enumerate(spec.factory())
    )
    whose = f" for {owner.display_name}" if owner else ""
    ruled = " Only the rules (and the GM, by hand) move its cards." if rules else ""
    piles.card_event(locked, "deck.created", actor=me, summary=f"{me.display_name} brings out {title}{whose}.{ruled}",
                     extra={"deck": deck.pk, "deck_info": deck_data(deck)})
    piles.shuffle_draw_pile(locked, deck, me, rng, why=f"{me.display_name} shuffles")
    return deck


def deck_configure(
    *, deck: Deck, actor: Membership, allow_reversed: bool, players_may_use: bool,
    dealer: Membership | None = None,
) -> Deck:
    """The GM's settings of a deck: reversed cards, open to players, and which player (if
    any) deals it; ``dealer=None`` leaves the dealing to the GM (and a personal deck's owner)."""
    with transaction.atomic():
        locked, me, deck = piles.lock_deck(deck, actor, DeckVerb.CONFIGURE)
        if deck.rules and (players_may_use or dealer is not None):
            raise ServiceError(f"The rules draw from {deck.name}: only they and the GM move its cards, so it "
                               "is neither opened to players nor dealt by one.")
        if dealer is not None:
            dealer = locked.members.filter(pk=dealer.pk, role=Role.PLAYER, removed_at=None).first()
            if dealer is None:
                raise ServiceError("The dealer is a player seated at this table.", field="dealer")
        deck.allow_reversed = allow_reversed and deck_kind(deck.kind).reversible
        deck.players_may_use = players_may_use
        deck.dealer = dealer
        deck.save(update_fields=["allow_reversed", "players_may_use", "dealer"])
        rules = [
            "cards can come out reversed" if deck.allow_reversed else "cards stay upright",
            "players may draw from it" if deck.players_may_use else "players may not draw from it",
        ]
        if dealer is not None:
            rules.append(f"{dealer.display_name} deals it")
        piles.card_event(locked, "deck.configured", actor=me,
                         summary=f"{deck.name}: {'; '.join(rules)}.",
                         extra={"deck": deck.pk, "deck_info": deck_data(deck)})
    return deck


def deck_shuffle(*, deck: Deck, actor: Membership, rng: Rng) -> None:
    """Shuffles the draw pile only; cards out of it stay where they are."""
    with transaction.atomic():
        locked, me, deck = piles.lock_deck(deck, actor, DeckVerb.SHUFFLE)
        piles.shuffle_draw_pile(locked, deck, me, rng, why=f"{me.display_name} shuffles")


def deck_discard_reshuffle(*, deck: Deck, actor: Membership, rng: Rng) -> None:
    """Puts the discard pile back into the deck and shuffles; hands and the play area stay."""
    with transaction.atomic():
        locked, me, deck = piles.lock_deck(deck, actor, DeckVerb.RESHUFFLE_DISCARD)
        discard = list(piles.deck_pile(deck, PileKind.DISCARD).cards.order_by("position"))
        if not discard:
            raise ServiceError(f"The discard pile of {deck.name} is empty.")
        piles.move(discard, piles.deck_pile(deck, PileKind.DRAW))
        piles.shuffle_draw_pile(
            locked, deck, me, rng,
            why=f"{me.display_name} shuffles {count(len(discard), 'discarded card')} back into",
        )


def deck_recall(*, deck: Deck, actor: Membership, rng: Rng) -> None:
    """Gathers every card of the deck, from every pile and hand, and shuffles."""
    with transaction.atomic():
        locked, me, deck = piles.lock_deck(deck, actor, DeckVerb.RECALL)
        gather_and_shuffle(locked, deck, me, rng)


def gather_and_shuffle(table: Table, deck: Deck, me: Membership, rng: Rng, *, why: str = "") -> None:
    """Under the (held) table lock: every card of the deck back on its draw pile, shuffled
    under a new commitment. Whose hands give cards back: each of them gets an event of their
    own, carrying their hand as it is now, so every open page redraws it (issue 13, bug 3:
    the hands stayed). ``why`` starts the log line for a rule's gathering ("For the combat, ")."""
    draw = piles.deck_pile(deck, PileKind.DRAW)
    out = list(CardPlacement.objects.filter(deck=deck).exclude(pile=draw)
               .select_related("pile__owner").order_by("pk"))
    taken: dict[int, tuple[Membership, int]] = {}
    for placement in out:
        holder = placement.pile.owner if placement.pile.kind == PileKind.HAND else None
        if holder is not None and holder.pk != me.pk:
            taken[holder.pk] = (holder, taken.get(holder.pk, (holder, 0))[1] + 1)
    piles.move(out, draw)
    lead = f"{why}{me.display_name}" if why else me.display_name
    piles.card_event(table, "deck.recalled", actor=me,
                     summary=f"{lead} gathers every card of {deck.name}.", extra={"deck": deck.pk})
    for holder, n in taken.values():
        piles.card_event(table, "deck.recalled", actor=me, owner=holder,
                         summary=f"{holder.display_name} gives back {count(n, 'card')} of {deck.name}.",
                         extra={"deck": deck.pk})
    piles.shuffle_draw_pile(table, deck, me, rng, why=f"{me.display_name} shuffles")


def deck_peek(*, deck: Deck, actor: Membership, count: int) -> list[str]:
    """The GM looks at the top ``count`` cards; everyone sees that they did, only the GM what."""
    with transaction.atomic():
        locked, me, deck = piles.lock_deck(deck, actor, DeckVerb.PEEK)
        top = piles.take_top(deck, count)
        tokens = [p.token for p in top]
        # The GM knows where these lie now: no order that could tell others waits on them.
        CardPlacement.objects.filter(pk__in=[p.pk for p in top]).update(pinned=True)
        append(
            locked, "deck.peeked", actor=me,
            summary=f"{me.display_name} looks at the top {count} of {deck.name}.",
            private_summary=f"{me.display_name} looks at the top {count} of {deck.name}: {piles.names(tokens)}.",
            private_audience="gm", payload={"deck": deck.pk, "count": count},
            private={"cards": tokens},
        )
    return tokens


def deck_reorder(*, deck: Deck, actor: Membership, order: list[str]) -> None:
    """The GM puts the top cards back in a new order (card ids, top first)."""
    with transaction.atomic():
        locked, me, deck = piles.lock_deck(deck, actor, DeckVerb.REORDER)
        top = piles.take_top(deck, len(order))
        if sorted(p.card_id for p in top) != sorted(order):
            raise ServiceError("Those are not the cards on top now; look again.")
        positions = sorted(p.position for p in top)
        by_id = {p.card_id: p for p in top}
        for position, card_id in zip(positions, order):
            by_id[card_id].position = position
            by_id[card_id].pinned = True  # the GM knows where these lie now
            by_id[card_id].save(update_fields=["position", "pinned"])
        tokens = [by_id[c].token for c in order]
        append(
            locked, "deck.reordered", actor=me,
            summary=f"{me.display_name} puts the top {len(order)} of {deck.name} back in a new order.",
            private_summary=f"{me.display_name} puts the top of {deck.name} back as {piles.names(tokens)}.",
            private_audience="gm", payload={"deck": deck.pk, "count": len(order)},
            private={"cards": tokens},
        )
        piles.commit(locked, deck, me, why=f"{me.display_name} reseals")
