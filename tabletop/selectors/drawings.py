"""Drawings on a scene as the pages draw them, and who sees which.

The GM sees every drawing of every scene. Anyone else sees a drawing only on the shown scene,
on the table's layer, and in sight: no point of it under the scene's fog
(``selectors.fog.in_sight`` over ``outline``), so a drawing half under fog is the GM's alone.
"""

from __future__ import annotations

from typing import Any

from tabletop.models import Drawing, Scene
from tabletop.selectors.fog import in_sight, outline

SHAPES = {"freehand": "freehand", "line": "line", "rect": "rectangle", "circle": "circle"}
LAYERS = ("table", "gm")


def _n(value: float) -> str:
    """A coordinate as the SVG writes it: at most one decimal."""
    text = f"{float(value):.1f}"
    return text[:-2] if text.endswith(".0") else text


def drawing_seen(scene: Scene, drawing: Drawing) -> bool:
    """Whether a seat that is not the GM's sees the drawing: on the table's layer of the shown
    scene, and wholly out of the fog."""
    return (scene.shown and drawing.layer == "table"
            and in_sight(scene, outline(drawing.shape, drawing.points)))


def drawing_data(drawing: Drawing) -> dict[str, Any]:
    """A drawing as the page draws it: its SVG element's name and attributes, worked out here
    so the template writes them as they are."""
    points = [(float(x), float(y)) for x, y in drawing.points]
    attrs: dict[str, str]
    if drawing.shape == "line":
        (x1, y1), (x2, y2) = points[0], points[-1]
        tag, attrs = "line", {"x1": _n(x1), "y1": _n(y1), "x2": _n(x2), "y2": _n(y2)}
    elif drawing.shape == "rect":
        (x1, y1), (x2, y2) = points[0], points[1]
        tag, attrs = "rect", {"x": _n(min(x1, x2)), "y": _n(min(y1, y2)),
                              "width": _n(abs(x2 - x1)), "height": _n(abs(y2 - y1))}
    elif drawing.shape == "circle":
        (x1, y1), (x2, y2) = points[0], points[1]
        tag, attrs = "ellipse", {"cx": _n((x1 + x2) / 2), "cy": _n((y1 + y2) / 2),
                                 "rx": _n(abs(x2 - x1) / 2), "ry": _n(abs(y2 - y1) / 2)}
    else:
        tag, attrs = "path", {"d": "M" + " L".join(f"{_n(x)} {_n(y)}" for x, y in points)}
    author = drawing.author
    return {
        "id": drawing.pk,
        "scene": drawing.scene_id,
        "layer": drawing.layer,
        "gm": drawing.layer == "gm",
        "shape": drawing.shape,
        "what": SHAPES.get(drawing.shape, drawing.shape),
        "colour": drawing.colour,
        "width": drawing.width,
        "author": drawing.author_id,
        "by": author.display_name if author is not None else "",
        "tag": tag,
        "attrs": attrs,
    }


def drawings_of(scene: Scene, *, gm: bool) -> list[dict[str, Any]]:
    """The scene's drawings as the GM (every one) or anyone else (those in sight on the shown
    scene: ``drawing_seen``) sees them, oldest first. The stage is redrawn from these (a scene
    shown, a fog change)."""
    if not gm and not scene.shown:
        return []
    rows = scene.drawings.select_related("author")
    if not gm:
        rows = [d for d in rows.filter(layer="table") if drawing_seen(scene, d)]
    return [drawing_data(d) for d in rows]
