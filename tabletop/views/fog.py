"""The GM's fog tools over HTTP: each posts one action of the action table (tabletop/actions.py:
``fog.<name>``), the same an act frame on the table's socket takes. Answered with the fog tools'
notice line: empty when done (the new fog reaches every seat through the live feed), or the
refusal in it with its 4xx. A player's or a spectator's post is refused before its input is read
(403); an action the table lacks is a 404."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from tabletop import actions
from tabletop.services import ServiceError
from tabletop.views.base import member_at

NOTICE = "tabletop/map_fog.html#notice"


@require_POST
def fog_action(request: HttpRequest, table_id: int, action: str) -> HttpResponse:
    """Cover all, clear the fog, undo its last change, or reveal or cover a shape of it."""
    act = actions.ACTIONS.get(f"fog.{action}")
    if act is None or act.form is None:
        raise Http404("There is no such thing to do with the fog.")
    table, me = member_at(request, table_id, act.verb)
    form = act.form(request.POST)
    refused: ServiceError | None = None
    if not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        refused = ServiceError(str(errors[0]), field=field)
    else:
        try:
            actions.take(act, me, form.cleaned_data)
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
