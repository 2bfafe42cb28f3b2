"""The fog's geometry (tabletop/selectors/fog.py): which points of a scene lie under fog, for
each kind of change, in order, and the key of a fog state."""

from __future__ import annotations

import itertools

from tabletop.models import Scene
from tabletop.selectors import fog

_ids = itertools.count(900_000)


def scene(changes: list[dict], *, on: bool = True, width: int = 400, height: int = 300) -> Scene:
    row = Scene(name="Crypt", width=width, height=height, fog_on=on, fog=changes)
    row.pk = next(_ids)  # a mask is kept per scene and fog state: each test its own scene
    return row


def test_fog_off_covers_nothing() -> None:
    s = scene([], on=False)
    assert fog.mask_of(s) is None
    assert not fog.covered(s, 10, 10)
    assert fog.in_sight(s, [(0, 0), (399, 299)])
    assert fog.fog_key(s) == ""


def test_fog_on_covers_everything_until_a_change_reveals() -> None:
    s = scene([])
    assert fog.covered(s, 0, 0) and fog.covered(s, 200, 150) and fog.covered(s, 399, 299)


def test_a_revealed_rectangle_is_clear_and_its_outside_covered() -> None:
    s = scene([{"op": "reveal", "shape": "rect", "x": 100, "y": 50, "w": 100, "h": 80}])
    assert not fog.covered(s, 150, 90)
    assert not fog.covered(s, 100, 50)
    assert fog.covered(s, 99 - 2, 90) and fog.covered(s, 150, 140)


def test_changes_apply_in_order_a_cover_after_a_reveal_covers_again() -> None:
    s = scene([{"op": "reveal", "shape": "all"},
               {"op": "cover", "shape": "rect", "x": 0, "y": 0, "w": 50, "h": 50}])
    assert fog.covered(s, 10, 10)
    assert not fog.covered(s, 300, 200)


def test_a_polygon_and_a_brush_reveal_their_shapes() -> None:
    s = scene([{"op": "reveal", "shape": "poly", "points": [[0, 0], [200, 0], [0, 200]]},
               {"op": "reveal", "shape": "brush", "points": [[300, 250], [390, 250]], "r": 10}])
    assert not fog.covered(s, 20, 20)
    assert fog.covered(s, 190, 190)  # beyond the triangle's long side
    assert not fog.covered(s, 345, 255) and not fog.covered(s, 300, 241)
    assert fog.covered(s, 345, 275)


def test_a_point_off_the_scene_reads_the_edge() -> None:
    s = scene([{"op": "reveal", "shape": "rect", "x": 0, "y": 0, "w": 50, "h": 50}])
    assert not fog.covered(s, -20, -20)
    assert fog.covered(s, 10_000, 10_000)


def test_in_sight_needs_every_point_of_a_drawing_clear() -> None:
    s = scene([{"op": "reveal", "shape": "rect", "x": 0, "y": 0, "w": 200, "h": 300}])
    assert fog.in_sight(s, fog.outline("line", [[10, 10], [190, 10]]))
    # a line from the clear half into the fog: a point along it is covered, though its ends
    # would not tell (the second end is covered anyway here); a rectangle whose side crosses
    assert not fog.in_sight(s, fog.outline("line", [[10, 10], [390, 10]]))
    assert not fog.in_sight(s, fog.outline("rect", [[10, 10], [250, 100]]))
    assert not fog.in_sight(s, fog.outline("circle", [[100, 100], [260, 200]]))
    assert fog.in_sight(s, fog.outline("circle", [[20, 20], [180, 180]]))


def test_along_fills_long_segments() -> None:
    points = list(fog.along([(0, 0), (100, 0)], step=10))
    assert points[0] == (0.0, 0.0) and points[-1] == (100.0, 0.0)
    assert all(b[0] - a[0] <= 10 for a, b in zip(points, points[1:]))


def test_the_key_follows_the_fog_state() -> None:
    a = scene([{"op": "reveal", "shape": "rect", "x": 0, "y": 0, "w": 10, "h": 10}])
    b = scene([{"op": "reveal", "shape": "rect", "x": 0, "y": 0, "w": 10, "h": 10}])
    b.pk = a.pk
    assert fog.fog_key(a) == fog.fog_key(b) != ""
    b.fog = [*b.fog, {"op": "cover", "shape": "all"}]
    assert fog.fog_key(a) != fog.fog_key(b)
