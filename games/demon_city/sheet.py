"""Demon City's sheet at a table: the sheet as the platform's form fields, cleaning a
submitted sheet, what a sheet page derives from it, and the character card.

Pure Python like the rest of the engine; the platform renders what this returns.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from typing import Any

from games.contract import Character, Glance, Sheet
from games.core.engine import RuleError
from games.core.growth import XP, clean_xp, xp_field
from games.demon_city.combatant import SHEET_FIELDS, STAT_MAX, STAT_NAMES, Combatant, derived_values, stat_label
from games.sheets import SheetError, SheetField

_KIND = {"str": "text", "int": "int", "bool": "bool", "stats": "skills"}
# what the rules keep (Action Rounds write them back; the GM may correct them)
_KEPT = frozenset({"current_toughness", "injured", "out_of_fight", "injury"})
# what the rules read (once the character is in play its player asks the Host to change them):
# the stats and skills (every die pool: "a character with a higher Stat than the Stat they're
# targeting gets to roll an extra die"), Toughness and armour (damage dice: "Kevlar and other
# protection raises your Base Toughness"), being supernatural (stats past 9, "if the supernatural
# is involved") and the side (a tie between "characters on the same side" is drawn at random).
# Every field of this sheet is one or the other: it has no notes.
_READ = frozenset({"side", "supernatural", "agility", "toughness", "armour", "hand_to_hand", "firearms",
                   "exotic_weapons", "skills"})

# Character.name is the sheet's name; the rest of SHEET_FIELDS is the sheet.
FIELDS: tuple[SheetField, ...] = (*(
    SheetField(
        key=f["name"], label=f["label"], kind=_KIND[f["kind"]],  # type: ignore[arg-type]
        default=f["default"] if f["default"] is not None else "",
        max_length=40, help=f["help"], rules="kept" if f["name"] in _KEPT else "read" if f["name"] in _READ else "",
    )
    for f in SHEET_FIELDS
    if f["name"] != "name"
),
    # the decided reading: "the GM awards experience at a session's close, with a reason, logged"
    # (games/core/growth.py); what it buys, and at what cost, is growth.py's
    xp_field(),
)


def _int(key: str, value: Any, *, blank: int | None = None) -> int | None:
    if value in (None, ""):
        return blank
    if isinstance(value, bool):
        raise SheetError(key, f"{stat_label(key)} must be a whole number.")
    try:
        return int(value)
    except (TypeError, ValueError):
        raise SheetError(key, f"{stat_label(key)} must be a whole number.") from None


def parse_skills(value: Any) -> dict[str, int]:
    """GM-added skills from a mapping or 'Name: rating' lines; ``SheetError`` names the fault."""
    if isinstance(value, Mapping):
        pairs = list(value.items())
    else:
        from games.sheets import parse_stats

        pairs = [(n, v) for n, v in parse_stats(str(value or ""))]
    skills: dict[str, int] = {}
    seen: dict[str, str] = {}
    for name, rating in pairs:
        # A skill keeps the name the GM typed ("Driving" stays "Driving"; issue 13, bug 8):
        # only spaces are tidied. Names are told apart without case, so "driving" and
        # "Driving" are one skill, and none may pass for one of the sheet's own stats.
        key = " ".join(str(name).split())
        folded = key.casefold().replace(" ", "_").replace("-", "_")
        if not key:
            raise SheetError("skills", "A skill needs a name.")
        if folded in STAT_NAMES:
            raise SheetError("skills", f"{key} is one of the sheet's own stats, not another skill.")
        if folded in seen:
            raise SheetError("skills", f"{seen[folded]} and {key} are the same skill.")
        seen[folded] = key
        skills[key] = _int("skills", rating) or 0
    return skills


def clean_sheet(data: Mapping[str, Any]) -> dict[str, Any]:
    """A submitted sheet as the engine will read it; ``SheetError`` names the field at fault."""
    sheet: dict[str, Any] = {}
    for spec in FIELDS:
        value = data.get(spec.key, spec.default)
        if spec.key == XP:
            sheet[XP] = clean_xp(value)
        elif spec.kind == "bool":
            sheet[spec.key] = value in (True, "1", "on", "true", "True")
        elif spec.kind == "int":
            blank = None if spec.key == "current_toughness" else int(spec.default or 0)
            sheet[spec.key] = _int(spec.key, value, blank=blank)
        elif spec.kind == "skills":
            sheet[spec.key] = parse_skills(value)
        else:
            sheet[spec.key] = str(value or "").strip()[: spec.max_length]
    try:
        Combatant.from_dict({"id": "sheet", **sheet})
    except RuleError as exc:
        raise SheetError(_field_of(str(exc)), str(exc)) from None
    return sheet


def _field_of(message: str) -> str:
    """The field a refusal names: the one it begins with ("Firearms must be 0-9 ..."), else the
    first it names."""
    lowered = message.lower()
    for spec in FIELDS:
        if lowered.startswith(spec.label.lower()):
            return spec.key
    for spec in FIELDS:
        if spec.label.lower() in lowered or spec.key in lowered:
            return spec.key
    return "__all__"


def read(sheet: Mapping[str, Any]) -> Combatant | None:
    """The sheet as the rules read it; None for one they refuse (its card and page then show
    nothing of it rather than fail)."""
    try:
        return Combatant.from_dict({"id": "sheet", **sheet})
    except RuleError:
        return None


def derived(sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
    if read(sheet) is None:
        return []
    values = derived_values(sheet)
    return [
        ("Damage dice against it", str(values["damage_dice"])),
        ("Out of the fight at", str(values["out_of_fight_at"])),
    ]


def glance(sheet: Mapping[str, Any]) -> Glance:
    """The character card: the stats a fight turns on, unspent experience once it has any,
    Toughness now of base, and its harm."""
    person = read(sheet)
    if person is None:
        return Glance()
    stats = [(stat_label("agility"), str(person.agility))]
    stats += [(stat_label(n), str(person.stat(n))) for n in ("hand_to_hand", "firearms", "exotic_weapons")
              if person.stat(n)]
    stats += [(name, str(rating)) for name, rating in person.skills.items() if rating]
    if person.armour:
        stats.append((stat_label("armour"), str(person.armour)))
    xp = clean_xp(sheet.get(XP), stored=True)
    if xp:  # unspent experience, once the GM has awarded any (growth.py)
        stats.append(("Experience", str(xp)))
    # dimmed while out of the fight or hurt past -1; the tag says which: "out of the fight" ends
    # with the fight for the living, who keep their Injury result until it heals
    out = person.out_of_fight or person.current_toughness <= -1
    dead = bool(sheet.get("dead"))  # written back from a dead row of the Injury table (writeback.py)
    tags = [t for t, on in (("Dead", dead), ("Injured", person.injured and not dead),
                            ("Supernatural", person.supernatural),
                            ("Out of the fight", not dead and (person.out_of_fight or (out and not person.injury))),
                            (f"Injury: {person.injury}", bool(person.injury) and not person.out_of_fight and not dead))
            if on]
    return Glance(stats=tuple(stats), tracks=((
        "Toughness", person.current_toughness, person.toughness),), tags=tuple(tags), out=out or dead)


def character_view(character: Character) -> dict[str, Any]:
    """``Panel.character_view``: what the task form offers of a character beside its sheet's
    five stats, the names of its own skills ("Other skills: Exorcism: 6"), which it may roll
    in a task as in an announcement. The platform gives it only to the seats that may see the
    character's sheet, so an NPC's skills reach the GM alone (issue 21). ``key`` changes with
    them, so the task form kept across redraws is drawn afresh when they change."""
    skills = character.sheet.get("skills")
    names = sorted(skills, key=str.casefold) if isinstance(skills, Mapping) else []
    return {"skills": names, "key": f"{zlib.crc32(chr(10).join(names).encode()):08x}"}


# What a new character may start with (Sheet.creation). The rules:
# - "All character stats are ranked from 0-9 (or possibly more, with no maximum, if the
#   supernatural is involved)": whether it is involved is the Host's to say, so a new character
#   ticked Supernatural, or with a stat past 9, is asked of the Host.
# - "Humans generally have a Toughness between 0 (feeble pensioner or newborn baby) and 5
#   (world-class athlete)": a new character's Toughness is at most 5.
# - "Kevlar and other protection raises your Base Toughness for these purposes": Toughness with
#   armour is still a stat, 0 to 9 for a human, so armour is at most 9 less the Toughness.
# - Other skills are "Skills the GM adds" (the sheet's own word): the rules' are Hand-to-Hand,
#   Firearms and Exotic Weapons ("Hand To Hand if they have it", "Firearms or Exotic Weapons if
#   applicable"); any other a new character has is asked of the Host.
# No other limit: the rules give no points to share among the stats, so Agility 9 is a human's.
HUMAN_TOUGHNESS = 5
_OWN_STATS = ("agility", "hand_to_hand", "firearms", "exotic_weapons")


def creation(sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``[(field, why)]``: each figure of a cleaned sheet past what a new character may have."""
    past: list[tuple[str, str]] = []
    if sheet.get("supernatural"):
        past.append(("supernatural", "Supernatural: whether the supernatural is involved is the Host's to say "
                                     "and grant."))
    toughness = int(sheet.get("toughness") or 0)
    if toughness > HUMAN_TOUGHNESS:
        past.append(("toughness", f"Toughness {toughness}: humans run from 0 (feeble) to {HUMAN_TOUGHNESS} "
                                  "(world-class athlete); more is the Host's to grant."))
        toughness = int(next(f.default for f in FIELDS if f.key == "toughness"))
    for key in _OWN_STATS:
        value = int(sheet.get(key) or 0)
        if value > STAT_MAX:
            past.append((key, f"{stat_label(key)} {value}: a new character's stats are 0 to {STAT_MAX}; more only "
                              "if the supernatural is involved, which the Host grants."))
    armour = int(sheet.get("armour") or 0)
    if toughness + armour > STAT_MAX:
        past.append(("armour", f"Armour {armour}: armour raises Base Toughness, at most {STAT_MAX} with it for a "
                               f"new character (Toughness {toughness}, so armour up to {STAT_MAX - toughness})."))
    past += [("skills", f"{name} {rating}: the Host adds a character's other skills.")
             for name, rating in (sheet.get("skills") or {}).items() if rating]
    return past


# the sheet as the registration gives it (games.contract.Sheet)
SHEET = Sheet(FIELDS, clean_sheet, derived, glance, creation=creation)
