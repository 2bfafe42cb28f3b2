"""``changes|fog_shapes``: the GM's view of a scene's fog (tabletop/map_fog.html) as SVG shapes
of a mask, one per change in order: white covers, black reveals (selectors/fog.py's format)."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


def _points(points: list[Any]) -> str:
    return " ".join(f"{float(x):g},{float(y):g}" for x, y in points)


@register.filter
def fog_shapes(changes: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    shapes = []
    for change in changes or []:
        fill = "black" if change.get("op") == "reveal" else "white"
        shape = change.get("shape")
        if shape == "all":
            shapes.append({"kind": "all", "fill": fill})
        elif shape == "rect":
            shapes.append({"kind": "rect", "fill": fill, "x": change["x"], "y": change["y"], "w": change["w"],
                           "h": change["h"]})
        elif shape == "poly":
            shapes.append({"kind": "poly", "fill": fill, "points": _points(change["points"])})
        elif shape == "brush":
            points = change["points"]
            if len(points) == 1:
                points = [points[0], points[0]]
            shapes.append({"kind": "brush", "fill": fill, "points": _points(points), "width": 2 * float(change["r"])})
    return shapes
