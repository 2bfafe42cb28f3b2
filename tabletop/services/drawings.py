"""Drawings on a scene: the GM and the players draw, each drawing its author's and the GM's to
erase; the GM may draw on a layer only the GM sees.

Who sees what (docs/protocol.md, Drawing, rulers and pings): a drawing's events are everyone's
only while the drawing is in sight on the shown scene (``selectors.drawings.drawing_seen``: the
table's layer, no point of it under fog); a drawing on the GM's layer, on a scene not shown or
under fog is the GM's alone, and its events too. A player draws only on the shown scene, and
never where the fog covers: what they cannot see they cannot draw on.
"""

from __future__ import annotations

import math
from typing import Any

from django.db import transaction

from tabletop.models import Audience, Drawing, Membership, Scene, Table
from tabletop.permissions import Standing, Verb, standing_of
from tabletop.selectors.drawings import LAYERS, SHAPES, drawing_data, drawing_seen
from tabletop.selectors.fog import in_sight, outline
from tabletop.selectors.scenes import HEX
from tabletop.services.base import NotAllowed, NotFound, ServiceError, acting, append, lock_table

# Drawing is done by whoever sits at the map: the GM and the players (a spectator watches),
# the seats that move tokens.
DRAW = Verb.TOKEN_MOVE
MAX_POINTS = 2000
MAX_WIDTH = 40
MAX_DRAWINGS = 500  # a scene's drawings, all layers: enough for a night's play, not for a flood
NO_DRAWING = "There is no such drawing on the scene."


def _is_gm(me: Membership) -> bool:
    return standing_of(me) == Standing.GM


def _scene_under_lock(locked: Table, scene_id: int, me: Membership) -> Scene:
    """The scene, if ``me`` may draw on it: the GM on any scene, anyone else on the shown one
    (any other is "no such scene" to them: its id tells nothing)."""
    fresh = Scene.objects.filter(pk=scene_id, table=locked).first()
    if fresh is None or not (fresh.shown or _is_gm(me)):
        raise NotFound("There is no such scene.")
    return fresh


def clean_points(scene: Scene, shape: str, points: Any) -> list[list[float]]:
    """The points of a drawing, checked: a list of [x, y] numbers on the scene, two for a line,
    a rectangle or a circle (its ends, its corners), 2 to MAX_POINTS for a freehand."""
    if shape not in SHAPES:
        raise ServiceError("Draw a freehand line, a line, a rectangle or a circle.", field="shape")
    if not isinstance(points, list) or not 2 <= len(points) <= MAX_POINTS:
        raise ServiceError(f"A drawing has 2 to {MAX_POINTS} points.", field="points")
    cleaned = []
    for point in points:
        if not (isinstance(point, (list, tuple)) and len(point) == 2 and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in point)):
            raise ServiceError("Each point of a drawing is two numbers, x and y.", field="points")
        x, y = float(point[0]), float(point[1])
        if not (0 <= x <= scene.width and 0 <= y <= scene.height):
            raise ServiceError(f"That is off the scene: it runs from 0 to {scene.width} across and "
                               f"0 to {scene.height} down.", field="points")
        cleaned.append([round(x, 1), round(y, 1)])
    if shape != "freehand":
        cleaned = [cleaned[0], cleaned[-1]]
    return cleaned


def _audience(scene: Scene, drawing: Drawing) -> str:
    return Audience.EVERYONE if drawing_seen(scene, drawing) else Audience.GM


def drawing_add(*, scene: Scene, actor: Membership, shape: str, points: Any, colour: str, width: Any,
                layer: str = "table") -> Drawing:
    """A seat at the map draws on a scene: the GM on any, a player on the shown one and not
    where the fog covers; only the GM draws on the GM's layer."""
    if not HEX.fullmatch(colour or ""):
        raise ServiceError("A drawing's colour is written #rrggbb.", field="colour")
    if isinstance(width, bool) or not isinstance(width, int) or not 1 <= width <= MAX_WIDTH:
        raise ServiceError(f"A line's width is a whole number from 1 to {MAX_WIDTH}.", field="width")
    if layer not in LAYERS:
        raise ServiceError("A drawing is on the table's layer or the GM's.", field="layer")
    with transaction.atomic():
        locked = lock_table(scene.table_id)
        me = acting(locked, actor, DRAW)
        fresh = _scene_under_lock(locked, scene.pk, me)
        gm = _is_gm(me)
        if layer == "gm" and not gm:
            raise NotAllowed("Only the GM draws on the GM's layer.")
        cleaned = clean_points(fresh, shape, points)
        if not gm and not in_sight(fresh, outline(shape, cleaned)):
            raise ServiceError("The fog covers part of that: draw only on what you can see.", field="points")
        if fresh.drawings.count() >= MAX_DRAWINGS:
            raise ServiceError(f"A scene holds at most {MAX_DRAWINGS} drawings: erase some first.", field="points")
        drawing = Drawing.objects.create(scene=fresh, author=me, layer=layer, shape=shape, points=cleaned,
                                         colour=colour.lower(), width=width)
        drawing.author = me
        data = drawing_data(drawing)
        where = " only you see" if layer == "gm" else ""
        append(locked, "drawing.added", actor=me, audience=_audience(fresh, drawing),
               summary=f"{me.display_name} draws a {data['what']}{where} on {fresh.name}.",
               payload={"drawing": data, "shown": fresh.shown})
    return drawing


def _drawing_under_lock(locked: Table, drawing_id: int, me: Membership) -> tuple[Drawing, Scene]:
    """The drawing, if ``me`` sees it now (the GM: any; anyone else: one in sight); else "no
    such drawing" (its id tells nothing)."""
    drawing = Drawing.objects.filter(pk=drawing_id, scene__table=locked).select_related("scene", "author").first()
    if drawing is None or not (_is_gm(me) or drawing_seen(drawing.scene, drawing)):
        raise NotFound(NO_DRAWING)
    return drawing, drawing.scene


def _erase(locked: Table, me: Membership, drawing: Drawing, scene: Scene, *, undo: bool = False) -> None:
    if not _is_gm(me) and drawing.author_id != me.pk:
        raise NotAllowed("Only its author and the GM erase a drawing.")
    audience = _audience(scene, drawing)  # as the others see it now: they lose it, or never had it
    what = SHAPES.get(drawing.shape, drawing.shape)
    whose = "their" if drawing.author_id == me.pk else f"{drawing.author.display_name}'s" if drawing.author else "a"
    pk = drawing.pk
    drawing.delete()
    append(locked, "drawing.erased", actor=me, audience=audience,
           summary=f"{me.display_name} {'undoes' if undo else 'erases'} {whose} {what} on {scene.name}.",
           payload={"drawing": {"id": pk, "scene": scene.pk}, "shown": scene.shown})


def drawing_erase(*, table: Table, drawing_id: int, actor: Membership) -> None:
    """A drawing's author or the GM erases it: it leaves every page that shows it."""
    with transaction.atomic():
        locked = lock_table(table.pk)
        me = acting(locked, actor, DRAW)
        drawing, scene = _drawing_under_lock(locked, drawing_id, me)
        _erase(locked, me, drawing, scene)


def drawing_undo(*, scene: Scene, actor: Membership) -> None:
    """Undo my last drawing: the actor's latest drawing on the scene is erased."""
    with transaction.atomic():
        locked = lock_table(scene.table_id)
        me = acting(locked, actor, DRAW)
        fresh = _scene_under_lock(locked, scene.pk, me)
        drawing = fresh.drawings.filter(author=me).select_related("author").order_by("-pk").first()
        if drawing is None:
            raise ServiceError("You have no drawing on this scene to undo.")
        _erase(locked, me, drawing, fresh, undo=True)


def drawings_clear(*, scene: Scene, actor: Membership) -> int:
    """The GM clears the drawings of a scene, every layer; how many there were."""
    with transaction.atomic():
        locked = lock_table(scene.table_id)
        me = acting(locked, actor, Verb.SCENE_MANAGE)
        fresh = _scene_under_lock(locked, scene.pk, me)
        count, _ = fresh.drawings.all().delete()
        if not count:
            raise ServiceError(f"There is no drawing on {fresh.name} to clear.")
        append(locked, "drawings.cleared", actor=me,
               audience=Audience.EVERYONE if fresh.shown else Audience.GM,
               summary=f"{me.display_name} clears the drawings on {fresh.name}.",
               payload={"scene": fresh.pk, "shown": fresh.shown})
    return count
