"""The grid as the page draws it (templates/tabletop/map_grid.html): one tile of an SVG pattern
in the scene's coordinates, and a cell's width as a share of the scene's (a token's size in
cells is drawn from it). No secret: the grid is drawn on the map for everyone.

A hex grid has pointy-top hexes, rows offset by half a hex: ``size`` is a hex's width, and
its corner (``x``, ``y``) the top left of the first hex's bounding box.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

DEFAULT_CELL = 70.0  # a token's cell on a scene with no grid, in the scene's units
HEX_RATIO = 2 / math.sqrt(3)  # a pointy-top hex's height over its width


def _n(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".")


def grid_drawing(scene: Mapping[str, Any]) -> dict[str, Any]:
    """What the grid layer draws for ``scene`` (``selectors.scenes.scene_data``'s shape: its
    width, height and grid)."""
    grid = scene["grid"]
    kind, size = grid["kind"], float(grid["size"])
    cell = size if kind != "none" else DEFAULT_CELL
    drawing: dict[str, Any] = {"kind": kind, "cell": _n(100 * cell / max(float(scene["width"]), 1)),
                               "x": _n(float(grid["x"])), "y": _n(float(grid["y"])),
                               "stroke": _n(max(1.0, size / 40)), "drawn": kind != "none" and grid["shown"]}
    if kind == "hex":
        w, h = size, size * HEX_RATIO
        drawing.update(width=_n(w), height=_n(1.5 * h), path=(
            f"M0 {_n(h / 4)} L{_n(w / 2)} 0 L{_n(w)} {_n(h / 4)} "
            f"M0 {_n(h / 4)} L0 {_n(3 * h / 4)} L{_n(w / 2)} {_n(h)} L{_n(w)} {_n(3 * h / 4)} "
            f"M{_n(w / 2)} {_n(h)} L{_n(w / 2)} {_n(1.5 * h)}"))
    else:
        drawing.update(width=_n(size), height=_n(size), path=f"M{_n(size)} 0 L0 0 L0 {_n(size)}")
    return drawing
