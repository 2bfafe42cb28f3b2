"""Checks, challenges and practice: in a contest or fight (the ``check`` and ``practice``
moves) and outside one (the one-off check, ``roll_check``).

Seed: "Checks occur in the story when their success/failure affects the Conditions of a scene,
the Director deems them necessary, and the Persona is not opposed."
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.engine import Turn
from games.core.rng import Rng
from games.passages import persona, rules
from games.passages import state as st
from games.passages.access import find, require_able
from games.passages.errors import NotNow
from games.passages.events import Event
from games.passages.narrate import describe_check
from games.passages.sheet import clean

CHECK, CHALLENGE, PRACTICE = "check", "challenge", "practice"
MODES = (CHECK, CHALLENGE, PRACTICE)


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


def _skill_in_scene(state: Mapping[str, Any], args: Mapping[str, Any], outside: str) -> tuple[str, str, int]:
    """(the Persona's id, the skill as its sheet spells it, its BASE), for a Persona of the
    scene able to act; ``outside`` is the refusal when no contest or fight is under way."""
    if state["mode"] == st.IDLE:
        raise NotNow(f"No contest or fight is under way: {outside}.")
    person = find(state, args.get("combatant"))
    require_able(person)
    return (person["id"], *persona.skill(person, args.get("skill")))


def check(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """A check (or, by the Director's choice, a challenge) by a Persona in the scene."""
    assert turn.rng is not None
    cid, name, base = _skill_in_scene(state, args, "roll a one-off check instead")
    forced = _forced_challenge(state, cid)
    result = rules.check(name, base, turn.rng, challenge=bool(args.get("challenge")) or forced)
    return [{"type": "checked", "combatant": cid, "check": result.to_dict(), "forced": forced}]


def practice(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """Seed: "A player may 'practice' any skill, but they will automatically succeed ...
    There is no need to roll dice". No die is rolled."""
    cid, name, base = _skill_in_scene(state, args, "practise through the one-off check")
    return [{"type": "practised", "combatant": cid, "check": rules.practice(name, base).to_dict()}]


def roll_check(data: Mapping[str, Any], *, name: str, skill: str, mode: str, rng: Rng,
               secret: bool = False) -> tuple[dict[str, Any], str]:
    """Rolls a check, a challenge or a practice for the Persona whose sheet is ``data``:
    (the event's data, its log line). A ``secret`` sheet's (an NPC's): the line everyone reads
    holds the roll and its band, the data's ``gm_line`` (audiences.py: the Director's alone)
    the figures too."""
    me = {**clean(data), "id": "me", "name": name}
    require_able(me)
    found, base = persona.skill(me, skill)
    if mode == PRACTICE:
        result = rules.practice(found, base)
    else:
        result = rules.check(found, base, rng, challenge=mode == CHALLENGE)
    data_out = result.to_dict()
    line = describe_check(name, data_out)
    if secret:
        return {**data_out, "gm_line": line}, describe_check(name, data_out, secret=True)
    return data_out, line
