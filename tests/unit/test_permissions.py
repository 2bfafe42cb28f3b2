"""Every seat against every verb, written out independently of the matrix it checks."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tabletop.permissions import (
    MATRIX,
    Seat,
    Verb,
    Viewer,
    can,
    can_claim_character,
    can_edit_character,
    lens_for,
    seat_of,
)

ALL = set(Verb)
PLAYER = {
    Verb.WATCH, Verb.EXPORT, Verb.CHAT, Verb.ROLL, Verb.CHARACTER_CREATE,
    Verb.CHARACTER_CLAIM, Verb.CHARACTER_EDIT_OWN, Verb.PRESENCE_SEE, Verb.CARD_PLAY,
}
SPECTATOR = {Verb.WATCH, Verb.EXPORT, Verb.PRESENCE_SEE}
EXPECTED = {
    Seat.GM: ALL,
    Seat.PLAYER: PLAYER,
    Seat.SPECTATOR: SPECTATOR,
    Seat.REMOVED: set(),
    Seat.STRANGER: set(),
}


@pytest.mark.parametrize("seat", list(Seat))
@pytest.mark.parametrize("verb", list(Verb))
def test_every_seat_against_every_verb(seat: Seat, verb: Verb) -> None:
    assert can(seat, verb) is (verb in EXPECTED[seat])


def test_matrix_covers_every_seat() -> None:
    assert set(MATRIX) == set(Seat)


def test_gm_only_verbs_are_refused_to_players() -> None:
    for verb in (Verb.MEMBER_REMOVE, Verb.MEMBER_RENAME, Verb.LINKS_MANAGE, Verb.NPC_CREATE,
                 Verb.CHARACTER_EDIT_ANY, Verb.DECK_MANAGE):
        assert not can(Seat.PLAYER, verb)


def member(pk: int, role: str, removed: bool = False) -> SimpleNamespace:
    return SimpleNamespace(pk=pk, role=role, removed_at="then" if removed else None)


def test_seat_of_reads_role_and_removal() -> None:
    assert seat_of(None) == Seat.STRANGER
    assert seat_of(member(1, "gm")) == Seat.GM
    assert seat_of(member(2, "player")) == Seat.PLAYER
    assert seat_of(member(3, "spectator")) == Seat.SPECTATOR
    assert seat_of(member(4, "player", removed=True)) == Seat.REMOVED


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
    free = SimpleNamespace(owner_id=None, is_npc=False)
    npc = SimpleNamespace(owner_id=None, is_npc=True)
    taken = SimpleNamespace(owner_id=9, is_npc=False)
    assert can_claim_character(member(2, "player"), free)
    assert not can_claim_character(member(2, "player"), npc)
    assert not can_claim_character(member(2, "player"), taken)
    assert not can_claim_character(member(3, "spectator"), free)


GM, ANN, BOB, WATCHER = (Viewer(1, Seat.GM), Viewer(2, Seat.PLAYER), Viewer(3, Seat.PLAYER),
                         Viewer(4, Seat.SPECTATOR))


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
def test_lens_for_each_audience(audience: str, private_audience: str, expected: dict) -> None:
    for viewer, lens in expected.items():
        got = lens_for(viewer, audience=audience, private_audience=private_audience, owner_id=2)
        assert got == lens, (viewer, audience, private_audience)


def test_removed_and_strangers_see_nothing() -> None:
    for seat in (Seat.REMOVED, Seat.STRANGER):
        viewer = Viewer(2, seat)
        assert lens_for(viewer, audience="everyone", private_audience="owner", owner_id=2) is None
