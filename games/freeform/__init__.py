"""Freeform: any dice notation, chat, and a sheet of free key/value stats.

It registers a sheet and nothing else: no procedure, commands, checks or pages; dice,
chat and cards are the platform's own."""

from __future__ import annotations

from games.contract import GameSystem
from games.freeform import sheet
from games.freeform.samples import SAMPLES

SYSTEM = GameSystem(
    key="freeform",
    name="Freeform",
    blurb="Free dice notation, chat and free-form character sheets.",
    available=True,
    sheet=sheet.SHEET,
    samples=SAMPLES,
)
