"""What Experiences buy at a Harsh Light table, and what they cost (``GROWTH``,
games/core/growth.py).

The decided reading: "Beats as the World of Darkness games count them (a Dramatic Failure, a
session's end, a Storyteller's award); five Beats make an Experience; Experiences buy dots
(Attribute 4 a dot, Skill 2, Specialty 1: table options)." Beats and Experiences are
campaign.py's; the spending is here, each cost a table option (``OPTIONS``, on the clock; 0 takes
a thing off sale), a purchase a request the Storyteller approves:

- an Attribute dot: ``attribute_experiences`` (default 4), a dot at a time (two dots cost 8);
- a Skill dot: ``skill_experiences`` (default 2), a new Skill from no dots the same;
- a Specialty: ``specialty_experiences`` (default 1), in a Skill the character has dots in (the
  World of Darkness's; the sheet's "Specialties");
- never past 5 dots, the World of Darkness's most for a mortal, but for a vampire whose Blood
  Potency is higher: its Blood Potency (Vampire: The Requiem lifts the most with it);
- a weapon is gear, found or lost in the story: the Storyteller allows it for nothing; Blood
  Potency, Size, being a vampire, the again, and an override of Defence, Speed or Willpower (which
  follow the traits) are the Storyteller's, not bought; nor is what the rules keep (wounds,
  Willpower spent, Beats, Experiences). Nothing is lowered, no Specialty given up, by a purchase.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import clock as time
from games.core.growth import Bill, Growth, Price, kept, not_for_sale
from games.harsh_light.sheet import ATTRIBUTES, FIELDS, SKILLS, clean_sheet, parse_specialties, skill, trait_label
from games.sheets import SheetError

ATTRIBUTE_EXPERIENCES, SKILL_EXPERIENCES, SPECIALTY_EXPERIENCES = (
    "attribute_experiences", "skill_experiences", "specialty_experiences")
OPTIONS = (
    time.Option(ATTRIBUTE_EXPERIENCES, "Experiences an Attribute dot costs", 4, 0, 20,
                why="the decided reading: \"Attribute 4 a dot\"; 0: not for sale"),
    time.Option(SKILL_EXPERIENCES, "Experiences a Skill dot costs", 2, 0, 20,
                why="the decided reading: \"Skill 2\"; 0: not for sale"),
    time.Option(SPECIALTY_EXPERIENCES, "Experiences a Specialty costs", 1, 0, 20,
                why="the decided reading: \"Specialty 1\"; 0: not for sale"),
)
MORTAL_MOST = 5  # the World of Darkness: five dots at most for a mortal
GEAR = {"weapon": "Weapon", "weapon_damage": "Weapon damage"}
STORYTELLERS = {
    "blood_potency": "the Storyteller's", "size": "the Storyteller's", "vampire": "the Storyteller's",
    "again": "a power's or equipment's, the Storyteller's",
    "willpower": "it follows Resolve and Composure; an override is the Storyteller's",
    "defence": "it follows Wits and Dexterity; an override is the Storyteller's",
    "speed": "it follows Strength and Dexterity; an override is the Storyteller's",
}


def _cost(state: Mapping[str, Any], key: str) -> int:
    return time.option_value(state, next(o for o in OPTIONS if o.key == key))


def _cleaned(sheet: Mapping[str, Any]) -> dict[str, Any]:
    return clean_sheet({k: v for k, v in sheet.items() if k in {f.key for f in FIELDS}})


def most(sheet: Mapping[str, Any]) -> tuple[int, str]:
    """The most dots a trait may be bought to, and why."""
    potency = int(sheet.get("blood_potency") or 0)
    if potency > MORTAL_MOST:
        return potency, f"Blood Potency {potency}'s most"
    return MORTAL_MOST, "the World of Darkness's most for a mortal"


def price(before: Mapping[str, Any], after: Mapping[str, Any], state: Mapping[str, Any]) -> Price:
    """What the sheet ``after`` costs from ``before`` in Experiences, at the table's costs;
    ``SheetError`` naming what no purchase makes (see the module's reading)."""
    was, now = _cleaned(before), _cleaned(after)
    kept(FIELDS, was, now)
    for key, why in STORYTELLERS.items():
        if was[key] != now[key]:
            raise not_for_sale(key, trait_label(key), why)
    top, why_top = most(was)
    bill = Bill("Experiences")
    for key in ATTRIBUTES:
        bill.rise(key, trait_label(key), was[key], now[key], lambda v: _cost(state, ATTRIBUTE_EXPERIENCES), top, why_top)
    for key in SKILLS:
        bill.rise("skills", trait_label(key), skill(was, key), skill(now, key), lambda v: _cost(state, SKILL_EXPERIENCES),
                  top, why_top)
    had = {(s, c.casefold()) for s, c in parse_specialties(was["specialties"])}
    has = parse_specialties(now["specialties"])
    gone = [f"{s}: {c}" for s, c in parse_specialties(was["specialties"]) if (s, c.casefold()) not in
            {(s2, c2.casefold()) for s2, c2 in has}]
    if gone:
        raise SheetError("specialties", f"{gone[0]}: a purchase never gives up a Specialty.")
    for name, called in has:
        if (name, called.casefold()) in had:
            continue
        if not now["skills"].get(name):
            raise SheetError("specialties", f"{name}: {called}: a Specialty needs a dot in its Skill.")
        bill.buy("specialties", f"A Specialty, {name}: {called}", _cost(state, SPECIALTY_EXPERIENCES))
    for key, label in GEAR.items():
        if was[key] != now[key]:
            bill.gear(label, was[key], now[key])
    return bill.price()


# growth events: Beats, which make Experiences (campaign.py)
GROWTH = Growth(pool="experiences", unit="Experiences", price=price, kinds=("beats_gained",))
