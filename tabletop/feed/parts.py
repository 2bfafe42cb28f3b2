"""What an event of a scene or a token changes on a page, through one reading: the stage (a scene
shown or put away) or a token (placed, moved, hidden, revealed, given a portrait).

Like every frame, it is drawn from the event's own row: the public payload for anyone, the GM's
part over it for the GM (services/scenes.py puts a hidden token only there). A token's event on
a scene nobody else sees (``shown`` false) changes no page: the GM's page shows the shown scene.
"""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.utils.html import format_html

from tabletop.models import Event
from tabletop.permissions import Reading

SCENE = "tabletop/scene.html"
KINDS = frozenset({"scene.shown", "scene.deleted", "token.placed", "token.moved", "token.hidden", "token.shown",
                   "character.portrait"})


def frame(event: Event, reading: Reading) -> str:
    """The parts of ``event``'s frame for ``reading`` that redraw the scene; "" for none."""
    gm = reading == "gm"
    data: dict[str, Any] = {**event.payload, **(event.private if gm else {})}
    base = {"oob": True, "table_id": event.table_id, "gm": gm}
    if event.kind == "scene.shown":
        return render_to_string(f"{SCENE}#stage", {**base, "scene": data["scene"], "tokens": data["tokens"]})
    if event.kind == "scene.deleted":
        return render_to_string(f"{SCENE}#stage", {**base, "scene": None}) if data["scene"]["shown"] else ""
    if event.kind == "character.portrait":
        tokens = data.get("tokens", [])
    elif not data.get("shown"):
        return ""
    elif event.kind == "token.hidden" and not gm:  # it leaves the page; nothing of it is sent
        return format_html('<span id="token-{}" hx-swap-oob="delete"></span>', data["token"]["id"])
    else:
        tokens = [data["token"]]
    return "".join(render_to_string(f"{SCENE}#token", {**base, "t": t}) for t in tokens)
