"""A character as the rules read it: its sheet, cleaned, with its id, name and player
(``profile``), read from the table as it is now (``profile_of``: ``Turn.characters``, under the
table's lock) or from the fight that holds it (``person_of``), and the figures a check or an
attack adds (``skill_value``, ``attribute_value``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Character
from games.core.engine import RuleError, Turn
from games.shadows import state as st
from games.shadows.combat import ATTRIBUTE_LABELS, ATTRIBUTES
from games.shadows.sheet import TRACKS, clean_sheet, skill_key, tracks_now
from games.sheets import SheetError


def profile(character: Mapping[str, Any]) -> dict[str, Any]:
    """A character (its sheet plus ``id``, ``name`` and ``owner``, the member id of its
    player or None) as the engine keeps it; ``RuleError`` when it cannot be read."""
    if not isinstance(character, Mapping) or not str(character.get("id", "")).strip():
        raise RuleError("A character needs an id.")
    try:
        sheet = clean_sheet(character, stored=True)
    except SheetError as exc:
        raise RuleError(f"{character.get('name') or character['id']}: {exc.message}") from None
    owner = character.get("owner")
    if owner is not None and (isinstance(owner, bool) or not isinstance(owner, int)):
        raise RuleError("A character's owner is a member id.")
    return {
        "id": str(character["id"]),
        "name": str(character.get("name") or character["id"])[:60],
        "owner": owner,
        "npc": bool(character.get("npc")),
        "attributes": {a: sheet[a] for a in ATTRIBUTES},
        "skills": sheet["skills"],
        **tracks_now(sheet),
        "maxima": {t: sheet[t] for t in TRACKS},
        "armour": sheet["armour"],
        "protection": sheet["protection"],
        "vulnerabilities": sheet["vulnerabilities"],
        "resistances": sheet["resistances"],
        "immunities": sheet["immunities"],
    }


def profile_of(character: Character) -> dict[str, Any]:
    """A table's character as the rules read it now: its sheet as the table has it, who plays
    it, and whether it is an NPC (whose figures are the GM's: audiences.py)."""
    return profile({**character.combatant, "owner": character.owner, "npc": character.is_npc})


def person_of(state: Mapping[str, Any], cid: str, turn: Turn) -> dict[str, Any]:
    """The character a move is about: the combatant as the fight has it when it is in one (its
    AP, hand, focus and tracks), else the character as the table has it now."""
    fighting = st.in_combat(state, cid)
    if fighting is not None:
        return fighting
    character = turn.character(cid)
    if character is None:
        raise RuleError("Choose a character.")
    return profile_of(character)


def name_of(state: Mapping[str, Any], turn: Turn, cid: str) -> str:
    """What the log calls a character: its name at the table now, or as the events last named
    it (one gone from the table)."""
    character = turn.character(cid)
    return character.name[:60] if character is not None else str(state["names"].get(cid, cid))


def npc_flag(person: Mapping[str, Any]) -> dict[str, bool]:
    """``{"npc": True}`` for an event about an NPC: its figures in the event are the GM's
    (audiences.py); nothing for anyone else's."""
    return {"npc": True} if person.get("npc") else {}


def skill_value(person: Mapping[str, Any], skill: str | None) -> int:
    """A skill's value; no skill named (an untrained attempt) is 0; an unknown name refuses,
    so a typo does not pass as an untrained attempt."""
    if not skill:
        return 0
    key = skill_key(skill)
    if key not in person["skills"]:
        raise RuleError(f"{person['name']} has no skill called {skill!r}.")
    return int(person["skills"][key])


def require_attribute(attribute: str | None) -> str:
    """An attribute the sheet has, or a refusal naming them all."""
    if attribute not in ATTRIBUTES:
        raise RuleError("Choose an attribute: " + ", ".join(ATTRIBUTE_LABELS.values()) + ".")
    return attribute


def attribute_value(person: Mapping[str, Any], attribute: str | None) -> int:
    return int(person["attributes"][require_attribute(attribute)])
