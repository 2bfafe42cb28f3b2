"""What the procedure leaves on the characters' sheets: ``writeback(event, state)``.

- The Major Arcana a character holds (seed: "the sheet shows the cards held", issue 16) go
  on its sheet as ``held_major_arcana`` whenever they change.
- Time passing (the clock's recovery), the GM's raise of the fallen and correction of a track
  outside a fight write Health, Life and Æssence now (campaign.py).
- When a combat ends, what is left of each combatant's Health, Life and Æssence goes back to
  its sheet ("Health now" and so on; the sheet's Health stays the whole).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.shadows.sheet import HELD, NOW, TRACKS


def _now(tracks: Mapping[str, int], whole: Mapping[str, int] | None) -> dict[str, Any]:
    """Health, Life and Æssence now, for the sheet: blank while whole ("Blank while unhurt")."""
    return {NOW[t]: None if whole is not None and v == whole.get(t) else v for t, v in tracks.items()}


def _hurt(state: Mapping[str, Any], cid: str, *, fell: bool = False) -> dict[str, dict[str, Any]]:
    """A player character's tracks as the fight has left them, so its card beside the table
    follows the fight. An NPC's wait for the fight's end (its sheet is the GM's, whose panel
    shows its tracks meanwhile, and a line for each hit would only say that it changed), or for
    the blow that fells it: then its card says "Down" or "Dead" to everyone (``npc_glance``),
    as the blow's own line does."""
    person = ((state.get("combat") or {}).get("combatants") or {}).get(cid)
    if person is None or (person.get("npc") and not fell):
        return {}
    return {cid: _now({t: person[t] for t in TRACKS}, person["maxima"])}


def writeback(event: Mapping[str, Any], state: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    kind = event.get("type")
    if kind == "attack_resolved":
        return _hurt(state, event["target"], fell=bool(event.get("falls")))
    if kind == "adjusted" and event.get("field") in TRACKS:
        return _hurt(state, event["combatant"])
    if kind in ("major_arcana_kept", "arcana_spent", "arcana_approved"):
        cid = event["combatant"]
        return {cid: {HELD: list(state["held"].get(cid, []))}}
    if kind == "session_ended":
        touched = set(event["kept"]) | set(event["dropped"])
        return {cid: {HELD: list(state["held"].get(cid, []))} for cid in sorted(touched)}
    if kind in ("recovered", "raised"):  # the clock's recovery and the GM's raise (campaign.py)
        return {event["combatant"]: _now(event["now"], event["whole"])}
    if kind == "track_corrected":  # the GM's correction outside a fight
        field = event["field"]
        return {event["combatant"]: _now({field: event["value"]}, {field: event["whole"]})}
    if kind == "combat_ended":
        whole = event.get("whole") or {}
        return {cid: _now(tracks, whole.get(cid)) for cid, tracks in event["tracks"].items()}
    return {}
