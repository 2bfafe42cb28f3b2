"""The one matrix of role x verb: who may do what at a table, with a deck, a card, a token.

Views, consumers and services all ask here; nothing else decides who may do what. What a seat
may see of an event is decided in tabletop/feed/seat.py.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from tabletop.models import Character, Membership


class Standing(StrEnum):
    """How someone stands to one table: their membership's role, or removed, or a stranger
    (the word for a deck is ``DeckStanding``; the Membership row itself is a "member")."""

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
    NPC_MANAGE = "npc_manage"  # copy NPCs, field several, reset tracks, retire and bring back; the bestiary
    MEMBER_RENAME = "member_rename"
    MEMBER_REMOVE = "member_remove"
    LINKS_MANAGE = "links_manage"
    TABLE_CONFIGURE = "table_configure"  # the table's settings: NPCs' sheets behind the screen
    PRESENCE_SEE = "presence_see"
    DECK_MANAGE = "deck_manage"  # create and configure decks, peek, rearrange
    CARD_PLAY = "card_play"  # hold and move cards; what one may do with a deck: DECK_MATRIX
    SCENE_MANAGE = "scene_manage"  # make, show and put away scenes; place, hide and reveal tokens
    TOKEN_MOVE = "token_move"  # move a token on the shown scene: which ones, ``may_move_token``
    SESSION_MANAGE = "session_manage"  # open and close the table's sessions of play


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
        Verb.TOKEN_MOVE,
    }
)
MATRIX: dict[Standing, frozenset[Verb]] = {
    Standing.GM: frozenset(Verb),
    Standing.PLAYER: _PLAYER,
    Standing.SPECTATOR: frozenset({Verb.WATCH, Verb.EXPORT, Verb.PRESENCE_SEE}),
    Standing.REMOVED: frozenset(),
    Standing.STRANGER: frozenset(),
}


def can(standing: Standing, verb: Verb) -> bool:
    return verb in MATRIX[standing]


# What only the GM does, in the words a refusal uses ("Only the GM may ...").
_GM_ALONE: dict[Verb, str] = {
    Verb.CHARACTER_EDIT_ANY: "edit another's character",
    Verb.NPC_CREATE: "make NPCs",
    Verb.NPC_MANAGE: "manage the NPCs and the bestiary",
    Verb.MEMBER_RENAME: "rename the people at the table",
    Verb.MEMBER_REMOVE: "remove someone from the table",
    Verb.LINKS_MANAGE: "manage the table's links",
    Verb.TABLE_CONFIGURE: "change the table's settings",
    Verb.DECK_MANAGE: "make and arrange the decks",
    Verb.SCENE_MANAGE: "manage the scenes, the map, its fog and its tokens",
    Verb.SESSION_MANAGE: "open and close the sessions",
}


def refusal_of(standing: Standing, verb: Verb) -> str:
    """Why ``standing`` may not ``verb``, as a plain sentence a player reads (never a code)."""
    if standing == Standing.REMOVED:
        return "The GM removed you from this table."
    if standing == Standing.STRANGER:
        return "You are not at this table. Ask the GM for a link."
    if standing == Standing.SPECTATOR:
        return "You are watching this table: a spectator sees the play but does not act."
    if verb in _GM_ALONE:
        return f"Only the GM may {_GM_ALONE[verb]}."
    return "Your role at this table does not allow that."


def standing_of(membership: Membership | None) -> Standing:
    if membership is None:
        return Standing.STRANGER
    if membership.removed_at is not None:
        return Standing.REMOVED
    return Standing(membership.role)


def can_edit_character(membership: Membership | None, character: Character) -> bool:
    """The GM edits any sheet; a player only a sheet they own."""
    standing = standing_of(membership)
    if can(standing, Verb.CHARACTER_EDIT_ANY):
        return True
    return (
        can(standing, Verb.CHARACTER_EDIT_OWN)
        and membership is not None
        and character.owner_id == membership.pk
    )


def can_claim_character(membership: Membership | None, character: Character) -> bool:
    """A player may take a player character the GM made and nobody holds yet (and has not
    retired)."""
    return (
        can(standing_of(membership), Verb.CHARACTER_CLAIM)
        and character.owner_id is None
        and not character.is_npc
        and not character.retired
    )


# Scenes. The GM sets them and places tokens; a player moves the tokens of the characters they
# play, on the scene everyone sees. A scene not shown, and a hidden token, are the GM's alone.


def may_move_token(membership: Membership | None, character: Character) -> bool:
    """The GM moves any token; a player only their own character's."""
    standing = standing_of(membership)
    if standing == Standing.GM:
        return True
    return can(standing, Verb.TOKEN_MOVE) and membership is not None and character.owner_id == membership.pk


def may_see_scene(membership: Membership | None, *, shown: bool, hidden: bool = False) -> bool:
    """Everyone at the table sees the shown scene and its tokens but the hidden ones; the GM
    sees every scene (one being prepared) and every token."""
    standing = standing_of(membership)
    if standing == Standing.GM:
        return True
    return can(standing, Verb.WATCH) and shown and not hidden


def may_see_portrait(membership: Membership | None) -> bool:
    """A character's portrait is the table's: anyone seated may see it."""
    return can(standing_of(membership), Verb.WATCH)


# Decks. What a member may do with one deck depends on how they stand to it, not only on
# their role: the GM runs every deck; a player draws from a deck that is theirs or open to
# players; dealing to others, gathering every hand back and shuffling the discards in are
# the dealer's (the GM, the owner of a personal deck, or a player the GM made its dealer).
# Cards in a hand are another matter: the holder (and the GM) moves them, whatever the deck
# (``may_move_card``).


class DeckVerb(StrEnum):
    DRAW = "draw"  # take cards off the top, into one's hand or face up
    SHUFFLE = "shuffle"  # shuffle the draw pile: takes nothing from anyone, and is sealed
    TIDY = "tidy"  # discard or return a card that lies face up in the play area
    DEAL = "deal"  # deal cards to others
    RESHUFFLE_DISCARD = "reshuffle_discard"  # shuffle the discard pile back in
    RECALL = "recall"  # gather every card back, from every hand
    PEEK = "peek"  # look at the top cards
    REORDER = "reorder"  # put the looked-at cards back in another order
    CONFIGURE = "configure"  # reversed cards, open to players, who deals


class DeckStanding(StrEnum):
    """How a member stands to one deck."""

    GM = "gm"
    DEALER = "dealer"  # the owner of a personal deck, or the player the GM made its dealer
    USER = "user"  # a player, on a deck open to players
    CLOSED = "closed"  # a player, on a deck that is neither theirs nor open to players
    RULED = "ruled"  # a player, on a deck the system's rules draw from (Deck.rules): theirs or not
    NONE = "none"  # spectators, removed members, strangers


_DECK_USE = frozenset({DeckVerb.DRAW, DeckVerb.SHUFFLE, DeckVerb.TIDY})
DECK_MATRIX: dict[DeckStanding, frozenset[DeckVerb]] = {
    DeckStanding.GM: frozenset(DeckVerb),
    DeckStanding.DEALER: _DECK_USE | {DeckVerb.DEAL, DeckVerb.RESHUFFLE_DISCARD, DeckVerb.RECALL},
    DeckStanding.USER: _DECK_USE,
    DeckStanding.CLOSED: frozenset(),
    DeckStanding.RULED: frozenset(),
    DeckStanding.NONE: frozenset(),
}
# The standing's verb a deck verb needs first (a spectator is refused before the deck is read).
DECK_TABLE_VERB: dict[DeckVerb, Verb] = {
    verb: Verb.DECK_MANAGE if verb in (DeckVerb.PEEK, DeckVerb.REORDER, DeckVerb.CONFIGURE) else Verb.CARD_PLAY
    for verb in DeckVerb
}


class DeckLike(Protocol):
    owner_id: int | None
    dealer_id: int | None
    players_may_use: bool
    rules: bool


def deck_standing(membership: Membership | None, deck: DeckLike) -> DeckStanding:
    standing = standing_of(membership)
    if standing == Standing.GM:
        return DeckStanding.GM
    if not can(standing, Verb.CARD_PLAY) or membership is None:
        return DeckStanding.NONE
    if deck.rules:  # a rule's next card is nobody's to look at, move or restack by hand but the GM's
        return DeckStanding.RULED
    if membership.pk in (deck.owner_id, deck.dealer_id):
        return DeckStanding.DEALER
    return DeckStanding.USER if deck.players_may_use else DeckStanding.CLOSED


def may_on_deck(membership: Membership | None, deck: DeckLike, verb: DeckVerb) -> bool:
    return verb in DECK_MATRIX[deck_standing(membership, deck)]


def deck_dealers(deck: DeckLike) -> list[int]:
    """The players who deal this deck besides the GM (its owner, its dealer); none for a deck the
    rules draw from."""
    if deck.rules:
        return []
    return [pk for pk in dict.fromkeys((deck.owner_id, deck.dealer_id)) if pk is not None]


def may_move_card(
    membership: Membership | None, *, pile_kind: str, pile_owner_id: int | None, deck: DeckLike,
    placed_by_id: int | None = None,
) -> bool:
    """A card in a hand is moved by its holder and the GM; a card face up in the play area (the
    felt) by whoever played it and the GM, no one else (issue 36: "the felt is its players'").
    Nobody moves a card out of a draw or discard pile by hand, and only the GM a card of a deck
    the rules draw from (its rules play it, through the panel)."""
    standing = standing_of(membership)
    if not can(standing, Verb.CARD_PLAY) or membership is None:
        return False
    if deck.rules and standing != Standing.GM:
        return False
    if pile_kind == "hand":
        return standing == Standing.GM or pile_owner_id == membership.pk
    if pile_kind == "play":
        return standing == Standing.GM or (placed_by_id is not None and placed_by_id == membership.pk)
    return False


def may_see_hand(membership: Membership | None, hand_owner_id: int) -> bool:
    """A hand's cards are seen by its holder and the GM; the others see how many there are."""
    standing = standing_of(membership)
    if standing == Standing.GM:
        return True
    return membership is not None and standing == Standing.PLAYER and membership.pk == hand_owner_id
