"""Deck and card actions; what they change reaches everyone through the live feed."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from tabletop import actions
from tabletop.feed import parts
from tabletop.feed.seat import seat_of
from tabletop.models import Table
from tabletop.services import ServiceError

from tabletop.views.base import member_at


# Cards


def _cards_reply(request: HttpRequest, table: Table, notice: str = "", status: int = 200) -> HttpResponse:
    if request.htmx:
        return render(request, "tabletop/cards.html#cards_notice", {"notice": notice}, status=status)
    if status >= 400:
        return render(request, "tabletop/message.html", {"message": notice, "table": table}, status=status)
    return redirect("table", table_id=table.pk)


def _form_error(form: Any) -> str:
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


# The URLs' names for the deck and card actions of the action table (tabletop/actions.py);
# deck.create has a page form of its own, at decks/new/.
DECK_ACTIONS: dict[str, type[forms.Form]] = {
    name.removeprefix("deck."): action.form
    for name, action in actions.ACTIONS.items() if name.startswith("deck.") and name != "deck.create"
}
CARD_ACTIONS = frozenset(name.removeprefix("card.") for name in actions.ACTIONS if name.startswith("card."))


@require_POST
def deck_create(request: HttpRequest, table_id: int) -> HttpResponse:
    return _act(request, table_id, "deck.create")


@require_POST
def deck_action(request: HttpRequest, table_id: int, action: str) -> HttpResponse:
    if action not in DECK_ACTIONS:
        raise Http404("There is no such deck action.")
    return _act(request, table_id, f"deck.{action}")


@require_POST
def card_action(request: HttpRequest, table_id: int, action: str) -> HttpResponse:
    if action not in CARD_ACTIONS:
        raise Http404("There is no such card action.")
    return _act(request, table_id, f"card.{action}")


REQUEST_ACTIONS = frozenset(name.removeprefix("request.") for name in actions.ACTIONS if name.startswith("request."))
REQUESTS_NOTICE = "tabletop/requests.html#notice"


@require_POST
def request_action(request: HttpRequest, table_id: int, action: str) -> HttpResponse:
    """A sheet request approved, refused or withdrawn, or the table's approvals switched: the
    requests box's notice, empty when done (the box itself changes through the live feed)."""
    if action not in REQUEST_ACTIONS:
        raise Http404("There is no such request action.")
    name = f"request.{action}"
    act = actions.ACTIONS[name]
    table, me = member_at(request, table_id, act.verb)
    form = act.form(request.POST)
    notice, status = "", 200
    if not form.is_valid():
        notice, status = _form_error(form), 400
    else:
        try:
            actions.take(act, me, form.cleaned_data)
        except ServiceError as exc:
            notice, status = exc.message, exc.status
    if request.htmx:
        return render(request, REQUESTS_NOTICE, {"notice": notice}, status=status)
    if status >= 400:
        return render(request, "tabletop/message.html", {"message": notice, "table": table}, status=status)
    return redirect("table", table_id=table.pk)


def _act(request: HttpRequest, table_id: int, name: str) -> HttpResponse:
    """Runs the action ``name`` of the action table on the posted form: the notice, empty
    when done (what it did reaches everyone through the live feed), or the refusal."""
    action = actions.ACTIONS[name]
    table, me = member_at(request, table_id, action.verb)
    form = action.form(request.POST)
    if not form.is_valid():
        return _cards_reply(request, table, _form_error(form), 400)
    try:
        done = actions.take(action, me, form.cleaned_data)
    except ServiceError as exc:
        return _cards_reply(request, table, exc.message, exc.status)
    if name == "deck.peek":  # the GM sees the cards at once, with the form to reorder them
        deck_id = form.cleaned_data["deck"]
        tokens = cast(list[str], done.result)
        context = {"peeked": [parts.face(deck_id, t) for t in tokens], "deck_id": deck_id,
                   "table_id": table.pk, "seat": seat_of(me)}
        return render(request, "tabletop/cards.html#peek_result", context)
    return _cards_reply(request, table)
