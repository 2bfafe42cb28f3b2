"""The live feed's frames: what each socket of a table receives of an event, and the feed's own
frames (presence, errors, answers, a snapshot).

An event is framed from its envelope (catalogue.Envelope: the row, its kind, what each reading
sees of it, the seats that read it, the panels it redraws), never from the table's current
state, and without the database. The way through is one pass:

1. its log line, once for every reading that reads the same line (here);
2. the parts of the page its kind redraws, for each seat that reads it (parts.py, as the
   catalogue names them);
3. the system panels it redraws, one per seat (panels.py);
4. each reading's frame, drawn for the least of its seats, and a seat's own where it differs,
   each checked to hold only what its seat may use (marks.py).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from django.template import engines
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.timezone import localtime

from games.core.cards import deck_kind_choices
from tabletop.feed import marks, panels, parts, seat as seats
from tabletop.feed.catalogue import Envelope, Sight
from tabletop.feed.seat import Reading, Seat

if TYPE_CHECKING:
    from tabletop.models import Event
    from tabletop.selectors import TableState

TABLE = "tabletop/table.html"
LOG = "log"  # the template engine of the log's lines (settings.TEMPLATES)


def log_environment(**options: Any) -> Any:
    """The log lines' Jinja2 environment: an event holds the facts of a roll (each die's sides,
    value, whether it counts), and its line draws the dice from them (``die_faces``,
    games/core/dice.py ``faces``), so no drawing is stored in the log."""
    from jinja2 import Environment

    from games.core.dice import faces

    env = Environment(**options)
    env.globals["die_faces"] = faces
    return env


@lru_cache(maxsize=128)
def _log_template(name: str) -> Any:
    # Jinja2's own template, drawn directly: Django's wrapper would add the request's context
    # (CSRF, user) that a log line never uses, for every line
    return engines[LOG].get_template(name).template


def _line_inner(envelope: Envelope, reading: Reading, sight: Sight) -> str:
    """The content of the event's log line through ``reading``: the same for every reading that
    reads the same line (``Sight.line``)."""
    event = envelope.event
    # what the ``date`` filter would print ('c' and 'H:i'), without its per-call format lookups
    created = localtime(event.created)
    return _log_template("log/entry.html").render({
        "created_iso": created.isoformat(),
        "created_hm": created.strftime("%H:%M"),
        "event": event,
        "reading": reading,
        "payload": event.payload,
        "data": sight.data,  # what this reading may see: the public payload, overlaid with its private part
        "summary": sight.summary,
        "actor_name": event.actor.display_name if event.actor_id and event.actor else "",
        "body_template": _log_template(envelope.kind.line),
    })


def _entry(envelope: Envelope, sight: Sight, inner: str) -> str:
    """The event's line in the log, as the page shows it (escaped by Jinja2, so safe): only its
    id differs between readings that read the same line."""
    event = envelope.event
    return format_html(
        '<li id="event-{}" class="event kind-{}{}" data-seq="{}">\n  {}</li>',
        sight.position, event.kind.replace(".", "-"), " hidden-event" if event.audience != "everyone" else "",
        sight.position, mark_safe(inner),  # noqa: S308 -- Jinja2 escaped it
    )


def _lines(envelope: Envelope) -> dict[Reading, str]:
    """The event's frame of its log line, for each reading that sees it."""
    inners: dict[tuple[bool, bool], str] = {}
    lines: dict[Reading, str] = {}
    for reading, sight in envelope.sights.items():
        if sight.line not in inners:
            inners[sight.line] = _line_inner(envelope, reading, sight)
        lines[reading] = format_html(
            '<div data-frame="event" hx-swap-oob="beforeend:#log" data-frame-seq="{}">{}</div>',
            sight.position, _entry(envelope, sight, inners[sight.line]),
        )
    return lines


def event_entry(event: Event, reading: Reading) -> str:
    """An event's line in the log through ``reading``, as the page lists it."""
    envelope = Envelope.of(event, (reading,))
    sight = envelope.sights[reading]
    return _entry(envelope, sight, _line_inner(envelope, reading, sight))


def event_frames(envelope: Envelope) -> tuple[dict[str, str], dict[str, str]]:
    """What each socket receives of the event: ``(by reading, by seat)``.

    By reading: the frame every seat of that reading may be sent, drawn for the least of them (a
    spectator, for "public"). By seat (``Seat.key``): a frame of the seat's own where its panel
    is redrawn or the parts its kind redraws differ by seat (their controls); it replaces its
    reading's frame. Everything is read off the envelope: no database."""
    lines = _lines(envelope)
    least = {sight.least: reading for reading, sight in envelope.sights.items()}
    readers = envelope.readers
    drawn = parts.draw(envelope, {**least, **readers})
    redrawn = panels.redrawn(envelope.redraw, envelope.event.table_id) if envelope.redraw is not None else {}
    frames = {reading: marks.checked(lines[reading] + drawn[seat], seat) for seat, reading in least.items()}
    own: dict[str, str] = {}
    for seat, reading in readers.items():
        text = marks.checked(lines[reading] + drawn[seat] + redrawn.get(seat, ""), seat)
        if text != frames[reading]:
            own[seat.key] = text
    return frames, own


def frame_for(event: Event, reading: Reading, seat: Seat) -> str:
    """The event's frame for one seat reading the log (a replay): its log line and the parts it
    redraws, without a panel (the replay ends with the seat's current one)."""
    envelope = Envelope.of(event, (reading,))
    return marks.checked(_lines(envelope)[reading] + parts.draw(envelope, {seat: reading})[seat], seat)


def presence_frame(table_id: int) -> str:
    from tabletop.models import Membership
    from tabletop.selectors import online_member_ids

    online = online_member_ids(table_id)
    ids = (
        Membership.objects.filter(table_id=table_id, removed_at=None)
        .exclude(role="spectator")
        .values_list("pk", flat=True)
    )
    return render_to_string(
        f"{TABLE}#presence_all", {"ids": list(ids), "online": online, "oob": True}
    )


# Every frame of the feed's own says what it is in its first element's ``data-frame`` (with
# ``data-frame-seq`` where it brings the log to a position): "event" (a log line and what it
# changes), "snapshot", "ack" (the answer to the page's own act frame), "error", "pong",
# "caught-up". The page reads it in one place (static/js/tabletop.js, ``envelope``); a frame
# without one (presence, a panel after a replay) is swapped in as it is. The answers to a
# page's heartbeat and to its resume swap nothing.
PONG = '<p data-frame="pong" id="socket-pong" hidden></p>'
CAUGHT_UP = '<p data-frame="caught-up" id="socket-caught-up" hidden></p>'


def error_frame(message: str, code: str) -> str:
    return format_html(
        '<p data-frame="error" id="socket-error" class="socket-error" role="alert" hx-swap-oob="true" '
        'data-error="{}">{}</p>',
        code,
        message,
    )


def answer_frame(ref: str, *, position: str | None = None, message: str = "", code: str = "",
                 field: str | None = None) -> str:
    """The answer to an act frame: done, without a ``code`` (with the position, as the actor
    numbers it, ``Event.position``, of the last event the action logged that the actor sees;
    the events themselves reach the feed as everyone's), or refused (a message fit to show,
    its code and field; nothing was changed)."""
    if not code:
        return format_html(
            '<p data-frame="ack" id="socket-ack" hidden hx-swap-oob="true" data-ref="{}" data-outcome="done" '
            'data-seq="{}"></p>', ref, position or "",
        )
    return format_html(
        '<p data-frame="ack" id="socket-ack" hidden hx-swap-oob="true" data-ref="{}" data-outcome="refused" '
        'data-error="{}" data-field="{}">{}</p>', ref, code, field or "", message,
    )


def snapshot_frame(state: TableState) -> str:
    """The whole live part of the page, for a socket too far behind to replay."""
    from tabletop.selectors import card_state

    context = {
        "state": state,
        "entries": [event_entry(s.event, s.reading) for s in state.log],
        "oob": True,
        "is_gm": state.viewer.is_gm,
        "table_id": state.table.pk,
        "cards": card_state(state.table, state.me),
        "me_id": state.me.pk,
        "deck_kinds": deck_kind_choices(),
    }
    seat = seats.seat_of(state.me)
    return marks.checked(render_to_string(f"{TABLE}#snapshot", {**context, "seat": seat})
                       + panels.current_frame(state.table, state.me), seat)
