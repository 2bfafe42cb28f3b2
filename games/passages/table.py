"""How Passages plugs into a table: the sheet as the platform's fields, its cleaning, what a
character card derives, the panel's view, the one-off check, and the writeback.

Pure Python like the rest of the engine; the platform renders what this returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.rng import Rng
from games.passages import combat, odds, rules, sheet, tracks
from games.passages import state as st
from games.passages.errors import BadSheet, CannotAct, RuleError
from games.passages.narrate import describe_check
from games.sheets import SheetError, SheetField

FIELDS: tuple[SheetField, ...] = (
    SheetField("skills", "Skills", "skills", default={},
               help="One per line, 'Skill: BASE', each BASE 1-95 (95 is Mastered). The sheet shows each "
                    "skill's Double Up, Double Down and Core."),
    SheetField("wounds", "Wounds", "int", default=tracks.FULL,
               help="0-100, drawn as 20 boxes of 5. At 0 the Persona is Unconscious."),
    SheetField("fatigue", "Fatigue", "int", default=tracks.FULL,
               help="0-100, drawn as 20 boxes of 5; a tick is 5. At 0 the Persona may only rest."),
    SheetField("untended", "Untended Wounds", "int", default=0,
               help="Wound points not yet tended: each costs a Fatigue point every Turn of a fight."),
    SheetField("magic", "Magical Resources", "int", default=tracks.FULL,
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
    """What a character card shows but nobody types: each skill's bands, the track states."""
    try:
        cleaned = sheet.clean(data)
    except RuleError:
        return []
    shown = [(row["name"], f"BASE {row['base']} · DU {row['du']} · DD {row['dd']} · Core {row['core']}")
             for row in sheet.skill_rows(cleaned["skills"])]
    shown.append(("Wounds", f"{cleaned['wounds']} / {tracks.FULL}"))
    shown.append(("Fatigue", f"{cleaned['fatigue']} / {tracks.FULL}"))
    if cleaned["wounds"] == 0:
        shown.append(("State", "Unconscious"))
    elif cleaned["fatigue"] == 0:
        shown.append(("State", "Downed: may only rest"))
    return shown


def track(value: int) -> dict[str, Any]:
    """A track for the panel: its points and its 20 boxes of 5."""
    return {"value": value, "max": tracks.FULL, "ticks": value // tracks.TICK, "boxes": tracks.boxes(value)}


def _persona_view(person: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "id": person["id"], "name": person["name"],
        "wounds": track(person["wounds"]), "fatigue": track(person["fatigue"]),
        "magic": track(person["magic"]), "untended": person["untended"],
        "eligible": st.eligible(person), "downed": bool(person.get("downed")),
        "unconscious": bool(person.get("unconscious")), "present": bool(person.get("present", True)),
        "status": person.get("status", ""), "skills": sheet.skill_rows(person["skills"]),
        "weapon": person["weapon"], "weapon_damage": person["weapon_damage"], "ranged": person["ranged"],
        "armour": person["armour"], "armour_effect": person["armour_effect"],
    }


def _contest_view(state: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    contest = state["contest"]
    return {
        "round": contest["round"], "magic": contest["magic"], "cost": contest["cost"],
        "parties": [{"id": cid, "name": names[cid], "active": cid in contest["active"],
                     "challenge": cid in contest["challenge"], "rolled": contest["rolls"].get(cid)}
                    for cid in contest["parties"]],
        "waiting": [names[c] for c in st.contest_waiting(state)],
        "history": contest["history"][-5:], "result": contest["result"],
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


def _combat_view(state: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    fight = state["combat"]
    declared = []
    for cid in st.in_scene(state):
        d = fight["declared"].get(cid)
        if d is None:
            continue
        declared.append({**d, "name": names[cid], "target_name": names.get(d.get("target", ""), ""),
                         "patient_name": names.get(d.get("patient", ""), ""),
                         "timing": fight["timing"].get(cid), "roll": fight["rolls"].get(cid)})
    pairs = []
    if fight["phase"] == st.TIMING:
        done = {(p["a"], p["b"]) for p in fight["pairings"]}
        for pairing in st.pairings(state):
            pairs.append({**pairing, "a_name": names[pairing["a"]], "b_name": names[pairing["b"]],
                          "resolved": (pairing["a"], pairing["b"]) in done,
                          "odds": _pairing_odds(state, pairing)})
    return {
        "turn": fight["turn"], "phase": fight["phase"], "declared": declared,
        "waiting_to_declare": [names[c] for c in st.waiting_to_declare(state)],
        "waiting_to_roll": [names[c] for c in st.waiting_to_roll(state)],
        "pairings": pairs, "results": fight["pairings"],
        "ready": fight["phase"] == st.TIMING and not st.waiting_to_roll(state),
        "last_resolution": fight["resolutions"][-1] if fight["resolutions"] else None,
    }


def panel(state: Mapping[str, Any]) -> dict[str, Any]:
    """What the panel shows, the same for the Director, the players and spectators: every
    roll in Passages is made in the open."""
    names = st.names_of(state)
    view: dict[str, Any] = {
        "mode": state["mode"], "conditions": state["conditions"],
        "personae": [_persona_view(state["personae"][cid]) for cid in st.in_scene(state)],
        "checks": [{**c, "name": names.get(c["combatant"], c["combatant"]),
                    "label": rules.LABELS[c["band"]]} for c in state["checks"]],
        "bands": [{"key": b, "label": rules.LABELS[b], "meaning": rules.MEANINGS[b]} for b in rules.BANDS],
        "armour_effects": [combat.NONE, combat.HALVE, combat.DOUBLE, "+1", "-1"],
        "contest": None, "combat": None,
        "last_contest": (state.get("contest") or {}).get("result") if state["mode"] == st.IDLE else None,
    }
    if state["mode"] == st.CONTEST:
        view["contest"] = _contest_view(state, names)
    elif state["mode"] == st.COMBAT:
        view["combat"] = _combat_view(state, names)
    return view


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


def writeback(event: Mapping[str, Any], state: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """When a contest or a fight ends, each Persona's tracks go back on its sheet."""
    if event.get("type") not in ("contest_ended", "combat_ended"):
        return {}
    return {cid: {k: p[k] for k in sheet.LASTING} for cid, p in state["personae"].items()}
