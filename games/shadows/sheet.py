"""The Shadows of Humanity character sheet: the platform's ``SheetField``s, ``clean_sheet``,
``derived``, and ``profile`` (a sheet as the engine reads it).

The seed names the attributes its rules use (Body, Mind, Spirit; Physical, Mental,
Emotional; Quickness, Intuition, Discipline), skills by name, and Health, Life and Æssence
as the values damage lowers. Armour reduces damage; other protective equipment adds to
Defence; vulnerabilities, resistances and immunities name materials or elements. Major
Arcana the character holds live in the procedure's state and are written back to the sheet
(``held_major_arcana``, a list of card tokens) so the sheet shows them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.sheets import SheetError, SheetField, parse_stats
from games.shadows import deck
from games.shadows.combat import ATTRIBUTE_LABELS, ATTRIBUTES, action_points, hand_size
from games.shadows.errors import RuleError

ATTRIBUTE_RANGE = (0, 20)
SKILL_RANGE = (0, 40)
TRACKS = ("health", "life", "aessence")
TRACK_LABELS = {"health": "Health", "life": "Life", "aessence": "Æssence"}
# What a fight leaves of each track (blank: the full value): Health is the whole, "Health now"
# what is left, so the sheet keeps both and a character card shows one of the other.
NOW = {t: f"{t}_now" for t in TRACKS}
HELD = "held_major_arcana"

_ATTRIBUTE_HELP = {
    "body": "Physical focus: Body + half Physical cards.",
    "mind": "Mental focus: Mind + half Mental cards.",
    "spirit": "Spiritual focus: Spirit + half Emotional cards.",
    "quickness": "Action Points = 5 + half Quickness (rounded up); Defence against physical attacks.",
    "intuition": "Defence against spiritual magic.",
    "discipline": "Defence against mana magic.",
}

FIELDS: tuple[SheetField, ...] = (
    *(SheetField(a, ATTRIBUTE_LABELS[a], "int", 5, help=_ATTRIBUTE_HELP.get(a, ""))
      for a in ATTRIBUTES),
    SheetField("skills", "Skills", "skills", "",
               max_length=2000, help="One a line, 'Name: value' (e.g. 'Melee: 8', 'Accuracy: 5')."),
    SheetField("health", "Health", "int", 20),
    SheetField("life", "Life", "int", 20),
    SheetField("aessence", "Æssence", "int", 20),
    SheetField("health_now", "Health now", "int", "", rules="kept", help="Blank while unhurt; a fight leaves what is left here."),
    SheetField("life_now", "Life now", "int", "", rules="kept", help="Blank while unhurt."),
    SheetField("aessence_now", "Æssence now", "int", "", rules="kept", help="Blank while unhurt."),
    SheetField("armour", "Armour", "int", 0, help="Taken off the damage of each hit."),
    SheetField("protection", "Protective equipment", "int", 0, help="Added to Defence."),
    SheetField("vulnerabilities", "Vulnerabilities", "text", "",
               help="Materials or elements, comma separated: double damage."),
    SheetField("resistances", "Resistances", "text", "", help="Half damage."),
    SheetField("immunities", "Immunities", "text", "", help="No damage."),
    SheetField("notes", "Notes", "longtext", "", max_length=4000),
)


def skill_key(name: str) -> str:
    return str(name).strip().lower().replace(" ", "_").replace("-", "_")


def _int(key: str, value: Any, default: int, bounds: tuple[int, int] | None = None) -> int:
    label = {**ATTRIBUTE_LABELS, **TRACK_LABELS, **{NOW[t]: f"{TRACK_LABELS[t]} now" for t in TRACKS}}.get(
        key, key.capitalize())
    if value in (None, ""):
        return default
    if isinstance(value, bool):
        raise SheetError(key, f"{label} must be a whole number.")
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise SheetError(key, f"{label} must be a whole number.") from None
    if bounds and not bounds[0] <= number <= bounds[1]:
        raise SheetError(key, f"{label} is from {bounds[0]} to {bounds[1]}.")
    return number


def parse_skills(value: Any) -> dict[str, int]:
    pairs = list(value.items()) if isinstance(value, Mapping) else parse_stats(str(value or ""))
    skills: dict[str, int] = {}
    for name, rating in pairs:
        key = skill_key(name)
        if not key:
            continue
        skills[key[:40]] = _int("skills", rating, 0, SKILL_RANGE)
    if len(skills) > 80:
        raise SheetError("skills", "At most 80 skills.")
    return skills


def clean_sheet(data: Mapping[str, Any]) -> dict[str, Any]:
    """A submitted sheet as the engine reads it; ``SheetError`` names the field at fault."""
    sheet: dict[str, Any] = {}
    for spec in FIELDS:
        raw = data.get(spec.key, spec.default)
        if spec.key in NOW.values():
            sheet[spec.key] = None if raw in (None, "") else _int(spec.key, raw, 0, (-999, 999))
        elif spec.kind == "int":
            bounds = ATTRIBUTE_RANGE if spec.key in ATTRIBUTES else (-999, 999)
            sheet[spec.key] = _int(spec.key, raw, int(spec.default or 0), bounds)
        elif spec.kind == "skills":
            sheet[spec.key] = parse_skills(raw)
        else:
            sheet[spec.key] = str(raw or "").strip()[: spec.max_length]
    held = data.get(HELD)
    if isinstance(held, list):
        sheet[HELD] = [str(t) for t in held if isinstance(t, str) and deck.is_major(t)][:22]
    return sheet


def derived(sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
    try:
        attributes = {a: int(sheet.get(a, 0) or 0) for a in ATTRIBUTES}
    except (TypeError, ValueError):
        return []
    rows = [
        ("Action Points", str(action_points(attributes["quickness"]))),
        ("Hand, Physical focus", str(hand_size(attributes, "physical"))),
        ("Hand, Mental focus", str(hand_size(attributes, "mental"))),
        ("Hand, Spiritual focus", str(hand_size(attributes, "spiritual"))),
    ]
    held = [t for t in sheet.get(HELD) or [] if isinstance(t, str) and deck.is_major(t)]
    if held:
        rows.append(("Major Arcana held", ", ".join(deck.name(t) for t in held)))
    return rows


def profile(character: Mapping[str, Any]) -> dict[str, Any]:
    """A character (its sheet plus ``id``, ``name`` and ``owner``, the member id of its
    player or None) as the engine keeps it; ``RuleError`` when it cannot be read."""
    if not isinstance(character, Mapping) or not str(character.get("id", "")).strip():
        raise RuleError("A character needs an id.")
    try:
        sheet = clean_sheet(character)
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
        **{t: sheet[t] if sheet[NOW[t]] is None else sheet[NOW[t]] for t in TRACKS},
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
