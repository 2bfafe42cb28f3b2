"""One seat's view: who is looking, which part of an event reaches them, and what of a page
they may use. Every decision of what a seat sees is made here, from data.

Who: a ``Seat`` is who a page or frame is drawn for (the GM, one player by member id, or a
spectator); a ``Viewer`` is a member with their standing (permissions.Standing), which also
knows the removed and strangers (they see nothing).

Which part of an event: a ``Reading`` ("gm": the whole of it; "private": with its private part,
its owner's; "public": its public part alone), from its audience (``reading_for``), and what
that reading sees of the private part (``private_part``; the GM's own part, ``GM_ONLY``).

What of a page: templates mark what only some seats may use (the same marks the page's CSS reads):

- ``gm-only``: the GM's; ``player-only``: a player's (not even the GM's, who stands in for players
  elsewhere: a choice only its player makes, a claim);
- ``controller-only`` with ``data-controller="<member id>"``: that member's (and the GM's);
- ``edit-link`` with ``data-owner``: the sheet's owner's (and the GM's);
- an element with ``data-dealers="<member ids>"``: those dealers' (and the GM's);
- ``deck-use`` with ``data-open="false"`` and ``data-owner``: the deck's owner's (and the GM's);
- inside an element of class ``mine-only``, an element with ``data-controller``: that member's;
- ``data-only="gm"``: the GM's; ``data-only="seated"``: the GM's and the players' (an item a
  frame adds to, or deletes from, a list only those seats' pages hold);
- ``card-tools``, ``deck-use``, ``dealer-tools``, ``deal-tools``: never a spectator's; nor is
  anything that posts to the table (``hx-post``, a form whose ``action`` is under ``/tables/``):
  a spectator watches (permissions.MATRIX).

``strip(html, seat)`` removes each such element, with all it holds, from the HTML a seat is sent;
the GM's loses only what is a player's alone. The templates are the project's own, so the HTML is well formed; a tag's
attributes may still hold ``>`` inside quotes, and a ``<script>`` or ``<style>`` is raw text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from tabletop.permissions import Standing

if TYPE_CHECKING:
    from tabletop.models import Event, Membership

Role = Literal["gm", "player", "spectator"]

# What a piece of HTML must hold for any of it to be taken out: when none is there (a chat line,
# a roll, most of the log), the HTML is every seat's as it is.
MARKS = ("gm-only", "player-only", "controller-only", "edit-link", "data-dealers", "deck-use", "mine-only",
         "card-tools", "dealer-tools", "deal-tools", "data-only")
_MARKED = re.compile("|".join(re.escape(m) for m in MARKS))
_PLAYER_ONLY = re.compile("player-only")
_SPECTATOR_MARKED = re.compile("|".join(re.escape(m) for m in (*MARKS, "hx-post", 'action="/tables/')))
_TAG = re.compile(
    r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s\"'>/=]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?)*)\s*(/?)>"
)
_ATTR = re.compile(r"([^\s\"'>/=]+)(?:\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s\"'=<>`]+)))?")
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
                  "wbr"})
RAW = frozenset({"script", "style"})
_SPECTATORS_NEVER = frozenset({"card-tools", "deck-use", "dealer-tools", "deal-tools"})


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


def attributes(source: str) -> dict[str, str]:
    return {m.group(1).lower(): next((g for g in m.group(2, 3, 4) if g is not None), "")
            for m in _ATTR.finditer(source)}


def _keeps(seat: Seat, name: str, attrs: dict[str, str], classes: set[str], in_mine_only: bool) -> bool:
    if seat.role == "gm":
        return "player-only" not in classes
    only = attrs.get("data-only")
    if only == "gm" or (only == "seated" and seat.role == "spectator"):
        return False
    if seat.role == "spectator" and ("hx-post" in attrs or attrs.get("action", "").startswith("/tables/")):
        return False
    me = str(seat.member) if seat.member is not None else None
    if "gm-only" in classes:
        return False
    if "player-only" in classes and seat.role != "player":
        return False
    if "controller-only" in classes and attrs.get("data-controller") != me:
        return False
    if "edit-link" in classes and attrs.get("data-owner") != me:
        return False
    if "data-dealers" in attrs and me not in attrs["data-dealers"].split():
        return False
    if seat.role == "spectator" and classes & _SPECTATORS_NEVER:
        return False
    if "deck-use" in classes and attrs.get("data-open") == "false" and attrs.get("data-owner") != me:
        return False
    if in_mine_only and "data-controller" in attrs and attrs["data-controller"] != me:
        return False
    return True


def strip(html: str, seat: Seat) -> str:
    """``html`` without what ``seat`` may not use or see (the module's marks)."""
    marked = _PLAYER_ONLY if seat.role == "gm" else _SPECTATOR_MARKED if seat.role == "spectator" else _MARKED
    if not marked.search(html):
        return html
    out: list[str] = []
    kept_from = 0
    stack: list[tuple[str, bool]] = []  # open elements: (name, is a mine-only container)
    skip_name: str | None = None  # the element being taken out, and how deep in it we are
    depth = 0
    pos = 0
    while True:
        match = _TAG.search(html, pos)
        if match is None:
            break
        closing, name, attrs_src, self_closing = match.group(1), match.group(2).lower(), match.group(3), match.group(4)
        pos = match.end()
        if not closing and name in RAW:  # raw text: jump to its end tag
            end = html.lower().find(f"</{name}", pos)
            pos = len(html) if end < 0 else end
            if skip_name is None:
                continue
        if skip_name is not None:
            if name == skip_name and name not in VOID:
                depth += -1 if closing else (0 if self_closing else 1)
                if depth == 0:
                    kept_from = match.end()
                    skip_name = None
            continue
        if closing:
            if stack and stack[-1][0] == name:
                stack.pop()
            continue
        attrs = attributes(attrs_src) if marked.search(attrs_src) or (stack and stack[-1][1]) else {}
        classes = set(attrs.get("class", "").split())
        in_mine_only = any(mine for _, mine in stack)
        if attrs and not _keeps(seat, name, attrs, classes, in_mine_only):
            out.append(html[kept_from:match.start()])
            if name in VOID or self_closing:
                kept_from = match.end()
            else:
                skip_name, depth = name, 1
            continue
        if name not in VOID and not self_closing:
            stack.append((name, "mine-only" in classes or in_mine_only))
    if skip_name is not None:  # never closed: nothing after it is kept, as a browser would nest it
        return "".join(out)
    out.append(html[kept_from:])
    return "".join(out)


# How a viewer reads one event: whole (the GM's), with its private part (its owner's), or its
# public part alone. A seat's lens (games.contract.PanelLens: gm, player, spectator) is who they
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
