"""The Shadows of Humanity character sheet: the platform's ``SheetField``s, ``clean_sheet``,
``derived``, and the character card (``glance``, ``npc_glance``, ``standing``). A sheet as the
rules read it is ``profile.py``'s.

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

from games.contract import Character, Glance, Sheet
from games.core.growth import XP, clean_xp, xp_field
from games.shadows import deck
from games.shadows.combat import ATTRIBUTE_LABELS, ATTRIBUTES, action_points, hand_size
from games.shadows.state import harm
from games.sheets import SheetError, SheetField, parse_stats

# The ranges a sheet's figures keep (clean_sheet refuses a figure outside, naming the field and
# its range). The seed gives no scale for attributes but through Action Points: "The normal
# maximum is 13 AP's (5 + Qu/2) for an extremely quick character while the normal minimum is
# 6", so Quickness 1 to 16 is its "normal"; the sheet takes 0 to 20 for every attribute, room
# for the not so normal (5 to 15 AP). Skills are added to a card of 1 to 14 against successes
# of 15 to 70 ("Absurd ... 70+"): 0 to 40.
ATTRIBUTE_RANGE = (0, 20)
SKILL_RANGE = (0, 40)
# Health, Life and Æssence: a whole of at least 1 (a whole of nothing would be a being down, dead
# or without Æssence before anything befell it); what a fight leaves of each ("now") stops at 0,
# the seed giving damage past nothing no meaning ("to put someone down", a "life force" worn
# away), and is at most the whole.
TRACK_RANGE = (1, 999)
# Seed: damage "may be reduced ... by armor", and protective equipment "can further modify this
# Defensive value": both protect, never below nothing; at most the top of a skill.
PROTECTION_RANGE = (0, 40)
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
    "quickness": "Action Points = 5 + half Quickness (rounded up; 1 to 16 gives the rules' normal 6 to 13 AP); "
                 "Defence against physical attacks.",
    "intuition": "Defence against spiritual magic.",
    "discipline": "Defence against mana magic.",
}

# What the rules read (rules="read": once the character is in play its player asks the GM to
# change them): the attributes (a check's and a hand's figures, AP, Defence), the skills, the
# whole of Health, Life and Æssence (what a fight and a night's rest count against), armour and
# protection (damage and Defence), vulnerabilities, resistances and immunities (damage). The notes
# are the player's; what a fight leaves of each track is the rules' ("kept").
FIELDS: tuple[SheetField, ...] = (
    *(SheetField(a, ATTRIBUTE_LABELS[a], "int", 5, help=" ".join(filter(None, ("0 to 20.", _ATTRIBUTE_HELP.get(a)))),
                 rules="read")
      for a in ATTRIBUTES),
    SheetField("skills", "Skills", "skills", "", rules="read",
               max_length=2000, help="One a line, 'Name: value' from 0 to 40 (e.g. 'Melee: 8', 'Accuracy: 5')."),
    SheetField("health", "Health", "int", 20, help="1 to 999.", rules="read"),
    SheetField("life", "Life", "int", 20, help="1 to 999.", rules="read"),
    SheetField("aessence", "Æssence", "int", 20, help="1 to 999.", rules="read"),
    SheetField("health_now", "Health now", "int", "", rules="kept",
               help="Blank while unhurt; a fight leaves what is left here (0 to the Health). At 0: down."),
    SheetField("life_now", "Life now", "int", "", rules="kept", help="Blank while unhurt. At 0: dead."),
    SheetField("aessence_now", "Æssence now", "int", "", rules="kept", help="Blank while unhurt."),
    SheetField("armour", "Armour", "int", 0, help="0 to 40, taken off the damage of each hit.", rules="read"),
    SheetField("protection", "Protective equipment", "int", 0, help="0 to 40, added to Defence.", rules="read"),
    SheetField("vulnerabilities", "Vulnerabilities", "text", "", rules="read",
               help="Materials or elements, comma separated: double damage."),
    SheetField("resistances", "Resistances", "text", "", help="Half damage. A new character's are the GM's to grant.",
               rules="read"),
    SheetField("immunities", "Immunities", "text", "", help="No damage. A new character's are the GM's to grant.",
               rules="read"),
    # the decided reading: "the GM awards experience at a session's close, with a reason, logged"
    # (games/core/growth.py); what it buys, and at what cost, is growth.py's
    xp_field(),
    SheetField("notes", "Notes", "longtext", "", max_length=4000),
)


def skill_key(name: str) -> str:
    return str(name).strip().lower().replace(" ", "_").replace("-", "_")


def _label(key: str) -> str:
    return {**ATTRIBUTE_LABELS, **TRACK_LABELS, **{NOW[t]: f"{TRACK_LABELS[t]} now" for t in TRACKS},
            "armour": "Armour", "protection": "Protective equipment"}.get(key, key.capitalize())


def _int(key: str, value: Any, default: int, bounds: tuple[int, int], *, label: str = "",
         stored: bool = False) -> int:
    """A whole number in ``bounds``; outside them a ``SheetError`` names the field and its range,
    or, for a sheet already ``stored`` (saved before a range was kept, or left by a fight), the
    nearest figure in range."""
    label = label or _label(key)
    if value in (None, ""):
        return default
    if isinstance(value, bool):
        raise SheetError(key, f"{label} must be a whole number.")
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise SheetError(key, f"{label} must be a whole number.") from None
    low, high = bounds
    if stored:
        return min(max(number, low), high)
    if not low <= number <= high:
        whole = next((f" (the {TRACK_LABELS[t]})" for t in TRACKS if NOW[t] == key), "")
        raise SheetError(key, f"{label} is from {low} to {high}{whole}; {number} is not.")
    return number


def parse_skills(value: Any, *, stored: bool = False) -> dict[str, int]:
    pairs = list(value.items()) if isinstance(value, Mapping) else parse_stats(str(value or ""))
    skills: dict[str, int] = {}
    for name, rating in pairs:
        key = skill_key(name)
        if not key:
            continue
        skills[key[:40]] = _int("skills", rating, 0, SKILL_RANGE, label=f"The skill {str(name).strip()[:40]}",
                                stored=stored)
    if len(skills) > 80:
        raise SheetError("skills", "At most 80 skills.")
    return skills


def _bounds(key: str, sheet: Mapping[str, Any]) -> tuple[int, int]:
    if key in ATTRIBUTES:
        return ATTRIBUTE_RANGE
    if key in TRACKS:
        return TRACK_RANGE
    now = next((t for t in TRACKS if NOW[t] == key), None)
    if now is not None:
        return (0, sheet[now])  # the whole comes first in FIELDS
    return PROTECTION_RANGE  # armour, protection


def clean_sheet(data: Mapping[str, Any], *, stored: bool = False) -> dict[str, Any]:
    """A submitted sheet as the engine reads it; ``SheetError`` names the field at fault and,
    for a figure out of range, the range. ``stored``: a sheet read back from the table, whose
    figures out of range are brought into it (a sheet saved before the ranges were kept)."""
    sheet: dict[str, Any] = {}
    for spec in FIELDS:
        raw = data.get(spec.key, spec.default)
        if spec.key == XP:
            sheet[XP] = clean_xp(raw, stored=stored)
        elif spec.key in NOW.values():
            sheet[spec.key] = None if raw in (None, "") else _int(spec.key, raw, 0, _bounds(spec.key, sheet),
                                                                  stored=stored)
        elif spec.kind == "int":
            sheet[spec.key] = _int(spec.key, raw, int(spec.default or 0), _bounds(spec.key, sheet), stored=stored)
        elif spec.kind == "skills":
            sheet[spec.key] = parse_skills(raw, stored=stored)
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


def tracks_now(sheet: Mapping[str, Any]) -> dict[str, int]:
    """Health, Life and Æssence now, from a cleaned sheet: what a fight left ("Health now"), or
    the whole while it is blank."""
    return {t: sheet[t] if sheet[NOW[t]] is None else sheet[NOW[t]] for t in TRACKS}


HARM_TAGS = ("Dead", "Down", "No Æssence left")
_SHOWN = ("quickness", "body", "mind", "spirit")


def npc_glance(glance: Glance) -> Glance:
    """What an NPC's card shows the seats its sheet is hidden from: whether it is dead, down or
    out of Æssence, which everyone sees happen; its tracks, figures and the rest of its tags
    (vulnerabilities, resistances, Major Arcana held) are the GM's (audiences.py)."""
    return Glance(tags=tuple(t for t in glance.tags if t in HARM_TAGS), out=glance.out)


def glance(data: Mapping[str, Any]) -> Glance:
    """A character card at a glance: AP and the attributes a fight turns on (Quickness for
    AP and Defence, Body, Mind and Spirit for the hands), the skills, unspent experience once it
    has any, Health, Life and Æssence now of whole, and tags: dead or down (then the card is ``out``), no Æssence left,
    vulnerabilities, resistances, immunities, Major Arcana held."""
    try:
        sheet = clean_sheet(data, stored=True)
    except SheetError:
        return Glance()
    now = tracks_now(sheet)
    stats = [("AP", str(action_points(sheet["quickness"])))]
    stats += [(ATTRIBUTE_LABELS[a], str(sheet[a])) for a in _SHOWN]
    stats += [(name.replace("_", " ").capitalize(), str(v)) for name, v in sheet["skills"].items() if v]
    if sheet["armour"]:
        stats.append(("Armour", str(sheet["armour"])))
    if sheet["protection"]:
        stats.append(("Protection", f"+{sheet['protection']}"))
    if sheet[XP]:  # unspent experience, once the GM has awarded any (growth.py)
        stats.append(("Experience", str(sheet[XP])))
    tracks = tuple((TRACK_LABELS[t], int(now[t]), int(sheet[t])) for t in TRACKS)
    tags = []
    fallen = harm(now)  # "dead" or "down" (state.py: no Life, no Health)
    if fallen:
        tags.append(fallen.capitalize())
    if now["aessence"] <= 0:
        tags.append("No Æssence left")
    for label, key in (("Vulnerable", "vulnerabilities"), ("Resists", "resistances"), ("Immune", "immunities")):
        if sheet[key]:
            tags.append(f"{label}: {sheet[key]}")
    held = [t for t in data.get(HELD) or [] if isinstance(t, str) and deck.is_major(t)]
    if held:
        tags.append("Holds " + ", ".join(deck.name(t) for t in held))
    return Glance(stats=tuple(stats), tracks=tracks, tags=tuple(tags), out=bool(fallen))


def standing(character: Character) -> dict[str, Any]:
    """``Panel.character_view``: whether a character is ``fallen`` ("dead", "down" or "") as its
    sheet stands, so the form that starts the next fight leaves whoever is not ticked; and its
    skills as the sheet has them, so a check's skill is chosen from the sheet, not typed (issue
    38: a typo was a refusal). Drawn only for the seats that may see the sheet (an NPC's skills
    are the GM's)."""
    try:
        sheet = clean_sheet(character.sheet, stored=True)
    except SheetError:
        return {"fallen": "", "skills": []}
    return {"fallen": harm(tracks_now(sheet)),
            "skills": [{"key": key, "label": key.replace("_", " ").capitalize(), "value": value}
                       for key, value in sheet["skills"].items()]}


# What a new character may start with (Sheet.creation). The rules have no chapter on making a
# character; they bound one figure and gate one kind of trait:
# - Quickness, through Action Points: "The normal maximum is 13 AP's (5 + Qu/2) for an extremely
#   quick character while the normal minimum is 6 AP's for an extremely slow character": a new
#   character is within the normal, Quickness 1 to 16 (the sheet's 0 and 17 to 20 are the GM's
#   not so normal beings).
# - Resistances and immunities: "Such capabilities are usually based on the type of Eldritch race
#   that they belong to and are thus balanced with other Eldritch races in some way": balancing
#   them is the GM's, so a new character's are asked of the GM. Vulnerabilities only cost their
#   bearer: a player names them freely.
# No other limit: the rules give no scale for the other attributes, skills, Health, Life, Æssence,
# armour or protection, and no points to share among them; the sheet's own ranges hold.
NEW_QUICKNESS = (1, 16)
GRANTED = ("resistances", "immunities")


def creation(sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``[(field, why)]``: each figure of a cleaned sheet past what a new character may have."""
    past: list[tuple[str, str]] = []
    low, high = NEW_QUICKNESS
    quickness = sheet.get("quickness")
    if isinstance(quickness, int) and not low <= quickness <= high:
        past.append(("quickness", f"Quickness {quickness}: a new character's Quickness is {low} to {high}, "
                                  f"for the normal 6 to 13 Action Points."))
    for key in GRANTED:
        if str(sheet.get(key) or "").strip():
            past.append((key, f"{_label(key)} ({str(sheet[key]).strip()[:60]}): they come with a being's kind, "
                              "balanced by the GM, who grants a new character's."))
    return past


# the sheet as the registration gives it (games.contract.Sheet)
SHEET = Sheet(FIELDS, clean_sheet, derived, glance, npc_glance, creation=creation)
