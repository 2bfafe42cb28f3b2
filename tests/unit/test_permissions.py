"""Every seat against every verb, written out independently of the matrix it checks."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tabletop.feed.seat import GM_ONLY, Viewer, private_part, reading_for, readings_needed
from tabletop.permissions import (
    DECK_MATRIX,
    DECK_TABLE_VERB,
    MATRIX,
    DeckStanding,
    DeckVerb,
    Standing,
    Verb,
    can,
    can_claim_character,
    can_edit_character,
    deck_dealers,
    deck_standing,
    may_move_card,
    may_see_hand,
    may_on_deck,
    standing_of,
)

ALL = set(Verb)
PLAYER = {
    Verb.WATCH, Verb.EXPORT, Verb.CHAT, Verb.ROLL, Verb.CHARACTER_CREATE,
    Verb.CHARACTER_CLAIM, Verb.CHARACTER_EDIT_OWN, Verb.PRESENCE_SEE, Verb.CARD_PLAY, Verb.TOKEN_MOVE,
}
SPECTATOR = {Verb.WATCH, Verb.EXPORT, Verb.PRESENCE_SEE}
EXPECTED = {
    Standing.GM: ALL,
    Standing.PLAYER: PLAYER,
    Standing.SPECTATOR: SPECTATOR,
    Standing.REMOVED: set(),
    Standing.STRANGER: set(),
}


@pytest.mark.parametrize("seat", list(Standing))
@pytest.mark.parametrize("verb", list(Verb))
def test_every_seat_against_every_verb(seat: Standing, verb: Verb) -> None:
    assert can(seat, verb) is (verb in EXPECTED[seat])


def test_matrix_covers_every_seat() -> None:
    assert set(MATRIX) == set(Standing)


def test_gm_only_verbs_are_refused_to_players() -> None:
    for verb in (Verb.MEMBER_REMOVE, Verb.MEMBER_RENAME, Verb.LINKS_MANAGE, Verb.NPC_CREATE, Verb.NPC_MANAGE,
                 Verb.CHARACTER_EDIT_ANY, Verb.DECK_MANAGE, Verb.SCENE_MANAGE):
        assert not can(Standing.PLAYER, verb)


def member(pk: int, role: str, removed: bool = False) -> SimpleNamespace:
    return SimpleNamespace(pk=pk, role=role, removed_at="then" if removed else None)


def test_seat_of_reads_role_and_removal() -> None:
    assert standing_of(None) == Standing.STRANGER
    assert standing_of(member(1, "gm")) == Standing.GM
    assert standing_of(member(2, "player")) == Standing.PLAYER
    assert standing_of(member(3, "spectator")) == Standing.SPECTATOR
    assert standing_of(member(4, "player", removed=True)) == Standing.REMOVED


def test_players_edit_only_their_own_character() -> None:
    mine = SimpleNamespace(owner_id=2, is_npc=False)
    theirs = SimpleNamespace(owner_id=5, is_npc=False)
    assert can_edit_character(member(2, "player"), mine)
    assert not can_edit_character(member(2, "player"), theirs)
    assert can_edit_character(member(1, "gm"), theirs)
    assert not can_edit_character(member(3, "spectator"), SimpleNamespace(owner_id=3, is_npc=False))
    assert not can_edit_character(member(2, "player", removed=True), mine)
    assert not can_edit_character(None, mine)


def test_only_unowned_player_characters_can_be_claimed() -> None:
    free = SimpleNamespace(owner_id=None, is_npc=False, retired=False)
    npc = SimpleNamespace(owner_id=None, is_npc=True, retired=False)
    taken = SimpleNamespace(owner_id=9, is_npc=False, retired=False)
    retired = SimpleNamespace(owner_id=None, is_npc=False, retired=True)  # put away by the GM
    assert can_claim_character(member(2, "player"), free)
    assert not can_claim_character(member(2, "player"), npc)
    assert not can_claim_character(member(2, "player"), taken)
    assert not can_claim_character(member(2, "player"), retired)
    assert not can_claim_character(member(3, "spectator"), free)


GM, ANN, BOB, WATCHER = (Viewer(1, Standing.GM), Viewer(2, Standing.PLAYER), Viewer(3, Standing.PLAYER),
                         Viewer(4, Standing.SPECTATOR))


@pytest.mark.parametrize(
    ("audience", "private_audience", "expected"),
    [
        # public event, no secret: everyone sees it, the owner with its private part
        ("everyone", "owner", {GM: "gm", ANN: "private", BOB: "public", WATCHER: "public"}),
        # a roll to the GM only by Ann: Ann and the GM
        ("owner", "owner", {GM: "gm", ANN: "private", BOB: None, WATCHER: None}),
        # a blind roll by Ann: Ann sees that she rolled, only the GM sees the result
        ("owner", "gm", {GM: "gm", ANN: "public", BOB: None, WATCHER: None}),
        # GM-only event
        ("gm", "gm", {GM: "gm", ANN: None, BOB: None, WATCHER: None}),
    ],
)
def test_reading_for_each_audience(audience: str, private_audience: str, expected: dict) -> None:
    for viewer, reading in expected.items():
        got = reading_for(viewer, audience=audience, private_audience=private_audience, owner_id=2)
        assert got == reading, (viewer, audience, private_audience)


def test_removed_and_strangers_see_nothing() -> None:
    for seat in (Standing.REMOVED, Standing.STRANGER):
        viewer = Viewer(2, seat)
        assert reading_for(viewer, audience="everyone", private_audience="owner", owner_id=2) is None


# Decks (issue 11: "a player who may use a deck draws, plays, discards, passes, returns;
# dealing to others and recalling are the GM's unless the GM grants a player the dealer's role")

USE = {DeckVerb.DRAW, DeckVerb.SHUFFLE, DeckVerb.TIDY}
DEALS = {DeckVerb.DEAL, DeckVerb.RESHUFFLE_DISCARD, DeckVerb.RECALL}
DECK_EXPECTED = {
    DeckStanding.GM: set(DeckVerb),
    DeckStanding.DEALER: USE | DEALS,
    DeckStanding.USER: USE,
    DeckStanding.CLOSED: set(),
    DeckStanding.RULED: set(),
    DeckStanding.NONE: set(),
}


def deck(*, owner: int | None = None, dealer: int | None = None, open_: bool = False,
         rules: bool = False) -> SimpleNamespace:
    return SimpleNamespace(owner_id=owner, dealer_id=dealer, players_may_use=open_, rules=rules)


@pytest.mark.parametrize("standing", list(DeckStanding))
@pytest.mark.parametrize("verb", list(DeckVerb))
def test_every_deck_standing_against_every_deck_verb(standing: DeckStanding, verb: DeckVerb) -> None:
    assert (verb in DECK_MATRIX[standing]) is (verb in DECK_EXPECTED[standing])


@pytest.mark.parametrize(
    ("who", "the_deck", "standing"),
    [
        (member(1, "gm"), deck(), DeckStanding.GM),
        (member(2, "player"), deck(), DeckStanding.CLOSED),
        (member(2, "player"), deck(open_=True), DeckStanding.USER),
        (member(2, "player"), deck(owner=2), DeckStanding.DEALER),
        (member(2, "player"), deck(dealer=2), DeckStanding.DEALER),
        (member(2, "player"), deck(dealer=5, open_=True), DeckStanding.USER),
        (member(2, "player", removed=True), deck(owner=2, open_=True), DeckStanding.NONE),
        (member(3, "spectator"), deck(dealer=3, open_=True), DeckStanding.NONE),
        (None, deck(open_=True), DeckStanding.NONE),
        (member(1, "gm"), deck(owner=2, rules=True), DeckStanding.GM),
        (member(2, "player"), deck(owner=2, dealer=2, open_=True, rules=True), DeckStanding.RULED),
        (member(3, "spectator"), deck(rules=True), DeckStanding.NONE),
    ],
)
def test_how_a_member_stands_to_a_deck(who, the_deck, standing: DeckStanding) -> None:
    assert deck_standing(who, the_deck) == standing


def test_a_player_on_an_open_deck_may_not_deal_recall_or_reshuffle_the_discards() -> None:
    """The outside scan: a player dealt and recalled every hand from a deck open to players."""
    ann = member(2, "player")
    for verb in DEALS:
        assert not may_on_deck(ann, deck(open_=True), verb)
        assert may_on_deck(ann, deck(open_=True, dealer=2), verb)
    for verb in (DeckVerb.PEEK, DeckVerb.REORDER, DeckVerb.CONFIGURE):
        assert not may_on_deck(ann, deck(owner=2, dealer=2, open_=True), verb)
    assert DECK_TABLE_VERB[DeckVerb.PEEK] == Verb.DECK_MANAGE
    assert DECK_TABLE_VERB[DeckVerb.DEAL] == Verb.CARD_PLAY


def test_a_card_in_a_hand_is_moved_by_its_holder_and_the_gm_only() -> None:
    closed = deck()
    assert may_move_card(member(2, "player"), pile_kind="hand", pile_owner_id=2, deck=closed)
    assert not may_move_card(member(2, "player"), pile_kind="hand", pile_owner_id=5, deck=closed)
    assert may_move_card(member(1, "gm"), pile_kind="hand", pile_owner_id=5, deck=closed)
    assert not may_move_card(member(3, "spectator"), pile_kind="hand", pile_owner_id=3, deck=closed)
    assert not may_move_card(member(2, "player", removed=True), pile_kind="hand", pile_owner_id=2, deck=closed)
    for kind in ("draw", "discard"):
        assert not may_move_card(member(1, "gm"), pile_kind=kind, pile_owner_id=None, deck=closed)


def test_a_card_on_the_felt_is_moved_by_whoever_played_it_and_the_gm_only() -> None:
    """Issue 36: "A card on the felt is moved by whoever played it, by a rule, or by the GM; no
    one else", whoever may use its deck."""
    for used in (deck(), deck(open_=True)):
        assert may_move_card(member(2, "player"), pile_kind="play", pile_owner_id=None, deck=used, placed_by_id=2)
        assert not may_move_card(member(4, "player"), pile_kind="play", pile_owner_id=None, deck=used, placed_by_id=2)
        assert not may_move_card(member(4, "player"), pile_kind="play", pile_owner_id=None, deck=used)
        assert may_move_card(member(1, "gm"), pile_kind="play", pile_owner_id=None, deck=used, placed_by_id=2)
        assert not may_move_card(member(3, "spectator"), pile_kind="play", pile_owner_id=None, deck=used,
                                 placed_by_id=3)
        assert not may_move_card(member(2, "player", removed=True), pile_kind="play", pile_owner_id=None,
                                 deck=used, placed_by_id=2)


def test_a_deck_the_rules_draw_from_is_moved_by_its_rules_and_the_gm_alone() -> None:
    """Issue 21: "Report Card's owner can draw the top card of their own deck into their hand,
    look at it, and put it at the bottom ... The same buttons reach Shadows' combat deck"."""
    ruled = deck(owner=2, rules=True)
    for verb in DeckVerb:
        assert not may_on_deck(member(2, "player"), ruled, verb)
        assert may_on_deck(member(1, "gm"), ruled, verb)
    for kind in ("hand", "play"):
        assert not may_move_card(member(2, "player"), pile_kind=kind, pile_owner_id=2, deck=ruled)
        assert may_move_card(member(1, "gm"), pile_kind=kind, pile_owner_id=2, deck=ruled)
    assert deck_dealers(ruled) == []


def test_the_dealers_of_a_deck_are_its_owner_and_its_dealer() -> None:
    assert deck_dealers(deck()) == []
    assert deck_dealers(deck(owner=2, dealer=5)) == [2, 5]
    assert deck_dealers(deck(owner=2, dealer=2)) == [2]


# The socket renders an event once per reading in readings_needed, and each socket picks its own
# with reading_for: the two must agree, or a viewer would get no frame (or one never read).

@pytest.mark.parametrize("audience", ["everyone", "owner", "gm"])
@pytest.mark.parametrize("private_audience", ["owner", "gm"])
def test_the_lenses_rendered_are_exactly_those_the_viewers_pick(audience: str, private_audience: str) -> None:
    owner = 2
    viewers = [
        Viewer(1, Standing.GM), Viewer(owner, Standing.PLAYER), Viewer(3, Standing.PLAYER), Viewer(4, Standing.SPECTATOR),
        Viewer(5, Standing.REMOVED), Viewer(0, Standing.STRANGER),
    ]
    picked = {
        reading_for(v, audience=audience, private_audience=private_audience, owner_id=owner) for v in viewers
    } - {None}
    assert set(readings_needed(audience=audience, private_audience=private_audience)) == picked


def test_a_hand_is_seen_by_its_holder_and_the_gm_only() -> None:
    assert may_see_hand(member(1, "gm"), 2)
    assert may_see_hand(member(2, "player"), 2)
    assert not may_see_hand(member(3, "player"), 2)
    assert not may_see_hand(member(4, "spectator"), 4)
    assert not may_see_hand(member(2, "player", removed=True), 2)
    assert not may_see_hand(None, 2)


def test_the_gms_own_part_of_an_event_reaches_the_gm_alone() -> None:
    """A figure the GM keeps (a draw pile's size while the GM holds cards of its deck) rides in the
    event's private part under ``GM_ONLY``: the GM reads it laid over the rest, the owner (a
    player who drew) reads the rest without it, anyone else nothing."""
    private = {"hand": ["M:W3"], GM_ONLY: {"start": 11, "counts": {"decks": {"1": {"draw": 41}}}}}
    assert private_part(private, "gm") == {"hand": ["M:W3"], "start": 11, "counts": {"decks": {"1": {"draw": 41}}}}
    assert private_part(private, "private") == {"hand": ["M:W3"]}
    assert private_part(private, "public") == {}
