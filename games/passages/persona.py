"""A Persona in a scene, as the rules read it: its sheet as the scene began (cleaned), its
skills by name, and its Selected Combat and Defense; and the Personae a scene begins with.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.engine import Turn
from games.passages.errors import BadValue
from games.passages.sheet import MAX_NAME, MAX_TEXT, clean, skill_key


def persona(sheet: Mapping[str, Any]) -> dict[str, Any]:
    """A Persona in a scene: the sheet (with ``id`` and ``name``) plus its combat standing."""
    cid = sheet.get("id")
    if not isinstance(cid, str) or not cid:
        raise BadValue("A Persona needs an id.")
    person = {"id": cid, "name": str(sheet.get("name") or cid)[:MAX_TEXT], **clean(sheet)}
    # an NPC's (the table says so when the scene begins): its figures are the Director's (audiences.py)
    person.update(npc=sheet.get("npc") is True, status="", present=True, quiet_turns=0,
                  unconscious=person["wounds"] == 0, downed=person["wounds"] == 0 or person["fatigue"] == 0)
    if person["unconscious"]:
        person["fatigue"] = 0
    return person


def skill(person: Mapping[str, Any], name: object) -> tuple[str, int]:
    """(the skill's name as the sheet spells it, its BASE), or ``BadValue``."""
    key = skill_key(person["skills"], name)
    if key is None:
        if not str(name or "").strip():
            raise BadValue("Name the skill to roll.")
        raise BadValue(f"{person['name']} has no skill called {str(name)[:MAX_NAME]!r}.")
    return key, int(person["skills"][key])


def selected(person: Mapping[str, Any], which: str, name: object = None) -> tuple[str, int]:
    """Selected Combat or Selected Defense: the named skill, else the sheet's choice, else
    the highest skill. Seed: the Selected Defense "will most likely be your highest valued
    Combat Skill". A Persona with no skills at all defends at 0."""
    for choice in (name, person.get(f"{which}_skill")):
        if choice:
            return skill(person, choice)
    if not person["skills"]:
        if which == "defense":
            return "", 0
        raise BadValue(f"{person['name']} has no skill to fight with.")
    best = max(person["skills"], key=lambda k: person["skills"][k])
    return best, int(person["skills"][best])


def defense_against(target: Mapping[str, Any], declared: Mapping[str, Any] | None,
                    magic: bool) -> tuple[str, int]:
    """The Defense an attack meets: the target's declared Selected Defense (else its sheet's),
    or against a spell its Magical Defense Effect when it has one. Seed: "Selected Defense is
    replaced by Magical Defense Effect when it applies"."""
    if magic and target.get("magic_defense"):
        return skill(target, target["magic_defense"])
    if declared and "defense" in declared:
        return declared.get("defense_skill", ""), int(declared["defense"])
    return selected(target, "defense")


def scene_personae(cids: list[str], turn: Turn) -> list[dict[str, Any]]:
    """The Personae a contest or fight begins with, from the table's sheets as they are now
    (``turn.characters``), each marked an NPC or not as the table says: the event records
    them, the rules' own record of the sheets as the scene began."""
    people = []
    for cid in cids:
        character = turn.character(cid)
        if character is None:
            raise BadValue("One of those Personae is no longer at the table.")
        people.append(persona({**character.combatant, "npc": character.is_npc}))
    return people
