"""Freeform: any dice notation, chat, and a sheet the GM designs (or free key/value stats).

It registers a sheet and a panel (each designed sheet with its trackers and saved rolls) and
nothing else: no procedure, commands, checks or pages; dice, chat and cards are the platform's
own, and the designer, the trackers and the rolls that read a sheet are the platform's Freeform
services (tabletop/services/designed.py)."""

from __future__ import annotations

from typing import Any

from games.contract import GameSystem, Panel, Seat
from games.freeform import sheet
from games.freeform.samples import SAMPLES



def view(state: Any, seat: Seat) -> dict[str, Any]:
    """The panel holds no state of its own: each character's designed sheet is its
    ``character_view``, drawn for the seats that may see it."""
    return {"gm": seat.is_gm}


# a small registration: a sheet, its samples and a panel; no procedure
SYSTEM = GameSystem(key="freeform", name="Freeform", sheet=sheet.SHEET, samples=SAMPLES,
                    designed_sheets=True,
                    panel=Panel(view=view, template="games/freeform/panel.html#panel",
                                notice="games/freeform/panel.html#notice", character_view=sheet.character_view),
                    blurb="Any game: a character sheet the GM designs, rolls that read it, free dice and chat.")
