"""The table page, dice and chat, invite links and joining."""

from __future__ import annotations

import io

from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import registry
from games.core.cards import deck_kind_choices
from tabletop import actions, selectors, services
from tabletop.feed import panels
from tabletop.feed.frames import event_entry
from tabletop.feed.seat import seat_of
from tabletop.feed.marks import checked
from tabletop.forms import ChatForm, JoinForm, RollForm
from tabletop.models import Table, Membership, Role
from tabletop.permissions import Verb, can
from tabletop.services import ServiceError, requests

from tabletop.views.base import TABLE, form_response, refusal, member_at, socket_paths


# The table


def _gm_hand_count(table: Table, me: Membership, members: list[dict[str, Any]], cards: dict[str, Any]) -> None:
    """How many cards the GM holds, when that is the GM's alone (``selectors.gm_hand_is_secret``):
    the GM reads it off their own hand; anyone else reads "?"."""
    if not table.npc_sheets_secret:
        return
    held = {h["member"].pk: len(h["cards"]) for h in cards["hands"]}
    for m in members:
        if m["role"] == Role.GM:
            m["cards_in_hand"] = held.get(m["id"], 0) if me.role == Role.GM else "?"


def _table_context(request: HttpRequest, table: Table, member: Membership) -> dict[str, Any]:
    state = selectors.table_state(table, member)
    cards = selectors.card_state(table, member)
    for m in state.members:
        m["cards_in_hand"] = cards["hand_counts"].get(m["id"], 0)
    _gm_hand_count(table, member, state.members, cards)
    game = registry.get(table.system)
    panel = panels.current(table, member)
    seat = seat_of(member)
    badges = {c["id"]: c["badges"] for c in ((panel or {}).get("campaign") or {}).get("characters", ())}
    for c in state.characters:
        c["badges"] = badges.get(c["id"], [])
    return {
        "session": selectors.session_shown(table),
        # who the page is drawn for: the templates draw only what this seat may see and use
        # (tabletop/templatetags/seat_tags.py)
        "seat": seat,
        # the system's panel, drawn for this member's seat by the templates its registration names
        "panel": panel,
        "turn": panels.turn_view(panel, seat),
        "system_panel": game.panel,
        "cards": cards,
        "me_id": member.pk,
        "deck_kinds": deck_kind_choices(),
        "state": state,
        "entries": [event_entry(s.event, s.reading) for s in state.log],
        "table": table,
        "table_id": table.pk,
        "me": member,
        "is_gm": member.role == Role.GM,
        "can_act": can(state.viewer.standing, Verb.ROLL),
        "act_paths": socket_paths(table) if can(state.viewer.standing, Verb.ROLL) else {},
        "game": game,
        "roll_form": RollForm(),
        "chat_form": ChatForm(),
        "links": _links(request, table) if member.role == Role.GM else None,
        # sheet requests: the GM's all, a player's own (tabletop/services/requests.py)
        "requests": requests.open_requests(table, member),
        "approvals": table.sheet_approvals,
        # what the last form said on its way here ("Your change waits for the GM's approval.")
        "flash": " ".join(str(m) for m in messages.get_messages(request)),
    }


def _links(request: HttpRequest, table: Table) -> list[dict[str, str]]:
    return [
        {
            "which": which,
            "label": label,
            "url": request.build_absolute_uri(reverse(view, args=[token])),
        }
        for which, label, view, token in (
            ("player", "Player link", "join", table.player_token),
            ("spectator", "Spectator link", "watch", table.spectator_token),
        )
    ]


@require_GET
def table(request: HttpRequest, table_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        # the GM's printed "Table:" link, opened logged out: the login page, then the table
        return redirect_to_login(request.get_full_path())
    table, member = member_at(request, table_id, Verb.WATCH)
    context = _table_context(request, table, member)
    page = render(request, TABLE, context)
    # the templates drew the seat's view; the pass over the HTML finds nothing left to take out
    # (tests/integration/test_seat_views.py) and stays until every frame is drawn the same way
    page.content = checked(page.content.decode(), context["seat"]).encode()
    return page


def _table_form(request: HttpRequest, table_id: int, name: str, *, partial: str) -> HttpResponse:
    """Runs the action ``name`` of the action table on its form. Done: 204 and nothing else,
    to htmx (the page empties the form's text; what it did reaches everyone through the live
    feed); rendering the form again cost a fresh masked CSRF token, 32 draws from the
    system's randomness, each time. Refused: the form again, with the refusal inline."""
    action = actions.ACTIONS[name]
    table, member = member_at(request, table_id, action.verb)
    form = action.form(request.POST)
    status = 400
    if form.is_valid():
        try:
            actions.take(action, member, form.cleaned_data)
        except ServiceError as exc:
            refusal(form, exc)
            status = exc.status
        else:
            if not request.htmx:
                return redirect("table", table_id=table.pk)
            return HttpResponse(status=204)
    return form_response(request, partial, {partial: form, "table": table, "seat": seat_of(member)},
                         status=status)


@require_POST
def roll(request: HttpRequest, table_id: int) -> HttpResponse:
    return _table_form(request, table_id, "dice.roll", partial="roll_form")


@require_POST
def chat(request: HttpRequest, table_id: int) -> HttpResponse:
    return _table_form(request, table_id, "chat.post", partial="chat_form")


# Links


@require_POST
def link_regenerate(request: HttpRequest, table_id: int, which: str) -> HttpResponse:
    table, member = member_at(request, table_id, Verb.LINKS_MANAGE)
    try:
        table = services.table_regenerate_link(table=table, actor=member, which=which)
    except ServiceError as exc:
        return HttpResponse(exc.message, status=exc.status, content_type="text/plain")
    if request.htmx:
        return render(
            request, f"{TABLE}#links", {"links": _links(request, table), "table": table, "seat": seat_of(member)}
        )
    return redirect("table", table_id=table.pk)


@require_GET
def link_qr(request: HttpRequest, table_id: int, which: str) -> HttpResponse:
    table, _ = member_at(request, table_id, Verb.LINKS_MANAGE)
    link = next((l for l in _links(request, table) if l["which"] == which), None)
    if link is None:
        raise Http404("There is no such link.")
    # A file of its own, so with its XML declaration and the SVG namespace: without them (as
    # svg_inline writes it for an inline <svg>) a browser shows an <img> of it as broken.
    svg = io.BytesIO()
    segno.make(link["url"], error="m").save(svg, kind="svg", scale=4, title=link["label"])
    return HttpResponse(svg.getvalue(), content_type="image/svg+xml")


# Joining


def _link_table(token: str, which: str) -> Table:
    table = Table.objects.filter(**{f"{which}_token": token}).first()
    if table is None:
        raise Http404("This link does not work: it is mistyped or the GM replaced it.")
    return table


def _member_by_link(request: HttpRequest, token: str, which: str) -> tuple[Table, HttpResponse | None]:
    """The link's table, and a redirect to it when this browser already has a seat there."""
    table = _link_table(token, which)
    member = selectors.membership_for(table, request.user)
    if member is None:
        return table, None
    if member.removed_at is not None:
        raise PermissionDenied("The GM removed you from this table.")
    return table, redirect("table", table_id=table.pk)


def _join(request: HttpRequest, table: Table, role: str, display_name: str = "") -> HttpResponse:
    """Seats the requester (a new guest if not logged in) and logs a guest in by session."""
    user = request.user if request.user.is_authenticated else None
    member = services.membership_join(table=table, user=user, role=role, display_name=display_name)
    if user is None:
        login(request, member.user, backend="django.contrib.auth.backends.ModelBackend")
    return redirect("table", table_id=table.pk)


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponse:
    table, seated = _member_by_link(request, token, "player")
    if seated:
        return seated
    form = JoinForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            return _join(request, table, Role.PLAYER, form.cleaned_data["display_name"])
        except ServiceError as exc:
            refusal(form, exc)
    status = 400 if form.errors else 200
    return render(request, "tabletop/join.html", {"form": form, "table": table}, status=status)


@require_http_methods(["GET", "POST"])
def watch(request: HttpRequest, token: str) -> HttpResponse:
    table, seated = _member_by_link(request, token, "spectator")
    if seated:
        return seated
    if request.method == "POST":
        return _join(request, table, Role.SPECTATOR)
    return render(request, "tabletop/watch.html", {"table": table})
