"""What experience buys at a Shadows of Humanity table, and what it costs (``GROWTH``,
games/core/growth.py).

The seed gives no advancement; the decided reading does: "the GM awards experience at a
session's close, with a reason, logged; what it buys and at what cost are table options with
documented defaults; a purchase is a request the GM approves." The GM's award is the core's
(``Engine.awards``, and the session's close: campaign.py). What it buys is this table's reading
of the sheet, each cost a table option (``OPTIONS``, on the clock; 0 takes a thing off sale):

- an attribute, a point at a time: each point costs its new value times ``attribute_xp``
  (default 2: Body 5 → 6 costs 12), never past 20 (the sheet's most), Quickness never past 16:
  seed, "The normal maximum is 13 AP's (5 + Qu/2) for an extremely quick character";
- a skill, a point at a time, a new one from 0: each point its new value times ``skill_xp``
  (default 1: Melee 8 → 9 costs 9), never past 40 (the sheet's most);
- Health, Life or Æssence (the whole): ``track_xp`` a point (default 2), never past 999;
- armour and protective equipment are gear, found or lost in the story: the GM allows them for
  nothing; vulnerabilities, resistances and immunities are the being's nature ("usually based on
  the type of Eldritch race that they belong to"): not bought; nor is what the rules keep (the
  tracks now, the experience itself). Nothing is lowered by a purchase. Notes cost nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import clock as time
from games.core.growth import AWARDED, XP, Bill, Growth, Price, kept, not_for_sale
from games.shadows.combat import ATTRIBUTE_LABELS, ATTRIBUTES
from games.shadows.sheet import ATTRIBUTE_RANGE, FIELDS, SKILL_RANGE, TRACK_LABELS, TRACK_RANGE, TRACKS, clean_sheet

ATTRIBUTE_XP, SKILL_XP, TRACK_XP = "attribute_xp", "skill_xp", "track_xp"
OPTIONS = (
    time.Option(ATTRIBUTE_XP, "Experience an attribute's point costs, times its new value", 2, 0, 20,
                why="the decided reading leaves the cost to the table: an attribute feeds hands, AP and Defence, "
                    "so by default a point costs twice its new value (Body 5 → 6: 12); 0: not for sale"),
    time.Option(SKILL_XP, "Experience a skill's point costs, times its new value", 1, 0, 20,
                why="by default a point costs its new value (Melee 8 → 9: 9; a new skill at 1: 1); 0: not for sale"),
    time.Option(TRACK_XP, "Experience a point of Health, Life or Æssence costs", 2, 0, 50,
                why="by default 2 a point of the whole; 0: not for sale"),
)
# Seed: "The normal maximum is 13 AP's (5 + Qu/2) for an extremely quick character": Quickness 16.
QUICKNESS_MOST = 16
GEAR = {"armour": "Armour", "protection": "Protective equipment"}
NATURE = {"vulnerabilities": "Vulnerabilities", "resistances": "Resistances", "immunities": "Immunities"}


def _cost(state: Mapping[str, Any], key: str) -> int:
    return time.option_value(state, next(o for o in OPTIONS if o.key == key))


def _skill_label(key: str) -> str:
    return f"The skill {key.replace('_', ' ').capitalize()}"


def price(before: Mapping[str, Any], after: Mapping[str, Any], state: Mapping[str, Any]) -> Price:
    """What the sheet ``after`` costs from ``before``, at the table's costs; ``SheetError``
    naming what no purchase makes (see the module's reading)."""
    was, now = clean_sheet(before, stored=True), clean_sheet(after)
    kept(FIELDS, was, now)
    bill = Bill("XP")
    for key in ATTRIBUTES:
        most = QUICKNESS_MOST if key == "quickness" else ATTRIBUTE_RANGE[1]
        why = "the rules' normal maximum: 13 AP" if key == "quickness" else "the sheet's most"
        bill.rise(key, ATTRIBUTE_LABELS[key], was[key], now[key], lambda v: v * _cost(state, ATTRIBUTE_XP), most, why)
    for name in sorted(set(was["skills"]) | set(now["skills"])):
        bill.rise("skills", _skill_label(name), was["skills"].get(name, 0), now["skills"].get(name, 0),
                  lambda v: v * _cost(state, SKILL_XP), SKILL_RANGE[1], "the sheet's most")
    for key in TRACKS:
        bill.rise(key, TRACK_LABELS[key], was[key], now[key], lambda v: _cost(state, TRACK_XP), TRACK_RANGE[1])
    for key, label in GEAR.items():
        if was[key] != now[key]:
            bill.gear(label, was[key], now[key])
    for key, label in NATURE.items():
        if was[key] != now[key]:
            raise not_for_sale(key, label, "it is the being's nature, the GM's to change")
    return bill.price()


# growth events: the GM's award (games/core/growth.py)
GROWTH = Growth(pool=XP, unit="XP", price=price, kinds=(AWARDED,))
