"""Sessions and the table's clock: the GM opens and closes a session, moves the clock on, adds and
ends conditions, sets the table options of time and recovery (each a move of the system's engine,
games/core/clock.py, or a session action); and anyone at the table reads a session's recap."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from games import registry
from games.core import clock
from tabletop import actions, selectors
from tabletop.models import PlaySession
from tabletop.permissions import Verb
from tabletop.services import ServiceError
from tabletop.views.base import member_at
from tabletop.views.systems import take

NOTICE = "tabletop/campaign.html#notice"


def _answer(request: HttpRequest, table_id: int, refused: ServiceError | None) -> HttpResponse:
    if refused is not None:
        return render(request, NOTICE, {"notice": refused.message}, status=refused.status)
    if not request.htmx:
        return redirect("table", table_id=table_id)
    return render(request, NOTICE, {"notice": ""})


def _run(request: HttpRequest, table_id: int, name: str, verb: Verb) -> HttpResponse:
    table, refused = take(request, table_id, name, verb)
    return _answer(request, table.pk, refused)


@require_POST
def campaign_command(request: HttpRequest, table_id: int, command: str) -> HttpResponse:
    """One of the clock's moves (the scene ends, a condition added...): the campaign box's
    notice, empty when done, or the refusal in it with its 4xx."""
    if command not in clock.MOVE_NAMES:  # the engine's moves the campaign box posts
        raise Http404("There is no such command of the clock.")
    return _run(request, table_id, actions.MOVE + command, actions.SYSTEM_VERB)


@require_POST
def session_open(request: HttpRequest, table_id: int) -> HttpResponse:
    return _run(request, table_id, "session.open", Verb.SESSION_MANAGE)


@require_POST
def session_close(request: HttpRequest, table_id: int) -> HttpResponse:
    return _run(request, table_id, "session.close", Verb.SESSION_MANAGE)


@require_GET
def session_recap(request: HttpRequest, table_id: int, number: int) -> HttpResponse:
    """A session told from the log as this seat may read it, with a Markdown copy
    (``?format=md``)."""
    table, me = member_at(request, table_id, Verb.WATCH)
    session = PlaySession.objects.filter(table=table, number=number).first()
    if session is None:
        raise Http404("There is no such session at this table.")
    recap = selectors.session_recap(table, me, session)
    if request.GET.get("format") == "md":
        response = HttpResponse(recap.markdown(), content_type="text/markdown; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="table-{table.pk}-session-{number}.md"'
        return response
    return render(request, "tabletop/recap.html", {"table": table, "me": me, "recap": recap,
                                                   "game": registry.get(table.system), "spans": clock.SPANS})
