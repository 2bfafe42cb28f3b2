"""The Report Card: the sheet as the platform's form fields, what the seed forbids on it, and
the character card at a glance.

Stored sheet: the six Abilities as booleans, ``a_plus`` and ``f_skill`` (skill keys such as
"SCI"), ``corruption`` (0-3 circles filled), ``major`` (the character's own Major Arcana,
0 The Fool to 21 The World) and ``xp`` (the experience the GM awards, unspent: growth.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Glance, Sheet
from games.core.engine import RuleError
from games.core.growth import XP, clean_xp, xp_field
from games.core.tarot import MAJOR_ARCANA, major_arcanum
from games.report_card.errors import BadInput
from games.report_card.skills import ABILITIES, SKILL, SKILLS
from games.sheets import SheetError, SheetField

CIRCLES = 3  # seed: "When all three of the Corruption Circles are filled"
_SKILL_LIST = ", ".join(f"{s.key} ({' / '.join(a.capitalize() for a in s.abilities)})" for s in SKILLS)

# Who sets what (SheetField.rules; the platform enforces it): the player, when making the
# character, chooses the Abilities, the A+ and F skills and their own Major Arcana ("chosen");
# after that only the rules change the skills (a new A+ and F once all three Corruption Circles
# are filled, on the panel) and the GM, by hand, changes any of them. The seed gives no way to
# gain an Ability later, and "They can only choose a Skill if they have at least one of the
# associated Abilities": Abilities a player could tick later would let any A+ pass, now or at
# the next choice. A player's edit of any of them is refused with the field named (the GM's
# is logged with the old and the new value), and the player's sheet form shows them read-only.
# The circles themselves are the rules' ("kept"): each retry fills one, and choosing the new
# skills empties them. A GM's edit that leaves the A+ without one of its Abilities is refused
# (``check_skills``).
_CHOSEN = "Chosen when the character is made"
_NEW = f"{_CHOSEN}; a new one when all three Corruption Circles are filled (on the Report Card panel)."
_ABILITY = (f"An Ability the character has: an A+ skill needs one of its Abilities. {_CHOSEN}; after that "
            "only the GM changes it.")
FIELDS: tuple[SheetField, ...] = (
    *(SheetField(a, a.capitalize(), "bool", False, rules="chosen", help=_ABILITY) for a in ABILITIES),
    SheetField("a_plus", "A+ skill", "text", "", max_length=10, rules="chosen",
               help=f"The one Skill marked A+: checks with it are one rank easier. It needs one of its Abilities: "
                    f"{_SKILL_LIST}. {_NEW}"),
    SheetField("f_skill", "F skill", "text", "", max_length=10, rules="chosen",
               help=f"The one Skill marked F (any Skill but the A+): checks with it are Unlikely. {_NEW}"),
    SheetField("corruption", "Skill Corruption", "int", 0, rules="kept",
               help="Corruption Circles filled, 0 to 3: each retry of a failed check fills one. With all three "
                    "filled, a new A+ and F are chosen on the Report Card panel, and the circles empty."),
    SheetField("major", "Your Major Arcana", "text", "", max_length=30, rules="chosen",
               help="Your own card, 0 The Fool to 21 The World, by number or name: it is always a Critical "
                    f"Success for you. {_CHOSEN}."),
    # the decided reading: "the GM awards experience at a session's close, with a reason, logged"
    # (games/core/growth.py); what it buys (a new A+, a new F, an Ability), and at what cost, is growth.py's
    xp_field(),
)

_TRUE = (True, 1, "1", "on", "true", "True", "yes")


def _skill(field: str, value: Any, what: str) -> str:
    text = str(value or "").strip().upper()
    if not text:
        raise SheetError(field, f"Choose your {what} skill: {', '.join(SKILL)}.")
    if any(sep in text for sep in ",;/ ") and text not in SKILL:
        raise SheetError(field, f"Only one {what} skill: a player marks exactly one.")
    if text not in SKILL:
        raise SheetError(field, f"{text[:10]!r} is not a skill: choose one of {', '.join(SKILL)}.")
    return text


def check_skills(abilities: Mapping[str, bool], a_plus: str, f_skill: str) -> None:
    """Seed: "They can only choose a Skill if they have at least one of the associated
    Abilities", and one Skill cannot be both the chosen (A+) and the failed (F) one.
    Raises ``SheetError`` naming the field."""
    skill = SKILL[a_plus]
    if not any(abilities.get(a) for a in skill.abilities):
        first, second = (a.capitalize() for a in skill.abilities)
        # said so that it reads right whichever was changed: the A+ (making the character, or a
        # new one after three circles) or an Ability the A+ needs (the GM's edit)
        raise SheetError("a_plus", f"{a_plus} needs a character who is {first} or {second}: an A+ skill "
                                   "needs one of its Abilities.")
    if f_skill == a_plus:
        raise SheetError("f_skill", f"{a_plus} cannot be both your A+ and your F skill.")


def clean_sheet(data: Mapping[str, Any]) -> dict[str, Any]:
    """A submitted Report Card as the engine reads it; ``SheetError`` names the field at fault.

    Reading: every sheet is a full Report Card, an NPC's too (the platform's form does not say
    which it is), since "A player must choose 1 Skill" and "must fail 1 skill"."""
    sheet: dict[str, Any] = {a: data.get(a, False) in _TRUE for a in ABILITIES}
    sheet["a_plus"] = _skill("a_plus", data.get("a_plus"), "A+")
    sheet["f_skill"] = _skill("f_skill", data.get("f_skill"), "F")
    check_skills(sheet, sheet["a_plus"], sheet["f_skill"])
    raw = data.get("corruption")
    try:
        corruption = 0 if raw in (None, "") else int(raw)
    except (TypeError, ValueError):
        raise SheetError("corruption", "Skill Corruption is a number of circles, 0 to 3.") from None
    if isinstance(raw, bool) or not 0 <= corruption <= CIRCLES:
        raise SheetError("corruption", "Skill Corruption has three circles: 0 to 3 of them filled.")
    sheet["corruption"] = corruption
    try:
        sheet["major"] = major_number(data.get("major"))
    except BadInput as exc:
        raise SheetError("major", exc.message) from None
    if sheet["major"] is None:
        raise SheetError("major", "Choose your own Major Arcana card, 0 (The Fool) to 21 (The World).")
    sheet[XP] = clean_xp(data.get(XP))
    return sheet


def read(sheet: Mapping[str, Any], name: str = "This character") -> dict[str, Any]:
    """A stored sheet checked again for a check (it may predate a rule, or be hand-edited):
    the cleaned sheet, or ``RuleError`` saying what to fix."""
    try:
        return clean_sheet(sheet)
    except SheetError as exc:
        raise RuleError(f"{name}'s Report Card needs fixing first: {exc.message}") from None


_ROMAN = {c: n for n, c in enumerate(
    ("0", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII",
     "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI"))}


def major_number(value: object) -> int | None:
    """One's own card (the sheet's ``major``): a Major Arcana number 0-21 from a number, a
    numeral, a name or a card id; None if ``value`` is blank; ``BadInput`` if it names no Major
    Arcana."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        number: int | None = value
    else:
        text = str(value).strip()
        if not text:
            return None
        lowered = text.lower().removeprefix("tarot:major:")
        bare = lowered.removeprefix("the ").strip()
        number = None
        if bare.isdigit():
            number = int(bare)
        elif text.upper() in _ROMAN:
            number = _ROMAN[text.upper()]
        else:
            for trump in MAJOR_ARCANA:
                if trump.name.lower().removeprefix("the ") == bare:
                    number = trump.number
    if number is None or not 0 <= number <= 21:
        raise BadInput(f"{str(value)[:30]!r} is not a Major Arcana card: give 0 (The Fool) to 21 "
                       "(The World), by number or name.")
    return number


def major_label(number: int | None) -> str:
    return "" if number is None else f"{major_arcanum(number).name} ({number})"


def derived(sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
    """What the character card shows but nobody types, beside its glance (``glance``:
    the A+ and F skills, the own card, the Abilities, the circles): what the two skills cover,
    and a reminder once all three circles are filled."""
    try:
        clean = clean_sheet(sheet)
    except SheetError:
        return []
    shown = [(f"A+ {clean['a_plus']}", SKILL[clean["a_plus"]].covers),
             (f"F {clean['f_skill']}", SKILL[clean["f_skill"]].covers)]
    if clean["corruption"] == CIRCLES:
        shown.append(("Corruption", "all three circles filled: choose a new A+ and a new F"))
    return shown


def glance(sheet: Mapping[str, Any]) -> Glance:
    """The character card: the Abilities, the A+ and F skills, one's own Major Arcana, unspent
    experience once it has any, the Corruption circles as a track, and a tag once all three are
    filled."""
    try:
        clean = clean_sheet(sheet)
    except SheetError:
        return Glance()
    filled = clean["corruption"]
    stats = (("A+", clean["a_plus"]), ("F", clean["f_skill"]),
             ("Own card", major_label(clean["major"])),
             ("Abilities", ", ".join(a.capitalize() for a in ABILITIES if clean[a]) or "none"),
             # unspent experience, once the GM has awarded any (growth.py)
             *((("Experience", str(clean[XP])),) if clean[XP] else ()))
    tags = ("New A+ and F due",) if filled >= CIRCLES else ()
    return Glance(stats=stats, tracks=(("Corruption", filled, CIRCLES),), tags=tags)


def creation(sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
    """What a new character may not start with (Sheet.creation): nothing to ask of the GM. Every
    field is one the rules read, and none is "read" (a player's to change, by request, in play):
    the Abilities, the A+ and F skills and one's own card are chosen when the character is made
    and then only the rules and the GM change them ("chosen"), the circles are the rules'
    ("kept"). What the rules allow at creation ("A player must choose 1 Skill", "A player must
    fail 1 skill", "They can only choose a Skill if they have at least one of the associated
    Abilities") ``clean_sheet`` refuses outright: a Report Card past it is no Report Card, not
    one to ask about. The rules set no number of Abilities and let any Major Arcana be one's own
    ("The player's own Major Arcana card always triggers a Critical Success"), so no limit is
    made up for either."""
    return []


# the sheet as the registration gives it (games.contract.Sheet)
SHEET = Sheet(FIELDS, clean_sheet, derived, glance, creation=creation)
