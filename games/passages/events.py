"""How each Passages event changes the state (``FOLDS``: one fold a kind), and the events' shapes.

Events are plain dicts with a ``type`` (and the ``step`` of the move that made them, stamped by
the core); every die rolled and every track change is in them, so folding the log again
rebuilds the state exactly (games/core/engine.py). A fold writes the event into the state it is
handed (the core's copy): it never rolls and never computes a rule, the numbers it writes are
the event's. An NPC's figures in an event sit under its Director's part (``audiences``).

    checked, practised     {combatant, check, forced?}: a check (or practice) in the scene
    contest_started        {personae: [persona], challenge: [id], magic, cost}
    contest_rolled         {combatant, round, check}
    contest_round          {round, bands, ticks, costs, resource, after, outcome, winners, collapsed}
    contest_cost_set       {cost}
    contest_broken_off     {combatant}
    contest_ended          {reason: won | collapsed | broke_off | director, winners}
    combat_started         {personae: [persona], conditions}
    turn_started           {turn, conditions, game_state: [row], auto: [declaration]}
    declared               {combatant, declaration}
    timing_set             {combatant, modifier, reason}
    combat_rolled          {combatant, target, die, timing, combat_skill, combat, total,
                            defense_skill, defense, margin, level, level_name, ranged}
    pairing_resolved       {kind, a, b, levels, outcome, resolves, intents, wounds, fail_ticks}
    resolution_point       {turn, rows: [resolution row]}
    conditions_set         {conditions, modifier, hinder}
    status_set             {combatant, status, present, hindered, modifier}
    track_corrected        {combatant, track, before, value, person} (in a scene) or
                           {combatant, name, track, before, value, sheet} (outside one)
    rested                 {combatant, name, before, after, at}: a rest outside a fight, stamped
                           with the table's clock (``at``: once per span of time)
    result_entered         {combatant, kind, text, wounds, fatigue}: the Director's entry
    joined                 {personae: [persona]}: reinforcements, in from the next Turn or round
    tend_rolled            {combatant, patient, check, forced}: a declared tending's roll
    tended                 {tender, patient, names, check, points, cost, after: {id: tracks}, npcs}
    combat_ended           {turn}
    side_set               {combatant, name, side}: the Director moves a Persona to a side
    time_recovered         {span, rows: [{combatant, name, before, after}]}: what a span of time
                           passed did to the tracks (``campaign``)
    skills_advanced        {rows: [{combatant, name, skill, before, after}], skills: {id: skills},
                           marked}: a session's close raises the marked skills (``campaign``)

A Check, Challenge, contest roll or tending (``checked`` but practice, ``contest_rolled``,
``tend_rolled``, ``tended``) marks its skill for its Persona (``marks``): "the skill must be
used practically, in pursuit of the story, to be able to be advanced".

A persona (``persona.persona``) is the sheet the scene began with, its ``id`` and ``name``, the
table's word on whether it is an NPC, and its standing (``status``, ``present``, ``downed``...):
the rules' own record of the sheet as it was then, so the log folds back without the table.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from games.passages.campaign import fold_advanced, fold_recovered
from games.passages.recovery import keep_sheet, rested, tended
from games.core.fights import SIDE_SET, fold_side
from games.passages.state import (
    COMBAT, CONTEST, DECLARE, IDLE, KEEP_CHECKS, RESOLVED, TIMING, State, declaring, mark,
)

Event = dict[str, Any]
Fold = Callable[[State, Mapping[str, Any]], None]


def _person(state: State, cid: str) -> dict[str, Any]:
    person: dict[str, Any] = state["personae"][cid]
    return person


def _scene(state: State, e: Mapping[str, Any]) -> None:
    state["personae"] = {p["id"]: dict(p) for p in e["personae"]}
    state["order"] = [p["id"] for p in e["personae"]]
    state["checks"] = []


def _joined(state: State, e: Mapping[str, Any]) -> None:
    """Reinforcements wait (``joining``) for the next Turn's Game State or the contest's next
    round, where ``take_in`` brings them in."""
    for p in e["personae"]:
        state["personae"][p["id"]] = {**p, "present": False, "joining": True}
        state["order"] = [c for c in state["order"] if c != p["id"]] + [p["id"]]


def take_in(state: State) -> list[str]:
    joining = [cid for cid in state["order"] if state["personae"].get(cid, {}).get("joining")]
    for cid in joining:
        state["personae"][cid].update(present=True, joining=False)
    return joining


def _checked(state: State, e: Mapping[str, Any]) -> None:
    state["checks"] = (state["checks"] + [{"combatant": e["combatant"], **e["check"]}])[-KEEP_CHECKS:]
    if not e["check"].get("practice"):  # "such practice does not improve a skill"
        mark(state, e["combatant"], e["check"].get("skill"))
    if state["mode"] == COMBAT:  # the Action its Declaration allowed this Turn is taken
        fight = state["combat"]
        fight["acted"] = [*fight.get("acted", ()), e["combatant"]]


def _contest_started(state: State, e: Mapping[str, Any]) -> None:
    _scene(state, e)
    state["mode"], state["combat"] = CONTEST, None
    state["contest"] = {"round": 1, "parties": [p["id"] for p in e["personae"]],
                        "active": [p["id"] for p in e["personae"]], "challenge": list(e["challenge"]),
                        "magic": e["magic"], "cost": e["cost"], "rolls": {}, "history": [], "result": None}


def _contest_rolled(state: State, e: Mapping[str, Any]) -> None:
    state["contest"]["rolls"][e["combatant"]] = dict(e["check"])
    mark(state, e["combatant"], e["check"].get("skill"))


def _contest_round(state: State, e: Mapping[str, Any]) -> None:
    contest = state["contest"]
    resource = e["resource"]
    for cid, value in e["after"].items():
        person = _person(state, cid)
        person[resource] = value
        if resource == "fatigue":
            person["downed"] = value == 0
    contest["history"] = contest["history"] + [{k: e[k] for k in (
        "round", "bands", "ticks", "costs", "after", "outcome", "winners", "collapsed")}]
    contest["active"] = [cid for cid in contest["active"] if cid not in e["collapsed"]]
    contest["rolls"], contest["round"] = {}, e["round"] + 1
    if e["outcome"] != "won":
        joining = take_in(state)
        contest["parties"] = contest["parties"] + [c for c in joining if c not in contest["parties"]]
        contest["active"] = contest["active"] + [c for c in joining if c not in contest["active"]]


def _contest_cost(state: State, e: Mapping[str, Any]) -> None:
    state["contest"]["cost"] = e["cost"]


def _broken_off(state: State, e: Mapping[str, Any]) -> None:
    contest = state["contest"]
    contest["active"] = [cid for cid in contest["active"] if cid != e["combatant"]]
    contest["rolls"].pop(e["combatant"], None)


def _contest_ended(state: State, e: Mapping[str, Any]) -> None:
    state["contest"]["result"] = {"reason": e["reason"], "winners": list(e["winners"])}
    state["mode"] = IDLE


def _combat_started(state: State, e: Mapping[str, Any]) -> None:
    _scene(state, e)
    state["mode"], state["contest"] = COMBAT, None
    state["scene_conditions"] = e["conditions"]
    state["combat"] = {"turn": 0, "phase": DECLARE, "declared": {}, "timing": {}, "rolls": {},
                       "pairings": [], "resolutions": []}


def _maybe_timing(state: State) -> None:
    combat = state["combat"]
    if combat["phase"] == DECLARE and all(cid in combat["declared"] for cid in declaring(state)):
        combat["phase"] = TIMING


def _turn_started(state: State, e: Mapping[str, Any]) -> None:
    take_in(state)  # a Turn started after a fight stood over takes in who was called since
    combat = state["combat"]
    combat.update(turn=e["turn"], phase=DECLARE, declared={}, timing={}, rolls={}, pairings=[], acted=[],
                  tendings={}, results=[])
    for declaration in e["auto"]:
        combat["declared"][declaration["combatant"]] = dict(declaration)
    _maybe_timing(state)


def _declared(state: State, e: Mapping[str, Any]) -> None:
    state["combat"]["declared"][e["combatant"]] = dict(e["declaration"])
    _maybe_timing(state)


def _timing(state: State, e: Mapping[str, Any]) -> None:
    state["combat"]["timing"][e["combatant"]] = {"modifier": e["modifier"], "reason": e["reason"]}


def _combat_rolled(state: State, e: Mapping[str, Any]) -> None:
    state["combat"]["rolls"][e["combatant"]] = {k: v for k, v in e.items() if k not in ("type", "step")}


def _pairing(state: State, e: Mapping[str, Any]) -> None:
    state["combat"]["pairings"].append({k: v for k, v in e.items() if k not in ("type", "step")})


def _resolution(state: State, e: Mapping[str, Any]) -> None:
    for row in e["rows"]:
        person = _person(state, row["combatant"])
        person.update(row["after"])
        person.update(downed=row["downed"], unconscious=row["unconscious"], quiet_turns=row["quiet_turns"])
    state["combat"]["resolutions"] = [{"turn": e["turn"], "rows": [dict(r) for r in e["rows"]]}]
    # the Turn is over; the next one's Game State follows in the same move, unless the fight is
    state["combat"]["phase"] = RESOLVED
    take_in(state)  # reinforcements are in the next Turn's Game State


def _conditions(state: State, e: Mapping[str, Any]) -> None:
    state["scene_conditions"] = e["conditions"]
    state["conditions_modifier"] = int(e.get("modifier", 0))
    state["hinder"] = bool(e.get("hinder"))


def _status(state: State, e: Mapping[str, Any]) -> None:
    person = _person(state, e["combatant"])
    person["status"], person["present"] = e["status"], e["present"]
    person["hindered"] = bool(e.get("hindered"))
    person["modifier"] = int(e.get("modifier", 0))
    if "recovered" in e:  # left the Scene: rested
        person.update(fatigue=e["recovered"], downed=False, quiet_turns=0)
    if state["mode"] == COMBAT:
        if not e["present"]:
            state["combat"]["declared"].pop(e["combatant"], None)
        _maybe_timing(state)


def _corrected(state: State, e: Mapping[str, Any]) -> None:
    if "sheet" in e:  # outside a scene, on the sheet
        keep_sheet(state, e["combatant"], e["sheet"], e["sheet_before"], e.get("step"))
    else:
        _person(state, e["combatant"]).update(e["person"])
        if state["mode"] == COMBAT:  # one knocked out declares nothing: the Turn may move on
            _maybe_timing(state)


def _tend_rolled(state: dict[str, Any], e: Mapping[str, Any]) -> None:
    fight = state["combat"]
    fight["acted"] = [*fight.get("acted", ()), e["combatant"]]
    fight["tendings"] = {**fight.get("tendings", {}), e["combatant"]: {"patient": e["patient"],
                                                                       "band": e["check"]["band"]}}
    state["checks"] = (state["checks"] + [{"combatant": e["combatant"], **e["check"]}])[-KEEP_CHECKS:]
    mark(state, e["combatant"], e["check"].get("skill"))


def _result(state: dict[str, Any], e: Mapping[str, Any]) -> None:
    fight = state["combat"]
    fight["results"] = [*fight.get("results", ()), {k: e[k] for k in ("combatant", "kind", "text", "wounds", "fatigue")}]


def _combat_ended(state: State, e: Mapping[str, Any]) -> None:
    """What belongs to the fight ends with it: the sides the Director moved Personae to; what
    the Conditions of the Engagement added to every Combat Roll ("the Director adds any changes
    to the Conditions of the Engagement"); each Persona's Combat Status, "a reminder of current
    Conditions each Persona is dealing with for this particular turn", with its lasting
    modifier and its hindrance, and its count of Turns without a Combat Action. Its tracks stay
    (they go back on the sheet): Downed and Unconscious are what its Fatigue and Wounds say."""
    state["mode"] = IDLE
    state.pop("sides", None)
    state["conditions_modifier"] = 0
    for person in state["personae"].values():
        person.update(status="", modifier=0, hindered=False, quiet_turns=0)


CHECK_EVENT = "check_rolled"  # the one-off check's event (audiences.CHECK_EVENT)


def _one_off_checked(state: dict[str, Any], e: Mapping[str, Any]) -> None:
    """A one-off check outside any scene (the table's check form), folded by the platform: a
    check or a challenge counted marks its skill for the session's close; a practice does not
    (the decided reading: "a Check, Challenge or Contest that counted, never practice")."""
    if not e.get("practice"):
        mark(state, e["combatant"], e.get("skill"))


FOLDS: dict[str, Fold] = {
    "checked": _checked,
    "practised": _checked,
    "contest_started": _contest_started,
    "contest_rolled": _contest_rolled,
    "contest_round": _contest_round,
    "contest_cost_set": _contest_cost,
    "contest_broken_off": _broken_off,
    "contest_ended": _contest_ended,
    "combat_started": _combat_started,
    "turn_started": _turn_started,
    "declared": _declared,
    "timing_set": _timing,
    "combat_rolled": _combat_rolled,
    "pairing_resolved": _pairing,
    "resolution_point": _resolution,
    "conditions_set": _conditions,
    "status_set": _status,
    "track_corrected": _corrected,
    "combat_ended": _combat_ended,
    "rested": rested,
    "result_entered": _result,
    "joined": _joined,
    "tend_rolled": _tend_rolled,
    "tended": tended,
    SIDE_SET: fold_side,
    "time_recovered": fold_recovered,
    "skills_advanced": fold_advanced,
    CHECK_EVENT: _one_off_checked,  # audiences.CHECK_EVENT, which reads this module
}


def after(state: Mapping[str, Any], *events: Mapping[str, Any]) -> State:
    """The state once ``events`` are folded in (the given one untouched): what a handler reads
    to decide what follows a roll in the same move (a round judged once its last roll is in)."""
    new: State = copy.deepcopy(dict(state))
    for event in events:
        FOLDS[event["type"]](new, event)
    return new
