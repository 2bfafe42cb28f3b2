"""Freeform: any dice notation, chat, and a sheet of free key/value stats.

It registers a sheet and nothing else: no procedure, commands, checks or pages; dice,
chat and cards are the platform's own."""

from __future__ import annotations

from games.contract import GameSystem
from games.freeform import sheet
from games.freeform.samples import SAMPLES

# the smallest registration: a sheet and its samples; no procedure, no panel
SYSTEM = GameSystem(key="freeform", name="Freeform", sheet=sheet.SHEET, samples=SAMPLES,
                    blurb="Free dice notation, chat and free-form character sheets.")
