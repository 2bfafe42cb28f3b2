"""What a Demon City fight leaves on the characters' sheets, written back as it happens.

Issue 22: the character cards beside the table showed 3/3 Toughness while the round showed
Agnes at -6/3 and out of the fight, until the Host ended Action Rounds. Now each event that
changes what a fight leaves on a sheet (Current Toughness, Injured, Out of the fight) writes
it back at once, so the card, redrawn by the ``character.updated`` event the platform logs,
follows the round for every seat. Only the combatants an event touched are written, and the
platform touches a sheet only where a value differs, so an unhurt character's sheet is never
rewritten and no line says it "now holds" its own whole Toughness. A result on a dead row of the Injury table
("Killed") puts ``dead`` on the sheet, so its card reads "Dead" rather than "out of the fight".

An NPC's sheet is written back too: its Toughness is the harm everyone watches (its card shows
that track to every seat), and the platform keeps the line naming its figures the GM's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# What a fight leaves on the characters' sheets.
LASTING = ("current_toughness", "injured", "out_of_fight", "injury", "dead")
# A correction of one of these by the Host changes what the sheet must hold.
_CORRECTED = frozenset({*LASTING, "toughness", "injured_before"})


def lasting(person: Mapping[str, Any]) -> dict[str, Any]:
    """What the sheet holds of a combatant: Current Toughness blank while whole (the sheet's
    "Empty means equal to Base Toughness"), an injury from before the fight kept though it cost
    no Lost Die, whether it is out of the fight, and the last Injury table result it rolled."""
    whole = person["current_toughness"] == person["toughness"]
    kept = {"current_toughness": None if whole else person["current_toughness"],
            "injured": bool(person["injured"] or person.get("injured_before")),
            "out_of_fight": bool(person["out_of_fight"]), "injury": str(person.get("injury") or "")}
    if person.get("dead"):  # a dead row of the Injury table: the card says so, and nothing heals it
        kept["dead"] = True
    return kept


def _touched(event: Mapping[str, Any]) -> list[str]:
    kind = event.get("type")
    if kind == "damage_rolled":
        return [str(event["target"])]
    if kind == "injury_rolled":
        return [str(event["combatant"])]
    if kind == "action_rounds_ended":  # the fight's damage ends with it (edges.ended)
        return [str(c) for c in (*(event.get("restored") or ()), *(event.get("back") or ()))]
    if kind == "condition_set" and event.get("field") in _CORRECTED:
        return [str(event["combatant"])]
    if kind == "undone":  # the combatants whose sheet values the undo restores (fight.undo_says)
        return [str(c) for c in event.get("restores") or ()]
    return []


def writeback(event: Mapping[str, Any], state: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """``Engine.writeback``: after each event, the sheet fields of the combatants it touched
    (a hit's target, an injury roll's, a Host's correction, what an undo restores, what the
    end of the fight gives back) as the state now holds them. The unhurt are never written.
    A healing (time passed, ``healing``) writes the whole sheet it names, fought or not, and
    the GM's undo of one writes back what the sheets held before it (``sheets``)."""
    people = state.get("combatants") or {}
    if event.get("type") == "injury_healed":
        return {str(event["combatant"]): dict(event["sheet"])}
    wrote = {cid: lasting(people[cid]) for cid in _touched(event) if cid in people}
    if event.get("type") == "undone":
        wrote.update({str(cid): dict(was) for cid, was in (event.get("sheets") or {}).items()})
    return wrote
