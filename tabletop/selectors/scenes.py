"""Scenes and tokens as plain data, for a viewer: what events carry and templates draw.

A scene not shown and a hidden token are the GM's (permissions.may_see_scene): ``scene_view``
gives anyone else the shown scene and its visible tokens only, and the services put a hidden
token only in an event's GM part, so no page, frame or export of another seat holds one.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from django.urls import reverse

from tabletop.models import Character, Membership, Role, Scene, Table, Token
from tabletop.permissions import may_see_scene
from tabletop.selectors.fog import covered, fog_key
from tabletop.selectors.drawings import drawings_of

HEX = re.compile(r"#[0-9a-fA-F]{6}")
DEFAULT_COLOUR = "#6b5b95"  # a character card's colour when its sheet names none (table.html)
# a token's colour when neither it nor its character's sheet names one: one of these by the
# character's id, so a table's tokens are told apart at a glance
PALETTE = ("#6b5b95", "#2a9d8f", "#e76f51", "#457b9d", "#c9184a", "#8a5a44", "#3a7d44", "#b5838d",
           "#d4a017", "#5e60ce")
BOARD_SIZES = {"wide": (1600, 1000), "square": (1200, 1200), "tall": (1000, 1600)}


def colour_of(value: object, default: str = DEFAULT_COLOUR) -> str:
    """A colour fit for a style attribute: ``#rrggbb`` or the default (a sheet may hold anything)."""
    return value if isinstance(value, str) and HEX.fullmatch(value) else default


def ink_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour`` (WCAG's contrast: the higher of the
    two is at least 4.5 : 1 on any colour)."""
    def channel(hex2: str) -> float:
        c = int(hex2, 16) / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    lum = 0.2126 * channel(colour[1:3]) + 0.7152 * channel(colour[3:5]) + 0.0722 * channel(colour[5:7])
    return "#000000" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "#ffffff"


def initials(name: str) -> str:
    words = [w for w in re.split(r"[\s\-_.]+", name) if w]
    return "".join(w[0] for w in words[:2]).upper() or "?"


def where(scene: Scene, x: int, y: int) -> str:
    """Where a point lies on the scene, in words a person reads: "the top left", "the middle"."""
    col = min(2, 3 * x // max(scene.width, 1))
    row = min(2, 3 * y // max(scene.height, 1))
    names = [["top left", "top", "top right"], ["left", "middle", "right"],
             ["bottom left", "bottom", "bottom right"]]
    return "the " + names[row][col]


def _version(name: str) -> str:
    """A stored file's version for its URL (the name is random per upload); not the name itself."""
    return hashlib.sha256(name.encode()).hexdigest()[:12]


def image_url(scene: Scene, *, gm: bool = False) -> str:
    """The URL of the scene's picture for a viewer: the GM's is the picture; anyone else's, while
    the fog is on, the picture with the fogged parts cut out (tabletop/services/fog.py), a new
    URL for each fog state. A board under fog has a picture for them too: its fog."""
    key = "" if gm else fog_key(scene)
    if not scene.image and not key:
        return ""
    version = _version(scene.image.name) if scene.image else "board"
    return reverse("table_image", args=[scene.table_id, "scene", scene.pk]) + \
        f"?v={version}{'-' + key if key else ''}"


def portrait_url(character: Character) -> str:
    if not character.portrait:
        return ""
    return reverse("table_image", args=[character.table_id, "portrait", character.pk]) + \
        f"?v={_version(character.portrait.name)}"


def grid_data(scene: Scene) -> dict[str, Any]:
    """The scene's grid as the page draws it and snaps to it (no secret: it is drawn on the map)."""
    return {
        "kind": scene.grid_kind,
        "size": round(scene.grid_size, 2),
        "x": round(scene.grid_x, 2),
        "y": round(scene.grid_y, 2),
        "shown": scene.grid_shown,
        "snap": scene.grid_snap,
        "distance": round(scene.cell_distance, 3),
        "unit": scene.cell_unit,
    }


def scene_data(scene: Scene, *, gm: bool = False) -> dict[str, Any]:
    """A scene as a viewer's page draws it: the GM's (``gm``) with the whole picture, anyone
    else's with the picture its fog leaves them (``image_url``). Secret is the default."""
    return {
        "id": scene.pk,
        "name": scene.name,
        "kind": "picture" if scene.image else "board",
        "colour": colour_of(scene.colour),
        "width": scene.width,
        "height": scene.height,
        "image": image_url(scene, gm=gm),
        "shown": scene.shown,
        "grid": grid_data(scene),
        "fog": {"on": scene.fog_on, "key": fog_key(scene),
                # the GM's overlay is drawn from the changes (tabletop/map_fog.html): the GM's alone
                **({"changes": list(scene.fog or []) if scene.fog_on else []} if gm else {})},
    }


def shown_badges(table: Table) -> dict[int, list[dict[str, Any]]]:
    """The conditions everyone sees on each character, by its id, as a token shows them (a
    condition the GM keeps to themselves stays on the GM's list, never on a token): read from the
    table's procedure state, its conditions alone (games/core/clock.py)."""
    from games import registry
    from games.core import clock
    from tabletop.models import ProcedureState

    engine = registry.get(table.system).engine
    if engine is None or engine.clock is None:
        return {}
    kept = ProcedureState.objects.filter(table=table).values_list("state__conditions", flat=True).first()
    found: dict[int, list[dict[str, Any]]] = {}
    for made in clock.conditions({"conditions": kept or []}):
        cid = str(made.get("combatant", ""))
        if clock.shown(made, gm=False) and cid[1:].isdigit():
            found.setdefault(int(cid[1:]), []).append(clock.badge(made, engine.clock.effects))
    return found


def token_data(token: Token, scene: Scene, badges: dict[int, list[dict[str, Any]]]) -> dict[str, Any]:
    """A token as the page draws it, with the badges of its character's conditions
    (``shown_badges``, read once for every token an event or a page draws)."""
    character = token.character
    colour = colour_of(token.colour, colour_of((character.sheet or {}).get("colour"),
                                               PALETTE[character.pk % len(PALETTE)]))
    owner = character.owner
    return {
        "id": token.pk,
        "scene": scene.pk,
        "character": character.pk,
        "name": character.name,
        "player": owner.display_name if owner is not None and not character.is_npc else "",
        "controller": character.owner_id or "",
        "initials": initials(character.name),
        "colour": colour,
        "ink": ink_on(colour),
        "portrait": portrait_url(character),
        "x": token.x,
        "y": token.y,
        # where the token's centre stands, as a share of the scene: the page's coordinates
        "left": f"{100 * token.x / scene.width:.3f}",
        "top": f"{100 * token.y / scene.height:.3f}",
        "where": where(scene, token.x, token.y),
        "hidden": token.hidden,
        "size": token.size,
        "label": token.label,
        "own_colour": token.colour,  # "" : drawn in its character's colour (the look form says so)
        "badges": badges.get(character.pk, []),
    }


def token_seen(scene: Scene, token: Token) -> bool:
    """Whether a seat that is not the GM's sees the token: in sight (not hidden), and its centre
    not under the scene's fog (selectors/fog.py). The scene must be shown, too (the caller's)."""
    return not token.hidden and not covered(scene, token.x, token.y)


def tokens_of(scene: Scene, *, gm: bool) -> list[dict[str, Any]]:
    """The scene's tokens as the GM (every one) or anyone else (the visible ones) sees them."""
    rows = scene.tokens.select_related("character", "character__owner")
    if not gm:
        rows = [t for t in rows.filter(hidden=False) if token_seen(scene, t)]
    badges = shown_badges(scene.table)
    return [token_data(t, scene, badges) for t in rows]


def shown_scene(table: Table | int) -> Scene | None:
    table_id = table if isinstance(table, int) else table.pk
    return Scene.objects.filter(table_id=table_id, shown=True).first()


def scene_view(table: Table, member: Membership) -> dict[str, Any]:
    """The Scene section of the table page for ``member``: the shown scene and the tokens they
    may see; for the GM also every scene, and the characters a token can be placed for."""
    gm = member.role == Role.GM and member.removed_at is None
    scene = shown_scene(table)
    view: dict[str, Any] = {"scene": None, "tokens": [], "drawings": [], "is_gm": gm}
    if scene is not None and may_see_scene(member, shown=True):
        view["scene"] = scene_data(scene, gm=gm)
        view["tokens"] = tokens_of(scene, gm=gm)
        view["drawings"] = drawings_of(scene, gm=gm)
    if gm:
        # every scene with its tokens: the GM places, styles and takes off tokens on any of them
        view["scenes"] = [{**scene_data(s, gm=True), "tokens": [] if s.shown else tokens_of(s, gm=True)}
                          for s in table.scenes.all()]
        placed = {t["character"] for t in view["tokens"]}
        view["characters"] = [{"id": c.pk, "name": c.name}
                              for c in table.characters.filter(retired=False).order_by("pk")]
        view["unplaced"] = [c for c in view["characters"] if c["id"] not in placed]
    return view
