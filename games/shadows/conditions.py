"""The lasting conditions Shadows of Humanity's rules read (games/core/clock.py, issue 35):
``EFFECTS``, what each does, and ``draw_bonus``, what they add to a character's draws.

The seed names wounds by suit ("Cups/Chalice ... bleeding wounds", "Coins/Pentacles ...
skeletal/musculature wounds", "Swords ... stunning wounds", "Staves/Wands ... internal
organ/tissue wounds") and gives them no figure. Reading: a wound lasting on a character is a
condition whose amount (a penalty, as the GM sets it) is added to every draw the character makes,
as a condition "to draws" is: an all-or-nothing check, a side of an opposed or multi-draw action,
an attack. How long it lasts is the GM's (until removed, some rounds, the scene, a night...).
Pure Python: no Django."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import clock as time

DRAW = "draw"
WOUNDS = {
    "wound_cups": "A bleeding wound (Cups)",
    "wound_pentacles": "A skeletal or muscular wound (Pentacles)",
    "wound_swords": "A stunning wound (Swords)",
    "wound_wands": "An internal organ or tissue wound (Wands)",
}
EFFECTS = {
    DRAW: "Added to every draw the character makes (a check, an opposed or multi-draw side, an attack)",
    **{key: f"{what}: its amount is added to every draw the character makes" for key, what in WOUNDS.items()},
}
# what conditions add together, at most: the Absurd band's span over a Mundane one ("Absurd ... 50+")
DRAW_CAP = 20


def draw_bonus(state: Mapping[str, Any], cid: object) -> int:
    """What the conditions on ``cid`` add to every draw it makes (a penalty when negative)."""
    total = sum(time.modifier(state, cid, key) for key in EFFECTS)
    return max(-DRAW_CAP, min(DRAW_CAP, total))
