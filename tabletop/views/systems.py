"""A game system's commands, checks and pages, generic over its registration
(games/contract.py): parse through the system's parser, call one service, render the
template the registration names. A refusal answers inline in the system's notice line
with its 4xx; an unknown command, check, page or system is a 404.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from games import registry
from games.contract import GameSystem, Parser
from games.forms import Form
from games.core.engine import RuleError
from games.core.rng import system_rng
from tabletop import selectors, services
from tabletop.models import Table
from tabletop.permissions import Verb
from tabletop.services import ServiceError

from tabletop.views.base import member_at


def _form(data: QueryDict) -> Form:
    """Submitted data as plain data: each field's values, in the order sent."""
    return {key: list(items) for key, items in data.lists()}


def _game(table: Table) -> GameSystem:
    try:
        return registry.get(table.system)
    except registry.UnknownSystem:
        raise Http404("This table's game is not installed.") from None


def _refused(request: HttpRequest, table: Table, template: str, error: ServiceError) -> HttpResponse:
    if not request.htmx:
        context = {"message": error.message, "table": table}
        return render(request, "tabletop/message.html", context, status=error.status)
    return render(request, template, {"notice": error.message}, status=error.status)


def _parsed(game: GameSystem, parse: Parser, request: HttpRequest, table: Table) -> dict[str, Any]:
    """The arguments a system's parser reads from the posted form; its refusal is a
    ServiceError like any other, answered inline."""
    try:
        return parse(_form(request.POST), selectors.table_facts(table))
    except RuleError as exc:
        raise ServiceError(str(exc)) from None


@require_POST
def table_command(request: HttpRequest, table_id: int, command: str) -> HttpResponse:
    """One command of the table's procedure (Demon City: start, announce, roll, ...)."""
    table, me = member_at(request, table_id, Verb.ROLL)
    game = _game(table)
    spec = game.command(command)
    if spec is None or game.panel is None:
        raise Http404("There is no such command at this table.")
    try:
        args = _parsed(game, spec.parse, request, table)
        services.procedure_command(table=table, actor=me, command={**args, "type": spec.name},
                                   rng=system_rng())
    except ServiceError as exc:
        return _refused(request, table, game.panel.notice, exc)
    if not request.htmx:
        return redirect("table", table_id=table.pk)
    return render(request, game.panel.notice, {"notice": ""})


@require_POST
def table_check(request: HttpRequest, table_id: int, check: str) -> HttpResponse:
    """One of the system's one-off checks (Demon City: a task) for a character."""
    table, me = member_at(request, table_id, Verb.ROLL)
    game = _game(table)
    spec = game.check(check)
    if spec is None:
        raise Http404("There is no such check at this table.")
    try:
        args = _parsed(game, spec.parse, request, table)
        services.check_roll(table=table, actor=me, check=spec.name, args=args, rng=system_rng())
    except ServiceError as exc:
        return render(request, spec.notice, {"notice": exc.message}, status=exc.status)
    return render(request, spec.notice, {"notice": ""})


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
