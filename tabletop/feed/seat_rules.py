"""What a seat may see and use, decided from data: the one set of rules the templates draw by
(``{% load seat_tags %}``: ``{% if seat|may:"gm" %}``, ``{% if seat|controls:owner %}``, ...)
and the pass over HTML in tabletop/feed/marks.py applies to the marks those templates keep
(``gm-only``, ``controller-only`` with ``data-controller``, ...).

A seat is a ``tabletop.feed.seat.Seat``: its ``role`` (``gm``, ``player`` or ``spectator``) and,
for a player, its ``member`` id. The GM may use everything but what is a player's alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tabletop.feed.seat import Seat

# Who an element is for, by the name a template and a mark give it: ``gm`` (``gm-only``,
# ``data-only="gm"``), ``player`` (``player-only``: not even the GM's) and ``seated``
# (``data-only="seated"``: the GM's and the players', never a spectator's).
WHO = ("gm", "player", "seated")


def _id(value: Any) -> str:
    """A member id as a template writes it (``{{ x|default:'' }}``): ``""`` for none."""
    return str(value) if value not in (None, "") else ""


def _me(seat: Seat) -> str | None:
    return str(seat.member) if seat.member is not None else None


def may(seat: Seat, who: str) -> bool:
    """Whether ``seat`` is among ``who`` (one of ``WHO``)."""
    if who == "gm":
        return seat.role == "gm"
    if who == "player":
        return seat.role == "player"
    if who == "seated":
        return seat.role != "spectator"
    raise ValueError(f"A seat is the GM's, a player's or seated, not {who!r}.")


def acts(seat: Seat) -> bool:
    """Whether ``seat`` may act at the table at all (post, draw, deal, handle a card): a
    spectator watches (permissions.MATRIX)."""
    return seat.role != "spectator"


def controls(seat: Seat, controller: Any) -> bool:
    """Whether ``seat`` may work what member ``controller`` controls (a combatant, a token, a
    character's choice): that member and the GM; nobody else when it has no controller."""
    return seat.role == "gm" or (seat.role != "spectator" and _id(controller) == _me(seat))


def owns(seat: Seat, owner: Any) -> bool:
    """Whether ``seat`` may edit what member ``owner`` owns (a sheet, a deck of their own): that
    member and the GM."""
    return controls(seat, owner)


def deals(seat: Seat, dealers: str | Iterable[Any]) -> bool:
    """Whether ``seat`` may deal from a deck whose dealers are ``dealers`` (member ids, or a
    space-separated string of them): those members and the GM."""
    ids = dealers.split() if isinstance(dealers, str) else [_id(d) for d in dealers]
    return seat.role == "gm" or (seat.role != "spectator" and _me(seat) in ids)


def draws(seat: Seat, open_to_players: bool, owner: Any) -> bool:
    """Whether ``seat`` may draw from and shuffle a deck: never a spectator; a player when the
    deck is open to players or is that player's own; the GM always."""
    return acts(seat) and (open_to_players or owns(seat, owner))
