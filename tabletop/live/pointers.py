"""Rulers and pings: moments at the map, not facts of the game.

A seated member (the GM or a player; a spectator watches) sends, over the table's socket,
``{"type": "mark", "mark": "ruler", "scene": <id>, "points": [[x0, y0], [x1, y1]]}`` while it
drags a ruler (the page sends about ten a second), ``{"type": "mark", "mark": "ruler", "scene":
<id>, "done": true}`` when it lets go, and ``{"type": "mark", "mark": "ping", "scene": <id>,
"points": [[x, y]]}`` for a ping. Each is relayed at once to the table's other sockets through
the hub, as presence is (live/delivery.py), and to nothing else: it is not appended to the log,
so it is in no replay, no export and no snapshot (docs/protocol.md).

Each seat gets only what it may see: a ruler any point of whose path lies under the scene's fog,
or a ping under fog, goes to the GM alone (its author drew it already). Bad frames are refused
with an error frame and change nothing; beyond ``RATE`` frames a second a socket's marks are
dropped without a word (the page never sends that many).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

from django.utils.html import format_html

from tabletop.models import Scene
from tabletop.selectors.fog import along, covered, in_sight

RATE = 20.0  # marks a second a socket may send, on average
BURST = 20.0  # and in a burst
MARKS = {"ruler": 2, "ping": 1}  # each mark's number of points
MESSAGE = "relay.mark"  # the hub's message type


class Refused(ValueError):
    """A mark frame the socket answers with an error frame; nothing is relayed."""

    def __init__(self, message: str, code: str = "bad-mark") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


@dataclass
class Bucket:
    """A socket's allowance of marks: ``RATE`` a second, up to ``BURST`` at once."""

    tokens: float = BURST
    at: float = field(default_factory=time.monotonic)

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.at) * RATE)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


@dataclass(frozen=True)
class Mark:
    kind: str
    scene: int
    points: tuple[tuple[float, float], ...]
    done: bool


def parse(frame: dict[str, Any]) -> Mark:
    """A mark frame's fields, checked for shape (not yet against the scene)."""
    kind = frame.get("mark")
    if kind not in MARKS:
        raise Refused('A mark is a "ruler" or a "ping".')
    scene = frame.get("scene")
    if isinstance(scene, bool) or not isinstance(scene, int):
        raise Refused("A mark names the scene it is on by its id.")
    if kind == "ruler" and frame.get("done") is True:
        return Mark(kind, scene, (), True)
    points = frame.get("points")
    n = MARKS[kind]
    if not isinstance(points, list) or len(points) != n:
        raise Refused(f"A {kind} has {n} point{'s' if n > 1 else ''}: [x, y].")
    cleaned = []
    for point in points:
        if not (isinstance(point, list) and len(point) == 2 and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in point)):
            raise Refused("Each point of a mark is two numbers, x and y.")
        cleaned.append((round(float(point[0]), 1), round(float(point[1]), 1)))
    return Mark(kind, scene, tuple(cleaned), False)


def placed(mark: Mark, scene: Scene | None) -> bool:
    """Whether the mark stands on the shown scene; True when it lies under fog somewhere (the GM's
    alone). Refused when there is no shown scene, it is another, or a point is off it."""
    if scene is None or scene.pk != mark.scene:
        raise Refused("That scene is not the one shown: reload the page.", "not-shown")
    for x, y in mark.points:
        if not (0 <= x <= scene.width and 0 <= y <= scene.height):
            raise Refused(f"That is off the scene: it runs from 0 to {scene.width} across and "
                          f"0 to {scene.height} down.")
    if mark.done:
        return False
    if mark.kind == "ping":
        return covered(scene, *mark.points[0])
    return not in_sight(scene, along(mark.points))


def frame(mark: Mark, *, member_id: int, name: str) -> str:
    """The frame the others receive: read by static/js/draw.js, swapped by nothing."""
    points = ",".join(f"[{x:g},{y:g}]" for x, y in mark.points)
    return format_html('<p data-frame="mark" hidden data-mark="{}" data-scene="{}" data-from="{}" data-by="{}" '
                       'data-points="[{}]" data-done="{}"></p>', mark.kind, mark.scene, member_id, name, points,
                       "true" if mark.done else "false")


def message(table_id: int, member_id: int, text: str, *, gm_only: bool) -> dict[str, Any]:
    """The hub's message of one mark: its frame, its author (who gets it not back) and whether
    only the GM may see it."""
    return {"type": MESSAGE, "table_id": table_id, "from": member_id, "gm_only": gm_only, "frame": text}
