"""HTML for the live feed: each event through one reading, presence, errors, snapshots.

An event renders from its own row (payload, private part), never from current
state, so it can be rendered once per reading and sent to every socket of that reading.
"""

from __future__ import annotations

from functools import lru_cache
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.template import TemplateDoesNotExist, engines
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.timezone import localtime

from games import registry
from games.core.cards import deck_kind_choices

from tabletop import cardviews, panels, scene_frames
from tabletop.models import Event
from tabletop.permissions import GM_ONLY, Reading, event_reading, private_part
from tabletop.seats import GM, SPECTATOR, PageSeat, strip

if TYPE_CHECKING:
    from tabletop.selectors import TableState

TABLE = "tabletop/table.html"
CARDS = "tabletop/cards.html"
MEMBER_KINDS = {"table.created", "member.joined", "member.renamed"}
CHARACTER_KINDS = {"character.created", "character.updated", "character.claimed", "table.configured"}


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


DEFAULT_LINE = "log/events/default.html"  # the summary alone


@lru_cache(maxsize=64)
def body_template(kind: str) -> Any:
    """The compiled body of an event kind's log line (Jinja2). A game system's event
    (``<key>.<type>``) takes the line its registration names; the platform's own kinds
    are found by name under jinja2/log/events/."""
    prefix, _, rest = kind.partition(".")
    game = registry.SYSTEMS.get(prefix)
    if game is not None:
        return _log_template(game.log_lines.get(rest, DEFAULT_LINE))
    try:
        return _log_template(f"log/events/{kind.replace('.', '_')}.html")
    except TemplateDoesNotExist:
        return _log_template(DEFAULT_LINE)


@lru_cache(maxsize=64)
def _log_template(name: str) -> Any:
    # Jinja2's own template, rendered directly: Django's wrapper would add the request's
    # context (CSRF, user) that a log line never uses, for every line
    return engines[LOG].get_template(name).template


def entry_context(event: Event, reading: Reading) -> dict[str, Any]:
    private = private_part(event.private, reading)
    # what the ``date`` filter would print ('c' and 'H:i'), without its per-call format
    # lookups: half of what a chat line's log line cost to render
    created = localtime(event.created)
    return {
        "created_iso": created.isoformat(),
        "created_hm": created.strftime("%H:%M"),
        "event": event,
        "reading": reading,
        "payload": event.payload,
        # what this reading may see: the public payload, overlaid with the private part
        "data": {**event.payload, **private},
        "summary": event.private_summary if reading != "public" and event.private_summary else event.summary,
        "actor_name": event.actor.display_name if event.actor_id and event.actor else "",
        "body_template": body_template(event.kind),
    }


def _entry_inner(event: Event, reading: Reading) -> str:
    """The content of the event's log line through ``reading``: the same for every reading that
    sees the same thing."""
    return _log_template("log/entry.html").render(entry_context(event, reading))


def event_entry(event: Event, reading: Reading, *, inner: str | None = None) -> str:
    """The event's line in the log, as the page shows it (escaped by Jinja2, so safe).

    ``inner`` is the line's content already rendered for a reading that sees the same thing:
    only the line's id differs between the GM's reading and the others' (``Event.position``)."""
    if inner is None:
        inner = _entry_inner(event, reading)
    position = event.position(gm=reading == "gm")
    return format_html(
        '<li id="event-{}" class="event kind-{}{}" data-seq="{}">\n  {}</li>',
        position, event.kind.replace(".", "-"), " hidden-event" if event.audience != "everyone" else "",
        position, mark_safe(inner),  # noqa: S308 -- Jinja2 escaped it
    )


def event_frames(event: Event, readings: list[Reading]) -> tuple[dict[str, str], dict[str, str]]:
    """What each socket receives of the event: ``(by reading, by seat)``.

    By reading: the frame of every seat of that reading, rendering the log line's content once for
    every reading that sees the same thing (a public roll or chat line looks the same through all
    three), and cut to what the least of its seats may use (a spectator, for "public").
    By seat (``PageSeat.key``): a frame of the seat's own, where the event redraws its panel
    (``panels.Redraw``) or carries controls that differ by seat; it replaces its reading's frame."""
    inners: dict[tuple[bool, bool], str] = {}
    bases: dict[Reading, str] = {}
    for reading in readings:
        sees_private = reading != "public" and bool(event.private or event.private_summary)
        # the GM's own part (permissions.GM_ONLY) draws the GM's line apart from the owner's
        sees = (sees_private, reading == "gm" and GM_ONLY in event.private)
        if sees not in inners:
            inners[sees] = _entry_inner(event, reading)
        bases[reading] = event_frame(event, reading, entry=event_entry(event, reading, inner=inners[sees]))
    frames = {reading: strip(base, _least_seat(event, reading)) for reading, base in bases.items()}
    redraw = getattr(event, "redraw", None)
    if redraw is None and not any(frames[reading] != bases[reading] for reading in readings if reading != "gm"):
        return dict(frames), {}
    seats: dict[str, str] = {}
    for seat in panels.seats_at_event(event, redraw):
        reading = event_reading(panels.viewer(seat), event)
        if reading is None or reading not in bases:
            continue
        text = strip(bases[reading], seat) + (redraw.html(seat, event.table_id) if redraw is not None else "")
        if text != frames[reading]:
            seats[seat.key] = text
    return dict(frames), seats


def _least_seat(event: Event, reading: Reading) -> PageSeat:
    """The seat of a reading that may use the least: what every seat of that reading may be sent."""
    if reading == "gm":
        return GM
    if reading == "private":
        return PageSeat("player", event.owner_id)
    return SPECTATOR


def frame_for(event: Event, reading: Reading, seat: PageSeat) -> str:
    """The event's frame for one seat reading the log (a replay): its log line and the parts it
    changes, without a panel (the replay ends with the seat's current one)."""
    return strip(event_frame(event, reading), seat)


def event_frame(event: Event, reading: Reading, *, entry: str | None = None) -> str:
    """What a socket of this reading receives, before it is cut to its seat: the log line, and the
    platform's parts it changes (members, characters, cards)."""
    parts = [
        format_html(
            '<div data-frame="event" hx-swap-oob="beforeend:#log" data-frame-seq="{}">{}</div>',
            event.position(gm=reading == "gm"),
            event_entry(event, reading) if entry is None else entry,
        )
    ]
    if event.kind in MEMBER_KINDS:
        parts.append(
            render_to_string(
                f"{TABLE}#member_row",
                {
                    "m": event.payload["member"],
                    "is_gm": reading == "gm",
                    "oob": True,
                    "table_id": event.table_id,
                },
            )
        )
    elif event.kind == "member.removed":
        member_id = int(event.payload["member"]["id"])
        parts.append(format_html('<li id="member-{}" hx-swap-oob="delete"></li>', member_id))
    elif event.kind in CHARACTER_KINDS:
        if event.kind == "table.configured" and reading == "gm":
            table = {"pk": event.table_id, "npc_sheets_secret": event.payload["npc_sheets_secret"]}
            parts.append(render_to_string(f"{TABLE}#npc_screen", {"table": table, "oob": True}))
        for character in _characters(event, reading):
            parts.append(render_to_string(f"{TABLE}#character_card",
                                          {"c": character, "oob": True, "table_id": event.table_id}))
    if event.kind in MEMBER_KINDS and event.payload["member"]["role"] == "player":
        member = event.payload["member"]
        context = {"m": member, "oob": True}
        parts.append(render_to_string(f"{CARDS}#player_option", context))
        parts.append(render_to_string(f"{CARDS}#deal_checkbox", context))  # a player may deal too
        parts.append(render_to_string(f"{CARDS}#owner_option", context))  # the GM's "Whose deck"
    elif event.kind == "member.removed":
        member_id = int(event.payload["member"]["id"])
        # each where the seat's page has it (tabletop/seats.py cuts the others' out of the frame)
        for prefix, held_by in (("player-opt", ""), ("deal-to", "seated"), ("deck-owner", "gm"), ("hand", "gm")):
            parts.append(format_html('<span id="{}-{}" data-only="{}" hx-swap-oob="delete"></span>', prefix, member_id,
                                     held_by))
    if "counts" in event.payload:
        parts.append(card_panels(event, reading))
    if event.kind in scene_frames.KINDS:
        parts.append(scene_frames.frame(event, reading))
    return "".join(parts)


def _characters(event: Event, reading: Reading) -> list[Mapping[str, Any]]:
    """The character cards an event redraws, as this reading may see them: the GM's part holds
    the whole character when its sheet is the GM's (``selectors.character_shown``)."""
    if "characters" in event.payload:  # the table's NPC setting changed: every NPC's card
        return list(event.private.get("characters", event.payload["characters"]) if reading == "gm"
                    else event.payload["characters"])
    return [event.private.get("character", event.payload["character"]) if reading == "gm"
            else event.payload["character"]]


def card_panels(event: Event, reading: Reading) -> str:
    """The card panels an event changes: counts and play area for all, the owner's hand
    for the owner and the GM, and the deck itself when it was made or changed."""
    counts = private_part(event.private, reading).get("counts", event.payload["counts"])  # the GM's may differ
    view = cardviews.counts_context(counts)
    base = {"oob": True, "table_id": event.table_id}
    parts: list[str] = []
    info = event.payload.get("deck_info")
    if info:  # first: a new deck's widget holds the counts swapped in after it
        (row,) = cardviews.deck_rows([info], counts)
        parts.append(render_to_string(f"{CARDS}#deck_widget", {**base, "d": row}))
        parts.append(render_to_string(f"{CARDS}#deal_deck_option", {**base, "d": row}))
    parts += [render_to_string(f"{CARDS}#deck_counts", {**base, "c": c}) for c in view["deck_counts"]]
    parts.append(render_to_string(f"{CARDS}#play_area", {**base, "play": view["play"]}))
    parts += [
        format_html('<span id="hand-count-{}" class="hand-count" hx-swap-oob="true">{}</span>', member_id, n)
        for member_id, n in view["hand_counts"].items()
    ]
    if reading == "gm" and "hand" in event.private and event.owner is not None and event.owner.role == "gm" \
            and event.owner_id not in view["hand_counts"]:
        # the GM's own count, kept from the others (selectors.gm_hand_is_secret): the GM reads it off their hand
        parts.append(format_html('<span id="hand-count-{}" class="hand-count" hx-swap-oob="true">{}</span>',
                                 event.owner_id, len(event.private["hand"])))
    if reading != "public" and "hand" in event.private and event.owner_id:
        owner = event.owner
        parts.append(
            render_to_string(
                f"{CARDS}#hand",
                {
                    **base,
                    "member_id": event.owner_id,
                    "member_name": owner.display_name if owner else "",
                    # the owner reads "Your hand": a player through the private reading, the GM
                    # (the table's one GM) through the GM's
                    "me_id": event.owner_id if reading == "private" or (
                        reading == "gm" and owner is not None and owner.role == "gm") else None,
                    "hand": cardviews.faces(event.private["hand"]),
                },
            )
        )
    return "".join(parts)


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
    seat = panels.page_seat(state.me)
    return strip(render_to_string(f"{TABLE}#snapshot", context) + panels.current_frame(state.table, state.me), seat)
