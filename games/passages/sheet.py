"""The Persona sheet as the engine reads it: skills at their BASE, the two tracks, and what
a Persona brings to a fight (Selected Combat and Defense, weapon, armour).

Seed: "Persona advance over time from their lowest values in the first session, and
constantly improve toward the goal of Mastering the assorted Skills" (Mastered is 95).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.passages import tracks
from games.passages.combat import parse_armour
from games.passages.errors import BadSheet, BadValue
from games.passages.rules import MASTERED, MIN_BASE, core, double_down, double_up

MAX_SKILLS = 60
MAX_NAME = 40
MAX_TEXT = 60
MAX_WEAPON_DAMAGE = MASTERED  # a blow never deals more than the attacker's skill anyway

# What a sheet holds, with the value a new Persona starts at.
DEFAULTS: dict[str, Any] = {
    "skills": {},
    "wounds": tracks.FULL,
    "fatigue": tracks.FULL,
    "untended": 0,
    "magic": tracks.FULL,
    "combat_skill": "",
    "defense_skill": "",
    "weapon": "",
    "weapon_damage": 0,
    "ranged": False,
    "armour": "",
    "armour_effect": "none",
}
TRACKS = ("wounds", "fatigue", "untended", "magic")
LASTING = TRACKS  # what a contest or a fight leaves on the sheet


def _whole(key: str, value: Any, low: int, high: int, label: str) -> int:
    if isinstance(value, bool) or isinstance(value, float):
        raise BadSheet(key, f"{label} must be a whole number.")
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        raise BadSheet(key, f"{label} must be a whole number.") from None
    if not low <= number <= high:
        raise BadSheet(key, f"{label} runs from {low} to {high}, not {number}.")
    return number


def _skill_pairs(value: Any) -> list[tuple[object, object]]:
    """Skills as a mapping, or as the sheet form's text: one 'Skill: BASE' a line."""
    if isinstance(value, Mapping):
        return list(value.items())
    if not isinstance(value, str):
        raise BadSheet("skills", "Skills are a list of 'Skill: BASE' lines.")
    pairs: list[tuple[object, object]] = []
    for number, line in enumerate(value.splitlines(), start=1):
        if not line.strip():
            continue
        name, sep, base = line.rpartition(":")
        if not sep or not name.strip():
            raise BadSheet("skills", f"Skills line {number} should read 'Skill: BASE'.")
        pairs.append((name, base))
    return pairs


def clean_skills(value: Any) -> dict[str, int]:
    """Skill name -> BASE (1-95). Names keep their spelling; two differing only in case clash.
    A skill's name may hold a colon: the BASE is after the last one."""
    if value in (None, ""):
        return {}
    skills: dict[str, int] = {}
    seen: set[str] = set()
    for raw_name, raw_base in _skill_pairs(value):
        name = " ".join(str(raw_name).split())
        if not name:
            raise BadSheet("skills", "A skill needs a name.")
        if len(name) > MAX_NAME:
            raise BadSheet("skills", f"A skill's name is at most {MAX_NAME} characters ({name[:20]}...).")
        if name.lower() in seen:
            raise BadSheet("skills", f"The skill {name!r} is listed twice.")
        seen.add(name.lower())
        skills[name] = _whole("skills", raw_base, MIN_BASE, MASTERED, f"{name}'s BASE")
    if len(skills) > MAX_SKILLS:
        raise BadSheet("skills", f"A Persona has at most {MAX_SKILLS} skills.")
    return skills


def clean(sheet: Mapping[str, Any]) -> dict[str, Any]:
    """A sheet with every field present and in range, or ``BadValue`` naming the fault."""
    out: dict[str, Any] = {}
    out["skills"] = clean_skills(sheet.get("skills", {}))
    for key, label in (("wounds", "Wounds"), ("fatigue", "Fatigue"), ("magic", "Magical Resources")):
        raw = sheet.get(key, DEFAULTS[key])
        out[key] = DEFAULTS[key] if raw in (None, "") else _whole(key, raw, 0, tracks.FULL, label)
    raw = sheet.get("untended", 0)
    out["untended"] = 0 if raw in (None, "") else _whole("untended", raw, 0, tracks.FULL, "Untended Wounds")
    if out["untended"] > tracks.FULL - out["wounds"]:
        raise BadSheet("untended", f"Untended Wounds ({out['untended']}) cannot be more than the Wounds lost "
                       f"({tracks.FULL - out['wounds']}).")
    for key in ("combat_skill", "defense_skill", "weapon", "armour"):
        out[key] = " ".join(str(sheet.get(key) or "").split())[:MAX_TEXT]
    for key, label in (("combat_skill", "Selected Combat"), ("defense_skill", "Selected Defense")):
        if out[key] and skill_key(out["skills"], out[key]) is None:
            raise BadSheet(key, f"{label} names {out[key]!r}, which is not one of the skills.")
    raw = sheet.get("weapon_damage", 0)
    out["weapon_damage"] = 0 if raw in (None, "") else _whole(
        "weapon_damage", raw, 0, MAX_WEAPON_DAMAGE, "Weapon damage")
    out["ranged"] = sheet.get("ranged") in (True, "1", "on", "true", "True", "yes")
    try:
        out["armour_effect"] = parse_armour(sheet.get("armour_effect") or "none").label
    except BadValue as exc:
        raise BadSheet("armour_effect", exc.message) from None
    return out


def persona(sheet: Mapping[str, Any]) -> dict[str, Any]:
    """A Persona in a scene: the sheet (with ``id`` and ``name``) plus its combat standing."""
    cid = sheet.get("id")
    if not isinstance(cid, str) or not cid:
        raise BadValue("A Persona needs an id.")
    person = {"id": cid, "name": str(sheet.get("name") or cid)[:MAX_TEXT], **clean(sheet)}
    # an NPC's (the table says so when the scene begins): its figures are the Director's (screen.py)
    person.update(npc=sheet.get("npc") is True, status="", present=True, quiet_turns=0,
                  unconscious=person["wounds"] == 0, downed=person["wounds"] == 0 or person["fatigue"] == 0)
    if person["unconscious"]:
        person["fatigue"] = 0
    return person


def skill_key(skills: Mapping[str, int], name: object) -> str | None:
    wanted = " ".join(str(name or "").split()).lower()
    return next((k for k in skills if k.lower() == wanted), None)


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


def skill_rows(skills: Mapping[str, int]) -> list[dict[str, Any]]:
    """Each skill with its DU, DD and Core (and the challenge's DU and DD off the Core)."""
    rows = []
    for name, base in skills.items():
        c = core(base)
        rows.append({"name": name, "base": base, "du": double_up(base), "dd": double_down(base),
                     "core": c, "core_du": double_up(c), "core_dd": double_down(c)})
    return rows
