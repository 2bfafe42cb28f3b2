"""The Director's hand: conditions, status, corrections, and the end (the ``set_conditions``,
``set_status``, ``correct``, ``undo`` and ``end`` commands, the Director's alone).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.rng import Rng
from games.passages import sheet, tracks
from games.passages import state as st
from games.passages.errors import BadValue, NotNow
from games.passages.guards import Actor, Event, _int, _text, find, require_gm


def set_conditions(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor,
                   rng: Rng) -> list[Event]:
    """Seed: "the Director adds any changes to the Conditions of the Engagement"."""
    require_gm(actor, "set the Conditions")
    return [{"type": "conditions_set", "conditions": _text(command, "conditions", "", 300)}]


def set_status(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor,
               rng: Rng) -> list[Event]:
    """A Persona's Combat Status ("terrain effects, injuries, etc.") and whether it is still
    on the Scene (Combat Eligibility: "or the Persona is teleported away")."""
    require_gm(actor, "set a Persona's status")
    if state["mode"] == st.IDLE:
        raise NotNow("No contest or fight is under way.")
    person = find(state, command.get("combatant"))
    present = command.get("present", True) is not False
    return [{"type": "status_set", "combatant": person["id"], "status": _text(command, "status", "", 120),
             "present": present}]


def correct(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor, rng: Rng) -> list[Event]:
    """The Director sets a track (healing, a Critical Wound, an Effect that restores
    Fatigue). Wounds at 0 leave the Persona Unconscious; above 0 they are revived."""
    require_gm(actor, "correct a track")
    if state["mode"] == st.IDLE:
        raise NotNow("No contest or fight is under way: correct the sheet instead.")
    person = find(state, command.get("combatant"))
    track = command.get("track")
    if track not in sheet.TRACKS:
        raise BadValue(f"A track is one of {', '.join(sheet.TRACKS)}.")
    value = _int(command, "value", 0, tracks.FULL, f"{str(track).capitalize()}")
    changed = {k: person[k] for k in (*sheet.TRACKS, "downed", "unconscious")}
    changed[track] = value
    changed["untended"] = min(changed["untended"], tracks.FULL - changed["wounds"])
    changed["unconscious"] = changed["wounds"] == 0
    if changed["unconscious"]:
        changed["fatigue"] = 0
    changed["downed"] = changed["unconscious"] or changed["fatigue"] == 0
    return [{"type": "track_corrected", "combatant": person["id"], "track": track,
             "before": person[track], "value": value, "person": changed}]


def undo(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor, rng: Rng) -> list[Event]:
    """The Director takes back the last step (a slip of the hand, a wrong Declaration): the
    table is as it was before it, and the undo stays in the log. A roll taken back and made
    again is a new roll, in the log for everyone to see."""
    require_gm(actor, "take back a step")
    kept = state.get("undo") or []
    if not kept:
        raise NotNow("There is nothing to take back.")
    return [{"type": "undone", "what": kept[-1]["what"]}]


def end(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor, rng: Rng) -> list[Event]:
    require_gm(actor, "end it")
    if state["mode"] == st.CONTEST:
        return [{"type": "contest_ended", "reason": "director", "winners": []}]
    if state["mode"] == st.COMBAT:
        return [{"type": "combat_ended", "turn": state["combat"]["turn"]}]
    raise NotNow("No contest or fight is under way.")
