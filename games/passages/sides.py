"""Passages' fights as the table knows them (games/core/fights.py): who is in the fight under
way, on which side, and who is out of it.

Out is not Combat Eligible. Seed: "Combat Eligibility is the clarification of whether a Persona
CAN continue the Combat into the next Turn. (Health or Fatigue at or below Zero, or the Persona
is teleported away, for instance)": the Unconscious, the Downed and one gone from the Scene are
out. Reinforcements the Director has brought in stand on their side from the moment they are
called (they declare at the next Turn), so a fight they join is not over.

A Passages sheet names no side: the Personae of the players are on the PCs' side and the NPCs
on the NPCs', unless the Director moves one (the ``set_side`` move, ``state["sides"]``), read
from the scene's own record of who is an NPC (``persona["npc"]``), so every seat and every
handler counts the same sides.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import fights
from games.core.fights import Fighter
from games.passages import state as st

UNCONSCIOUS, DOWNED, GONE = "Unconscious", "Downed", "gone from the Scene"


def why_out(person: Mapping[str, Any]) -> str:
    """Why a Persona of the fight cannot continue it ("" while it can)."""
    if person.get("joining"):
        return ""
    if not person.get("present", True):
        return GONE
    if person.get("unconscious") or person["wounds"] <= 0:
        return UNCONSCIOUS
    if person.get("downed") or person["fatigue"] <= 0:
        return DOWNED
    return ""


def side(state: Mapping[str, Any], cid: str) -> str:
    moved = str((state.get("sides") or {}).get(cid) or "").strip()
    return moved or fights.default_side(None, bool(state["personae"][cid].get("npc")))


def roster(state: Mapping[str, Any], characters: Mapping[str, Any] | None = None) -> list[Fighter]:
    """``Fights.roster``: the Personae of the fight under way (none outside one), each with its
    side and whether it is out."""
    if state.get("mode") != st.COMBAT:
        return []
    found = []
    for cid in st.in_scene(state):
        person = state["personae"][cid]
        why = why_out(person)
        found.append(Fighter(cid=cid, name=person["name"], side=side(state, cid), out=bool(why), why=why))
    return found


def over(state: Mapping[str, Any]) -> tuple[bool, str | None]:
    """Whether the fight under way is over (one side has no one able to act), and who stands."""
    return fights.winner(roster(state))
