"""What experience buys at a Demon City table, and what it costs (``GROWTH``, games/core/growth.py).

The seed gives no advancement; the decided reading does: "the GM awards experience at a
session's close, with a reason, logged; what it buys and at what cost are table options with
documented defaults; a purchase is a request the GM approves." The Host's award is the core's
(``Engine.awards``, and the session's close: healing.py). What it buys is this table's reading of
the sheet, each cost a table option (``OPTIONS``, on the clock; 0 takes a thing off sale):

- Agility or Base Toughness, a point at a time: each point its new value times ``stat_xp``
  (default 2: Agility 3 → 4 costs 8); every Clash turns on them;
- a skill (Hand-to-Hand, Firearms, Exotic Weapons, or another the Host has added), a point at a
  time, a new one from 0: each point its new rank times ``skill_xp`` (default 1: Firearms 4 → 5
  costs 5);
- never past 9 but for the supernatural: seed, "All character stats are ranked from 0-9 (or
  possibly more, with no maximum, if the supernatural is involved)";
- armour is gear ("Kevlar and other protection"), found or lost in the story: the Host allows it
  for nothing; whether the entity is supernatural and its side are the Host's, not bought; nor is
  what the rules keep (Current Toughness, injuries, the experience itself). Nothing is lowered by
  a purchase.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import clock as time
from games.core.growth import AWARDED, XP, Bill, Growth, Price, kept, not_for_sale
from games.demon_city.combatant import STAT_MAX, STAT_NAMES, stat_label
from games.demon_city.sheet import FIELDS, clean_sheet

STAT_XP, SKILL_XP = "stat_xp", "skill_xp"
OPTIONS = (
    time.Option(STAT_XP, "Experience a point of Agility or Toughness costs, times its new value", 2, 0, 20,
                why="the decided reading leaves the cost to the table: every Clash turns on Agility and "
                    "Toughness, so by default a point costs twice its new value (Agility 3 → 4: 8); 0: not for sale"),
    time.Option(SKILL_XP, "Experience a skill's point costs, times its new rank", 1, 0, 20,
                why="by default a point costs its new rank (Firearms 4 → 5: 5; a new skill at 1: 1); 0: not for sale"),
)
STATS = ("agility", "toughness")
SKILLS = tuple(s for s in STAT_NAMES if s not in STATS)
WHY_MOST = "the rules: \"ranked from 0-9 (or possibly more, with no maximum, if the supernatural is involved)\""


def _cost(state: Mapping[str, Any], key: str) -> int:
    return time.option_value(state, next(o for o in OPTIONS if o.key == key))


def _skills(sheet: Mapping[str, Any]) -> dict[str, tuple[str, int]]:
    """The Host's added skills by their name told apart without case: (name as typed, rank)."""
    return {name.casefold(): (name, int(rank)) for name, rank in (sheet.get("skills") or {}).items()}


def price(before: Mapping[str, Any], after: Mapping[str, Any], state: Mapping[str, Any]) -> Price:
    """What the sheet ``after`` costs from ``before``, at the table's costs; ``SheetError``
    naming what no purchase makes (see the module's reading)."""
    was, now = clean_sheet(before), clean_sheet(after)
    kept(FIELDS, was, now)
    for key, why in (("supernatural", "whether the entity is supernatural is the Host's"),
                     ("side", "the side it fights on is the Host's")):
        if was[key] != now[key]:
            raise not_for_sale(key, stat_label(key), why)
    most = None if now["supernatural"] else STAT_MAX
    bill = Bill("XP")
    for key in STAT_NAMES:
        cost = STAT_XP if key in STATS else SKILL_XP
        bill.rise(key, stat_label(key), was[key], now[key], lambda v, c=cost: v * _cost(state, c), most, WHY_MOST)
    had, has = _skills(was), _skills(now)
    for folded in sorted(set(had) | set(has)):
        name = (has.get(folded) or had[folded])[0]
        bill.rise("skills", name, had.get(folded, (name, 0))[1], has.get(folded, (name, 0))[1],
                  lambda v: v * _cost(state, SKILL_XP), most, WHY_MOST)
    if was["armour"] != now["armour"]:
        bill.gear(stat_label("armour"), was["armour"], now["armour"])
    return bill.price()


# growth events: the Host's award (games/core/growth.py)
GROWTH = Growth(pool=XP, unit="XP", price=price, kinds=(AWARDED,))
