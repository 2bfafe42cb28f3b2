"""Demon City's clock (games/core/clock.py): what a scene, a night and a week do to the
characters, and what its rules read of lasting conditions.

The decided reading "003, damage belongs to the fight": "when a fight ends, Current Toughness
returns to Base for everyone not out of it; "out of the fight" ends with the fight for the
living. Who went out keeps the Injury result they rolled until it heals: each row of the Injury
table (the GM's to edit) says how long it takes to heal (a scene, a night, a week, never); the
Lost Die for Injury lasts while an injury does." The fight's end is ``fight.end``; the healing
is here: when time passes, every kept Injury result whose row heals within that span heals (a
scene heals "a scene" rows, a night "a scene" and "a night" rows, a week all but "never"), and
with it the Lost Die for Injury ends and Current Toughness returns to Base. The dead never heal.

A round is "about 6 seconds of activity" (seed 003): no scene, night or week passes inside one,
so the GM's clock is refused while Action Rounds are under way.

Conditions: the one effect the rules read is ``lost_die``, a Miscellaneous Lost Die ("Other
external difficulties in the situation not otherwise accounted for ... can be accounted for by
Miscellaneous Lost Dice", at most two, never below one die) on every roll of the one it is on,
in a fight's pools and in a task (``pools.condition_lost``). Grabbed is no condition of the
clock's: the seed's grab is the fight's own (it is held by its grabber and ends with them), and
an injury is the Injury table's.

Growth, the decided reading: "the GM awards experience at a session's close, with a reason,
logged" (the close form's awards, ``growth.with_awards``, and the Host's move ``award`` any time);
what it buys and at what cost: growth.py, its costs the clock's table options.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import with_gm_part
from games.core import clock as time
from games.core import growth
from games.core.engine import Turn
from games.demon_city.errors import NotNow
from games.demon_city.growth import OPTIONS as GROWTH_OPTIONS
from games.demon_city.injury import DEFAULT_INJURY_TABLE, HEALED_BY, HEALS, heals_of, row_of
from games.demon_city.pools import LOST_DIE
from games.demon_city.state import ANNOUNCE, RESOLVED

HEALED = "injury_healed"
# What a healed character's sheet holds: whole (Current Toughness blank means Base), no injury.
WHOLE = {"current_toughness": None, "injured": False, "out_of_fight": False, "injury": ""}
_KEPT = tuple(WHOLE)

IN_FIGHT = ("Time does not pass during Action Rounds: a round is \"about 6 seconds of activity\". "
            "End the fight first, then move the clock on.")


def in_fight(state: Mapping[str, Any]) -> bool:
    return state.get("phase") in (ANNOUNCE, RESOLVED)


def round_now(state: Mapping[str, Any]) -> int:
    """``Clock.round``: the round of the fight under way, 0 between fights (the state keeps the
    last fight's round number after it ends)."""
    return int(state.get("round") or 0) if in_fight(state) else 0


def _was(sheet: Mapping[str, Any]) -> dict[str, Any]:
    """What a sheet holds of the fight's harm, as the write-back writes it."""
    now = sheet.get("current_toughness")
    return {"current_toughness": now if isinstance(now, int) and not isinstance(now, bool) else None,
            "injured": bool(sheet.get("injured")), "out_of_fight": bool(sheet.get("out_of_fight")),
            "injury": str(sheet.get("injury") or "")}


def heals(state: Mapping[str, Any], span: str, turn: Turn) -> list[dict[str, Any]]:
    """The kept Injury results ``span`` heals, one event each, in the table's order of characters.
    A character out of the fight outside one (the dead: "out of the fight" ends with the fight
    for the living) or on a dead row does not heal."""
    table = state.get("injury_table") or DEFAULT_INJURY_TABLE
    healed_by = HEALED_BY.get(span, frozenset())
    fought = state.get("combatants") or {}
    made = []
    for cid in sorted(turn.characters, key=lambda c: (len(c), c)):
        character = turn.characters[cid]
        sheet = character.sheet or {}
        result = str(sheet.get("injury") or "").strip()
        if not result or sheet.get("out_of_fight") or (fought.get(cid) or {}).get("dead"):
            continue
        row = row_of(table, result)
        lasts = heals_of(table, result)
        if (row is not None and row.get("dead")) or lasts not in healed_by:
            continue
        event: dict[str, Any] = {"type": HEALED, "combatant": cid, "who": character.name, "injury": result,
                                 "heals": lasts, "span": span, "sheet": dict(WHOLE), "was": _was(sheet)}
        if character.is_npc:
            # an NPC's sheet is the GM's: everyone watches its Toughness come back, the GM reads why
            event = with_gm_part(event, ("injury", "heals", "was"), healed_line(event))
        made.append(event)
    return made


def passes(state: Mapping[str, Any], span: str, turn: Turn) -> list[dict[str, Any]]:
    """``Clock.passes``: refused during a fight; else the injuries the span heals."""
    if in_fight(state):
        raise NotNow(IN_FIGHT)
    return heals(state, span, turn)


def healed_line(event: Mapping[str, Any]) -> str:
    """The log line of a healing; without its injury (an NPC's, for the table) it says only what
    everyone watches: Toughness back to Base."""
    who = event.get("who") or "Someone"
    if not event.get("injury"):
        return f"{who} heals: Current Toughness back to Base."
    return (f"{who} heals: {event['injury']} is over (it heals after {HEALS.get(str(event.get('heals')), 'a while')}). "
            "Current Toughness back to Base; no more Lost Die for Injury.")


SAYS = {
    time.SCENE: "Injury results that heal after a scene heal (Knocked out, by default): Current Toughness "
                "back to Base, the Lost Die for Injury ends.",
    time.NIGHT: "Injury results that heal after a scene or a night heal (Knocked out, Battered, by default).",
    time.WEEK: "Every Injury result heals but those that never do (Broken too, by default); the dead do not.",
}
EFFECTS = {LOST_DIE: "a Miscellaneous Lost Die on every roll (amount: how many; with the Host's, at most "
                     "two, never below one die)"}

# the decided reading: "the GM awards experience at a session's close, with a reason, logged"
# (growth.with_awards: the close form's awards); what it buys, at the table's costs: growth.py
CLOCK = growth.with_awards(time.Clock(passes=passes, says=SAYS, effects=EFFECTS, round=round_now,
                                      options=GROWTH_OPTIONS))
