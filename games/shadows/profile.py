"""A character as the rules read it: its sheet, cleaned, with its id, name and player
(``profile``), and the figures a check or an attack adds (``skill_value``, ``attribute_value``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.engine import RuleError
from games.sheets import SheetError
from games.shadows.combat import ATTRIBUTE_LABELS, ATTRIBUTES
from games.shadows.sheet import TRACKS, clean_sheet, skill_key, tracks_now


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


def skill_value(person: Mapping[str, Any], skill: str | None) -> int:
    """A skill's value; no skill named (an untrained attempt) is 0; an unknown name refuses,
    so a typo does not pass as an untrained attempt."""
    if not skill:
        return 0
    key = skill_key(skill)
    if key not in person["skills"]:
        raise RuleError(f"{person['name']} has no skill called {skill!r}.")
    return int(person["skills"][key])


def attribute_value(person: Mapping[str, Any], attribute: str | None) -> int:
    if attribute not in ATTRIBUTES:
        raise RuleError("Choose an attribute: " + ", ".join(ATTRIBUTE_LABELS.values()) + ".")
    return int(person["attributes"][attribute])
