"""Drawings over HTTP: thin views around tabletop/services/drawings.py.

static/js/draw.js posts a drawing (its points as JSON), an erase, an undo or the GM's clear;
each is answered 204, or with the scene's notice line and the refusal's status (never a 500:
bad input is a 400 with words). What changed reaches every seat that sees it through the live
feed, the author's page too.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST

from tabletop import ids
from tabletop.models import Scene
from tabletop.permissions import Verb
from tabletop.services import ServiceError, drawings
from tabletop.views.base import member_at
from tabletop.views.scenes import _notice

NO_SCENE = "There is no such scene."
MAX_BODY = 200_000  # 2000 points of two numbers, written out, with room to spare


def _scene(table_id: int, scene_id: int) -> Scene | None:
    return Scene.objects.filter(pk=scene_id, table_id=table_id).first()


@require_POST
def drawing_add(request: HttpRequest, table_id: int, scene_id: int) -> HttpResponse:
    table, me = member_at(request, table_id, drawings.DRAW)
    scene = _scene(table.pk, scene_id)
    if scene is None:
        return _notice(NO_SCENE, 404)
    post = request.POST
    try:
        raw = post.get("points", "")
        if len(raw) > MAX_BODY:
            raise ServiceError(f"A drawing has 2 to {drawings.MAX_POINTS} points.", field="points")
        try:
            points = json.loads(raw)
        except (ValueError, RecursionError):
            raise ServiceError("A drawing's points are a list of [x, y].", field="points") from None
        width = ids.whole(post.get("width", ""), digits=3)
        drawings.drawing_add(scene=scene, actor=me, shape=post.get("shape", ""), points=points,
                             colour=post.get("colour", ""), layer=post.get("layer", "") or "table",
                             width=-1 if width is None else width)
    except ServiceError as exc:
        return _notice(exc.message, exc.status)
    return HttpResponse(status=204)


@require_POST
def drawing_erase(request: HttpRequest, table_id: int, drawing_id: int) -> HttpResponse:
    table, me = member_at(request, table_id, drawings.DRAW)
    try:
        drawings.drawing_erase(table=table, drawing_id=drawing_id, actor=me)
    except ServiceError as exc:
        return _notice(exc.message, exc.status)
    return HttpResponse(status=204)


def _on_scene(request: HttpRequest, table_id: int, scene_id: int, verb: Verb, run: Any) -> HttpResponse:
    """``run(scene=, actor=)`` on a scene of the table: 204, or the scene's notice line."""
    table, me = member_at(request, table_id, verb)
    scene = _scene(table.pk, scene_id)
    try:
        if scene is None:
            raise ServiceError(NO_SCENE)
        run(scene=scene, actor=me)
    except ServiceError as exc:
        return _notice(exc.message, exc.status)
    return HttpResponse(status=204)


@require_POST
def drawing_undo(request: HttpRequest, table_id: int, scene_id: int) -> HttpResponse:
    return _on_scene(request, table_id, scene_id, drawings.DRAW, drawings.drawing_undo)


@require_POST
def drawings_clear(request: HttpRequest, table_id: int, scene_id: int) -> HttpResponse:
    return _on_scene(request, table_id, scene_id, Verb.SCENE_MANAGE, drawings.drawings_clear)
