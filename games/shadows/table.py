"""How Shadows of Humanity plugs into a table: the sheet (re-exported from ``sheet``) and
the writeback, what the procedure leaves on the characters' sheets.

- The Major Arcana a character holds (seed: "the sheet shows the cards held", issue 16) go
  on its sheet as ``held_major_arcana`` whenever they change.
- When a combat ends, each combatant's Health, Life and Æssence go back to its sheet.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.shadows.sheet import FIELDS, HELD, clean_sheet, derived

__all__ = ["FIELDS", "clean_sheet", "derived", "writeback"]


def writeback(event: Mapping[str, Any], state: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    kind = event.get("type")
    if kind in ("major_arcana_kept", "arcana_spent"):
        cid = event["combatant"]
        return {cid: {HELD: list(state["held"].get(cid, []))}}
    if kind == "session_ended":
        touched = set(event["kept"]) | set(event["dropped"])
        return {cid: {HELD: list(state["held"].get(cid, []))} for cid in sorted(touched)}
    if kind == "combat_ended":
        return {cid: dict(tracks) for cid, tracks in event["tracks"].items()}
    return {}
