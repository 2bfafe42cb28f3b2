"""The GM's NPC tools and bestiary over HTTP: each posts one action of the action table
(tabletop/actions.py: ``npc.<name>``, ``bestiary.<name>``), the same an act frame on the table's
socket takes. Answered with the NPC tools' notice line: empty when done (what changed reaches
every seat through the live feed), or the refusal in it with its 4xx. A player's or a
spectator's post is refused before its input is read (403); an action the table lacks is a 404."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from tabletop import actions
from tabletop.services import ServiceError
from tabletop.views.base import member_at

NOTICE = "tabletop/npcs.html#notice"


def _run(request: HttpRequest, table_id: int, name: str) -> HttpResponse:
    action = actions.ACTIONS.get(name)
    if action is None:
        raise Http404("There is no such thing to do with an NPC.")
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
        return render(request, NOTICE, {"notice": refused.message}, status=refused.status)
    return render(request, NOTICE, {"notice": ""})


@require_POST
def npc_action(request: HttpRequest, table_id: int, action: str) -> HttpResponse:
    """Copy an NPC, field several, reset its tracks, retire one or the fallen, bring one back."""
    return _run(request, table_id, f"npc.{action}")


@require_POST
def bestiary_action(request: HttpRequest, table_id: int, action: str) -> HttpResponse:
    """Save an NPC to the GM's bestiary, bring some from it, or forget an entry."""
    return _run(request, table_id, f"bestiary.{action}")
