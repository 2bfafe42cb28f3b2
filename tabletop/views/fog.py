"""The GM's fog tools over HTTP: each posts one action of the action table (tabletop/actions.py:
``fog.<name>``), the same an act frame on the table's socket takes. Answered with the fog tools'
notice line: empty when done (the new fog reaches every seat through the live feed), or the
refusal in it with its 4xx. A player's or a spectator's post is refused before its input is read
(403); an action the table lacks is a 404."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST

from tabletop.views.base import posted_action

NOTICE = "tabletop/map_fog.html#notice"


@require_POST
def fog_action(request: HttpRequest, table_id: int, action: str) -> HttpResponse:
    """Cover all, clear the fog, undo its last change, or reveal or cover a shape of it."""
    return posted_action(request, table_id, f"fog.{action}", notice=NOTICE,
                         unknown="There is no such thing to do with the fog.")
