"""A game system's commands, checks and pages, generic over its registration
(games/contract.py). A command or a check is an action of the action table
(tabletop/actions.py: ``move.<name>``, ``check.<name>``), the same that an act frame on the
socket takes; here it is posted, and answered with the template the registration names. A
refusal answers inline in the system's notice line with its 4xx; an unknown command, check,
page or system is a 404.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from games import registry
from games.contract import Panel
from games.forms import Form
from tabletop import actions
from tabletop.models import Table
from tabletop.permissions import Verb
from tabletop.services import ServiceError

from tabletop.views.base import member_at


def _form(data: QueryDict) -> Form:
    """Submitted data as plain data: each field's values, in the order sent."""
    return {key: list(items) for key, items in data.lists()}


def take(request: HttpRequest, table_id: int, name: str,
         verb: Verb = actions.SYSTEM_VERB) -> tuple[Table, ServiceError | None]:
    """Runs the action ``name`` of the action table (tabletop/actions.py) on the posted form as
    plain data (a system's move or check, a session's opening or close): the table, and the
    refusal if it was refused. A name the table lacks is a 404."""
    table, me = member_at(request, table_id, verb)
    action = actions.lookup(name, table.system)
    if action is None:
        raise Http404(actions.unknown(name))
    try:
        actions.take(action, me, _form(request.POST))
    except ServiceError as exc:
        return table, exc
    return table, None


@require_POST
def table_command(request: HttpRequest, table_id: int, command: str) -> HttpResponse:
    """One move of the table's procedure (Demon City: start, announce, roll, ...): the system's
    notice line, empty when done, or the refusal in it with its 4xx."""
    table, refused = take(request, table_id, actions.MOVE + command)
    notice = _panel(table).notice
    if refused is not None:
        if not request.htmx:
            context = {"message": refused.message, "table": table}
            return render(request, "tabletop/message.html", context, status=refused.status)
        return render(request, notice, {"notice": refused.message}, status=refused.status)
    if not request.htmx:
        return redirect("table", table_id=table.pk)
    return render(request, notice, {"notice": ""})


@require_POST
def table_check(request: HttpRequest, table_id: int, check: str) -> HttpResponse:
    """One of the system's one-off checks (Demon City: a task) for a character: the check's
    notice line, empty when done, or the refusal in it with its 4xx."""
    table, refused = take(request, table_id, actions.CHECK + check)
    spec = registry.get(table.system).check(check)
    assert spec is not None  # the action table found it
    if refused is not None:
        return render(request, spec.notice, {"notice": refused.message}, status=refused.status)
    return render(request, spec.notice, {"notice": ""})


def _panel(table: Table) -> Panel:
    panel = registry.get(table.system).panel
    assert panel is not None  # a system with moves has a panel (registry.check_registration)
    return panel


@require_GET
def game_page(request: HttpRequest, system: str, page: str) -> HttpResponse:
    """A system's own page (Demon City's odds), open to anyone."""
    try:
        game = registry.get(system)
    except registry.UnknownSystem:
        raise Http404("There is no such game.") from None
    spec = game.page(page)
    if spec is None:
        raise Http404("There is no such page.")
    return render(request, spec.template, {**spec.context(_form(request.GET)), "game": game, "title": spec.title})
