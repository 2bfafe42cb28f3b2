"""The catalogue of event kinds: every kind the log may hold, the platform's and each system's,
declared once with who sees it, the shape of its payload, its log line and what else it redraws.

Appending an event looks its kind up here (``services.base.append``): an unknown kind is refused
before anything is written, and with ``TABLETOP_CHECK_EVENTS`` on (the test suite's setting) its
payload and private part are checked against the kind's schema, so every test that logs an event
checks it. Framing an event is a lookup too: its log line's template and its parts
(``tabletop/feed/parts.py``) are read off its kind, never chosen by an if over kinds.

A system's kinds are ``<key>.<type>``, one for each type its engine or a check emits
(``GameSystem.event_kinds``); its registration says who sees each (``GameSystem.audiences``),
per event, so the catalogue says "the system's" for them. Their payload is the engine's event
(``{"event": {...}}``) with its working for the log line (``working``); the engine's own
tests check each event's fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from games import registry
from games.contract import GameSystem
from tabletop.feed import parts
from tabletop.feed.seat import (
    GM_ONLY, Reading, Seat, least_seat, private_part, readings_needed, seat_readings, seats_at,
)

if TYPE_CHECKING:
    from tabletop.feed.panels import Redraw
    from tabletop.models import Event

DEFAULT_LINE = "log/events/default.html"  # the summary alone

# A schema: each key the part must hold, with the JSON type of its value ("str", "int", "bool",
# "list", "dict"; "int|str" for either). Keys a kind may hold beyond these are allowed: a schema
# names what its frames and readers rely on.
Schema = Mapping[str, str]


@dataclass(frozen=True)
class Kind:
    """One kind of event.

    ``audience`` is who sees it ("everyone", "owner": its owner and the GM, "gm"), or "system"
    when its system's registration decides per event, or "any" when the service decides per
    event (a roll may be blind). ``payload`` and ``private`` are the schemas of its two parts.
    ``line`` is its log line's template (jinja2/log/). ``parts`` are what it redraws on a page
    besides its line, in order (parts.PARTS names them)."""

    name: str
    audience: str
    payload: Schema = field(default_factory=dict)
    private: Schema = field(default_factory=dict)
    line: str = DEFAULT_LINE
    parts: tuple[str, ...] = ()


_CARDS = ("cards",)
_CARD_EVENT = {"counts": "dict", "deck": "int"}
_CARD_PRIVATE = {"hand": "list"}
_MEMBER = {"member": "dict"}
_CHARACTER = {"character": "dict"}
_TOKEN = {"token": "dict", "shown": "bool"}
_BESTIARY = {"bestiary": "list", "system": "str"}

_SESSION = {"session": "int", "open": "bool", "date": "str"}
PLATFORM: tuple[Kind, ...] = (
    Kind("table.created", "everyone", _MEMBER, parts=("member",)),
    Kind("table.configured", "everyone", {"npc_sheets_secret": "bool", "characters": "list"}, parts=("characters",)),
    Kind("member.joined", "everyone", _MEMBER, parts=("member",)),
    Kind("member.renamed", "everyone", _MEMBER, parts=("member",)),
    Kind("member.removed", "everyone", _MEMBER, parts=("member_gone",)),
    Kind("member.seat_link_replaced", "any"),
    Kind("link.regenerated", "gm", {"which": "str"}),
    Kind("chat.posted", "everyone", {"text": "str"}, line="log/events/chat_posted.html"),
    Kind("session.opened", "everyone", _SESSION, line="log/events/session.html", parts=("session",)),
    Kind("session.closed", "everyone", _SESSION, line="log/events/session.html", parts=("session",)),
    Kind("dice.rolled", "any", {"mode": "str"}, line="log/events/dice_rolled.html"),
    Kind("character.created", "everyone", _CHARACTER, parts=("characters",)),
    Kind("character.updated", "everyone", _CHARACTER, parts=("characters",)),
    Kind("character.claimed", "everyone", _CHARACTER, parts=("characters",)),
    Kind("character.requested", "everyone", {"request": "int", "character": "int"}, {"request": "dict"},
         parts=("requests",)),
    Kind("character.request_approved", "everyone", {**_CHARACTER, "request": "int", "rows": "list"},
         parts=("requests",)),
    Kind("character.request_refused", "everyone", {"request": "int", "character": "int"}, parts=("requests",)),
    Kind("character.request_withdrawn", "everyone", {"request": "int", "character": "int"}, parts=("requests",)),
    Kind("table.approvals", "everyone", {"sheet_approvals": "bool"}, parts=("requests",)),
    Kind("character.portrait", "everyone", {"character": "int", "tokens": "list"}, parts=("scene",)),
    # NPCs in numbers (tabletop/services/npcs.py): fielded at once, tracks reset, retired and back
    Kind("npcs.added", "everyone", {"characters": "list", "tokens": "list", "shown": "bool"}, parts=("npcs",)),
    Kind("character.reset", "everyone", _CHARACTER, parts=("characters",)),
    Kind("characters.retired", "everyone", {"characters": "list", "names": "list", "tokens": "list"},
         {"retired": "list"}, parts=("retired",)),
    Kind("character.returned", "everyone", _CHARACTER, {"retired": "list"}, parts=("characters", "retired")),
    Kind("bestiary.saved", "gm", _BESTIARY, parts=("bestiary",)),
    Kind("bestiary.forgotten", "gm", _BESTIARY, parts=("bestiary",)),
    Kind("card.played", "everyone", _CARD_EVENT, _CARD_PRIVATE, parts=_CARDS),
    Kind("card.discarded", "everyone", _CARD_EVENT, _CARD_PRIVATE, parts=_CARDS),
    Kind("card.returned", "everyone", _CARD_EVENT, _CARD_PRIVATE, parts=_CARDS),
    Kind("card.passed", "everyone", _CARD_EVENT, _CARD_PRIVATE, parts=_CARDS),
    Kind("card.received", "everyone", _CARD_EVENT, _CARD_PRIVATE, parts=_CARDS),
    Kind("cards.dealt", "everyone", _CARD_EVENT, _CARD_PRIVATE, line="log/events/cards_dealt.html", parts=_CARDS),
    Kind("cards.drawn", "everyone", _CARD_EVENT, _CARD_PRIVATE, line="log/events/cards_drawn.html", parts=_CARDS),
    Kind("deck.created", "everyone", _CARD_EVENT, _CARD_PRIVATE, parts=_CARDS),
    Kind("deck.configured", "everyone", _CARD_EVENT, _CARD_PRIVATE, parts=_CARDS),
    Kind("deck.recalled", "everyone", _CARD_EVENT, _CARD_PRIVATE, parts=_CARDS),
    Kind("deck.committed", "everyone", {"digest": "str", "commitment": "int", **_CARD_EVENT},
         line="log/events/deck_committed.html", parts=_CARDS),
    Kind("deck.revealed", "everyone", {"deck": "int", "digest": "str", "salt": "str", "order": "list"},
         line="log/events/deck_revealed.html"),
    Kind("deck.peeked", "everyone", {"deck": "int", "count": "int"}, {"cards": "list"}),
    Kind("deck.reordered", "everyone", {"deck": "int", "count": "int"}, {"cards": "list"}),
    Kind("scene.created", "gm", {"scene": "dict"}),
    Kind("scene.shown", "everyone", {"scene": "dict", "tokens": "list", "drawings": "list"}, parts=("scene",)),
    Kind("scene.deleted", "any", {"scene": "dict"}, parts=("scene",)),
    Kind("token.placed", "any", _TOKEN, parts=("scene",)),
    Kind("token.moved", "any", _TOKEN, parts=("scene",)),
    Kind("token.hidden", "any", _TOKEN, parts=("scene",)),
    Kind("token.shown", "any", _TOKEN, parts=("scene",)),
    # drawings (tabletop/services/drawings.py): everyone's while in sight on the shown scene
    Kind("drawing.added", "any", {"drawing": "dict", "shown": "bool"}, parts=("drawings",)),
    Kind("drawing.erased", "any", {"drawing": "dict", "shown": "bool"}, parts=("drawings",)),
    Kind("drawings.cleared", "any", {"scene": "int", "shown": "bool"}, parts=("drawings",)),
    # the map's grid and how tokens look (tabletop/services/grid.py)
    Kind("scene.grid", "any", {"scene": "dict", "grid": "dict"}, parts=("grid",)),
    Kind("token.styled", "any", _TOKEN, parts=("scene",)),
    Kind("token.removed", "any", _TOKEN, parts=("scene",)),
    # the fog of war (tabletop/services/fog.py): everyone's while the scene is shown, else the GM's;
    # the public part is what a seat that is not the GM's sees after the change, the GM's part the rest
    Kind("scene.fogged", "any", {"scene": "dict", "tokens": "list", "drawings": "list", "shown": "bool"},
         {"scene": "dict", "tokens": "list", "drawings": "list"}, parts=("fog",)),
    # a sheet its GM designs (tabletop/services/designed.py): the GM's design of the sheet, public;
    # a roll that read a sheet, whole for everyone unless its NPC's sheet is secret (the GM's part)
    Kind("sheet.designed", "everyone", {"design": "dict"}),
    Kind("sheet.rolled", "everyone", {"character": "int", "label": "str"}, line="log/events/sheet_rolled.html"),
)


def _system_kind(key: str, game: GameSystem, type_: str) -> Kind:
    # a check's roll holds its result under the check's name, and the character it was for
    check = next((c for c in game.checks if c.event == type_), None)
    schema = {check.name: "dict", "character": "int"} if check is not None else {"event": "dict"}
    return Kind(f"{key}.{type_}", "system", schema, line=game.log_lines.get(type_, DEFAULT_LINE))


KINDS: dict[str, Kind] = {kind.name: kind for kind in PLATFORM}
# A system's kinds, read off its registration the first time one is logged (a test may register
# a system of its own): by name, with the registration they were read from.
_SYSTEM_KINDS: dict[str, tuple[GameSystem, Kind]] = {}


class UnknownKind(LookupError):
    """An event of a kind the catalogue does not hold: a fault of the code, never of input."""


def kind_of(name: str) -> Kind:
    """The kind called ``name``: the platform's, or ``<key>.<type>`` of a registered system that
    emits that type."""
    if name in KINDS:
        return KINDS[name]
    key, _, type_ = name.partition(".")
    game = registry.SYSTEMS.get(key)
    known = _SYSTEM_KINDS.get(name)
    if known is not None and known[0] is game:
        return known[1]
    if game is None or type_ not in game.event_kinds():
        raise UnknownKind(f"no event kind {name!r} in the catalogue (tabletop/feed/catalogue.py)")
    kind = _system_kind(key, game, type_)
    _SYSTEM_KINDS[name] = (game, kind)
    return kind


def every_kind() -> list[Kind]:
    """Every kind the catalogue holds now: the platform's and each registered system's."""
    return [*KINDS.values(), *(kind_of(f"{key}.{type_}") for key, game in registry.SYSTEMS.items()
                               for type_ in sorted(game.event_kinds()))]


_TYPES = {"str": str, "int": int, "bool": bool, "list": list, "dict": dict}


def problems(kind: Kind, *, audience: str, payload: Mapping[str, Any], private: Mapping[str, Any]) -> list[str]:
    """What is wrong with an event of ``kind`` logged with this audience and these parts: [] when
    it matches its declaration."""
    found = []
    if kind.audience not in ("any", "system") and audience != kind.audience:
        found.append(f"{kind.name} is logged for {kind.audience!r}, not {str(audience)!r}")
    for part_name, schema, part in (("payload", kind.payload, payload), ("private", kind.private, private)):
        for key, types in schema.items():
            if key not in part:
                found.append(f"{kind.name}: its {part_name} lacks {key!r}")
            elif not any(isinstance(part[key], _TYPES[t]) and not (t == "int" and isinstance(part[key], bool))
                         for t in types.split("|")):
                found.append(f"{kind.name}: its {part_name}'s {key!r} is a {type(part[key]).__name__}, not {types}")
    if kind.parts and not set(kind.parts) <= set(parts.PARTS):
        found.append(f"{kind.name}: unknown parts {sorted(set(kind.parts) - set(parts.PARTS))}")
    return found


@dataclass(frozen=True)
class Sight:
    """What one reading sees of an event: where it stands in that reading's numbering
    (``Event.position``), its data (the public payload, overlaid with the private part the reading
    sees: ``seat.private_part``), its summary, which line it reads (``line``: readings with
    the same line share one rendering of it), and the seat of that reading that may use the
    least (``least``: its frame is what every seat of the reading may be sent)."""

    position: str
    data: dict[str, Any]
    summary: str
    line: tuple[bool, bool]
    least: Seat


@dataclass(eq=False)
class Envelope:
    """One event on its way to a page, with all its frames are drawn from, so that drawing them
    reads no database: the row, its kind, what each reading that sees it sees (``sights``, in the
    order the readings are needed), each seat at the table that sees it and through which
    reading (``readers``: read under the table's lock when its kind redraws parts of a page or
    it redraws panels; empty otherwise), and the seats' panels it redraws (``redraw``: set under
    the lock by ``panels.attach`` after the command that logged it; None when it redraws none)."""

    event: Event
    kind: Kind
    sights: dict[Reading, Sight]
    readers: dict[Seat, Reading] = field(default_factory=dict)
    redraw: Redraw | None = None

    @classmethod
    def of(cls, event: Event, readings: tuple[Reading, ...] | None = None) -> Envelope:
        """The envelope of a logged event, for every reading that may see it (or ``readings``),
        as a replay reads it: no seats, no panels."""
        try:
            kind = kind_of(event.kind)
        except UnknownKind:
            kind = _UNCATALOGUED
        return cls(event, kind, sights(event, readings))

    @classmethod
    def appended(cls, event: Event, kind: Kind) -> Envelope:
        """The envelope of an event just appended, under the table's lock: with the seats that
        read it, when its kind redraws parts of a page (their controls differ by seat)."""
        readers = seat_readings(seats_at(event.table_id), audience=event.audience,
                                private_audience=event.private_audience,
                                owner_id=event.owner_id) if kind.parts else {}
        return cls(event, kind, sights(event), readers)


def sights(event: Event, readings: tuple[Reading, ...] | None = None) -> dict[Reading, Sight]:
    """What each reading sees of ``event``: every reading that may see it, or ``readings``."""
    if readings is None:
        readings = tuple(readings_needed(audience=event.audience, private_audience=event.private_audience))
    return {reading: _sight(event, reading) for reading in readings}


def _sight(event: Event, reading: Reading) -> Sight:
    private = private_part(event.private, reading)
    sees_private = reading != "public" and bool(event.private or event.private_summary)
    return Sight(
        position=event.position(gm=reading == "gm"),
        data={**event.payload, **private},
        summary=event.private_summary if reading != "public" and event.private_summary else event.summary,
        # the GM's own part (seat.GM_ONLY) draws the GM's line apart from the owner's
        line=(sees_private, reading == "gm" and GM_ONLY in event.private),
        least=least_seat(reading, event.owner_id),
    )


# A row of a kind no longer made (an old log): its summary alone, nothing else redrawn.
_UNCATALOGUED = Kind("uncatalogued", "any")
