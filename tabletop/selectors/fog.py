"""Fog of war as geometry: which points of a scene are covered, read from its fog state.

A scene's fog (``Scene.fog_on``, ``Scene.fog``) is off, or on: then everything is covered but
what its changes reveal, applied in order, each one revealing or covering again one shape:

- ``{"op": "reveal"|"cover", "shape": "rect", "x": .., "y": .., "w": .., "h": ..}``
- ``{"op": .., "shape": "poly", "points": [[x, y], ...]}`` (three points or more)
- ``{"op": .., "shape": "brush", "points": [[x, y], ...], "r": radius}`` (a stroke)
- ``{"op": .., "shape": "all"}`` (the whole scene)

in the scene's own coordinates. The mask is drawn with Pillow at the scene's full size, the
same mask that cuts the picture the other seats receive (tabletop/services/fog.py), so what the
server says is under fog and what a seat's picture shows can never disagree. A mask is kept per
fog state (``Scene.fog_rev``) for the few scenes in use.

Whatever stands under fog is the GM's alone: a token whose centre is covered, a drawing any of
whose points is covered (``in_sight``: every point of it checked, along its lines too), a ping.
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Any

from PIL import Image, ImageDraw

from tabletop.models import Scene

COVERED = 255
CLEAR = 0
_KEPT = 6  # masks kept in memory (a 4096 x 4096 mask is 16 MB)
_masks: OrderedDict[tuple[int, str, int, int], Image.Image | None] = OrderedDict()
_lock = threading.Lock()

Point = Sequence[float]


def fog_key(scene: Scene) -> str:
    """A short name of the scene's fog state: the same state, the same key (its pictures' URLs
    and cached files carry it); "" when the fog is off."""
    if not scene.fog_on:
        return ""
    # read once per state of the row in hand (a page asks for it for every token it draws)
    mark = (scene.pk, scene.fog_rev, scene.width, scene.height, id(scene.fog), len(scene.fog or []))
    known = scene.__dict__.get("_fog_key")
    if known is not None and known[0] == mark:
        return known[1]
    text = json.dumps([scene.pk, scene.width, scene.height, scene.fog], sort_keys=True, separators=(",", ":"))
    key = hashlib.sha256(text.encode()).hexdigest()[:16]
    scene.__dict__["_fog_key"] = (mark, key)
    return key


def _xy(point: Point) -> tuple[float, float]:
    return float(point[0]), float(point[1])


def draw_change(draw: ImageDraw.ImageDraw, change: dict[str, Any], size: tuple[int, int], scale: float = 1.0) -> None:
    """One fog change drawn onto a mask (``scale``: the mask's pixels per scene unit)."""
    fill = CLEAR if change.get("op") == "reveal" else COVERED
    shape = change.get("shape")
    if shape == "all":
        draw.rectangle([0, 0, size[0], size[1]], fill=fill)
    elif shape == "rect":
        x, y = float(change["x"]) * scale, float(change["y"]) * scale
        w, h = float(change["w"]) * scale, float(change["h"]) * scale
        draw.rectangle([x, y, x + w, y + h], fill=fill)
    elif shape == "poly":
        draw.polygon([(px * scale, py * scale) for px, py in map(_xy, change["points"])], fill=fill)
    elif shape == "brush":
        r = float(change["r"]) * scale
        points = [(px * scale, py * scale) for px, py in map(_xy, change["points"])]
        if len(points) > 1:
            draw.line(points, fill=fill, width=max(1, round(2 * r)), joint="curve")
        for px, py in points:
            draw.ellipse([px - r, py - r, px + r, py + r], fill=fill)


def build_mask(scene: Scene, scale: float = 1.0) -> Image.Image | None:
    """The scene's fog as an "L" image (COVERED where fogged), at ``scale`` of its size; None
    when the fog is off."""
    if not scene.fog_on:
        return None
    size = (max(1, round(scene.width * scale)), max(1, round(scene.height * scale)))
    mask = Image.new("L", size, COVERED)
    draw = ImageDraw.Draw(mask)
    for change in scene.fog or []:
        draw_change(draw, change, size, scale)
    return mask


def mask_of(scene: Scene) -> Image.Image | None:
    """The scene's full-size mask for its fog state now, built once and kept for a while."""
    if not scene.fog_on:
        return None
    # by the state's key, not its number alone: a state is its changes (a database reset, as
    # between tests, numbers other states alike)
    key = (scene.pk, fog_key(scene), scene.width, scene.height)
    with _lock:
        if key in _masks:
            _masks.move_to_end(key)
            return _masks[key]
    built = build_mask(scene)
    with _lock:
        _masks[key] = built
        while len(_masks) > _KEPT:
            _masks.popitem(last=False)
    return built


def covered(scene: Scene, x: float, y: float) -> bool:
    """Whether the point (x, y) of the scene lies under fog (a point off the scene: its edge)."""
    mask = mask_of(scene)
    if mask is None:
        return False
    px = min(max(int(x), 0), mask.width - 1)
    py = min(max(int(y), 0), mask.height - 1)
    return mask.getpixel((px, py)) == COVERED


def along(points: Sequence[Point], step: float = 8.0, *, closed: bool = False) -> Iterable[tuple[float, float]]:
    """Every point of a path, and points along its segments at most ``step`` apart."""
    pts = [_xy(p) for p in points]
    if closed and len(pts) > 2:
        pts.append(pts[0])
    for i, (x, y) in enumerate(pts):
        yield x, y
        if i + 1 < len(pts):
            nx, ny = pts[i + 1]
            n = int(math.hypot(nx - x, ny - y) // step)
            for k in range(1, n + 1):
                yield x + (nx - x) * k / (n + 1), y + (ny - y) * k / (n + 1)


def outline(shape: str, points: Sequence[Point]) -> list[tuple[float, float]]:
    """The points of a drawing to check against the fog: a freehand's or a line's path; a
    rectangle's four sides; a circle's rim and centre (its points: the bounding box's corners)."""
    if shape in ("rect", "circle") and len(points) >= 2:
        (x0, y0), (x1, y1) = _xy(points[0]), _xy(points[1])
        if shape == "rect":
            return list(along([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], closed=True))
        cx, cy, rx, ry = (x0 + x1) / 2, (y0 + y1) / 2, abs(x1 - x0) / 2, abs(y1 - y0) / 2
        n = max(16, int(2 * math.pi * max(rx, ry) / 8))
        return [(cx, cy)] + [(cx + rx * math.cos(2 * math.pi * k / n), cy + ry * math.sin(2 * math.pi * k / n))
                             for k in range(n)]
    return list(along(points))


def in_sight(scene: Scene, points: Iterable[Point]) -> bool:
    """Whether none of the points lies under the scene's fog."""
    mask = mask_of(scene)
    if mask is None:
        return True
    w, h = mask.width - 1, mask.height - 1
    for x, y in points:
        if mask.getpixel((min(max(int(x), 0), w), min(max(int(y), 0), h))) == COVERED:
            return False
    return True
