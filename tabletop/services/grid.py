"""The map's grid and how tokens look: the GM fits a scene's grid to its picture; the GM (any
token) or a token's player (their own) sets a token's size, colour and label; the GM takes a
token off its scene.

Audiences (docs/protocol.md, The grid and tokens): a grid change is everyone's when its scene
is shown, else the GM's; a token's style or removal is everyone's while the token stands in
sight on the shown scene (not hidden, not under the fog), else the GM's, as its move is.

Snapping is the page's help (static/js/scene.js), not a rule: a move is any point on the scene
(services/scenes.py, ``token_move``), so a seat that moves freely is never refused.
"""

from __future__ import annotations

from django.db import transaction

from tabletop.models import Audience, Membership, Scene, Token
from tabletop.permissions import Verb, may_move_token
from tabletop.selectors.grid import HEX_RATIO
from tabletop.selectors.scenes import HEX, grid_data, shown_badges, token_data
from tabletop.services.base import NotAllowed, ServiceError, acting, append, finite_number, lock_table
from tabletop.services.scenes import _audience, _scene_under_lock, _token_under_lock

GRID_KINDS = ("none", "square", "hex")
GRID_SIZES = (8.0, 1000.0)  # a cell's side (a hex's width), in the scene's units
MAX_UNIT = 12
MAX_LABEL = 24
TOKEN_SIZES = (1, 4)  # cells a side


def grid_period(kind: str, size: float) -> tuple[float, float]:
    """How far the grid repeats across and down: one cell for a square grid; a pointy-top hex
    grid repeats every hex across and every two rows down (its rows are offset by half a hex)."""
    if kind == "hex":
        return size, 1.5 * HEX_RATIO * size
    return size, size


def _number(value: object, field: str, words: str) -> float:
    return finite_number(value, field, f"{words} is a number.")


def grid_set(*, scene: Scene, actor: Membership, kind: str, size: object, x: object = 0, y: object = 0,
             shown: bool = True, snap: bool = True, distance: object = 5, unit: str = "ft") -> Scene:
    """The GM sets a scene's grid (any scene of the table, shown or being prepared): square or
    hex cells of ``size`` units, the first cell's corner at (``x``, ``y``) within one cell,
    drawn or not, snapping tokens or not, each cell standing for ``distance`` ``unit``."""
    if kind not in GRID_KINDS:
        raise ServiceError("Choose a grid: none, square or hex.", field="kind")
    side = _number(size, "size", "A cell's size")
    low, high = GRID_SIZES
    if not low <= side <= high:
        raise ServiceError(f"A cell is {low:g} to {high:g} units across.", field="size")
    across, down = grid_period(kind, side)
    left, top = _number(x, "x", "The offset across"), _number(y, "y", "The offset down")
    if not 0 <= left < across:
        raise ServiceError(f"The offset across lies within one cell: 0 to under {across:g}.", field="x")
    if not 0 <= top < down:
        raise ServiceError(f"The offset down lies within one cell: 0 to under {down:.4g}.", field="y")
    far = _number(distance, "distance", "The distance a cell stands for")
    if not 0 < far <= 10**6:
        raise ServiceError("The distance a cell stands for is more than 0 (and at most a million).",
                           field="distance")
    word = " ".join((unit or "").split())
    if not word:
        raise ServiceError("Name the unit a cell's distance is in (ft, m, a league).", field="unit")
    if len(word) > MAX_UNIT:
        raise ServiceError(f"A unit is at most {MAX_UNIT} characters.", field="unit")
    with transaction.atomic():
        locked = lock_table(scene.table_id)
        me = acting(locked, actor, Verb.SCENE_MANAGE)
        fresh = _scene_under_lock(locked, scene)
        fresh.grid_kind, fresh.grid_size, fresh.grid_x, fresh.grid_y = kind, side, left, top
        fresh.grid_shown, fresh.grid_snap = bool(shown), bool(snap)
        fresh.cell_distance, fresh.cell_unit = far, word
        fresh.save(update_fields=["grid_kind", "grid_size", "grid_x", "grid_y", "grid_shown", "grid_snap",
                                  "cell_distance", "cell_unit"])
        said = "no grid" if kind == "none" else f"a {kind} grid, a cell {far:g} {word}"
        append(locked, "scene.grid", actor=me, audience=Audience.EVERYONE if fresh.shown else Audience.GM,
               summary=f"{me.display_name} sets {fresh.name} to {said}.",
               payload={"scene": {"id": fresh.pk, "shown": fresh.shown, "width": fresh.width,
                                  "height": fresh.height}, "grid": grid_data(fresh)})
    return fresh


def token_style(*, token: Token, actor: Membership, size: object, colour: str = "", label: str = "") -> Token:
    """A token's size in cells (1 to 4 a side), its colour ("" for its character's own) and its
    label (shown under it; "" for none): the GM's for any token, a player's for their own
    character's."""
    cells = _number(size, "size", "A token's size")
    if cells != int(cells) or not TOKEN_SIZES[0] <= cells <= TOKEN_SIZES[1]:
        raise ServiceError("A token is 1 to 4 cells a side.", field="size")
    if colour and not HEX.fullmatch(colour):
        raise ServiceError("A token's colour is a colour like #2a9d8f.", field="colour")
    words = " ".join((label or "").split())
    if len(words) > MAX_LABEL:
        raise ServiceError(f"A token's label is at most {MAX_LABEL} characters.", field="label")
    with transaction.atomic():
        locked = lock_table(token.scene.table_id)
        me = acting(locked, actor, Verb.TOKEN_MOVE)
        fresh = _token_under_lock(locked, token, me)
        if not may_move_token(me, fresh.character):
            raise NotAllowed(f"{fresh.character.name} is not yours to change.")
        fresh.size, fresh.colour, fresh.label = int(cells), colour.lower(), words
        fresh.save(update_fields=["size", "colour", "label"])
        scene = fresh.scene
        append(locked, "token.styled", actor=me, audience=_audience(fresh.scene, fresh),
               summary=f"{me.display_name} restyles {fresh.character.name}'s token.",
               payload={"token": token_data(fresh, scene, shown_badges(locked)), "shown": scene.shown})
    return fresh


def token_remove(*, token: Token, actor: Membership) -> None:
    """The GM takes a token off its scene (the character stays at the table)."""
    with transaction.atomic():
        locked = lock_table(token.scene.table_id)
        me = acting(locked, actor, Verb.SCENE_MANAGE)
        fresh = _token_under_lock(locked, token, me)
        scene, name, audience = fresh.scene, fresh.character.name, _audience(fresh.scene, fresh)
        pk = fresh.pk
        fresh.delete()
        append(locked, "token.removed", actor=me, audience=audience,
               summary=f"{me.display_name} takes {name}'s token off {scene.name}.",
               payload={"token": {"id": pk, "scene": scene.pk}, "shown": scene.shown})
