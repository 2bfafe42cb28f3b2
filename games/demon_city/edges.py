"""A Demon City fight's edges (games/core/fights.py): its roster of sides and who is out, the
refusals a move against one who is out meets, and what the end of a fight leaves on the sheets.

Seed 003: "At Current Toughness -1 they are out of the fight and roll on the Injury table"; the
decided reading "All systems, fights" makes who is out the system's to say (here: out of the
fight, dead, or gone from the scene: whoever cannot act), keeps the out off every target list,
and calls the fight over when one side has no one able to act. Sides are the combatants' own
``side`` (the sheet's, filled in at the table: ``fight.fighter``); the GM moves one with the
"Correct" form's Side, the one way a side changes.

The decided reading "003, damage belongs to the fight": when a fight ends, Current Toughness
returns to Base for everyone not out of it; "out of the fight" ends with the fight for the
living; who went out keeps the Injury result they rolled (the sheet's Injury).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import fights
from games.core.fights import Fighter
from games.demon_city.state import ANNOUNCE, RESOLVED


def why_out(person: Mapping[str, Any]) -> str:
    """The table's word for why a combatant cannot act, or "" while it can."""
    if person.get("dead"):
        return "dead"
    if person.get("out_of_fight"):
        return "out of the fight"
    if not person.get("present", True):
        return "gone from the scene"
    return ""


def roster(state: Mapping[str, Any], characters: Mapping[str, Any] | None = None) -> list[Fighter]:
    """``Fights.roster``: the fight under way in announcement order (empty between fights). A
    blank side (the GM cleared it) is nobody's but the combatant's own."""
    if state.get("phase") not in (ANNOUNCE, RESOLVED):
        return []
    rows = []
    for cid in state["order"]:
        person = state["combatants"][cid]
        name = str(person.get("name") or cid)
        why = why_out(person)
        rows.append(Fighter(cid=cid, name=name, side=str(person.get("side") or name), out=bool(why), why=why))
    return rows


def refuse_target(state: Mapping[str, Any], cid: str) -> None:
    """An announcement aimed at one who is out is refused: the seed gives no action against the
    downed (its step 8 rolls their injuries by itself), and a hit on them had rolled the Injury
    table again, replacing a final result."""
    fights.refuse_out(roster(state), cid)


def over(state: Mapping[str, Any]) -> bool:
    return fights.winner(roster(state))[0]


def ended(state: Mapping[str, Any]) -> dict[str, list[str]]:
    """What the end of the fight gives back (the decided reading "003, damage belongs to the
    fight"): ``restored``, the combatants still in it whose Current Toughness returns to Base
    (and whose hits of this fight end with it); ``back``, the living who went out, no longer out
    of the fight (their Toughness and Injury result stay until they heal)."""
    restored, back = [], []
    for cid in state["order"]:
        person = state["combatants"][cid]
        if person.get("dead"):
            continue
        if person.get("out_of_fight"):
            back.append(cid)
        elif person["current_toughness"] != person["toughness"] or person.get("injured"):
            restored.append(cid)
    return {"restored": restored, "back": back}
