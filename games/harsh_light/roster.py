"""Who is in a Harsh Light fight, on which side, and who is out (games/core/fights.py): the
fighters are the characters in the turn order; one is out when incapacitated, as the World of
Darkness Health already coded reads a track (health.py: unconscious, bleeding out or in torpor,
dead). The decided reading "All systems, fights": the out are no target of a rule move (the
seed gives no rule that lets one be), and once one side has no one able to act the fight is
over: no new turn starts by itself, and the Storyteller ends it.

``roster`` is the platform's reading (``games.contract.Fights``), from the characters as the
table holds them; ``fighters`` is a rule's, from its view (state.in_play). Pure Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Character
from games.core.engine import RuleError
from games.core.fights import Fighter, default_side
from games.harsh_light import health
from games.harsh_light import sheet as sh
from games.harsh_light.state import name


def _row(state: Mapping[str, Any], cid: str, called: str, sheet: Mapping[str, Any] | None, npc: bool) -> Fighter:
    """One fighter: its side (the one the Storyteller moved it to, else the PCs' or the NPCs': a
    Harsh Light sheet names no side), and why it is out ('unconscious', 'bleeding out', 'dead'),
    from its sheet, or from the Health the last move left when the sheet cannot be read."""
    side = str((state.get("sides") or {}).get(cid) or "").strip() or default_side(None, npc)
    if sheet is not None:
        why = health.state_words(sheet)
    else:
        track = ((state.get("people") or {}).get(cid) or {}).get("track") or {}
        why = str(track.get("state") or "out of the fight") if track.get("out") else ""
    return Fighter(cid, called, side, out=bool(why), why=why)


def roster(state: Mapping[str, Any], characters: Mapping[str, Character]) -> list[Fighter]:
    """The fighters of the fight under way (none outside one): the turn order, as the table holds
    the characters now."""
    if not state.get("combat"):
        return []
    rows = []
    for cid in state.get("order") or ():
        character = characters.get(cid)
        if character is None:
            continue
        try:
            sheet: Mapping[str, Any] | None = sh.read(character.sheet)
        except RuleError:
            sheet = None
        rows.append(_row(state, cid, character.name, sheet, character.is_npc))
    return rows


def fighters(view: Mapping[str, Any]) -> list[Fighter]:
    """The same roster from a rule's view (state.in_play: its ``characters`` read from the sheets)."""
    if not view.get("combat"):
        return []
    return [one(view, cid) for cid in view.get("order") or () if cid in (view.get("characters") or {})]


def one(view: Mapping[str, Any], cid: str) -> Fighter:
    """One character of a rule's view as a fighter, in a fight or not."""
    sheet = (view.get("characters") or {}).get(cid)
    return _row(view, cid, name(view, cid), sheet, bool((sheet or {}).get("npc")))
