"""The one matrix of role x verb, and what each viewer may see of an event.

Views, consumers and selectors all ask here; nothing else decides who may do what.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from tabletop.models import Character, Event, Membership


class Seat(StrEnum):
    """Who someone is to one table."""

    GM = "gm"
    PLAYER = "player"
    SPECTATOR = "spectator"
    REMOVED = "removed"
    STRANGER = "stranger"


class Verb(StrEnum):
    WATCH = "watch"  # open the table page and its socket, read the log
    EXPORT = "export"
    CHAT = "chat"
    ROLL = "roll"
    CHARACTER_CREATE = "character_create"
    CHARACTER_CLAIM = "character_claim"
    CHARACTER_EDIT_OWN = "character_edit_own"
    CHARACTER_EDIT_ANY = "character_edit_any"
    NPC_CREATE = "npc_create"
    MEMBER_RENAME = "member_rename"
    MEMBER_REMOVE = "member_remove"
    LINKS_MANAGE = "links_manage"
    PRESENCE_SEE = "presence_see"
    DECK_MANAGE = "deck_manage"  # create and configure decks, peek, rearrange
    CARD_PLAY = "card_play"  # draw, play, discard, pass (on decks one may use)


_PLAYER = frozenset(
    {
        Verb.WATCH,
        Verb.EXPORT,
        Verb.CHAT,
        Verb.ROLL,
        Verb.CHARACTER_CREATE,
        Verb.CHARACTER_CLAIM,
        Verb.CHARACTER_EDIT_OWN,
        Verb.PRESENCE_SEE,
        Verb.CARD_PLAY,
    }
)
MATRIX: dict[Seat, frozenset[Verb]] = {
    Seat.GM: frozenset(Verb),
    Seat.PLAYER: _PLAYER,
    Seat.SPECTATOR: frozenset({Verb.WATCH, Verb.EXPORT, Verb.PRESENCE_SEE}),
    Seat.REMOVED: frozenset(),
    Seat.STRANGER: frozenset(),
}


def can(seat: Seat, verb: Verb) -> bool:
    return verb in MATRIX[seat]


def seat_of(membership: Membership | None) -> Seat:
    if membership is None:
        return Seat.STRANGER
    if membership.removed_at is not None:
        return Seat.REMOVED
    return Seat(membership.role)


def can_edit_character(membership: Membership | None, character: Character) -> bool:
    """The GM edits any sheet; a player only a sheet they own."""
    seat = seat_of(membership)
    if can(seat, Verb.CHARACTER_EDIT_ANY):
        return True
    return (
        can(seat, Verb.CHARACTER_EDIT_OWN)
        and membership is not None
        and character.owner_id == membership.pk
    )


def can_claim_character(membership: Membership | None, character: Character) -> bool:
    """A player may take a player character the GM made and nobody holds yet."""
    return (
        can(seat_of(membership), Verb.CHARACTER_CLAIM)
        and character.owner_id is None
        and not character.is_npc
    )


Lens = Literal["gm", "private", "public"]


@dataclass(frozen=True)
class Viewer:
    """Who is looking: enough to decide visibility without touching the database."""

    membership_id: int
    seat: Seat

    @property
    def is_gm(self) -> bool:
        return self.seat == Seat.GM


def lens_for(
    viewer: Viewer, *, audience: str, private_audience: str, owner_id: int | None
) -> Lens | None:
    """How ``viewer`` sees an event: fully as GM, with its private part, publicly, or not at all.

    "owner" audiences always include the GM; the GM sees everything.
    """
    if viewer.seat in (Seat.REMOVED, Seat.STRANGER):
        return None
    if viewer.is_gm:
        return "gm"
    is_owner = owner_id is not None and owner_id == viewer.membership_id
    if audience == "gm" or (audience == "owner" and not is_owner):
        return None
    if private_audience == "owner" and is_owner:
        return "private"
    return "public"


def event_lens(viewer: Viewer, event: Event) -> Lens | None:
    return lens_for(
        viewer,
        audience=event.audience,
        private_audience=event.private_audience,
        owner_id=event.owner_id,
    )
