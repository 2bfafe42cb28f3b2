"""The Resolution Point (seed 001): "After all Combat Rolls have been made for the Round,
the Resolution Point occurs." Computed here from the state, in the seed's order, into
plain rows an event carries; its fold (``events.FOLDS``) only copies the results in.

Seed's order: "Damage results tally first" / "Fatigue Reduction for all Combat Actions
tallies next" / "Consequences from Contested or Uncontested Non-combat Actions resolve ...
The primary Consequence of untended wounds is the continued loss of Fatigue Points every
Turn after the first" / "RESULTS from Contested Failures (CFs) or Critical Wounds (CWs)
resolve". The Director's entries (``director.result``) are the Consequences (and a
strenuous action's extra Fatigue) and the Results; their Wound points are Wounds, untended
like any other. Then who is Downed or Unconscious, and the recovery of those who "DID NO
Combat ACTION".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.passages import tracks
from games.passages.recovery import tended_points
from games.passages.state import IN, in_scene

# The Director's entries: a strenuous action's extra Fatigue and a Consequence resolve with
# the Consequences; a Contested Failure and a Critical Wound with the Results.
STRAIN, CONSEQUENCE, CONTESTED_FAILURE, CRITICAL_WOUND = "strain", "consequence", "contested_failure", "critical_wound"
RESULT_KINDS = (STRAIN, CONSEQUENCE, CONTESTED_FAILURE, CRITICAL_WOUND)
KIND_LABELS = {STRAIN: "a strenuous action", CONSEQUENCE: "a Consequence", CONTESTED_FAILURE: "a Contested Failure",
               CRITICAL_WOUND: "a Critical Wound"}


def resolution_rows(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    combat = state["combat"]
    declared = combat["declared"]
    due: dict[str, dict[str, Any]] = {cid: {"dealt": 0, "failed": 0, "tended": 0, "entries": []}
                                      for cid in in_scene(state)}
    for pairing in combat["pairings"]:
        for wound in pairing["wounds"]:
            due[wound["to"]]["dealt"] += wound["damage"]["dealt"]
        for cid, n in pairing["fail_ticks"].items():
            due[cid]["failed"] += n
    # each tending tends, by its band, the patient's untended points from earlier Turns
    for tendering in (combat.get("tendings") or {}).values():
        patient = tendering["patient"]
        left = state["personae"][patient]["untended"] - due[patient]["tended"]
        due[patient]["tended"] += tended_points(tendering["band"], left)
    for entry in combat.get("results") or ():
        due[entry["combatant"]]["entries"].append(entry)
    rows = []
    for cid in in_scene(state):
        person = state["personae"][cid]
        if not person.get("present", True):
            continue
        mine = declared.get(cid, {})
        rows.append(_row(person, due[cid], acted=mine.get("stance") == IN and cid in combat["rolls"],
                         magic=bool(mine.get("magic")), tending=cid in (combat.get("tendings") or {})))
    return rows


def _entries(entries: list[Mapping[str, Any]], kinds: tuple[str, ...]) -> tuple[int, int, list[str]]:
    """(Wound points, Fatigue points, what each says) of the entries of these kinds."""
    chosen = [e for e in entries if e["kind"] in kinds]
    return (sum(e["wounds"] for e in chosen), sum(e["fatigue"] for e in chosen),
            [f"{KIND_LABELS[e['kind']]}" + (f": {e['text']}" if e["text"] else "") for e in chosen])


def _row(person: Mapping[str, Any], due: Mapping[str, Any], *, acted: bool, magic: bool,
         tending: bool) -> dict[str, Any]:
    wounds, fatigue, untended, resources = person["wounds"], person["fatigue"], person["untended"], person["magic"]
    dealt = due["dealt"]
    row: dict[str, Any] = {"combatant": person["id"], "before": {
        "wounds": wounds, "fatigue": fatigue, "untended": untended}}
    # 1. Damage: "This deduction of points from the Wounds Track and the Fatigue Track
    #    equals the modified Damage."
    wounds, fatigue = tracks.lose(wounds, dealt), tracks.lose(fatigue, dealt)
    # 2. "any Combat Action causes the loss of at least one 'tick box,' or 5% of Fatigue";
    #    plus a tick for each failed roll-off ("plus one Tick for failing"). A spell's tick is
    #    of Magical Resources instead (seed: magic uses "Magical Resources rather than Fatigue").
    action = tracks.ticks(1) if acted and not magic else 0
    magic_spent = tracks.ticks(1) if acted and magic else 0
    resources = tracks.lose(resources, magic_spent)
    failing = tracks.ticks(due["failed"])
    # a tending exerts the tender ("unless the Skill explicitly says it exerts Fatigue": ours
    # does, recovery.py): a tick, and no recovery this Turn
    exertion = tracks.ticks(1) if tending else 0
    fatigue = tracks.lose(fatigue, action + failing + exertion)
    # 3. Consequences: the points tended this turn stop draining; the Wound points left
    #    untended from earlier turns cost a Fatigue point each ("Each Untended Wound Point
    #    costs an additional point of Fatigue at the Resolution Point"; "every Turn after the
    #    first": the Wound dealt this turn drains from the next, and is not yet tended). Then
    #    the Director's Consequences, and 4. the Results.
    tended = min(due["tended"], untended)
    drain = untended - tended
    fatigue = tracks.lose(fatigue, drain)
    untended = untended - tended + dealt
    revived = bool(tended) and wounds == 0 and dealt == 0
    if revived:  # tended at all, the Unconscious wake with a Wound tick (recovery.after_tending)
        wounds = tracks.TICK
    c_wounds, c_fatigue, said = _entries(due["entries"], (STRAIN, CONSEQUENCE))
    r_wounds, r_fatigue, told = _entries(due["entries"], (CONTESTED_FAILURE, CRITICAL_WOUND))
    wounds = tracks.lose(wounds, c_wounds + r_wounds)
    fatigue = tracks.lose(fatigue, c_fatigue + r_fatigue)
    untended = min(tracks.clamp(untended + c_wounds + r_wounds), tracks.FULL - wounds)
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
    owed = dealt + action + failing + exertion + c_fatigue + r_fatigue + (0 if forced_rest else drain)
    downed = unconscious or (fatigue == 0 and owed > 0)
    # Recovery: "Personae / Opponents who DID NO Combat ACTION (including those who were
    # 'Downed') regains one Fatigue box (5%) ...". The Unconscious recover nothing: they
    # "cannot perform any Actions until revived".
    quiet = 0 if acted or tending else person.get("quiet_turns", 0) + 1
    before_recovery = fatigue
    if quiet and not unconscious:
        fatigue = tracks.recovered(fatigue, untended, quiet)
    row.update(damage=dealt, action=action, magic_spent=magic_spent, failing=failing, tending=exertion,
               drain=drain, tended=tended, consequences=c_fatigue, consequence_wounds=c_wounds,
               results=r_fatigue, result_wounds=r_wounds, said=said + told,
               recovered=fatigue - before_recovery, quiet_turns=quiet,
               after={"wounds": wounds, "fatigue": fatigue, "untended": untended, "magic": resources},
               downed=downed, unconscious=unconscious, revived=revived)
    return row
