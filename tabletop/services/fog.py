"""Fog of war, kept by the server: the GM's changes to a scene's fog, and the picture the other
seats receive, with the fogged parts cut out of its bytes.

Each change is an event under the table's lock (``scene.fogged``): "Cover all" turns the fog on
over the whole scene (or covers it all again), "Clear the fog" turns it off, a rectangle, a
polygon or a brush stroke is revealed or covered again, and "Undo the last fog change" takes the
last one back. The change format is tabletop/selectors/fog.py's. Every change bumps the scene's
``fog_rev``, which changes its ``fog_key``: a new picture, at a new URL, for everyone but the GM.

The event is everyone's while the scene is shown (else the GM's): its public part holds what a
seat that is not the GM's sees after the change (the scene with its fogged picture's URL, the
tokens in sight); the GM's part the whole picture, every token and the fog's changes for the
GM's overlay. Its part on a page redraws the stage (tabletop/feed/parts.py), so a token that
comes out of the fog appears and one that goes under leaves, on every page at once.

The fogged picture (``fogged_picture``) is the stored picture with every pixel under the mask
(``selectors.fog.mask_of``) painted the fog's flat colour, encoded afresh as JPEG (a 4096 x 4096
picture: about 65 ms to encode, where PNG takes ten times that); a board gets its colour with
the fog on it. It is rendered once per fog state (a lock per scene: ten players asking at once
wait for one rendering), stored through Django's storage API under a name from the scene and
its fog key, and the files of the scene's older states are removed when a new one is stored.
The decoded pictures of the few scenes in use are kept in memory: decoding a 4096 x 4096 PNG
costs more than the rest of a reveal.
"""

from __future__ import annotations

import io
import threading
from collections import OrderedDict
from typing import Any

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from PIL import Image

from tabletop.models import Audience, Membership, Scene
from tabletop.permissions import Verb
from tabletop.selectors.drawings import drawings_of
from tabletop.selectors.fog import fog_key, mask_of
from tabletop.selectors.scenes import scene_data, tokens_of
from tabletop.services.base import ServiceError, acting, append, finite_number, lock_table
from tabletop.services.scenes import _scene_under_lock

FOG_COLOUR = (38, 41, 48)  # what a seat sees where the fog lies: a flat slate, nothing of the picture
MAX_CHANGES = 200  # fog changes a scene keeps
MAX_POINTS = 4000  # points of one polygon or brush stroke
MAX_BRUSH = 1000  # a brush's radius, in the scene's units
FOLDER = "fog"
QUALITY = 85
_KEPT_PICTURES = 3  # decoded pictures kept in memory (a 4096 x 4096 one is 48 MB)

SHAPES = ("rect", "poly", "brush")
OPS = ("reveal", "cover")


# The changes ------------------------------------------------------------------------------


def _number(value: Any, what: str) -> float:
    return finite_number(value, what, f"The {what} must be a number.")


def parse_points(value: Any) -> list[list[float]]:
    """Points as a list of [x, y], or as text: "x,y x,y ..." (what the GM's tools post)."""
    if isinstance(value, str):
        pairs: list[Any] = [p.split(",") for p in value.replace(";", " ").split()]
    elif isinstance(value, list):
        pairs = value
    else:
        raise ServiceError("Give the shape's points.", field="points")
    if len(pairs) > MAX_POINTS:
        raise ServiceError(f"A shape has at most {MAX_POINTS} points: draw it in parts.", field="points")
    points = []
    for pair in pairs:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise ServiceError("Each point is x,y: two numbers.", field="points")
        points.append([round(_number(pair[0], "points"), 1), round(_number(pair[1], "points"), 1)])
    return points


def _on_scene(scene: Scene, x: float, y: float) -> None:
    if not (0 <= x <= scene.width and 0 <= y <= scene.height):
        raise ServiceError(f"That is off the scene: it runs from 0 to {scene.width} across and "
                           f"0 to {scene.height} down.", field="points")


def clean_change(scene: Scene, op: str, shape: str, *, x: Any = None, y: Any = None, w: Any = None,
                 h: Any = None, points: Any = None, r: Any = None) -> dict[str, Any]:
    """One change in the fog's format, every number checked against the scene; a clear refusal
    of anything else."""
    if op not in OPS:
        raise ServiceError("The fog is revealed or covered.", field="op")
    if shape == "rect":
        x0, y0 = _number(x, "x"), _number(y, "y")
        width, height = _number(w, "w"), _number(h, "h")
        if width < 0:
            x0, width = x0 + width, -width
        if height < 0:
            y0, height = y0 + height, -height
        if width < 1 or height < 1:
            raise ServiceError("A rectangle must have some width and height.", field="w")
        _on_scene(scene, x0, y0)
        _on_scene(scene, x0 + width, y0 + height)
        return {"op": op, "shape": "rect", "x": round(x0, 1), "y": round(y0, 1), "w": round(width, 1),
                "h": round(height, 1)}
    if shape == "poly":
        found = parse_points(points)
        if len(found) < 3:
            raise ServiceError("A polygon needs three points or more.", field="points")
        for px, py in found:
            _on_scene(scene, px, py)
        return {"op": op, "shape": "poly", "points": found}
    if shape == "brush":
        found = parse_points(points)
        if not found:
            raise ServiceError("A brush stroke needs a point at least.", field="points")
        radius = _number(r, "r")
        if not 1 <= radius <= MAX_BRUSH:
            raise ServiceError(f"The brush's size runs from 1 to {MAX_BRUSH}.", field="r")
        for px, py in found:
            _on_scene(scene, px, py)
        return {"op": op, "shape": "brush", "points": found, "r": round(radius, 1)}
    raise ServiceError("The fog's shapes are a rectangle, a polygon and a brush.", field="shape")


def stage_data(scene: Scene, *, gm: bool) -> dict[str, Any]:
    """What a seat's stage draws of a scene after its fog changed: the scene (its picture for
    that seat) and the tokens it sees; the GM's scene holds the fog's changes, for the overlay
    (``scene_data``)."""
    return {"scene": scene_data(scene, gm=gm), "tokens": tokens_of(scene, gm=gm),
            "drawings": drawings_of(scene, gm=gm)}


def _change(scene: Scene, actor: Membership, what: str, apply: Any) -> Scene:
    """Runs ``apply(fresh)`` on the scene under the table's lock (it changes ``fog_on`` and
    ``fog``, or refuses), then logs the change for everyone who sees the scene."""
    with transaction.atomic():
        locked = lock_table(scene.table_id)
        me = acting(locked, actor, Verb.SCENE_MANAGE)
        fresh = _scene_under_lock(locked, scene)
        old = fog_key(fresh)
        apply(fresh)
        fresh.fog_rev += 1
        fresh.save(update_fields=["fog_on", "fog", "fog_rev"])
        public, private = stage_data(fresh, gm=False), stage_data(fresh, gm=True)
        append(locked, "scene.fogged", actor=me, audience=Audience.EVERYONE if fresh.shown else Audience.GM,
               summary=f"{me.display_name} {what}.",
               payload={**public, "shown": fresh.shown}, private=private, private_audience=Audience.GM)
        if old:
            transaction.on_commit(lambda: forget(fresh, but=fog_key(fresh)))
    return fresh


def _room(scene: Scene) -> None:
    if len(scene.fog or []) >= MAX_CHANGES:
        raise ServiceError(f"This scene's fog holds {MAX_CHANGES} changes, the most it keeps: "
                           "cover all or clear the fog to start afresh.")


def fog_cover_all(*, scene: Scene, actor: Membership) -> Scene:
    """The GM covers the whole scene: the fog goes on, hiding everything (undone by "Undo")."""
    def apply(fresh: Scene) -> None:
        if not fresh.fog_on:
            fresh.fog_on, fresh.fog = True, []
            return
        _room(fresh)
        fresh.fog = [*fresh.fog, {"op": "cover", "shape": "all"}]
    return _change(scene, actor, "covers the map in fog", apply)


def fog_clear(*, scene: Scene, actor: Membership) -> Scene:
    """The GM clears the fog: the scene is everyone's to see again, and its changes are gone."""
    def apply(fresh: Scene) -> None:
        if not fresh.fog_on:
            raise ServiceError("There is no fog on this scene.")
        fresh.fog_on, fresh.fog = False, []
    return _change(scene, actor, "clears the fog", apply)


def fog_shape(*, scene: Scene, actor: Membership, op: str, shape: str, **numbers: Any) -> Scene:
    """The GM reveals (or covers again) a rectangle, a polygon or a brush stroke of the fog."""
    def apply(fresh: Scene) -> None:
        if not fresh.fog_on:
            raise ServiceError("There is no fog on this scene: cover it first.")
        _room(fresh)
        fresh.fog = [*fresh.fog, clean_change(fresh, op, shape, **numbers)]
    return _change(scene, actor, "reveals part of the map" if op == "reveal" else "covers part of the map", apply)


def fog_undo(*, scene: Scene, actor: Membership) -> Scene:
    """The GM takes back the last fog change; with none left, the cover itself (the fog goes off)."""
    def apply(fresh: Scene) -> None:
        if not fresh.fog_on:
            raise ServiceError("There is no fog change to undo.")
        if fresh.fog:
            fresh.fog = fresh.fog[:-1]
        else:
            fresh.fog_on = False
    return _change(scene, actor, "takes back the last fog change", apply)


# The picture the other seats receive ---------------------------------------------------


_pictures: OrderedDict[tuple[int, str], Image.Image] = OrderedDict()
_pictures_lock = threading.Lock()
_rendering: dict[int, threading.Lock] = {}
_rendering_lock = threading.Lock()


def _decoded(scene: Scene) -> Image.Image:
    """The scene's picture as RGB pixels (a board: its colour), kept for the few scenes in use."""
    key = (scene.pk, scene.image.name if scene.image else f"board-{scene.colour}-{scene.width}x{scene.height}")
    with _pictures_lock:
        if key in _pictures:
            _pictures.move_to_end(key)
            return _pictures[key]
    if scene.image:
        with scene.image.storage.open(scene.image.name, "rb") as stored:
            opened = Image.open(stored)
            opened.load()
        if opened.mode in ("RGBA", "LA", "PA") or (opened.mode == "P" and "transparency" in opened.info):
            # a transparent picture shows the board's colour through, as the page draws it
            board = Image.new("RGB", opened.size, _rgb(scene.colour))
            board.paste(opened.convert("RGBA"), mask=opened.convert("RGBA").getchannel("A"))
            picture = board
        else:
            picture = opened.convert("RGB")
    else:
        picture = Image.new("RGB", (scene.width, scene.height), _rgb(scene.colour))
    with _pictures_lock:
        _pictures[key] = picture
        while len(_pictures) > _KEPT_PICTURES:
            _pictures.popitem(last=False)
    return picture


def _rgb(colour: str) -> tuple[int, int, int]:
    try:
        return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)
    except (ValueError, IndexError, TypeError):
        return 74, 103, 65


def render(scene: Scene) -> bytes:
    """The scene's picture with every pixel under its fog painted over, as JPEG bytes."""
    picture = _decoded(scene)
    if picture.size != (scene.width, scene.height):
        picture = picture.resize((scene.width, scene.height))
    mask = mask_of(scene)
    # one pass choosing each pixel from the fog's plate or the picture: half the time of a copy
    # and a paste of the colour through the mask (a 4096 x 4096 picture: 125 ms against 225)
    out = Image.composite(_plate(picture.size), picture, mask) if mask is not None else picture
    buffer = io.BytesIO()
    out.save(buffer, "JPEG", quality=QUALITY)  # 4:2:0, JPEG's default: 65 ms on 4096 x 4096, 4:4:4 115
    return buffer.getvalue()


_plates: dict[tuple[int, int], Image.Image] = {}


def _plate(size: tuple[int, int]) -> Image.Image:
    """The fog's flat colour at ``size``, made once per size (the last one kept)."""
    with _pictures_lock:
        plate = _plates.get(size)
        if plate is None:
            _plates.clear()
            plate = _plates[size] = Image.new("RGB", size, FOG_COLOUR)
        return plate


def _prefix(scene: Scene) -> str:
    return f"{scene.table_id}-{scene.pk}-"


def picture_name(scene: Scene) -> str:
    """The stored name of the scene's fogged picture for its fog state now."""
    return f"{FOLDER}/{_prefix(scene)}{fog_key(scene)}.jpg"


def fogged_picture(scene: Scene) -> str:
    """The stored name of the scene's fogged picture now, rendered and stored the first time it
    is asked for (one rendering per scene at a time: the others wait for it)."""
    name = picture_name(scene)
    with _rendering_lock:
        lock = _rendering.setdefault(scene.pk, threading.Lock())
    with lock:
        if not default_storage.exists(name):
            stored = default_storage.save(name, ContentFile(render(scene)))
            if stored != name:  # another process stored it meanwhile: one copy is enough
                default_storage.delete(stored)
            forget(scene, but=fog_key(scene))
    return name


def forget(scene: Scene, *, but: str = "") -> None:
    """Removes the scene's stored fogged pictures, all but the one of fog state ``but``."""
    try:
        _, files = default_storage.listdir(FOLDER)
    except (FileNotFoundError, NotImplementedError, OSError):
        return
    keep = f"{_prefix(scene)}{but}.jpg" if but else None
    for file in files:
        if file.startswith(_prefix(scene)) and file != keep:
            try:
                default_storage.delete(f"{FOLDER}/{file}")
            except OSError:
                pass
