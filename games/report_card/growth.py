"""What experience buys on a Report Card, and what it costs (``GROWTH``, games/core/growth.py).

The seed gives no advancement but its rechoose: "When all three of the Corruption Circles are
filled, you may gain a new Skill, and fail a new skill" (choices.py: it stays, free, on the
panel). The decided reading adds: "the GM awards experience at a session's close, with a reason,
logged; what it buys and at what cost are table options with documented defaults; a purchase is
a request the GM approves. Report Card keeps its rechoose after three Corruption Points." The
GM's award is the core's (``Engine.awards``, and the session's close: campaign.py).

A Report Card grades its Skills: the one marked A+, the one marked F, the rest between. What
experience buys is a grade up a step, as the seed's rechoose moves them, and an Ability, each
cost a table option (``OPTIONS``, on the clock; 0 takes a thing off sale):

- a new A+ (another Skill a step up to A+, the old A+ back among the rest): ``a_plus_xp``
  (default 5); it needs one of its Abilities, as the seed says ("They can only choose a Skill if
  they have at least one of the associated Abilities");
- a new F (the failed Skill a step up, passed at last, and another failed in its place, as a
  player "must fail 1 skill"): ``f_xp`` (default 5). The F Skill made A+ is two steps: both paid;
- a new Ability: ``ability_xp`` (default 10); it widens which Skills may be the A+.

Never bought: an Ability given up, one's own Major Arcana ("chosen" once), and what the rules
keep (the Corruption Circles, the experience itself).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import clock as time
from games.core.growth import AWARDED, XP, Bill, Growth, Price, kept, not_for_sale
from games.report_card.sheet import FIELDS, clean_sheet
from games.report_card.skills import ABILITIES
from games.sheets import SheetError

A_PLUS_XP, F_XP, ABILITY_XP = "a_plus_xp", "f_xp", "ability_xp"
OPTIONS = (
    time.Option(A_PLUS_XP, "Experience a new A+ skill costs", 5, 0, 50,
                why="the decided reading leaves the cost to the table: 5 by default; free on the panel once all "
                    "three Corruption Circles are filled (the rules' rechoose); 0: not for sale"),
    time.Option(F_XP, "Experience a new F skill costs (the old F passed)", 5, 0, 50,
                why="5 by default; 0: not for sale"),
    time.Option(ABILITY_XP, "Experience a new Ability costs", 10, 0, 50,
                why="10 by default: an Ability widens which Skills may be the A+; 0: not for sale"),
)


def _cost(state: Mapping[str, Any], key: str) -> int:
    return time.option_value(state, next(o for o in OPTIONS if o.key == key))


def price(before: Mapping[str, Any], after: Mapping[str, Any], state: Mapping[str, Any]) -> Price:
    """What the Report Card ``after`` costs from ``before``, at the table's costs; ``SheetError``
    naming what no purchase makes (see the module's reading)."""
    was, now = clean_sheet(before), clean_sheet(after)  # a new A+ needs one of its Abilities
    kept(FIELDS, was, now)
    if was["major"] != now["major"]:
        raise not_for_sale("major", "Your own Major Arcana", "it is chosen once, when the character is made")
    bill = Bill("XP")
    for ability in ABILITIES:
        name = ability.capitalize()
        if was[ability] and not now[ability]:
            raise SheetError(ability, f"{name} is not given up: a purchase never takes an Ability away.")
        if now[ability] and not was[ability]:
            bill.buy(ability, f"A new Ability, {name}", _cost(state, ABILITY_XP))
    if was["a_plus"] != now["a_plus"]:
        bill.buy("a_plus", f"A+ {was['a_plus']} → {now['a_plus']}", _cost(state, A_PLUS_XP))
    if was["f_skill"] != now["f_skill"]:
        bill.buy("f_skill", f"F {was['f_skill']} → {now['f_skill']}", _cost(state, F_XP))
    return bill.price()


# growth events: the GM's award (games/core/growth.py) and the seed's rechoose (choices.py)
GROWTH = Growth(pool=XP, unit="XP", price=price, kinds=(AWARDED, "skills_rechosen"))
