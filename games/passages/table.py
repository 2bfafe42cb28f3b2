"""How Passages plugs into a table: the sheet as the platform's fields, its cleaning, what a
character card derives, the panel's view, the one-off check, and the writeback.

Pure Python like the rest of the engine; the platform renders what this returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Character, Glance
from games.core.rng import Rng
from games.passages import odds, rules, sheet, tracks
from games.passages import state as st
from games.passages.errors import BadSheet, CannotAct, RuleError
from games.passages.narrate import TRACK_LABELS, describe_check, summary
from games.sheets import SheetError, SheetField

FIELDS: tuple[SheetField, ...] = (
    SheetField("skills", "Skills", "skills", default={},
               help="One per line, 'Skill: BASE', each BASE 1-95 (95 is Mastered). The sheet shows each "
                    "skill's Double Up, Double Down and Core."),
    SheetField("wounds", "Wounds", "int", default=tracks.FULL, rules="kept",
               help="0-100, drawn as 20 boxes of 5. At 0 the Persona is Unconscious."),
    SheetField("fatigue", "Fatigue", "int", default=tracks.FULL, rules="kept",
               help="0-100, drawn as 20 boxes of 5; a tick is 5. At 0 the Persona may only rest."),
    SheetField("untended", "Untended Wounds", "int", default=0, rules="kept",
               help="Wound points not yet tended: each costs a Fatigue point every Turn of a fight."),
    SheetField("magic", "Magical Resources", "int", default=tracks.FULL, rules="kept",
               help="0-100. A magic duel spends these instead of Fatigue."),
    SheetField("combat_skill", "Selected Combat", "text", default="", max_length=sheet.MAX_TEXT,
               help="The skill this Persona attacks with; blank means the highest skill."),
    SheetField("defense_skill", "Selected Defense", "text", default="", max_length=sheet.MAX_TEXT,
               help="The skill this Persona defends with; blank means the highest skill."),
    SheetField("weapon", "Weapon", "text", default="", max_length=sheet.MAX_TEXT),
    SheetField("weapon_damage", "Weapon damage", "int", default=0,
               help="The weapon's set damage; a blow deals no more than the attacker's skill."),
    SheetField("ranged", "Ranged weapon", "bool", default=False,
               help="A ranged weapon starts a roll-off only against another ranged weapon."),
    SheetField("armour", "Armour", "text", default="", max_length=sheet.MAX_TEXT),
    SheetField("armour_effect", "Armour's effect", "text", default="none", max_length=20,
               help="none, halve, double, +N (increase) or -N (decrease): what it does to the damage."),
)


def clean_sheet(data: Mapping[str, Any]) -> dict[str, Any]:
    """A submitted sheet as the engine will read it; ``SheetError`` names the field at fault."""
    try:
        return sheet.clean(data)
    except BadSheet as exc:
        raise SheetError(exc.field, exc.message) from None


def derived(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """What a character card shows but nobody types: each skill's Double Up, Double Down and
    Core (the BASE is among its stats; the tracks and Downed are its bars and tags)."""
    try:
        cleaned = sheet.clean(data)
    except RuleError:
        return []
    return [(row["name"], f"DU {row['du']}, DD {row['dd']}, Core {row['core']}")
            for row in sheet.skill_rows(cleaned["skills"])]


def track(value: int) -> dict[str, Any]:
    """A track for the panel: its points and its 20 boxes of 5, as one digit a box (the points
    it holds, 0-5: "55555555555555555540" is 94), which the template draws box by box."""
    return {"value": value, "max": tracks.FULL, "ticks": value // tracks.TICK,
            "boxes": "".join(str(b["points"]) for b in tracks.boxes(value))}


# Best first, as a player reads their chances.
SHOWN_BANDS = tuple(reversed(rules.BANDS))
SHORT = {rules.DOUBLE_DOWN: "DD", rules.SUCCESS: "Success", rules.DOUBLE_UP: "DU",
         rules.BLOWN: "Blown", rules.CRITICAL_FAIL: "Crit. Fail"}


def chances(base: int, *, challenge: bool = False) -> dict[str, Any]:
    """The chance of each band for one roll of this BASE (or its Core), best first, in whole
    percent (exact: a d100 has 100 faces), and the chance of any success."""
    odds_ = odds.check(base, challenge=challenge)
    return {"bands": [round(odds_[b] * 100) for b in SHOWN_BANDS],
            "success": round(odds.success(base, challenge=challenge) * 100)}


def skill_rows(skills: Mapping[str, int]) -> list[dict[str, Any]]:
    """Each skill with its DU, DD and Core, and the chance of each band as a check and as a
    challenge: the odds shown beside every roll."""
    return [{**row, "check": chances(row["base"]), "challenge": chances(row["base"], challenge=True)}
            for row in sheet.skill_rows(skills)]


def state_word(person: Mapping[str, Any]) -> str:
    if person.get("unconscious") or person["wounds"] <= 0:
        return "Unconscious"
    if person.get("downed") or person["fatigue"] <= 0:
        return "Downed"
    return ""


def _persona_view(person: Mapping[str, Any]) -> dict[str, Any]:
    combat_skill, combat_value = _selected(person, "combat")
    defense_skill, defense_value = _selected(person, "defense")
    return {
        "id": person["id"], "name": person["name"],
        "wounds": track(person["wounds"]), "fatigue": track(person["fatigue"]),
        "magic": track(person["magic"]), "untended": person["untended"],
        "eligible": st.eligible(person), "downed": bool(person.get("downed")),
        "unconscious": bool(person.get("unconscious")), "present": bool(person.get("present", True)),
        "state": state_word(person), "status": person.get("status", ""), "skills": skill_rows(person["skills"]),
        "combat_skill": combat_skill, "combat": combat_value, "defense_skill": defense_skill,
        "defense": defense_value, "quiet_turns": person.get("quiet_turns", 0),
        "weapon": person["weapon"], "weapon_damage": person["weapon_damage"], "ranged": person["ranged"],
        "armour": person["armour"], "armour_effect": person["armour_effect"],
    }


def _selected(person: Mapping[str, Any], which: str) -> tuple[str, int]:
    """Selected Combat or Defense as a fight would take it; none for a Persona without skills."""
    try:
        return sheet.selected(person, which)
    except RuleError:
        return "", 0


def _line(kind: str, event: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    """What the log said of a recorded event (stored without its type), said again."""
    return summary({**event, "type": kind}, state)


def _contest_view(state: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    contest = state["contest"]
    resource = "magic" if contest["magic"] else "fatigue"
    return {
        "round": contest["round"], "magic": contest["magic"], "cost": contest["cost"],
        "resource": "Magical Resources" if contest["magic"] else "Fatigue",
        "parties": [{"id": cid, "name": names[cid], "active": cid in contest["active"],
                     "challenge": cid in contest["challenge"], "rolled": contest["rolls"].get(cid),
                     "waiting": cid in st.contest_waiting(state),
                     "left": state["personae"][cid][resource]}
                    for cid in contest["parties"]],
        "waiting": [names[c] for c in st.contest_waiting(state)],
        "history": [_line("contest_round", {**h, "resource": resource}, state) for h in contest["history"][-5:]],
        "result": contest["result"],
    }


def _pairing_odds(state: Mapping[str, Any], pairing: Mapping[str, Any]) -> dict[str, Any]:
    declared, timing = state["combat"]["declared"], state["combat"]["timing"]
    a, b = declared[pairing["a"]], declared.get(pairing["b"], {})
    a_timing = timing.get(pairing["a"], {}).get("modifier", 0)
    if pairing["kind"] == "mutual":
        o = odds.pairing(a["combat"], a["defense"], b["combat"], b["defense"], a_timing=a_timing,
                         b_timing=timing.get(pairing["b"], {}).get("modifier", 0))
        return {key: odds.percent(v) for key, v in o.items()}
    defense = b.get("defense", sheet.selected(state["personae"][pairing["b"]], "defense")[1])
    return {"a_lands": odds.percent(odds.lands(a["combat"], defense, a_timing))}


def _declaration(d: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """A Declaration in plain words, for the Game State's table."""
    if d["stance"] == st.IN:
        shot = ", ranged" if d.get("ranged") else ""
        return (f"IN: {d['intent']} against {names.get(d['target'], '')}, with {d['combat_skill']} "
                f"{d['combat']} (defends at {d['defense']}; damage {d['damage']}{shot})")
    if d["action"] == st.REST:
        return "OUT: rests" + (" (Downed: rest only)" if d.get("auto") else "")
    if d["action"] == st.TEND:
        patient = d.get("patient")
        return "OUT: tends " + ("their own wounds" if patient == d["combatant"] else
                                f"{names.get(patient or '', '')}'s wounds")
    if d["action"] == "unconscious":
        return "Unconscious: no Action"
    return f"OUT: {d['action']}"


def _combat_view(state: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    fight = state["combat"]
    to_declare, to_roll = st.waiting_to_declare(state), st.waiting_to_roll(state)
    rows = []
    for cid in st.in_scene(state):
        d = fight["declared"].get(cid)
        roll = fight["rolls"].get(cid)
        rows.append({
            "id": cid, "name": names[cid], "declared": _declaration(d, names) if d else "",
            "stance": d["stance"] if d else "", "awaiting": "declare" if cid in to_declare else
            "roll" if cid in to_roll else "", "timing": fight["timing"].get(cid),
            "roll": _line("combat_rolled", roll, state) if roll else "",
        })
    pairs = []
    if fight["phase"] == st.TIMING:
        done = {(p["a"], p["b"]): p for p in fight["pairings"]}
        for pairing in st.pairings(state):
            result = done.get((pairing["a"], pairing["b"]))
            pairs.append({**pairing, "a_name": names[pairing["a"]], "b_name": names[pairing["b"]],
                          "resolved": result is not None,
                          "line": _line("pairing_resolved", result, state) if result else "",
                          "odds": _pairing_odds(state, pairing)})
    last = fight["resolutions"][-1] if fight["resolutions"] else None
    return {
        "turn": fight["turn"], "phase": fight["phase"],
        "phase_label": "Declaration" if fight["phase"] == st.DECLARE else "the Combat Rolls",
        "rows": rows, "pairings": pairs,
        "waiting_to_declare": [names[c] for c in to_declare],
        "waiting_to_roll": [names[c] for c in to_roll],
        "may_time": [{"id": c, "name": names[c]} for c in st.attackers(state) if c not in fight["rolls"]],
        "ready": fight["phase"] == st.TIMING and not to_roll,
        "last_resolution": None if last is None else {
            "turn": last["turn"], "rows": [_resolution_row(r, names) for r in last["rows"]]},
    }


def _resolution_row(row: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """One Persona at the Resolution Point, each step in the seed's order."""
    before, after = row["before"], row["after"]
    parts = [f"damage {row['damage']}" if row["damage"] else "",
             f"combat action {row['action']}" if row["action"] else "",
             f"failing {row['failing']}" if row["failing"] else "",
             f"untended wounds {row['drain']}" if row["drain"] else "",
             "wounds tended" if row["tended"] else "",
             f"recovers {row['recovered']}" if row["recovered"] else ""]
    return {"name": names.get(row["combatant"], ""), "wounds": f"{before['wounds']} → {after['wounds']}",
            "fatigue": f"{before['fatigue']} → {after['fatigue']}",
            "why": ", ".join(p for p in parts if p) or "nothing changes",
            "state": "Unconscious" if row["unconscious"] else "Downed" if row["downed"] else ""}


def _turn(state: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any] | None:
    """Whose move it is (games/contract.py, Panel): the parties still to roll in a contest;
    in a fight, the Personae still to declare, then those still to make their Combat Roll,
    then the Director, who calls the Resolution Point. Declarations and rolls are made in
    any order: the banner names the first still awaited and everyone it waits for."""
    def waiting_for(ids: list[str]) -> str:
        shown = [names[c] for c in ids]
        return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]

    if state["mode"] == st.CONTEST:
        waiting = st.contest_waiting(state)
        if not waiting:
            return None
        first = names[waiting[0]]
        return {"combatant": waiting[0], "gm": False,
                "says": f"Contest, round {state['contest']['round']}: waiting for {waiting_for(waiting)} to roll",
                "prompt": f"roll for {first} in the contest"}
    if state["mode"] != st.COMBAT:
        return None
    turn = state["combat"]["turn"]
    declaring = st.waiting_to_declare(state)
    if declaring:
        first = names[declaring[0]]
        return {"combatant": declaring[0], "gm": False,
                "says": f"Turn {turn}: waiting for the Declaration of {waiting_for(declaring)}",
                "prompt": f"declare {first} IN or OUT of the combat"}
    rolling = [c for c in st.waiting_to_roll(state)
               if state["personae"][state["combat"]["declared"][c]["target"]].get("present", True)]
    if rolling:
        first = names[rolling[0]]
        return {"combatant": rolling[0], "gm": False,
                "says": f"Turn {turn}: waiting for the Combat Roll of {waiting_for(rolling)}",
                "prompt": f"make {first}'s Combat Roll"}
    return {"combatant": None, "gm": True, "says": f"Turn {turn}: the Director calls the Resolution Point",
            "prompt": "call the Resolution Point"}


def _title(state: Mapping[str, Any]) -> str:
    if state["mode"] == st.CONTEST:
        kind = "A magic duel" if state["contest"]["magic"] else "A contest"
        return f"{kind}, round {state['contest']['round']}"
    if state["mode"] == st.COMBAT:
        fight = state["combat"]
        return f"A fight, Turn {fight['turn']}: " + ("Declaration" if fight["phase"] == st.DECLARE
                                                      else "the Combat Rolls")
    return ""


def _last_contest(state: Mapping[str, Any], names: Mapping[str, str]) -> str:
    contest = state.get("contest") or {}
    result = contest.get("result")
    if state["mode"] != st.IDLE or not result:
        return ""
    return summary({"type": "contest_ended", **result}, state)


def panel(state: Mapping[str, Any]) -> dict[str, Any]:
    """What the panel shows, the same for the Director, the players and spectators: every
    roll in Passages is made in the open."""
    names = st.names_of(state)
    undo = state.get("undo") or []
    view: dict[str, Any] = {
        "mode": state["mode"], "title": _title(state), "turn": _turn(state, names),
        "conditions": state["conditions"],
        # each Persona of the contest or fight by id (the lists below give the order)
        "scene": {cid: _persona_view(state["personae"][cid]) for cid in st.in_scene(state)},
        "in_scene": st.present(state),
        "contest_ids": list(state["contest"]["active"]) if state["mode"] == st.CONTEST else [],
        "checks": [describe_check(names.get(c["combatant"], ""), c) for c in state["checks"]][::-1],
        "bands": [{"key": b, "label": rules.LABELS[b], "short": SHORT[b], "meaning": rules.MEANINGS[b]}
                  for b in SHOWN_BANDS],
        "tracks": [{"key": k, "label": TRACK_LABELS[k]} for k in sheet.TRACKS],
        "contest": None, "combat": None, "last_contest": _last_contest(state, names),
        "undo": undo[-1]["what"] if undo else "",
    }
    if state["mode"] == st.CONTEST:
        view["contest"] = _contest_view(state, names)
    elif state["mode"] == st.COMBAT:
        view["combat"] = _combat_view(state, names)
    return view


def glance(data: Mapping[str, Any]) -> Glance:
    """The character card: the skills that matter (Selected Combat and Defense first, then the
    highest) with their BASE, Wounds and Fatigue of 100, and whether it is Downed or worse."""
    try:
        cleaned = sheet.clean(data)
    except RuleError:
        return Glance()
    skills = cleaned["skills"]
    first = [k for k in (sheet.skill_key(skills, cleaned["combat_skill"]),
                         sheet.skill_key(skills, cleaned["defense_skill"])) if k]
    rest = sorted((k for k in skills if k not in first), key=lambda k: (-skills[k], k.casefold()))
    shown = list(dict.fromkeys(first + rest))[:GLANCE_SKILLS]
    person = {**cleaned, "downed": cleaned["fatigue"] == 0, "unconscious": cleaned["wounds"] == 0}
    word = state_word(person)
    tags = [word] if word else []
    if cleaned["untended"]:
        tags.append(f"Untended Wounds {cleaned['untended']}")
    return Glance(stats=tuple((k, str(skills[k])) for k in shown),
                  tracks=(("Wounds", cleaned["wounds"], tracks.FULL), ("Fatigue", cleaned["fatigue"], tracks.FULL)),
                  tags=tuple(tags), out=bool(word))


GLANCE_SKILLS = 6


def character_view(character: Character) -> dict[str, Any]:
    """What the panel shows of a Persona at the table, in a scene or not: its skills with the
    odds of each band (for its check form) and its tracks as boxes, from its sheet."""
    try:
        cleaned = sheet.clean(character.sheet)
    except RuleError:
        return {"skills": [], "wounds": track(tracks.FULL), "fatigue": track(tracks.FULL), "state": ""}
    person = {**cleaned, "downed": cleaned["fatigue"] == 0, "unconscious": cleaned["wounds"] == 0}
    return {"skills": skill_rows(cleaned["skills"]), "wounds": track(cleaned["wounds"]),
            "fatigue": track(cleaned["fatigue"]), "untended": cleaned["untended"], "state": state_word(person)}


# The one-off check, outside any contest or fight (Demon City's task, for Passages).

CHECK, CHALLENGE, PRACTICE = "check", "challenge", "practice"
MODES = (CHECK, CHALLENGE, PRACTICE)


def roll_check(data: Mapping[str, Any], *, name: str, skill: str, mode: str, rng: Rng) -> tuple[dict[str, Any], str]:
    """Rolls a check, a challenge or a practice for the Persona whose sheet is ``data``:
    (the event's data, its log line)."""
    cleaned = sheet.clean(data)
    person = {**cleaned, "id": "me", "name": name}
    if cleaned["wounds"] <= 0:
        raise CannotAct(f"{name} is Unconscious and cannot act until revived.")
    if cleaned["fatigue"] <= 0:
        raise CannotAct(f"{name} is Downed and may only rest.")
    skill_name, base = sheet.skill(person, skill)
    if mode == PRACTICE:
        result = rules.practice(skill_name, base)
    else:
        result = rules.check(skill_name, base, rng, challenge=mode == CHALLENGE)
    data_out = result.to_dict()
    return data_out, describe_check(name, data_out)


# Events after which the sheets keep each Persona's tracks as the scene has them: so the
# character cards beside the table say what the panel says, turn by turn.
_KEPT_AT = frozenset({"contest_round", "resolution_point", "track_corrected", "undone"})
_ENDS = frozenset({"contest_ended", "combat_ended"})


def writeback(event: Mapping[str, Any], state: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Each Persona's tracks go back on its sheet when a contest round or a Resolution Point
    changes them, when the Director corrects one or takes a step back, and when it ends. Seed:
    "Health and Fatigue are the current values of the Persona at the Resolution Point". An
    undo back to before the scene writes nothing: the sheets are as they were then."""
    kind = event.get("type")
    if kind in _ENDS:
        return {cid: {k: p[k] for k in sheet.LASTING} for cid, p in state["personae"].items()}
    if kind in _KEPT_AT:
        return {cid: {k: state["personae"][cid][k] for k in sheet.LASTING} for cid in st.in_scene(state)}
    return {}
