"""``{% scene_view table me as sv %}``: the Scene section's data for one viewer, read where the
section is drawn, so the page and a snapshot (tabletop/scene.html, included by table.html)
draw it alike without either's view knowing about scenes."""

from __future__ import annotations

from typing import Any

from django import template

from tabletop.models import Character, Membership, Table
from tabletop.selectors.scenes import portrait_url, scene_view as read

register = template.Library()


@register.simple_tag
def scene_view(table: Table, me: Membership) -> dict[str, Any]:
    return read(table, me)


@register.filter
def portrait_of(character: Character) -> str:
    """The URL of a character's portrait, "" when it has none."""
    return portrait_url(character)


@register.simple_tag
def grid_drawing(scene: dict[str, Any]) -> dict[str, Any]:
    """``{% grid_drawing scene as g %}``: the grid layer's pattern (tabletop/selectors/grid.py)."""
    from tabletop.selectors.grid import grid_drawing as drawing

    return drawing(scene)
