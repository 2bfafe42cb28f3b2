"""One seat's view: who is looking, which part of an event reaches them, and what of a page
they may use. Every decision of what a seat sees is made here, from data.

Who: a ``Seat`` is who a page or frame is drawn for (the GM, one player by member id, or a
spectator); a ``Viewer`` is a member with their standing (permissions.Standing), which also
knows the removed and strangers (they see nothing).

Which part of an event: a ``Reading`` ("gm": the whole of it; "private": with its private part,
its owner's; "public": its public part alone), from its audience (``reading_for``), and what
that reading sees of the private part (``private_part``; the GM's own part, ``GM_ONLY``).

What of a page: the rules below (``may``, ``acts``, ``controls``, ``owns``, ``deals``, ``draws``),
which templates draw by (``{% load seat_tags %}``: ``{% if seat|may:"gm" %}``, ...) and
``marks.py`` checks the drawn HTML against.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from games.contract import Role
from tabletop.permissions import Standing

if TYPE_CHECKING:
    from tabletop.models import Event, Membership



@dataclass(frozen=True)
class Seat:
    """Who receives a piece of HTML: the GM, one player (by member id) or a spectator."""

    role: Role
    member: int | None = None

    @property
    def key(self) -> str:
        """The seat's key in a frame's parts: ``gm``, ``p<member id>`` or ``spectator``."""
        return f"p{self.member}" if self.role == "player" else self.role


GM = Seat("gm")
SPECTATOR = Seat("spectator")


# How a viewer reads one event: whole (the GM's), with its private part (its owner's), or its
# public part alone. A seat's role (games.contract.Role: gm, player, spectator) is who they
# are at the table; a reading is which part of one event reaches them.
Reading = Literal["gm", "private", "public"]


@dataclass(frozen=True)
class Viewer:
    """Who is looking: enough to decide visibility without touching the database."""

    membership_id: int
    standing: Standing

    @property
    def is_gm(self) -> bool:
        return self.standing == Standing.GM


def reading_for(
    viewer: Viewer, *, audience: str, private_audience: str, owner_id: int | None
) -> Reading | None:
    """How ``viewer`` sees an event: fully as GM, with its private part, publicly, or not at all.

    "owner" audiences always include the GM; the GM sees everything.
    """
    if viewer.standing in (Standing.REMOVED, Standing.STRANGER):
        return None
    if viewer.is_gm:
        return "gm"
    is_owner = owner_id is not None and owner_id == viewer.membership_id
    if audience == "gm" or (audience == "owner" and not is_owner):
        return None
    if private_audience == "owner" and is_owner:
        return "private"
    return "public"


# An event's private part may hold a part for the GM alone (``GM_ONLY``), even when its owner is a
# player: a figure the GM keeps (a draw pile's size while it is the GM's: selectors.draw_counts_held_back).
GM_ONLY = "gm_only"


def private_part(private: dict[str, Any], reading: Reading) -> dict[str, Any]:
    """What ``reading`` sees of an event's private part: the GM all of it (the GM's own part
    laid over the rest); the owner all but the GM's own part; anyone else nothing."""
    if reading == "public":
        return {}
    if reading == "gm":
        return {**{k: v for k, v in private.items() if k != GM_ONLY}, **private.get(GM_ONLY, {})}
    return {k: v for k, v in private.items() if k != GM_ONLY}


def readings_needed(*, audience: str, private_audience: str) -> list[Reading]:
    """Every reading someone at the table may see an event through: the frames to render for
    it. It is ``reading_for`` run over every kind of viewer (the GM, the owner, anyone else),
    which tests/unit/test_permissions.py checks for every audience."""
    readings: list[Reading] = ["gm"]
    if audience == "everyone" or (audience == "owner" and private_audience == "gm"):
        readings.append("public")
    if audience != "gm" and private_audience == "owner":
        readings.append("private")
    return readings


def event_reading(viewer: Viewer, event: Event) -> Reading | None:
    return reading_for(
        viewer,
        audience=event.audience,
        private_audience=event.private_audience,
        owner_id=event.owner_id,
    )


def seat_of(member: Membership | None) -> Seat:
    """The seat a member's page and frames are drawn for (a removed member's: a spectator's)."""
    if member is None or member.removed_at is not None or member.role == "spectator":
        return SPECTATOR
    return GM if member.role == "gm" else Seat("player", member.pk)


def viewer_at(seat: Seat) -> Viewer:
    """The viewer a seat reads events as."""
    return Viewer(membership_id=seat.member or 0, standing=Standing(seat.role))


def seats_at(table_id: int) -> list[Seat]:
    """Every seat a frame may be drawn for at this table now: the GM, each player, the spectators."""
    from tabletop.models import Membership

    players = Membership.objects.filter(table_id=table_id, removed_at=None, role="player")
    return [GM, SPECTATOR, *(Seat("player", pk) for pk in players.values_list("pk", flat=True))]


def seat_readings(seats: list[Seat], *, audience: str, private_audience: str,
                  owner_id: int | None) -> dict[Seat, Reading]:
    """Each seat that sees an event of this audience, with its reading (a seat that does not
    see it is left out)."""
    found = {}
    for seat in seats:
        reading = reading_for(viewer_at(seat), audience=audience, private_audience=private_audience,
                              owner_id=owner_id)
        if reading is not None:
            found[seat] = reading
    return found


def least_seat(reading: Reading, owner_id: int | None) -> Seat:
    """The seat of a reading that may use the least: what every seat of that reading may be sent."""
    if reading == "gm":
        return GM
    if reading == "private":
        return Seat("player", owner_id)
    return SPECTATOR


# What of a page a seat may use.
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
