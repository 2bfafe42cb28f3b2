"""The Resolution Point (seed 001): "After all Combat Rolls have been made for the Round,
the Resolution Point occurs." Computed here from the state, in the seed's order, into
plain rows an event carries; its fold (``events.FOLDS``) only copies the results in.

Seed's order: "Damage results tally first" / "Fatigue Reduction for all Combat Actions
tallies next" / "Consequences from Contested or Uncontested Non-combat Actions resolve ...
The primary Consequence of untended wounds is the continued loss of Fatigue Points every
Turn after the first" / "RESULTS from Contested Failures (CFs) or Critical Wounds (CWs)
resolve" (none are modelled: the Director corrects a track for them). Then who is Downed
or Unconscious, and the recovery of those who "DID NO Combat ACTION".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.passages import tracks
from games.passages.recovery import tended_points
from games.passages.state import IN, in_scene


def resolution_rows(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    combat = state["combat"]
    declared = combat["declared"]
    damage: dict[str, int] = {}
    fail_ticks: dict[str, int] = {}
    for pairing in combat["pairings"]:
        for wound in pairing["wounds"]:
            damage[wound["to"]] = damage.get(wound["to"], 0) + wound["damage"]["dealt"]
        for cid, n in pairing["fail_ticks"].items():
            fail_ticks[cid] = fail_ticks.get(cid, 0) + n
    # each tending tends, by its band, the patient's untended points from earlier Turns
    tended: dict[str, int] = {}
    for tendering in (combat.get("tendings") or {}).values():
        patient = tendering["patient"]
        left = state["personae"][patient]["untended"] - tended.get(patient, 0)
        tended[patient] = tended.get(patient, 0) + tended_points(tendering["band"], left)
    rows = []
    for cid in in_scene(state):
        person = state["personae"][cid]
        if not person.get("present", True):
            continue
        rows.append(_row(person, damage.get(cid, 0), declared.get(cid, {}).get("stance") == IN
                         and cid in combat["rolls"], fail_ticks.get(cid, 0), tended.get(cid, 0),
                         cid in (combat.get("tendings") or {})))
    return rows


def _row(person: Mapping[str, Any], dealt: int, acted: bool, failed: int, tended: int,
         tending: bool) -> dict[str, Any]:
    wounds, fatigue, untended = person["wounds"], person["fatigue"], person["untended"]
    row: dict[str, Any] = {"combatant": person["id"], "before": {
        "wounds": wounds, "fatigue": fatigue, "untended": untended}}
    # 1. Damage: "This deduction of points from the Wounds Track and the Fatigue Track
    #    equals the modified Damage."
    wounds, fatigue = tracks.lose(wounds, dealt), tracks.lose(fatigue, dealt)
    # 2. "any Combat Action causes the loss of at least one 'tick box,' or 5% of Fatigue";
    #    plus a tick for each failed roll-off ("plus one Tick for failing").
    action = tracks.ticks(1) if acted else 0
    failing = tracks.ticks(failed)
    # a tending exerts the tender ("unless the Skill explicitly says it exerts Fatigue": ours
    # does, recovery.py): a tick, and no recovery this Turn
    exertion = tracks.ticks(1) if tending else 0
    fatigue = tracks.lose(fatigue, action + failing + exertion)
    # 3. Consequences: the points tended this turn stop draining; the Wound points left
    #    untended from earlier turns cost a Fatigue point each ("Each Untended Wound Point
    #    costs an additional point of Fatigue at the Resolution Point"; "every Turn after the
    #    first": the Wound dealt this turn drains from the next, and is not yet tended).
    tended = min(tended, untended)
    drain = untended - tended
    fatigue = tracks.lose(fatigue, drain)
    untended = tracks.clamp(untended - tended + dealt)
    # Downed and Unconscious: "Persona whose Fatigue reduces by Damage, Consequences, or
    # Results to zero is 'Downed' and may only make a Resting Action in the next Turn." /
    # "Persona whose Wounds ... fall to zero also have their Fatigue value also set to zero
    # and are 'Downed' and 'Unconscious.'" Reading: Downed when something took Fatigue at
    # this Resolution Point and left it at 0; a Persona resting at 0 with nothing to pay is
    # not Downed again, and regains its box. The Downed rest "in the next Turn" and no longer:
    # the drain of untended Wounds during that forced rest does not Down them again (else a
    # Persona with many untended points would rest for ever and never tend itself).
    unconscious = wounds == 0
    if unconscious:
        fatigue = 0
    forced_rest = bool(person.get("downed")) and not acted
    due = dealt + action + failing + exertion + (0 if forced_rest else drain)
    downed = unconscious or (fatigue == 0 and due > 0)
    # Recovery: "Personae / Opponents who DID NO Combat ACTION (including those who were
    # 'Downed') regains one Fatigue box (5%) ...". The Unconscious recover nothing: they
    # "cannot perform any Actions until revived".
    quiet = 0 if acted or tending else person.get("quiet_turns", 0) + 1
    before_recovery = fatigue
    if quiet and not unconscious:
        fatigue = tracks.recovered(fatigue, untended, quiet)
    row.update(damage=dealt, action=action, failing=failing, tending=exertion, drain=drain, tended=tended,
               recovered=fatigue - before_recovery, quiet_turns=quiet,
               after={"wounds": wounds, "fatigue": fatigue, "untended": untended},
               downed=downed, unconscious=unconscious)
    return row
