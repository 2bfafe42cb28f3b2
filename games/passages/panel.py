"""Passages' panel, drawn for one seat: the Game State, the contest or the fight under way,
the checks of the scene, and the Director's tools.

Every roll in Passages is made in the open and every Persona's tracks are in the Game State,
so every seat sees them; the figures on an NPC's sheet (behind the Director's screen, the
table's setting: ``Seat.hidden``) and the odds counted from them are the Director's alone
(``scene_view`` says what is whose).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from games.contract import Character, Seat
from games.core import now
from games.core.engine import RuleError
from games.passages import persona, rules, sheet, tracks
from games.passages import state as st
from games.passages.checks import may_check
from games.passages.figures import SHORT, SHOWN_BANDS, skill_rows, track
from games.passages.narrate import TRACK_LABELS, describe_check, summary
from games.passages.scene_view import combat_view, contest_view, d100

def _persona_view(person: Mapping[str, Any], secret: bool) -> dict[str, Any]:
    """A Persona of the scene; ``secret``: its sheet is behind the screen, so everyone's part
    alone: its tracks, whether it can fight on and its Combat Status (the Game State's)."""
    public = {
        "id": person["id"], "name": person["name"],
        "wounds": track(person["wounds"]), "fatigue": track(person["fatigue"]),
        "magic": track(person["magic"]), "untended": person["untended"],
        "eligible": st.eligible(person), "downed": bool(person.get("downed")),
        "unconscious": bool(person.get("unconscious")), "present": bool(person.get("present", True)),
        "state": tracks.state_word(person), "status": person.get("status", ""),
        "hindered": bool(person.get("hindered")), "modifier": int(person.get("modifier", 0)),
        "quiet_turns": person.get("quiet_turns", 0),
    }
    if secret:
        return {**public, "secret": True}
    combat_skill, combat_value = _selected(person, "combat")
    public.update(best_skill=best_skill(person["skills"]), tend_skill=tend_skill(person["skills"]))
    defense_skill, defense_value = _selected(person, "defense")
    return {
        **public, "skills": skill_rows(person["skills"]),
        "combat_skill": combat_skill, "combat": combat_value, "defense_skill": defense_skill,
        "defense": defense_value,
        "weapon": person["weapon"], "weapon_damage": person["weapon_damage"], "ranged": person["ranged"],
        "weapon_type": person.get("weapon_type", ""), "magic_combat": person.get("magic_combat", ""),
        "armour": person["armour"], "armour_effect": person["armour_effect"],
    }


# A skill whose name says it tends wounds, first for a tending.
TENDING_WORDS = ("first aid", "medic", "heal", "tend", "surgeon", "surgery", "chirurg", "physic", "nurs", "herb")


def best_skill(skills: Mapping[str, int]) -> str:
    """The skill a form offers first for a check or a contest: the Persona's highest BASE (its
    best chance; the first written of equals)."""
    return max(skills, key=lambda k: skills[k]) if skills else ""


def tend_skill(skills: Mapping[str, int]) -> str:
    """The skill a tending form offers first: the best of those whose name says it tends (First
    Aid, Medicine, Healing...), else the best of all."""
    tending = {k: v for k, v in skills.items() if any(w in k.lower() for w in TENDING_WORDS)}
    return best_skill(tending or skills)


def _selected(person: Mapping[str, Any], which: str) -> tuple[str, int]:
    """Selected Combat or Defense as a fight would take it; none for a Persona without skills."""
    try:
        return persona.selected(person, which)
    except RuleError:
        return "", 0


def _turn(state: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any] | None:
    """Whose move it is (games/contract.py, Panel): the parties still to roll in a contest;
    in a fight, the Personae still to declare, then those still to make their Combat Roll,
    then the Director, who calls the Resolution Point. Declarations and rolls are made in
    any order: the banner names the first still awaited and everyone it waits for."""
    def awaiting(ids: list[str], says: str, prompt: str) -> dict[str, Any]:
        shown = [names[c] for c in ids]
        who = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
        return {"combatant": ids[0], "gm": False, "says": says.format(who=who),
                "prompt": prompt.format(name=shown[0]), "waiting": list(ids),
                "prompts": {c: prompt.format(name=names[c]) for c in ids}}

    if state["mode"] == st.CONTEST:
        waiting = st.contest_waiting(state)
        if not waiting:
            return None
        return awaiting(waiting, f"Contest, round {state['contest']['round']}: waiting for {{who}} to roll",
                        "roll for {name} in the contest")
    if state["mode"] != st.COMBAT:
        return None
    turn = state["combat"]["turn"]
    declaring = st.waiting_to_declare(state)
    if declaring:
        return awaiting(declaring, f"Turn {turn}: waiting for the Declaration of {{who}}",
                        "declare {name} IN or OUT of the combat")
    if state["combat"]["phase"] == st.RESOLVED:  # the fight stood over; a side stands again
        return {"combatant": None, "gm": True, "says": f"Turn {turn} is over: the Director starts the next Turn",
                "prompt": "start the next Turn, or end the fight"}
    rolling = st.rolls_awaited(state)
    if rolling:
        return awaiting(rolling, f"Turn {turn}: waiting for the Combat Roll of {{who}}", "make {name}'s Combat Roll")
    return {"combatant": None, "gm": True, "says": f"Turn {turn}: the Director calls the Resolution Point",
            "prompt": "call the Resolution Point"}


def _title(state: Mapping[str, Any]) -> str:
    if state["mode"] == st.CONTEST:
        kind = "A magic duel" if state["contest"]["magic"] else "A contest"
        return f"{kind}, round {state['contest']['round']}"
    if state["mode"] == st.COMBAT:
        fight = state["combat"]
        return f"A fight, Turn {fight['turn']}: " + {st.DECLARE: "Declaration", st.TIMING: "the Combat Rolls",
                                                      st.RESOLVED: "its Resolution Point"}[fight["phase"]]
    return ""


def _last_contest(state: Mapping[str, Any], names: Mapping[str, str]) -> str:
    contest = state.get("contest") or {}
    result = contest.get("result")
    if state["mode"] != st.IDLE or not result:
        return ""
    return summary({"type": "contest_ended", **result}, state)


def panel(state: Mapping[str, Any], hidden: Collection[str] = frozenset()) -> dict[str, Any]:
    """What the panel shows a seat that may not see the sheets of ``hidden`` (none: the
    Director's view): every roll and every track, and no figure of a hidden sheet."""
    names = st.names_of(state)
    undo = state.get("undo") or []
    view: dict[str, Any] = {
        "mode": state["mode"], "title": _title(state), "turn": _turn(state, names),
        "conditions": state.get("scene_conditions", ""), "conditions_modifier": int(state.get("conditions_modifier", 0)),
        "hinder": bool(state.get("hinder")),  # the Director's standing call: one-off rolls are Challenges
        # each Persona of the contest or fight by id (the lists below give the order)
        "scene": {cid: _persona_view(state["personae"][cid], cid in hidden) for cid in st.in_scene(state)},
        "in_scene": st.present(state),
        "people": [{"id": cid, "name": names[cid]} for cid in st.in_scene(state)],  # the Director's forms
        "contest_ids": list(state["contest"]["active"]) if state["mode"] == st.CONTEST else [],
        "may_check": may_check(state),
        "checks": [{"line": describe_check(names.get(c["combatant"], ""), c, secret=c["combatant"] in hidden),
                    "die": d100(c["roll"])} for c in state["checks"]][::-1],
        "bands": [{"key": b, "label": rules.LABELS[b], "short": SHORT[b], "meaning": rules.MEANINGS[b]}
                  for b in SHOWN_BANDS],
        "tracks": [{"key": k, "label": TRACK_LABELS[k]} for k in sheet.TRACKS],
        "contest": None, "combat": None, "last_contest": _last_contest(state, names),
        "undo": undo[-1]["what"] if undo else "",  # the step as everyone read it
    }
    if state["mode"] == st.CONTEST:
        view["contest"] = contest_view(state, names, hidden)
    elif state["mode"] == st.COMBAT:
        view["combat"] = combat_view(state, names, hidden)
    return view


def view(state: Mapping[str, Any], seat: Seat) -> dict[str, Any]:
    """``Panel.view``: the panel for one seat, without the sheets it may not see."""
    drawn = panel(state, frozenset() if seat.is_gm else seat.hidden)
    return {**drawn, "now": now.line(drawn.get("turn"), seat)}


def character_view(character: Character) -> dict[str, Any]:
    """What the panel shows of a Persona at the table, in a scene or not: its skills with the
    odds of each band (for its check form) and its tracks as boxes, from its sheet."""
    try:
        cleaned = sheet.clean(character.sheet)
    except RuleError:
        return {"skills": [], "wounds": track(tracks.FULL), "fatigue": track(tracks.FULL), "state": ""}
    person = {**cleaned, "downed": cleaned["fatigue"] == 0, "unconscious": cleaned["wounds"] == 0}
    return {"skills": skill_rows(cleaned["skills"]), "best_skill": best_skill(cleaned["skills"]),
            "tend_skill": tend_skill(cleaned["skills"]), "wounds": track(cleaned["wounds"]),
            "fatigue": track(cleaned["fatigue"]), "untended": cleaned["untended"], "state": tracks.state_word(person),
            "eligible": tracks.eligible_fatigue(cleaned["untended"]),
            # a rest would restore something: Fatigue below its eligible level, or tended Wounds
            "restful": cleaned["fatigue"] < tracks.eligible_fatigue(cleaned["untended"])
            or cleaned["wounds"] + cleaned["untended"] < tracks.FULL}
