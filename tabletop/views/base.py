"""What every view shares: the requester's membership, and answering a form with htmx or without."""

from __future__ import annotations

from typing import Any

import segno

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from tabletop import actions, selectors
from tabletop.models import Table, Membership
from tabletop.permissions import Standing, Verb, can, refusal_of, standing_of
from tabletop.services import ServiceError


TABLE = "tabletop/table.html"


def member_at(request: HttpRequest, table_id: int, verb: Verb) -> tuple[Table, Membership]:
    """The table and the requester's membership, if its standing may ``verb``; 404 or 403 otherwise."""
    member = selectors.membership_for(table_id, request.user)
    table = member.table if member is not None else get_object_or_404(Table, pk=table_id)
    standing = standing_of(member)
    if not can(standing, verb):
        raise PermissionDenied(refusal_of(standing, verb))
    assert member is not None
    return table, member


# The URL each action of the action table (tabletop/actions.py) is posted to (tabletop/urls.py):
# by its name, else by its kind (the part before the dot), the rest of its name ending the URL.
_POSTED_AT = {"dice.roll": "roll", "chat.post": "chat", "deck.create": "deck_create",
              "session.open": "session_open", "session.close": "session_close"}
_POSTED_BY_KIND = {"deck": "deck_action", "card": "card_action", actions.MOVE.rstrip("."): "table_command",
                   actions.CHECK.rstrip("."): "table_check", "npc": "npc_action", "bestiary": "bestiary_action",
                   "request": "request_action", "fog": "fog_action", "sheet": "sheet_action"}
# Answered only by a POST: the GM's peek is answered with the cards, to reorder them there,
# which an act frame's answer does not carry.
POST_ONLY = frozenset({"deck.peek"})


def posted_at(name: str, table_id: int) -> str:
    """The path the page posts the action ``name`` to."""
    if name in _POSTED_AT:
        return reverse(_POSTED_AT[name], args=[table_id])
    kind, _, rest = name.partition(".")
    return reverse(_POSTED_BY_KIND[kind], args=[table_id, rest])


def socket_paths(table: Table) -> dict[str, str | None]:
    """How the page names the action a path posts to, to send it as an act frame while its
    socket is open (static/js/tabletop.js: actionAt): a path's own action (None for one only
    posted), else the prefix of the action below a kind's path ("/tables/1/commands/" is
    "move.": "/tables/1/commands/draw/" is "move.draw"). Kinds, not each action: a player's
    page names none of the GM's moves."""
    paths: dict[str, str | None] = {posted_at(name, table.pk): name for name in _POSTED_AT}
    for kind in _POSTED_BY_KIND:
        paths[posted_at(f"{kind}.x", table.pk).removesuffix("x/")] = f"{kind}."
    paths.update({posted_at(name, table.pk): None for name in POST_ONLY})
    # the campaign box posts the clock's moves (games/core/clock.py) to a path of its own
    paths[reverse("campaign_command", args=[table.pk, "x"]).removesuffix("x/")] = actions.MOVE
    return paths


def form_response(
    request: HttpRequest, partial: str, context: dict[str, Any], *, status: int = 200
) -> HttpResponse:
    if request.htmx:
        return render(request, f"{TABLE}#{partial}", context, status=status)
    return render(request, "tabletop/form_page.html", {**context, "partial": partial}, status=status)


def refusal(form: Any, error: ServiceError) -> None:
    """A service's refusal on the form, each fault at its field (a sheet's: all at once)."""
    for field, message in getattr(error, "errors", [(error.field, error.message)]):
        form.add_error(field if field in form.fields else None, message)


def qr_svg(url: str, title: str) -> str:
    """A QR code of ``url`` as an inline <svg> (its title names it for screen readers)."""
    return segno.make(url, error="m").svg_inline(scale=4, title=title)


def posted_action(request: HttpRequest, table_id: int, name: str, *, notice: str, unknown: str) -> HttpResponse:
    """One action of the action table (tabletop/actions.py) posted by a tool's button: the same
    an act frame takes. A refusal of the seat comes before its input is read (403); an action the
    table lacks is a 404 (``unknown`` says so). Answered with the tool's notice line (``notice``,
    a template partial): empty when done (what changed reaches every seat through the live
    feed), or the refusal in it with its 4xx; without htmx, the table or a page saying why."""
    action = actions.ACTIONS.get(name)
    if action is None:
        raise Http404(unknown)
    table, me = member_at(request, table_id, action.verb)
    form = action.form(request.POST) if action.form is not None else None
    refused: ServiceError | None = None
    if form is not None and not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        refused = ServiceError(str(errors[0]), field=field)
    else:
        try:
            actions.take(action, me, form.cleaned_data if form is not None else {})
        except ServiceError as exc:
            refused = exc
    if not request.htmx:
        if refused is None:
            return redirect("table", table_id=table.pk)
        return render(request, "tabletop/message.html", {"message": refused.message, "table": table},
                      status=refused.status)
    if refused is not None:
        return render(request, notice, {"notice": refused.message}, status=refused.status)
    return render(request, notice, {"notice": ""})
