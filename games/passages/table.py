"""How Passages plugs into a table: the sheet as the platform's fields, its cleaning, what a
character card derives, the one-off check, and the writeback (the panel is ``panel``'s).

Pure Python like the rest of the engine; the platform renders what this returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Character, Glance
from games.core.rng import Rng
from games.passages import rules, sheet, tracks
from games.passages import state as st
from games.passages.errors import BadSheet, CannotAct, RuleError
from games.passages.figures import chances, skill_rows, state_word, track
from games.passages.narrate import describe_check
from games.passages.panel import panel, view
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


def roll_check(data: Mapping[str, Any], *, name: str, skill: str, mode: str, rng: Rng,
               secret: bool = False) -> tuple[dict[str, Any], str]:
    """Rolls a check, a challenge or a practice for the Persona whose sheet is ``data``:
    (the event's data, its log line). A ``secret`` sheet's (an NPC's): the line everyone reads
    holds the roll and its band, the data's ``gm_line`` (screen.py: the Director's alone) the
    figures too."""
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
    line = describe_check(name, data_out)
    if secret:
        return {**data_out, "gm_line": line}, describe_check(name, data_out, secret=True)
    return data_out, line


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


__all__ = ["FIELDS", "chances", "character_view", "clean_sheet", "derived", "glance", "panel", "roll_check",
           "skill_rows", "state_word", "track", "view", "writeback"]
