"""The Passages table state (plain, JSON-ready) and read-only views of it.

    {"version": 1,
     "step": int,                  # the last step folded; its events carry it (the core's)
     "mode": "idle" | "contest" | "combat",
     "scene_conditions": str,      # the Scene's General Conditions (the Game State's first line; the
                                   # core's lasting conditions on characters are "conditions")
     "conditions_modifier": int,   # what they add to every Combat Roll, until the Director changes it
     "personae": {id: persona},    # everyone in the contest or fight (persona.persona), kept
                                   # after it ends so the sheets can take their tracks back
     "order": [id, ...],           # as the Director listed them
     "contest": None | {"round", "parties", "active", "challenge", "magic", "cost",
                        "rolls": {id: check}, "history": [round, ...], "result"},
     "combat": None | {"turn", "phase": "declare" | "timing" | "resolved", "declared": {id: declaration},
                       "timing": {id: {"modifier", "reason"}}, "rolls": {id: roll},
                       "pairings": [resolved pairing, ...], "resolutions": [last Resolution Point],
                       "acted": [id: its declared Action taken], "tendings": {tender: {patient, band}},
                       "results": [the Director's entries for the Resolution Point]},
     "sides": {id: side},          # the Director's moves of a Persona to a side (until the fight ends)
     "hinder": bool,               # the Director's call: the Conditions make one-off rolls Challenges
     "outside": {id: {step, before, after}},  # each sheet's last change outside a fight (for an undo)
     "rests": {id: {day, scene}},  # when each Persona last rested outside a fight (the core's clock)
     "marks": {id: [skill, ...]},  # the skills each Persona used in earnest this session
     "clock", "conditions", "options_set": the core's (games/core/clock.py)
     "checks": [check, ...],       # the latest checks rolled in the scene, newest last
     "undo": [{"step", "what"}]}   # the steps the Director may take back, newest last, each
                                   # with its line as everyone read it (the core's Undo)

Lists, not dict key order, carry every ordering (PostgreSQL's jsonb reorders keys).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import clock as time

State = dict[str, Any]
IDLE, CONTEST, COMBAT = "idle", "contest", "combat"
DECLARE, TIMING = "declare", "timing"
# a Turn whose Resolution Point left the fight over: no new Turn starts by itself (the Director
# ends the fight, or starts the next Turn once a side stands again)
RESOLVED = "resolved"
IN, OUT = "in", "out"
REST, TEND = "rest", "tend"
KEEP_CHECKS = 8
# The effects of the core's lasting conditions that the rules read (``campaign.EFFECTS`` says
# what each does): a Status that lasts.
TIMING, HINDERED = "timing", "hindered"


def new_state() -> State:
    return {"version": 1, "step": 0, "mode": IDLE, "scene_conditions": "", "personae": {}, "order": [],
            "contest": None, "combat": None, "checks": [], "undo": []}


def names_of(state: Mapping[str, Any]) -> dict[str, str]:
    return {cid: p.get("name") or cid for cid, p in state["personae"].items()}


def npcs(state: Mapping[str, Any]) -> frozenset[str]:
    """The Personae of the scene that are NPCs (``persona["npc"]``, as the table said when the
    scene began): their sheets' figures are the Director's, kept out of what everyone reads
    (``screen``), whatever the table shows of them later."""
    return frozenset(cid for cid, p in state["personae"].items() if p.get("npc"))


def in_scene(state: Mapping[str, Any]) -> list[str]:
    """The Personae of the running contest or fight, in the Director's order."""
    if state["mode"] == IDLE:
        return []
    return [cid for cid in state["order"] if cid in state["personae"]]


def present(state: Mapping[str, Any]) -> list[str]:
    return [cid for cid in in_scene(state) if state["personae"][cid].get("present", True)]


def eligible(person: Mapping[str, Any]) -> bool:
    """Combat Eligibility: "whether a Persona CAN continue the Combat into the next Turn.
    (Health or Fatigue at or below Zero, or the Persona is teleported away, for instance)"."""
    return bool(person.get("present", True)) and person["wounds"] > 0 and person["fatigue"] > 0 \
        and not person.get("downed") and not person.get("unconscious")


def able(person: Mapping[str, Any]) -> bool:
    """Able to take an Action other than rest: neither Unconscious nor Downed."""
    return not (person.get("unconscious") or person.get("downed") or person["wounds"] <= 0 or person["fatigue"] <= 0)


def _fight_in(state: Mapping[str, Any], phase: str) -> Mapping[str, Any] | None:
    """The fight under way, when it is in ``phase`` (Declaration or the Combat Rolls)."""
    combat = state.get("combat")
    return combat if state["mode"] == COMBAT and combat is not None and combat["phase"] == phase else None


def declaring(state: Mapping[str, Any]) -> list[str]:
    """Who declares this Turn: those on the Scene, but the Unconscious ("Such personae cannot
    perform any Actions until revived"), even one knocked out mid-Turn by a correction."""
    return [cid for cid in present(state) if not state["personae"][cid].get("unconscious")]


def waiting_to_declare(state: Mapping[str, Any]) -> list[str]:
    combat = _fight_in(state, DECLARE)
    return [cid for cid in declaring(state) if cid not in combat["declared"]] if combat else []


def attackers(state: Mapping[str, Any]) -> list[str]:
    """Who declared IN this turn, in order."""
    combat = state.get("combat") or {}
    declared = combat.get("declared", {})
    return [cid for cid in in_scene(state) if declared.get(cid, {}).get("stance") == IN]


def waiting_to_roll(state: Mapping[str, Any]) -> list[str]:
    combat = _fight_in(state, TIMING)
    return [cid for cid in attackers(state) if cid not in combat["rolls"]] if combat else []


def lapsed(state: Mapping[str, Any], cid: str) -> bool:
    """An attack declared this Turn and not yet rolled that never will be: its attacker is no
    longer Combat Eligible (a correction left it Downed: "may only make a Resting Action"; or
    Unconscious, or gone), or its target is not (the out are no target of an attack)."""
    combat = state.get("combat") or {}
    mine = combat.get("declared", {}).get(cid) or {}
    if mine.get("stance") != IN or cid in combat.get("rolls", {}):
        return False
    target = state["personae"].get(mine.get("target"))
    return not eligible(state["personae"][cid]) or target is None or not eligible(target)


def rolls_awaited(state: Mapping[str, Any]) -> list[str]:
    """Who still owes a Combat Roll this Turn: an attack that lapsed (``lapsed``) owes none."""
    return [cid for cid in waiting_to_roll(state) if not lapsed(state, cid)]


def pairings(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """This turn's conflict pairings, in order: two Personae attacking each other roll off
    ("mutual"); an attack on someone not rolling back is "single".

    Seed: "Range weapons do not create a Combat Sequence unless their Opponent is also using
    Ranged Weapons." Reading: a shot at someone fighting hand to hand (or a blow at an
    archer) is no roll-off; each attack stands alone, as an attack on someone not subject
    to the combat."""
    combat = state.get("combat") or {}
    declared = combat.get("declared", {})
    found: list[dict[str, Any]] = []
    done: set[str] = set()
    # a pairing resolved stays as it resolved; an attack that lapsed makes none, and one on an
    # attacker whose own attack lapsed stands alone (it does not roll back)
    resolved = {c: p for p in combat.get("pairings", ()) for c in ((p["a"], p["b"]) if p["kind"] == "mutual"
                                                                  else (p["a"],))}
    for cid in attackers(state):
        if cid in done or (cid not in resolved and lapsed(state, cid)):
            continue
        if cid in resolved:
            p = resolved[cid]
            found.append({"kind": p["kind"], "a": p["a"], "b": p["b"]})
            done |= {p["a"], p["b"]} if p["kind"] == "mutual" else {p["a"]}
            continue
        mine = declared[cid]
        target = mine["target"]
        theirs = declared.get(target, {})
        if theirs.get("stance") == IN and theirs.get("target") == cid and target not in resolved \
                and not lapsed(state, target) and bool(theirs.get("ranged")) == bool(mine.get("ranged")):
            found.append({"kind": "mutual", "a": cid, "b": target})
            done |= {cid, target}
        else:
            found.append({"kind": "single", "a": cid, "b": target})
            done.add(cid)
    return found


def pairing_of(state: Mapping[str, Any], cid: str) -> dict[str, Any] | None:
    return next((p for p in pairings(state) if p["a"] == cid or (p["kind"] == "mutual" and p["b"] == cid)),
                None)


def modifier(state: Mapping[str, Any], cid: str) -> int:
    """What modifies ``cid``'s Combat Roll now: this Turn's Timing, the modifier its Status
    carries and the Conditions' (seed: "Timing is a result of Combat Status, and modifies the
    Combat roll"), which last until the Director changes them, and the lasting conditions on
    it whose effect is ``timing`` (the core's, ending by themselves)."""
    combat = state.get("combat") or {}
    turn = int(combat.get("timing", {}).get(cid, {}).get("modifier", 0))
    person = state["personae"].get(cid, {})
    return turn + int(person.get("modifier", 0)) + int(state.get("conditions_modifier", 0)) \
        + time.modifier(state, cid, TIMING)


def hindered(state: Mapping[str, Any] | None, cid: object) -> bool:
    """Whether a lasting condition the Director set on ``cid`` makes its checks Challenges."""
    return state is not None and time.has(state, cid, HINDERED)


def marks(state: Mapping[str, Any], cid: object) -> list[str]:
    """The skills ``cid`` has used in earnest this session (a Check, Challenge or Contest)."""
    return list((state.get("marks") or {}).get(str(cid)) or [])


def mark(state: dict[str, Any], cid: object, skill: object) -> None:
    """A fold's note that ``cid`` used ``skill`` "practically, in pursuit of the story"."""
    if not skill:
        return
    mine = marks(state, cid)
    if str(skill) not in mine:
        state["marks"] = {**(state.get("marks") or {}), str(cid): [*mine, str(skill)]}


def contest_waiting(state: Mapping[str, Any]) -> list[str]:
    contest = state.get("contest")
    if state["mode"] != CONTEST or contest is None:
        return []
    # one Downed or knocked out since the round began cannot roll: the round is judged without
    # it (it collapses out of the contest then, ``contest``)
    return [cid for cid in contest["active"] if cid not in contest["rolls"] and able(state["personae"][cid])]
