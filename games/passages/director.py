"""The Director's hand: conditions, status, corrections, and the end (the ``set_conditions``,
``set_status``, ``correct`` and ``end`` moves, the Director's alone; the core's undo takes a
step back).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.engine import Turn
from games.passages import contest, persona, sheet, tracks
from games.passages import state as st
from games.passages.access import find, require_able, require_mode, require_turn_open
from games.passages.errors import BadValue, CannotAct, NotNow
from games.passages.events import Event, after

UNDER_WAY = "No contest or fight is under way"


def set_conditions(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """Seed: "the Director adds any changes to the Conditions of the Engagement": their words,
    and a modifier they carry to every Combat Roll (unsaid, it stays as it was). And whether they
    hinder the one-off rolls (``hinder``; unsaid, as it was): seed, "CHALLENGES are Actions
    hindered by certain circumstances, or specific Conditions decided on by the Director" (the
    storm over the sinking ship); whether a roll is a Check or a Challenge is the Director's."""
    modifier, hinder = args.get("modifier"), args.get("hinder")
    return [{"type": "conditions_set", "conditions": args.get("conditions", ""),
             "modifier": int(state.get("conditions_modifier", 0)) if modifier is None else modifier,
             "hinder": bool(state.get("hinder")) if hinder is None else bool(hinder)}]


def _in_scene(state: Mapping[str, Any], args: Mapping[str, Any], idle: str) -> dict[str, Any]:
    """The Persona ``args`` names, in the contest or fight under way (``idle``: the refusal's
    end when none is)."""
    if state["mode"] == st.IDLE:
        raise NotNow(f"{UNDER_WAY}{idle}.")
    return find(state, args.get("combatant"))


def set_status(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """A Persona's Combat Status ("terrain effects, injuries, etc.") and whether it is still
    on the Scene (Combat Eligibility: "or the Persona is teleported away"); and whether the
    Conditions hinder it (``hindered``: "CHALLENGES are Actions hindered by certain
    circumstances, or specific Conditions decided on by the Director"), so that its checks
    are challenges until the Director lifts it; unsaid, it stays as it was."""
    person = _in_scene(state, args, "")
    hindered = args.get("hindered")
    present = args.get("present", True)
    # "Recovery of Fatigue occurs when the Persona rests, exits the Scene, or has some Effect
    # restore it": one leaving it recovers to its eligible level (the Unconscious are carried)
    leaves = person.get("present", True) and not present and not person.get("unconscious")
    recovered = tracks.gain(person["fatigue"], tracks.FULL, tracks.eligible_fatigue(person["untended"]))
    return [{"type": "status_set", "combatant": person["id"], "status": args.get("status", ""),
             "present": present, **({"recovered": recovered} if leaves else {}),
             "hindered": bool(person.get("hindered")) if hindered is None else bool(hindered),
             # a lasting modifier to its Combat Roll (the torch, a tower): unsaid, it stays
             "modifier": int(person.get("modifier", 0)) if args.get("modifier") is None else args["modifier"]}]


def correct(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """The Director sets a track (healing, a Critical Wound, an Effect that restores
    Fatigue): in the scene under way, or on the sheet outside one. Wounds at 0 leave the
    Persona Unconscious; above 0 they are revived."""
    if state["mode"] == st.IDLE or args.get("combatant") not in st.in_scene(state):
        return _correct_sheet(state, args, turn)
    person = find(state, args.get("combatant"))
    changed = _corrected({k: person[k] for k in sheet.TRACKS}, args["track"], args["value"])
    changed.update(unconscious=changed["wounds"] == 0)
    changed["downed"] = changed["unconscious"] or changed["fatigue"] == 0
    corrected: Event = {"type": "track_corrected", "combatant": person["id"], "track": args["track"],
                        "before": person[args["track"]], "value": args["value"], "person": changed}
    if state["mode"] == st.CONTEST:  # one it Downs rolls no more: the round may be judged now
        return [corrected, *contest.progress(after(state, corrected))]
    return [corrected]


def _corrected(kept: dict[str, Any], track: str, value: int) -> dict[str, Any]:
    kept[track] = value
    kept["untended"] = min(kept["untended"], tracks.FULL - kept["wounds"])
    if kept["wounds"] == 0:
        kept["fatigue"] = 0
    return kept


def _correct_sheet(state: Mapping[str, Any], args: Mapping[str, Any], turn: Turn) -> list[Event]:
    if state["mode"] != st.IDLE:
        raise NotNow("That Persona is not in the scene under way: correct it when the scene ends.")
    character = turn.character(args.get("combatant"))
    if character is None:
        raise BadValue("Choose a Persona at this table.")
    now = sheet.clean(character.sheet)
    kept = _corrected({k: now[k] for k in sheet.TRACKS}, args["track"], args["value"])
    return [{"type": "track_corrected", "combatant": character.cid, "name": character.name,
             "track": args["track"], "before": now[args["track"]], "value": args["value"], "sheet": kept,
             "sheet_before": {k: now[k] for k in sheet.TRACKS}}]


def join(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """Reinforcements: Personae join the fight at the next Turn's Game State and Declarations
    (seed: "GAME STATE- The director outlines ... all known opponents and extras on the Scene at
    the beginning of the Stage or Turn"), or the contest at its next round; neither ends. One
    who left and comes back is the Director's Status to restore (``set_status``)."""
    if state["mode"] == st.IDLE:
        raise NotNow(f"{UNDER_WAY}: start one with them.")
    here = [cid for cid in args["combatants"] if cid in st.in_scene(state)]
    if here:
        raise NotNow(f"{state['personae'][here[0]]['name']} is already in it.")
    people = persona.scene_personae(args["combatants"], turn)
    if state["mode"] == st.CONTEST:
        for person in people:  # as at the contest's start: a party rolls every round
            require_able(person)
            if state["contest"]["magic"] and person["magic"] <= 0:
                raise CannotAct(f"{person['name']} has no Magical Resources left to duel with.")
    return [{"type": "joined", "personae": people}]


def result(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """An entry the Director makes for the Resolution Point (seed: "Consequences from Contested
    or Uncontested Non-combat Actions resolve"; "RESULTS from Contested Failures (CFs) or
    Critical Wounds (CWs) resolve before a new Turn"; a strenuous action's extra Fatigue, "by
    choice of the Director"): what it says, and the Wound and Fatigue points it takes, applied
    there in the seed's order (``resolution``)."""
    require_mode(state, st.COMBAT)
    require_turn_open(state)
    person = find(state, args.get("combatant"))
    if not person.get("present", True):
        raise NotNow(f"{person['name']} is not in the fight.")
    if not args.get("wounds") and not args.get("fatigue"):
        raise BadValue("An entry takes some Wound or Fatigue points (the Director's correction sets a track).")
    return [{"type": "result_entered", "combatant": person["id"], "kind": args["kind"], "text": args.get("text", ""),
             "wounds": args.get("wounds", 0), "fatigue": args.get("fatigue", 0)}]


def end(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """The Director ends the contest or the fight under way (``Fights.end``: the banner's "End
    the fight" once one side stands)."""
    if state["mode"] == st.CONTEST:
        return [{"type": "contest_ended", "reason": "director", "winners": []}]
    if state["mode"] == st.COMBAT:
        return [{"type": "combat_ended", "turn": state["combat"]["turn"]}]
    raise NotNow(f"{UNDER_WAY}.")
