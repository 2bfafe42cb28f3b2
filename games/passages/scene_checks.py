"""Checks, challenges and practice within a scene (outside one, ``table.roll_check``): the
``check`` and ``practice`` commands.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.rng import Rng
from games.passages import rules, sheet
from games.passages import state as st
from games.passages.errors import NotNow
from games.passages.guards import Actor, Event, find, require_able, require_plays


def _forced_challenge(state: Mapping[str, Any], cid: str) -> bool:
    """Seed: "A Persona can be attacked (thus the object of COMBAT, without being subject to
    it. In these cases, they can still use non-combat Skills, but any such Action will be a
    CHALLENGE, not a CHECK." So in a fight, once an attack on a Persona who is not itself
    fighting has been declared, that Persona's checks are challenges."""
    if state["mode"] != st.COMBAT:
        return False
    declared = state["combat"]["declared"]
    if declared.get(cid, {}).get("stance") == st.IN:
        return False
    return any(d.get("stance") == st.IN and d.get("target") == cid for d in declared.values())


def check(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor, rng: Rng) -> list[Event]:
    """A check (or, by the Director's choice, a challenge) by a Persona in the scene.

    Seed: "Checks occur in the story when their success/failure affects the Conditions of a
    scene, the Director deems them necessary, and the Persona is not opposed."
    """
    if state["mode"] == st.IDLE:
        raise NotNow("No contest or fight is under way: roll a one-off check instead.")
    person = find(state, command.get("combatant"))
    require_plays(actor, person)
    require_able(person)
    name, base = sheet.skill(person, command.get("skill"))
    forced = _forced_challenge(state, person["id"])
    result = rules.check(name, base, rng, challenge=bool(command.get("challenge")) or forced)
    return [{"type": "checked", "combatant": person["id"], "check": result.to_dict(), "forced": forced}]


def practice(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor, rng: Rng) -> list[Event]:
    """Seed: "A player may 'practice' any skill, but they will automatically succeed ...
    There is no need to roll dice". No die is rolled."""
    if state["mode"] == st.IDLE:
        raise NotNow("No contest or fight is under way: practise through the one-off check.")
    person = find(state, command.get("combatant"))
    require_plays(actor, person)
    require_able(person)
    name, base = sheet.skill(person, command.get("skill"))
    return [{"type": "practised", "combatant": person["id"], "check": rules.practice(name, base).to_dict()}]
