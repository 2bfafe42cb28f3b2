"""HTML for the live feed: each event through one lens, presence, errors, snapshots.

An event renders from its own row (payload, private part), never from current
state, so it can be rendered once per lens and sent to every socket of that lens.
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

from tabletop import cardviews
from tabletop.models import Event
from tabletop.permissions import Lens

if TYPE_CHECKING:
    from tabletop.selectors import TableState

TABLE = "tabletop/table.html"
CARDS = "tabletop/cards.html"
MEMBER_KINDS = {"table.created", "member.joined", "member.renamed"}
CHARACTER_KINDS = {"character.created", "character.updated", "character.claimed"}


LOG = "log"  # the template engine of the log's lines (settings.TEMPLATES)


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


def entry_context(event: Event, lens: Lens) -> dict[str, Any]:
    private = event.private if lens != "public" else {}
    # what the ``date`` filter would print ('c' and 'H:i'), without its per-call format
    # lookups: half of what a chat line's log line cost to render
    created = localtime(event.created)
    return {
        "created_iso": created.isoformat(),
        "created_hm": created.strftime("%H:%M"),
        "event": event,
        "lens": lens,
        "payload": event.payload,
        # what this lens may see: the public payload, overlaid with the private part
        "data": {**event.payload, **private},
        "summary": event.private_summary if lens != "public" and event.private_summary else event.summary,
        "actor_name": event.actor.display_name if event.actor_id and event.actor else "",
        "body_template": body_template(event.kind),
    }


def _entry_inner(event: Event, lens: Lens) -> str:
    """The content of the event's log line through ``lens``: the same for every lens that
    sees the same thing."""
    return _log_template("log/entry.html").render(entry_context(event, lens))


def event_entry(event: Event, lens: Lens, *, inner: str | None = None) -> str:
    """The event's line in the log, as the page shows it (escaped by Jinja2, so safe).

    ``inner`` is the line's content already rendered for a lens that sees the same thing:
    only the line's id differs between the GM's lens and the others' (``Event.position``)."""
    if inner is None:
        inner = _entry_inner(event, lens)
    position = event.position(gm=lens == "gm")
    return format_html(
        '<li id="event-{}" class="event kind-{}{}" data-seq="{}">\n  {}</li>',
        position, event.kind.replace(".", "-"), " hidden-event" if event.audience != "everyone" else "",
        position, mark_safe(inner),  # noqa: S308 -- Jinja2 escaped it
    )


def event_frames(event: Event, lenses: list[Lens]) -> dict[Lens, str]:
    """The frame for each of these lenses, rendering the log line's content once for every
    lens that sees the same thing (a public roll or chat line looks the same through all three)."""
    inners: dict[bool, str] = {}
    frames: dict[Lens, str] = {}
    for lens in lenses:
        sees_private = lens != "public" and bool(event.private or event.private_summary)
        if sees_private not in inners:
            inners[sees_private] = _entry_inner(event, lens)
        frames[lens] = event_frame(event, lens, entry=event_entry(event, lens, inner=inners[sees_private]))
    return frames


def event_frame(event: Event, lens: Lens, *, entry: str | None = None) -> str:
    """What a socket of this lens receives: the log line, and the panels it changes."""
    parts = [
        format_html(
            '<div hx-swap-oob="beforeend:#log" data-frame-seq="{}">{}</div>',
            event.position(gm=lens == "gm"),
            event_entry(event, lens) if entry is None else entry,
        )
    ]
    if event.kind in MEMBER_KINDS:
        parts.append(
            render_to_string(
                f"{TABLE}#member_row",
                {
                    "m": event.payload["member"],
                    "is_gm": lens == "gm",
                    "oob": True,
                    "table_id": event.table_id,
                },
            )
        )
    elif event.kind == "member.removed":
        member_id = int(event.payload["member"]["id"])
        parts.append(format_html('<li id="member-{}" hx-swap-oob="delete"></li>', member_id))
    elif event.kind in CHARACTER_KINDS:
        parts.append(
            render_to_string(
                f"{TABLE}#character_card",
                # the GM's part holds the whole character when its sheet is the GM's
                {"c": event.private.get("character", event.payload["character"]) if lens == "gm"
                 else event.payload["character"], "oob": True, "table_id": event.table_id},
            )
        )
    if event.kind in MEMBER_KINDS and event.payload["member"]["role"] == "player":
        member = event.payload["member"]
        context = {"m": member, "oob": True}
        parts.append(render_to_string(f"{CARDS}#player_option", context))
        parts.append(render_to_string(f"{CARDS}#deal_checkbox", context))  # a player may deal too
    elif event.kind == "member.removed":
        member_id = int(event.payload["member"]["id"])
        for prefix in ("player-opt", "deal-to", "hand"):
            parts.append(format_html('<span id="{}-{}" hx-swap-oob="delete"></span>', prefix, member_id))
    if "counts" in event.payload:
        parts.append(card_panels(event, lens))
    panel = _system_panel(event)
    if panel is not None:
        view = event.payload["panel"]
        if lens == "gm" and _gm_sees_more(event):
            view = _gm_panel(event)
        parts.append(render_to_string(panel, {"panel": view, "oob": True, "table_id": event.table_id}))
        turn = turn_view(event.payload["panel"])
        parts.append(render_to_string(f"{TABLE}#turn_banner", {"turn": turn, "oob": True}))
    return "".join(parts)


def _event_game(event: Event) -> Any:
    """The system whose panel the event redraws: its own (``<key>.<type>``), or, for a
    platform event that carries a panel (a character made, renamed or claimed), the table's."""
    game = registry.SYSTEMS.get(event.kind.partition(".")[0])
    if game is None and "panel" in event.payload:
        from tabletop.models import Table

        game = registry.SYSTEMS.get(Table.objects.values_list("system", flat=True).get(pk=event.table_id))
    return game


def _gm_sees_more(event: Event) -> bool:
    game = _event_game(event)
    return game is not None and game.panel is not None and game.panel.gm_sees_more


def _gm_panel(event: Event) -> dict[str, Any]:
    """The GM's own view of a panel that shows the GM more than everyone (Panel.gm_sees_more):
    never stored in the public payload, drawn from the table's state as it is when the frame is
    made (the latest, as every redraw is), for the GM's frames only."""
    from tabletop.models import Table
    from tabletop.selectors import panel_for, procedure_state

    table = Table.objects.get(pk=event.table_id)
    return panel_for(table, procedure_state(table) or {}, "gm")


def _system_panel(event: Event) -> str | None:
    """The panel template of the system whose event this is, when the event redraws it."""
    if "panel" not in event.payload:
        return None
    game = _event_game(event)
    return game.panel.template if game is not None and game.panel is not None else None


def turn_view(panel: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """Whose turn it is, as the page's banner shows it (games/contract.py, Panel): one HTML
    for every viewer; the page's CSS shows "Your turn" to the member it names (the GM for a
    turn of the GM's or of a character nobody plays) and what everyone else reads to the rest."""
    turn = (panel or {}).get("turn")
    if not turn:
        return None
    combatant = turn.get("combatant")
    controller = (panel or {}).get("controllers", {}).get(combatant) if combatant else None
    return {
        "says": turn.get("says", ""),
        "prompt": turn.get("prompt", ""),
        "controller": controller or "",
        "gm": bool(turn.get("gm")) or (combatant is not None and controller is None),
    }


def card_panels(event: Event, lens: Lens) -> str:
    """The card panels an event changes: counts and play area for all, the owner's hand
    for the owner and the GM, and the deck itself when it was made or changed."""
    view = cardviews.counts_context(event.payload["counts"])
    base = {"oob": True, "table_id": event.table_id}
    parts: list[str] = []
    info = event.payload.get("deck_info")
    if info:  # first: a new deck's widget holds the counts swapped in after it
        (row,) = cardviews.deck_rows([info], event.payload["counts"])
        parts.append(render_to_string(f"{CARDS}#deck_widget", {**base, "d": row}))
        parts.append(render_to_string(f"{CARDS}#deal_deck_option", {**base, "d": row}))
    parts += [render_to_string(f"{CARDS}#deck_counts", {**base, "c": c}) for c in view["deck_counts"]]
    parts.append(render_to_string(f"{CARDS}#play_area", {**base, "play": view["play"]}))
    parts += [
        format_html('<span id="hand-count-{}" class="hand-count" hx-swap-oob="true">{}</span>', member_id, n)
        for member_id, n in view["hand_counts"].items()
    ]
    if lens != "public" and "hand" in event.private and event.owner_id:
        owner = event.owner
        parts.append(
            render_to_string(
                f"{CARDS}#hand",
                {
                    **base,
                    "member_id": event.owner_id,
                    "member_name": owner.display_name if owner else "",
                    # the owner reads "Your hand": a player through the private lens, the GM
                    # (the table's one GM) through the GM's
                    "me_id": event.owner_id if lens == "private" or (
                        lens == "gm" and owner is not None and owner.role == "gm") else None,
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


def error_frame(message: str, code: str) -> str:
    return format_html(
        '<p id="socket-error" class="socket-error" role="alert" hx-swap-oob="true" '
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
            '<p id="socket-ack" hidden hx-swap-oob="true" data-ref="{}" data-outcome="done" '
            'data-seq="{}"></p>', ref, position or "",
        )
    return format_html(
        '<p id="socket-ack" hidden hx-swap-oob="true" data-ref="{}" data-outcome="refused" '
        'data-error="{}" data-field="{}">{}</p>', ref, code, field or "", message,
    )


def snapshot_frame(state: TableState) -> str:
    """The whole live part of the page, for a socket too far behind to replay."""
    from tabletop.selectors import card_state

    context = {
        "state": state,
        "entries": [event_entry(s.event, s.lens) for s in state.log],
        "oob": True,
        "is_gm": state.viewer.is_gm,
        "table_id": state.table.pk,
        "cards": card_state(state.table, state.me),
        "me_id": state.me.pk,
        "deck_kinds": deck_kind_choices(),
    }
    return render_to_string(f"{TABLE}#snapshot", context)
