"""The Persona sheet: its fields on the platform's form (``FIELDS``), cleaning (skills at their
BASE, the two tracks, and what a Persona brings to a fight: Selected Combat and Defense, weapon,
armour), and what a character card derives from it (``derived``, ``glance``).

Seed: "Persona advance over time from their lowest values in the first session, and
constantly improve toward the goal of Mastering the assorted Skills" (Mastered is 95).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Glance, Sheet
from games.core.engine import RuleError
from games.passages import tracks
from games.passages.armour import damage_type, parse_armour
from games.passages.errors import BadSheet, BadValue
from games.passages.rules import MASTERED, MIN_BASE, core, double_down, double_up
from games.sheets import SheetError, SheetField

MAX_SKILLS = 60
MAX_NAME = 40
MAX_TEXT = 60
MAX_TYPE = 20
MAX_ARMOUR = 120
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
    "magic_combat": "",
    "magic_defense": "",
    "weapon": "",
    "weapon_damage": None,  # not set: a Declaration must name it
    "weapon_type": "",
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
    for key in ("combat_skill", "defense_skill", "magic_combat", "magic_defense", "weapon", "armour"):
        out[key] = " ".join(str(sheet.get(key) or "").split())[:MAX_TEXT]
    out["weapon_type"] = damage_type(sheet.get("weapon_type"))[:MAX_TYPE]
    for key, label in (("combat_skill", "Selected Combat"), ("defense_skill", "Selected Defense"),
                       ("magic_combat", "Magical Combat Effect"), ("magic_defense", "Magical Defense Effect")):
        if out[key] and skill_key(out["skills"], out[key]) is None:
            raise BadSheet(key, f"{label} names {out[key]!r}, which is not one of the skills.")
    raw = sheet.get("weapon_damage")
    out["weapon_damage"] = None if raw in (None, "") else _whole(
        "weapon_damage", raw, 0, MAX_WEAPON_DAMAGE, "Weapon damage")
    out["ranged"] = sheet.get("ranged") in (True, "1", "on", "true", "True", "yes")
    try:
        out["armour_effect"] = parse_armour(str(sheet.get("armour_effect") or "none")[:MAX_ARMOUR]).label
    except BadValue as exc:
        raise BadSheet("armour_effect", exc.message) from None
    return out


def skill_key(skills: Mapping[str, int], name: object) -> str | None:
    wanted = " ".join(str(name or "").split()).lower()
    return next((k for k in skills if k.lower() == wanted), None)


def skill_rows(skills: Mapping[str, int]) -> list[dict[str, Any]]:
    """Each skill with its DU, DD and Core (and the challenge's DU and DD off the Core)."""
    rows = []
    for name, base in skills.items():
        c = core(base)
        rows.append({"name": name, "base": base, "du": double_up(base), "dd": double_down(base),
                     "core": c, "core_du": double_up(c), "core_dd": double_down(c)})
    return rows


GLANCE_SKILLS = 6

# What the rules read (rules="read": once the Persona is in play its player asks the Director to
# change them): the skills (every Check, Challenge, Contest and combat roll), Selected Combat and
# Defense and the Magical Combat and Defense Effects (which skill a fight rolls and meets), the
# weapon (its set damage, its Damage Type, whether it is ranged, and the weapon itself, which the
# Director weighs when "Timing is altered by Weapons mismatches"), the armour (its effect on each
# Damage Type, and the armour itself, whose "characteristics" that effect stands for). The tracks
# are the rules' ("kept").
FIELDS: tuple[SheetField, ...] = (
    SheetField("skills", "Skills", "skills", default={}, rules="read",
               help="One per line, 'Skill: BASE', each BASE 1-95 (95 is Mastered). The sheet shows each "
                    "skill's Double Up, Double Down and Core."),
    SheetField("wounds", "Wounds", "int", default=tracks.FULL, rules="kept",
               help="0-100, drawn as 20 boxes of 5. At 0 the Persona is Unconscious."),
    SheetField("fatigue", "Fatigue", "int", default=tracks.FULL, rules="kept",
               help="0-100, drawn as 20 boxes of 5; a tick is 5. At 0 the Persona may only rest."),
    SheetField("untended", "Untended Wounds", "int", default=0, rules="kept",
               help="Wound points not yet tended: each costs a Fatigue point every Turn of a fight."),
    SheetField("magic", "Magical Resources", "int", default=tracks.FULL, rules="kept",
               help="0-100. A magic duel spends these instead of Fatigue."),
    SheetField("combat_skill", "Selected Combat", "text", default="", max_length=MAX_TEXT, rules="read",
               help="The skill this Persona attacks with; blank means the highest skill."),
    SheetField("defense_skill", "Selected Defense", "text", default="", max_length=MAX_TEXT, rules="read",
               help="The skill this Persona defends with; blank means the highest skill."),
    SheetField("magic_combat", "Magical Combat Effect", "text", default="", max_length=MAX_TEXT, rules="read",
               help="The skill a magic attack uses in place of Selected Combat; it spends Magical Resources."),
    SheetField("magic_defense", "Magical Defense Effect", "text", default="", max_length=MAX_TEXT, rules="read",
               help="The skill that defends against a magic attack in place of Selected Defense."),
    SheetField("weapon", "Weapon", "text", default="", max_length=MAX_TEXT, rules="read"),
    SheetField("weapon_damage", "Weapon damage", "int", default=None, rules="read",
               help="The weapon's set damage; a blow deals no more than the attacker's skill. Left blank, "
                    "each Declaration names it."),
    SheetField("weapon_type", "Damage Type", "text", default="", max_length=MAX_TYPE, rules="read",
               help="What the weapon deals (Slashing, Shattering, Piercing...): armour may treat each "
                    "type differently."),
    SheetField("ranged", "Ranged weapon", "bool", default=False, rules="read",
               help="A ranged weapon starts a roll-off only against another ranged weapon."),
    SheetField("armour", "Armour", "text", default="", max_length=MAX_TEXT, rules="read"),
    SheetField("armour_effect", "Armour's effect", "text", default="none", max_length=MAX_ARMOUR, rules="read",
               help="none, halve, double, +N (increase) or -N (decrease), several in order ('halve, then -1'), "
                    "per Damage Type if it differs ('Slashing: halve; Shattering: -1; none')."),
)


def clean_sheet(data: Mapping[str, Any]) -> dict[str, Any]:
    """A submitted sheet as the engine will read it; ``SheetError`` names the field at fault."""
    try:
        return clean(data)
    except BadSheet as exc:
        raise SheetError(exc.field, exc.message) from None


def derived(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """What a character card shows but nobody types: each skill's Double Up, Double Down and
    Core (the BASE is among its stats; the tracks and Downed are its bars and tags)."""
    try:
        cleaned = clean(data)
    except RuleError:
        return []
    return [(row["name"], f"DU {row['du']}, DD {row['dd']}, Core {row['core']}")
            for row in skill_rows(cleaned["skills"])]


def glance(data: Mapping[str, Any]) -> Glance:
    """The character card: the skills that matter (Selected Combat and Defense first, then the
    highest) with their BASE, Wounds and Fatigue of 100, and whether it is Downed or worse."""
    try:
        cleaned = clean(data)
    except RuleError:
        return Glance()
    skills = cleaned["skills"]
    first = [k for k in (skill_key(skills, cleaned["combat_skill"]),
                         skill_key(skills, cleaned["defense_skill"])) if k]
    rest = sorted((k for k in skills if k not in first), key=lambda k: (-skills[k], k.casefold()))
    shown = list(dict.fromkeys(first + rest))[:GLANCE_SKILLS]
    person = {**cleaned, "downed": cleaned["fatigue"] == 0, "unconscious": cleaned["wounds"] == 0}
    word = tracks.state_word(person)
    tags = [word] if word else []
    if cleaned["untended"]:
        tags.append(f"Untended Wounds {cleaned['untended']}")
    return Glance(stats=tuple((k, str(skills[k])) for k in shown),
                  tracks=(("Wounds", cleaned["wounds"], tracks.FULL), ("Fatigue", cleaned["fatigue"], tracks.FULL)),
                  tags=tuple(tags), out=bool(word))


# What a new Persona may start with (Sheet.creation). The rules: "Persona advance over time from
# their lowest values in the first session, and constantly improve toward the goal of Mastering
# the assorted Skills they choose to pursue", Mastered being 95 ("This applies even to Mastered
# Skills (95%)"): a new Persona has mastered nothing, so a skill at 95 is asked of the Director.
# The rules give no figure for "their lowest values" and no points to share among the skills, so
# there is no lower ceiling; which skills a Persona has is its player's ("Unless you created a
# skill of 'opening a chest under duress' for your Persona"). Nor do they bound a weapon's set
# damage (a blow deals no more than the attacker's skill in any case) or what armour does.
NEW_SKILL_MAX = MASTERED - 1


_CHOICES = (("combat_skill", "Selected Combat"), ("defense_skill", "Selected Defense"),
            ("magic_combat", "Magical Combat Effect"), ("magic_defense", "Magical Defense Effect"))


def creation(sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``[(field, why)]``: each figure of a cleaned sheet past what a new Persona may have. A
    skill past it asks the skills of the Director, and with them each choice that names one of
    them (a Persona made without those skills could not have chosen it)."""
    past = [("skills", f"{name} {base}: a new Persona starts below Mastered ({MASTERED}) and works toward it.")
            for name, base in (sheet.get("skills") or {}).items() if base > NEW_SKILL_MAX]
    if past:
        past += [(key, f"{label} ({sheet[key]}): it names one of the skills asked of the Director.")
                 for key, label in _CHOICES if sheet.get(key)]
    return past


# the sheet as the registration gives it (games.contract.Sheet)
SHEET = Sheet(FIELDS, clean_sheet, derived, glance, creation=creation)
