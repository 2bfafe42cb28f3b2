"""The GM's NPC tools and bestiary over HTTP: each posts one action of the action table
(tabletop/actions.py: ``npc.<name>``, ``bestiary.<name>``), the same an act frame on the table's
socket takes. Answered with the NPC tools' notice line: empty when done (what changed reaches
every seat through the live feed), or the refusal in it with its 4xx. A player's or a
spectator's post is refused before its input is read (403); an action the table lacks is a 404."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST

from tabletop.views.base import posted_action

NOTICE = "tabletop/npcs.html#notice"


def _run(request: HttpRequest, table_id: int, name: str) -> HttpResponse:
    return posted_action(request, table_id, name, notice=NOTICE, unknown="There is no such thing to do with an NPC.")


@require_POST
def npc_action(request: HttpRequest, table_id: int, action: str) -> HttpResponse:
    """Copy an NPC, field several, reset its tracks, retire one or the fallen, bring one back."""
    return _run(request, table_id, f"npc.{action}")


@require_POST
def bestiary_action(request: HttpRequest, table_id: int, action: str) -> HttpResponse:
    """Save an NPC to the GM's bestiary, bring some from it, or forget an entry."""
    return _run(request, table_id, f"bestiary.{action}")
