"""Random sequences of every card operation, by the GM, by players and by people who may not act.

Issue 3 ("Decks, hands and hidden information"): "every card of a deck is in exactly one
pile at every moment". After each step the machine checks that no card was lost or doubled,
that every card lies in its own table's piles, that a refusal raised ServiceError and changed
nothing, that seqs stay consecutive, that draw-pile positions are distinct, that the open seal
is the draw pile, that each new event shows each viewer only what they may see, and that no
order is revealed while it could place a card hidden from someone: in a hand, or face down in
the draw pile where it was put back or looked at since the last shuffle.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, Max, Min
from hypothesis import HealthCheck, seed, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from games.core.cards import card_by_id, deck_kind
from games.core.commitment import verify
from tabletop import services
from tabletop.models import (
    Table,
    CardPlacement,
    Deck,
    Event,
    Membership,
    Pile,
    PileKind,
    Role,
    ShuffleCommitment,
)
from tabletop.feed.seat import private_part
from tabletop.selectors import events_for, viewer_of
from tests.integration.test_piles import expected_counts, gm_part
from tabletop.services import ServiceError

SEATED = ("gm", "ann", "bob")  # may act; "cleo" was removed, "olga" sits at another table
ACTORS = st.sampled_from(("gm", "gm", "gm", "ann", "ann", "ann", "bob", "bob", "bob", "watcher", "cleo", "olga"))
GM_ACTORS = st.sampled_from(("gm", "gm", "gm", "gm", "ann", "bob", "watcher", "cleo", "olga"))
TARGETS = ("gm", "ann", "bob", "watcher", "cleo", "olga")
KINDS = st.sampled_from(("ten_value", "major_arcana", "standard_jokers", "minor_arcana", "tarot"))
# "held": a card in a seated member's hand, moved by whoever holds it.
SOURCES = st.sampled_from(
    ("held", "held", "held", "own hand", "own hand", "another hand", "play", "play", "draw", "discard", "nowhere")
)
BOGUS_IDS = ("std:S:99", "not a card", "", "tarot:major:0", "ten:H:7")
DRAW_COUNTS = st.sampled_from((1, 1, 2, 3, 1, 2, 1, 0, -1, 21))
MAX_DECKS = 4
OPERATIONS = (
    "deck_create", "deck_configure", "deck_shuffle", "deck_discard_reshuffle", "deck_recall", "deck_peek",
    "deck_reorder", "pile_draw", "pile_deal", "card_play", "card_discard", "card_return", "card_pass",
)
# (operation, "done" | "refused") over the whole run: proof that every operation went both ways.
OUTCOMES: Counter[tuple[str, str]] = Counter()
# Seal checks made over the whole run, by event kind: proof that they were not vacuous.
SEAL_CHECKS: Counter[str] = Counter()
# Cards put back in the draw pile over the whole run, by (where, from which pile).
RETURNS: Counter[tuple[str, str]] = Counter()


@cache
def kind_ids(kind: str) -> Counter[str]:
    return Counter(card.id for card in deck_kind(kind).factory())


@cache
def kind_names(kind: str) -> frozenset[str]:
    return frozenset(card.name for card in deck_kind(kind).factory())


def is_card_token(text: str) -> bool:
    try:
        card_by_id(text.removesuffix("/r"))
    except KeyError:
        return False
    return True


def strings_in(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [*value.keys(), *(s for v in value.values() for s in strings_in(v))]
    if isinstance(value, list):
        return [s for v in value for s in strings_in(v)]
    return []


def cards_shown_in(payload: dict[str, Any]) -> set[tuple[int, str]]:
    """(deck, token) of every card a payload shows, in the places a payload carries cards."""
    shown = {(payload.get("deck"), t) for t in payload.get("cards", [])}
    counts = payload.get("counts", {})
    shown |= {(e["deck"], e["token"]) for e in counts.get("play", [])}
    shown |= {(int(d), e["discard_top"]) for d, e in counts.get("decks", {}).items() if e.get("discard_top")}
    return shown


class CardTable(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        # Each example runs in its own savepoint, rolled back in teardown: a clean slate.
        self._atomic = transaction.atomic()
        self._atomic.__enter__()
        self.decks: list[Deck] = []
        self.seen_seq = 0
        # Per deck, cards whose place in the draw pile someone knows or can work out since its
        # last shuffle: put back on the top or the bottom, or looked at or rearranged by the GM.
        # Kept here from what the rules did, not read from the services.
        self.pinned: defaultdict[int, set[str]] = defaultdict(set)

    def teardown(self) -> None:
        transaction.set_rollback(True)
        self._atomic.__exit__(None, None, None)

    @initialize(seed=st.integers(0, 2**32 - 1))
    def seat_the_table(self, seed: int) -> None:
        self.rng = random.Random(seed)
        users = get_user_model()
        self.table = services.table_create(
            gm=users.objects.create_user("gail"), name="Deal", system="freeform")
        elsewhere = services.table_create(gm=users.objects.create_user("oscar"), name="Other", system="freeform")

        def join(table: Table, role: str, name: str) -> Membership:
            return services.membership_join(
                table=table, user=services.guest_user_create(), role=role, display_name=name
            )

        gm = self.table.members.get(role=Role.GM)
        self.members = {
            "gm": gm,
            "ann": join(self.table, Role.PLAYER, "Ann"),
            "bob": join(self.table, Role.PLAYER, "Bob"),
            "cleo": join(self.table, Role.PLAYER, "Cleo"),
            "watcher": join(self.table, Role.SPECTATOR, ""),
            "olga": join(elsewhere, Role.PLAYER, "Olga"),
        }
        first = services.deck_create(table=self.table, actor=gm, kind="major_arcana", rng=self.rng,
                                     allow_reversed=True, players_may_use=True)
        self.decks.append(first)
        # Cleo leaves holding two cards: only the GM may move them now.
        services.pile_deal(deck=first, actor=gm, count=2, to=[self.members["cleo"]])
        services.membership_remove(target=self.members["cleo"], actor=gm)
        self.members["cleo"].refresh_from_db()
        # Something in every hand and on the table, so card moves have cards to move from the start.
        services.pile_deal(deck=first, actor=gm, count=2, to=[self.members["ann"], self.members["bob"], gm])
        played = services.pile_draw(deck=first, actor=gm, count=2, to="play")
        services.card_discard(
            table=self.table, actor=gm, deck_id=first.pk, card_id=played[0].removesuffix("/r"))
        other_gm = elsewhere.members.get(role=Role.GM)
        self.foreign_deck = services.deck_create(
            table=elsewhere, actor=other_gm, kind="ten_value", rng=self.rng)
        self.table.refresh_from_db()
        self.seen_seq = self.table.next_seq - 1  # events from here on are checked as they come

    # What the table's rules say should happen, read from the database before acting

    def may_deal(self, who: str, deck: Deck) -> bool:
        """Dealing, recalling and shuffling the discards back: the GM, a personal deck's owner,
        or the player the GM named the deck's dealer (issue 11)."""
        deck = Deck.objects.get(pk=deck.pk)
        if deck.table_id != self.table.pk or who not in SEATED:
            return False
        return who == "gm" or self.members[who].pk in (deck.owner_id, deck.dealer_id)

    def may_use(self, who: str, deck: Deck) -> bool:
        """Drawing, shuffling, tidying the play area: whoever deals it, and every seated player
        when the GM opened it."""
        if self.may_deal(who, deck):
            return True
        fresh = Deck.objects.get(pk=deck.pk)
        return fresh.table_id == self.table.pk and who in SEATED and fresh.players_may_use

    def draw_tokens(self, deck_id: int) -> list[str]:
        draw = CardPlacement.objects.filter(deck_id=deck_id, pile__kind=PileKind.DRAW)
        return [c.token for c in draw.order_by("position")]

    def placement(self, deck_id: int, card_id: str) -> CardPlacement | None:
        return (
            CardPlacement.objects.select_related("pile", "deck")
            .filter(deck_id=deck_id, card_id=card_id, deck__table=self.table)
            .first()
        )

    def where(self, deck_id: int, card_id: str) -> str:
        card = self.placement(deck_id, card_id)
        return card.pile.kind if card else "nowhere"

    def holds(self, who: str, card: CardPlacement | None) -> bool:
        """In their hand (the GM: in any hand): what one may play or pass."""
        if who not in SEATED or card is None or card.pile.kind != PileKind.HAND:
            return False
        return who == "gm" or card.pile.owner_id == self.members[who].pk

    def may_move(self, who: str, card: CardPlacement | None) -> bool:
        """Held, or on the felt (the play area) laid there by oneself, from a deck its rules do not
        draw from (the GM: any card there): what one may discard or return."""
        if self.holds(who, card):
            return True
        if card is None or card.pile.kind != PileKind.PLAY or who not in SEATED:
            return False
        return who == "gm" or (not card.deck.rules and card.placed_by_id == self.members[who].pk)

    def hand(self, member: Membership) -> set[tuple[int, str]]:
        cards = CardPlacement.objects.filter(pile__kind=PileKind.HAND, pile__owner=member)
        return {(c.deck_id, c.token) for c in cards}

    def pick_deck(self, data: st.DataObject) -> Deck:
        return data.draw(st.sampled_from([*self.decks, *self.decks, *self.decks, self.foreign_deck]), label="deck")

    def pick_card(self, data: st.DataObject, who: str, source: str) -> tuple[str, int, str]:
        """(who acts, deck id, card id): a card from ``source``, or one that lies nowhere."""
        cards = CardPlacement.objects.filter(deck__table=self.table).order_by("pk")
        if source == "held":
            holders = {self.members[name].pk: name for name in SEATED}
            held = list(cards.filter(pile__kind=PileKind.HAND, pile__owner__in=holders)
                        .values_list("pile__owner_id", "deck_id", "card_id"))
            if held:
                owner, deck_id, card_id = data.draw(st.sampled_from(held), label="held card")
                return holders[owner], deck_id, card_id
            source = "own hand"
        me = self.members[who]
        if source == "own hand":
            cards = cards.filter(pile__kind=PileKind.HAND, pile__owner=me)
        elif source == "another hand":
            cards = cards.filter(pile__kind=PileKind.HAND).exclude(pile__owner=me)
        elif source != "nowhere":
            cards = cards.filter(pile__kind=source)
        options = list(cards.values_list("deck_id", "card_id")) if source != "nowhere" else []
        if options:
            return (who, *data.draw(st.sampled_from(options), label="card"))
        deck_ids = [d.pk for d in self.decks] + [self.foreign_deck.pk, 0]
        deck_id = data.draw(st.sampled_from(deck_ids), label="deck id")
        return who, deck_id, data.draw(st.sampled_from(BOGUS_IDS), label="id")

    def snapshot(self) -> tuple:
        """What a refusal must leave untouched, at every table. Events and seals are never
        edited once written, so their identity and state columns stand for them."""
        return (
            list(Table.objects.order_by("pk").values_list("pk", "next_seq")),
            list(CardPlacement.objects.order_by("pk").values_list("pk", "pile_id", "position", "reversed")),
            list(Event.objects.order_by("pk").values_list("pk", "table_id", "seq", "kind", "summary")),
            list(ShuffleCommitment.objects.order_by("pk").values_list(
                "pk", "digest", "dealt", "closed", "scrambled", "revealed_seq")),
            list(Deck.objects.order_by("pk").values_list(
                "pk", "name", "allow_reversed", "players_may_use", "owner_id", "dealer_id")),
            list(Pile.objects.order_by("pk").values_list("pk", "table_id", "kind", "deck_id", "owner_id")),
        )

    def attempt(self, op: str, allowed: bool, action: Callable[[], Any], what: str) -> Any:
        """Runs ``action``: it must succeed when ``allowed``, else raise ServiceError and change nothing."""
        before = self.snapshot()
        try:
            result = action()
        except ServiceError as refusal:
            assert not allowed, f"{what} was refused but should succeed: {refusal.message}"
            assert refusal.message.strip(), f"{what}: a refusal says why"
            assert self.snapshot() == before, f"{what}: a refusal changed something"
            OUTCOMES[op.split(" ")[0], "refused"] += 1
            return None
        assert allowed, f"{what} succeeded but should have been refused"
        OUTCOMES[op.split(" ")[0], "done"] += 1
        return result

    # Every operation, by anyone

    @precondition(lambda self: len(self.decks) < MAX_DECKS)
    @rule(who=GM_ACTORS, kind=KINDS, personal=st.sampled_from((None, None, "ann", "bob", "watcher", "cleo")),
          reversed_=st.booleans(), open_=st.booleans())
    def deck_create(self, who: str, kind: str, personal: str | None, reversed_: bool, open_: bool) -> None:
        owner = self.members[personal] if personal else None
        deck = self.attempt(
            "deck_create personal" if personal else "deck_create",
            who == "gm" and personal in (None, "ann", "bob"),
            lambda: services.deck_create(table=self.table, actor=self.members[who], kind=kind, rng=self.rng,
                                         owner=owner, allow_reversed=reversed_, players_may_use=open_),
            f"{who} creates a {kind} deck for {personal}",
        )
        if deck is not None:
            self.decks.append(deck)
            assert Counter(t.removesuffix("/r") for t in self.draw_tokens(deck.pk)) == kind_ids(kind)

    @rule(who=ACTORS, count=DRAW_COUNTS, to=st.sampled_from(("hand", "hand", "play", "floor")), data=st.data())
    def pile_draw(self, who: str, count: int, to: str, data: st.DataObject) -> None:
        deck = self.pick_deck(data)
        draw = self.draw_tokens(deck.pk)
        drawn = self.attempt(
            f"pile_draw to {to}",
            self.may_use(who, deck) and 1 <= count <= min(20, len(draw)) and to in ("hand", "play"),
            lambda: services.pile_draw(deck=deck, actor=self.members[who], count=count, to=to),
            f"{who} draws {count} from {deck.name} to {to}",
        )
        if drawn is not None:
            assert drawn == draw[:count], "a draw takes the top cards"
            for token in drawn:
                card = self.placement(deck.pk, token.removesuffix("/r"))
                assert card.pile.kind == to and (to == "play" or card.pile.owner_id == self.members[who].pk)

    @rule(who=GM_ACTORS, count=st.sampled_from((1, 1, 2, 3, 0, 21)),  # the dealer's: mostly the GM
          to=st.one_of(st.lists(st.sampled_from(SEATED), min_size=1, max_size=2),
                       st.lists(st.sampled_from(TARGETS), max_size=3)),
          data=st.data())
    def pile_deal(self, who: str, count: int, to: list[str], data: st.DataObject) -> None:
        deck = self.pick_deck(data)
        before = {t: len(self.hand(self.members[t])) for t in to}
        allowed = (self.may_deal(who, deck) and 1 <= count <= 20 and bool(to) and set(to) <= set(SEATED)
                   and count * len(set(to)) <= len(self.draw_tokens(deck.pk)))
        self.attempt("pile_deal", allowed, lambda: services.pile_deal(
            deck=deck, actor=self.members[who], count=count, to=[self.members[t] for t in to]),
            f"{who} deals {count} from {deck.name} to {to}")
        if allowed:
            for t in set(to):
                assert len(self.hand(self.members[t])) == before[t] + count

    @rule(who=ACTORS, source=SOURCES, data=st.data())
    def card_play(self, who: str, source: str, data: st.DataObject) -> None:
        who, deck_id, card_id = self.pick_card(data, who, source)
        allowed = self.holds(who, self.placement(deck_id, card_id))
        self.attempt("card_play", allowed, lambda: services.card_play(
            table=self.table, actor=self.members[who], deck_id=deck_id, card_id=card_id),
            f"{who} plays {card_id} from {self.where(deck_id, card_id)}")
        if allowed:
            assert self.where(deck_id, card_id) == PileKind.PLAY

    @rule(who=ACTORS, source=SOURCES, data=st.data())
    def card_discard(self, who: str, source: str, data: st.DataObject) -> None:
        who, deck_id, card_id = self.pick_card(data, who, source)
        origin = self.where(deck_id, card_id)
        allowed = self.may_move(who, self.placement(deck_id, card_id))
        self.attempt(f"card_discard from {origin}", allowed, lambda: services.card_discard(
            table=self.table, actor=self.members[who], deck_id=deck_id, card_id=card_id),
            f"{who} discards {card_id} from {origin}")
        if allowed:
            card = self.placement(deck_id, card_id)
            assert card.pile.kind == PileKind.DISCARD and card.pile.deck_id == deck_id
            assert card.position == max(card.pile.cards.values_list("position", flat=True)), "lands on top"

    @rule(who=ACTORS, source=SOURCES, where=st.sampled_from(("top", "bottom", "top", "middle")), data=st.data())
    def card_return(self, who: str, source: str, where: str, data: st.DataObject) -> None:
        who, deck_id, card_id = self.pick_card(data, who, source)
        origin = self.where(deck_id, card_id)
        allowed = where in ("top", "bottom") and self.may_move(who, self.placement(deck_id, card_id))
        self.attempt(f"card_return {where} from {origin}", allowed, lambda: services.card_return(
            table=self.table, actor=self.members[who], deck_id=deck_id, card_id=card_id, where=where),
            f"{who} returns {card_id} from {origin} to the {where}")
        if allowed:
            ids = [t.removesuffix("/r") for t in self.draw_tokens(deck_id)]
            assert (ids[0] if where == "top" else ids[-1]) == card_id
            self.pinned[deck_id].add(card_id)
            RETURNS[where, origin] += 1

    @rule(where=st.sampled_from(("top", "bottom")), data=st.data())
    def hands_laid_down(self, where: str, data: st.DataObject) -> None:
        """A round ends: whoever holds a card of one deck plays it face up (the GM for a
        removed player), but the last card held goes back face down on the top or the
        bottom: the outside scan that found orders revealed naming such a card. The events
        are checked after each move, as they would be after a step of their own."""
        deck = data.draw(st.sampled_from(self.decks), label="deck")
        held = list(CardPlacement.objects.filter(deck=deck, pile__kind=PileKind.HAND)
                    .order_by("pk").values_list("pile__owner_id", "card_id"))
        seated = {self.members[name].pk: name for name in SEATED}
        for i, (owner, card_id) in enumerate(held):
            who = seated.get(owner, "gm")
            if i < len(held) - 1:
                self.attempt("hands_laid_down play", True, lambda: services.card_play(
                    table=self.table, actor=self.members[who], deck_id=deck.pk, card_id=card_id),
                    f"{who} lays down {card_id}")
            else:
                waiting = ShuffleCommitment.objects.filter(
                    deck=deck, closed=True, scrambled=True, revealed_seq=None).exists()
                self.attempt("hands_laid_down return", True, lambda: services.card_return(
                    table=self.table, actor=self.members[who], deck_id=deck.pk, card_id=card_id,
                    where=where), f"{who} puts {card_id} back on the {where}")
                self.pinned[deck.pk].add(card_id)
                SEAL_CHECKS["last card put back, a seal waiting"] += waiting
            self.new_events_show_each_viewer_only_what_they_may_see()

    @rule(who=ACTORS, source=SOURCES, to=st.sampled_from(("ann", "bob", *TARGETS)), data=st.data())
    def card_pass(self, who: str, source: str, to: str, data: st.DataObject) -> None:
        who, deck_id, card_id = self.pick_card(data, who, source)
        card = self.placement(deck_id, card_id)
        allowed = self.holds(who, card) and to in SEATED and card.pile.owner_id != self.members[to].pk
        self.attempt("card_pass", allowed, lambda: services.card_pass(
            table=self.table, actor=self.members[who], deck_id=deck_id, card_id=card_id,
            to=self.members[to]), f"{who} passes {card_id} from {self.where(deck_id, card_id)} to {to}")
        if allowed:
            assert self.placement(deck_id, card_id).pile.owner_id == self.members[to].pk

    @rule(who=ACTORS, data=st.data())
    def deck_shuffle(self, who: str, data: st.DataObject) -> None:
        deck = self.pick_deck(data)
        draw = Counter(self.draw_tokens(deck.pk))
        allowed = self.may_use(who, deck)
        self.attempt("deck_shuffle", allowed, lambda: services.deck_shuffle(
            deck=deck, actor=self.members[who], rng=self.rng), f"{who} shuffles {deck.name}")
        if allowed:
            ids = Counter(t.removesuffix("/r") for t in self.draw_tokens(deck.pk))
            assert ids == Counter(t.removesuffix("/r") for t in draw), "a shuffle keeps the same cards"
            self.pinned[deck.pk].clear()

    @rule(who=ACTORS, data=st.data())
    def deck_discard_reshuffle(self, who: str, data: st.DataObject) -> None:
        deck = self.pick_deck(data)
        discards = CardPlacement.objects.filter(deck=deck, pile__kind=PileKind.DISCARD).count()
        allowed = self.may_deal(who, deck) and discards > 0
        self.attempt("deck_discard_reshuffle", allowed, lambda: services.deck_discard_reshuffle(
            deck=deck, actor=self.members[who], rng=self.rng), f"{who} reshuffles the discards of {deck.name}")
        if allowed:
            assert not CardPlacement.objects.filter(deck=deck, pile__kind=PileKind.DISCARD).exists()
            self.pinned[deck.pk].clear()

    @rule(who=GM_ACTORS, data=st.data())  # the dealer's: mostly the GM, to see it done
    def deck_recall(self, who: str, data: st.DataObject) -> None:
        deck = self.pick_deck(data)
        allowed = self.may_deal(who, deck)
        self.attempt("deck_recall", allowed, lambda: services.deck_recall(
            deck=deck, actor=self.members[who], rng=self.rng), f"{who} recalls {deck.name}")
        if allowed:
            assert len(self.draw_tokens(deck.pk)) == sum(kind_ids(deck.kind).values())
            self.pinned[deck.pk].clear()

    @rule(who=GM_ACTORS, count=st.sampled_from((1, 2, 3, 0, 25, 80)), data=st.data())
    def deck_peek(self, who: str, count: int, data: st.DataObject) -> None:
        deck = self.pick_deck(data)
        draw = self.draw_tokens(deck.pk)
        allowed = who == "gm" and self.may_use(who, deck) and 1 <= count <= len(draw)
        seen = self.attempt("deck_peek", allowed, lambda: services.deck_peek(
            deck=deck, actor=self.members[who], count=count), f"{who} peeks at {count} of {deck.name}")
        if seen is not None:
            assert seen == draw[:count]
            self.pinned[deck.pk] |= {t.removesuffix("/r") for t in seen}

    @rule(who=GM_ACTORS, count=st.integers(0, 4),
          mistake=st.sampled_from((None, None, "duplicate", "not on top", "unknown")), data=st.data())
    def deck_reorder(self, who: str, count: int, mistake: str | None, data: st.DataObject) -> None:
        deck = self.pick_deck(data)
        ids = [t.removesuffix("/r") for t in self.draw_tokens(deck.pk)]
        order = list(data.draw(st.permutations(ids[:count]), label="order"))
        if mistake == "duplicate" and len(order) >= 2:
            order[0] = order[-1]
        elif mistake == "unknown" and order:
            order[0] = "std:S:99"
        elif mistake == "not on top" and order and len(ids) > count:
            order[0] = ids[count]
        else:
            mistake = None
        allowed = who == "gm" and self.may_use(who, deck) and bool(order) and not mistake
        self.attempt("deck_reorder", allowed, lambda: services.deck_reorder(
            deck=deck, actor=self.members[who], order=list(order)), f"{who} reorders {deck.name} to {order}")
        if allowed:
            assert [t.removesuffix("/r") for t in self.draw_tokens(deck.pk)][: len(order)] == order
            self.pinned[deck.pk] |= set(order)

    @rule(who=GM_ACTORS, reversed_=st.booleans(), open_=st.booleans(),
          dealer=st.sampled_from((None, None, "ann", "bob", "watcher", "gm")), data=st.data())
    def deck_configure(self, who: str, reversed_: bool, open_: bool, dealer: str | None,
                       data: st.DataObject) -> None:
        deck = self.pick_deck(data)
        allowed = who == "gm" and self.may_use(who, deck) and dealer in (None, "ann", "bob")
        self.attempt("deck_configure", allowed, lambda: services.deck_configure(
            deck=deck, actor=self.members[who], allow_reversed=reversed_, players_may_use=open_,
            dealer=self.members[dealer] if dealer else None),
            f"{who} configures {deck.name}")
        if allowed:
            fresh = Deck.objects.get(pk=deck.pk)
            assert fresh.dealer_id == (self.members[dealer].pk if dealer else None)
            assert fresh.players_may_use == open_
            assert fresh.allow_reversed == (reversed_ and deck_kind(deck.kind).reversible)

    # After every step

    @invariant()
    def every_card_is_in_exactly_one_pile(self) -> None:
        """'every card of a deck is in exactly one pile at every moment': none lost, none doubled,
        each in a pile of its own table (and of its own deck, for draw and discard piles)."""
        held: dict[int, Counter[str]] = defaultdict(Counter)
        draw_positions: dict[int, list[int]] = defaultdict(list)
        draw_piles: dict[int, list[tuple[int, str]]] = defaultdict(list)
        rows = CardPlacement.objects.values_list(
            "deck_id", "deck__table_id", "card_id", "pile__table_id", "pile__kind", "pile__deck_id",
            "position", "reversed",
        )
        for deck_id, table_id, card_id, pile_table, pile_kind, pile_deck, position, reversed_ in rows:
            held[deck_id][card_id] += 1
            assert pile_table == table_id, f"{card_id} of deck {deck_id} lies at another table"
            if pile_kind in (PileKind.DRAW, PileKind.DISCARD):
                assert pile_deck == deck_id, f"{card_id} of deck {deck_id} lies in deck {pile_deck}'s {pile_kind}"
            if pile_kind == PileKind.DRAW:
                draw_positions[deck_id].append(position)
                draw_piles[deck_id].append((position, card_id + ("/r" if reversed_ else "")))
            assert not reversed_ or card_by_id(card_id).reversible, f"{card_id} cannot lie reversed"
        for deck_id, kind in Deck.objects.values_list("pk", "kind"):
            doubled, lost = held[deck_id] - kind_ids(kind), kind_ids(kind) - held[deck_id]
            assert not doubled and not lost, f"deck {deck_id}: {doubled} doubled, {lost} lost"
            positions = draw_positions[deck_id]
            assert len(positions) == len(set(positions)), f"deck {deck_id}: two cards share a draw position"
        # The open seal is the draw pile: its undealt rest, top first, is what is dealt next.
        open_seals = Counter(ShuffleCommitment.objects.filter(closed=False).values_list("deck_id", flat=True))
        assert all(n == 1 for n in open_seals.values()), f"two open seals: {open_seals}"
        for deck_id, order, dealt in ShuffleCommitment.objects.filter(closed=False).values_list(
            "deck_id", "order", "dealt"
        ):
            draw = [t for _, t in sorted(draw_piles[deck_id])]
            assert order[dealt:] == draw, f"deck {deck_id}: seal and pile differ"
        for deck_id in draw_piles:
            assert deck_id in open_seals, f"deck {deck_id}: cards are dealt from an unsealed pile"

    @invariant()
    def seqs_stay_consecutive(self) -> None:
        tables = Table.objects.annotate(n=Count("events"), low=Min("events__seq"), high=Max("events__seq"))
        for table in tables:
            assert (table.n, table.low, table.high) == (table.next_seq - 1, 1, table.next_seq - 1)

    @invariant()
    def new_events_show_each_viewer_only_what_they_may_see(self) -> None:
        new = list(self.table.events.filter(seq__gt=self.seen_seq).order_by("seq"))
        if new:
            self.check_public_parts(new)
            self.check_viewers(new)
            self.check_seals(new)
            self.seen_seq = new[-1].seq

    def check_public_parts(self, new: list[Event]) -> None:
        """Counts match the table; a public payload shows only cards lying face up; a hidden
        move's public summary names no card; the deck order shows only in deck.revealed."""
        counts, whole = expected_counts(self.table), expected_counts(self.table, gm=True)
        face_up = {(c.deck_id, c.token) for c in CardPlacement.objects.filter(
            deck__table=self.table, pile__kind__in=(PileKind.PLAY, PileKind.DISCARD))}
        names = frozenset().union(*(kind_names(d.kind) for d in self.decks))
        for event in new:
            if "counts" in event.payload:
                assert event.payload["counts"] == counts, f"{event}: counts differ from the table"
                assert gm_part(event)["counts"] == whole, f"{event}: the GM's counts differ from the table"
            if event.kind == "deck.revealed":
                continue
            shown = cards_shown_in(event.payload)
            stray = {s for s in strings_in(event.payload) if is_card_token(s)} - {t for _, t in shown}
            assert not stray, f"{event}: cards hide in the payload: {stray}"
            allowed = set(face_up)
            if event.kind == "card.returned":  # went back from the play area: everyone saw it go
                allowed |= {(event.payload["deck"], t) for t in event.payload.get("cards", [])}
            assert shown <= allowed, f"{event}: the public payload shows hidden cards {shown - allowed}"
            if "cards" not in event.payload:
                named = [n for n in names if n in event.summary]
                assert not named, f"{event}: the public summary names {named}: {event.summary}"

    def check_viewers(self, new: list[Event]) -> None:
        """The GM sees all; a spectator never a private part; a player the private part of
        their own events only, holding their own hand and the cards they moved."""
        gm_view = events_for(viewer_of(self.members["gm"]), self.table.pk, after=self.seen_seq)
        assert [s.event.seq for s in gm_view] == [e.seq for e in new], "the GM sees every event"
        assert all(s.reading == "gm" and s.private == private_part(s.event.private, "gm") for s in gm_view)
        for name in ("ann", "bob", "watcher"):
            member = self.members[name]
            mine = self.hand(member)
            for seen in events_for(viewer_of(member), self.table.pk, after=self.seen_seq):
                event = seen.event
                if seen.reading == "public":
                    assert seen.private is None and seen.summary == event.summary, event
                    continue
                assert name != "watcher", f"{event}: a spectator sees a private part"
                assert seen.reading == "private" and event.owner_id == member.pk, event
                private = seen.private or {}
                if "hand" in private:
                    shown = {(h["deck"], h["token"]) for h in private["hand"]}
                    assert shown == mine, f"{event}: not {name}'s hand"
                cards = {(event.payload.get("deck"), t) for t in private.get("cards", [])}
                if event.kind == "card.passed":
                    assert cards <= self.hand(Membership.objects.get(pk=event.payload["to"])), event
                elif event.kind == "card.returned":
                    assert cards <= {(event.payload["deck"], t) for t in self.draw_tokens(event.payload["deck"])}
                else:
                    assert cards <= mine, f"{event}: {name} is shown cards not in their hand"

    def hidden_now(self, deck_id: int) -> tuple[set[str], set[str]]:
        """Cards of the deck hidden from some viewer at a place a viewer could tell: (those
        in a hand, those face down in the draw pile where a public move or the GM's look
        put them since its last shuffle)."""
        lying = CardPlacement.objects.filter(deck_id=deck_id).values_list("card_id", "pile__kind")
        held = {card for card, kind in lying if kind == PileKind.HAND}
        pinned = {card for card, kind in lying if kind == PileKind.DRAW and card in self.pinned[deck_id]}
        return held, pinned

    def check_seals(self, new: list[Event]) -> None:
        """Cards dealt come off the sealed order where the event says; a revealed order
        matches its digest, and is revealed only when no card it names, dealt or not, and no
        card it leaves out is hidden where a viewer could place it: in a hand, or face down
        in the draw pile put back on the top or bottom, or looked at or rearranged by the GM,
        since the last shuffle."""
        for event in new:
            p = gm_part(event)  # a draw's place in the order may be the GM's (selectors.draw_counts_held_back)
            SEAL_CHECKS[event.kind] += 1
            if event.kind in ("cards.drawn", "cards.dealt"):
                seal = ShuffleCommitment.objects.filter(pk=p["commitment"], deck_id=p["deck"]).first()
                assert seal is not None, f"{event}: dealt under no seal"
                tokens = p.get("cards") or event.private["cards"]
                if event.kind == "cards.drawn":
                    assert tokens == seal.order[p["start"]:p["start"] + p["count"]], event
                else:
                    assert tokens == [seal.order[i] for i in p["positions"]], event
            elif event.kind == "deck.revealed":
                assert verify(p["order"], p["salt"], p["digest"]), event
                committed = self.table.events.get(kind="deck.committed", payload__commitment=p["commitment"])
                assert committed.kind == "deck.committed"
                assert committed.payload["digest"] == p["digest"]
                assert committed.payload["commitment"] == p["commitment"]
                # An order tells where the cards dealt under it went and how the rest lay, and,
                # by what it leaves out, which cards were out of the pile; with the public moves
                # since, that can place a card put back face down.
                deck = Deck.objects.get(pk=p["deck"])
                named = {t.removesuffix("/r") for t in p["order"]}
                left_out = set(kind_ids(deck.kind)) - named
                held, pinned = self.hidden_now(deck.pk)
                for told, how in ((named, "naming"), (left_out, "leaving out")):
                    assert not told & pinned, f"{event}: revealed {how} {told & pinned}, face down where seen"
                    assert not told & held, f"{event}: revealed {how} {told & held}, in hands"


@pytest.mark.django_db
def test_random_card_play_keeps_every_card_in_exactly_one_place() -> None:
    """Issue 3: "every card of a deck is in exactly one pile at every moment", whoever acts and
    whatever they try; refusals raise ServiceError and change nothing."""
    OUTCOMES.clear()
    SEAL_CHECKS.clear()
    RETURNS.clear()
    # Each run is fixed by a seed rather than by derandomize's digest of CardTable's source, so
    # that editing a check leaves the run as it was. Changing what the rules draw changes the
    # runs (swarm testing turns rules off per example), so runs go on, seed after seed (at most
    # five), until every operation has both succeeded and been refused and the outside scan's
    # scenario (the last card put back while a seal waits) has come up.
    for run in range(1, 6):
        run_state_machine_as_test(
            seed(run)(CardTable),
            settings=settings(
                max_examples=12,
                stateful_step_count=40,
                deadline=None,
                derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
            ),
        )
        if all(OUTCOMES[op, "done"] and OUTCOMES[op, "refused"] for op in OPERATIONS) and (
                SEAL_CHECKS["last card put back, a seal waiting"]):
            break
    for op in OPERATIONS:
        assert OUTCOMES[op, "done"] and OUTCOMES[op, "refused"], (
            f"{op} should both succeed and be refused somewhere in the run: {sorted(OUTCOMES.items())}"
        )
    assert all(SEAL_CHECKS[kind] for kind in ("cards.drawn", "cards.dealt", "deck.revealed")), SEAL_CHECKS
    for where in ("top", "bottom"):
        assert any(n for (put, _), n in RETURNS.items() if put == where), f"no card put back on the {where}"
    assert SEAL_CHECKS["last card put back, a seal waiting"], "the outside scan's scenario never came up"
