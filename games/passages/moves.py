"""Passages' moves: for each, its parser (the submitted form to the handler's arguments: the one
check of what was sent, made without reading the state), its handler, who may send it and the
argument naming its Persona; and the one-off check, outside any contest or fight.

A player sends the moves of their own Persona (``combatant``: the core refuses anyone else's),
the Director those and every other; what the values mean against the scene (a skill the
Persona has, a target in the fight, the moment) is the handlers' to judge, under the lock.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.contract import Check, CheckRun, Table
from games.core.engine import Move, players_move
from games.core.fights import side_move
from games.forms import Form, texts, value, values, whole, yes_no
from games.passages import checks, contest, director, fight, sheet, tracks
from games.passages.audiences import CHECK_EVENT
from games.passages import state as st
from games.passages.errors import BadValue, NotNow
from games.passages.resolution import RESULT_KINDS
from games.passages.working import check_rolled_working

# What a move looks up by name (a Persona's id, a skill): refused when longer than any could be.
NAMES = ("combatant", "skill", "target", "patient", "combat", "defense")
NAME_LIMIT = 300
SAID_LIMIT, STATUS_LIMIT, CONDITIONS_LIMIT = 200, 120, 300


def _too_long(limit: int) -> Callable[[str], BadValue]:
    return lambda key: BadValue(f"{key.capitalize()} is at most {limit} characters.")


def parse_names(form: Form, table: Table) -> dict[str, Any]:
    """The names sent (blank ones left out); a move reads those it needs."""
    return texts(form, NAMES, max_length=NAME_LIMIT, refuse=_too_long(NAME_LIMIT))


def _said(form: Form, key: str, limit: int = SAID_LIMIT) -> dict[str, str]:
    """What someone says (an Intent, an Action, a reason, a status), its spaces run together;
    nothing when blank."""
    said = " ".join(value(form, key).split())
    if len(said) > limit:
        raise _too_long(limit)(key)
    return {key: said} if said else {}


def _number(form: Form, key: str, label: str, low: int, high: int, *, required: bool = False) -> dict[str, int]:
    """A whole number from ``low`` to ``high``; nothing when blank, unless ``required``."""
    number = whole(form, key, refuse=lambda raw: BadValue(f"{label} is a whole number, not {raw[:20]!r}."))
    if number is None and not required:
        return {}
    if number is None or not low <= number <= high:
        raise BadValue(f"{label} is a whole number from {low} to {high}.")
    return {key: number}


def _flag(form: Form, key: str) -> bool | None:
    return yes_no(form, key, refuse=lambda raw: BadValue(f"{key.capitalize()} is yes or no."))


def _personae(form: Form, table: Table, key: str = "characters") -> list[str]:
    return [c.cid for c in table.chosen(values(form, key))]


def parse_nothing(form: Form, table: Table) -> dict[str, Any]:
    return {}


def parse_check(form: Form, table: Table) -> dict[str, Any]:
    return {**parse_names(form, table), "challenge": bool(_flag(form, "challenge"))}


def _scene(form: Form, table: Table) -> dict[str, Any]:
    chosen = _personae(form, table)
    if len(chosen) < 2:
        raise BadValue("Choose at least two Personae.")
    return {"combatants": chosen}


def parse_join(form: Form, table: Table) -> dict[str, Any]:
    chosen = _personae(form, table)
    if not chosen:
        raise BadValue("Choose who joins.")
    return {"combatants": chosen}


def parse_result(form: Form, table: Table) -> dict[str, Any]:
    kind = value(form, "kind").strip().lower()
    if kind not in RESULT_KINDS:
        raise BadValue(f"An entry is one of {', '.join(RESULT_KINDS)}.")
    return {**parse_names(form, table), "kind": kind, **_said(form, "text"),
            **_number(form, "wounds", "Wound points", 0, tracks.FULL),
            **_number(form, "fatigue", "Fatigue points", 0, tracks.FULL)}


def parse_contest_start(form: Form, table: Table) -> dict[str, Any]:
    return {**_scene(form, table), "challenge": _personae(form, table, "challenge"),
            "magic": bool(_flag(form, "magic")), **_number(form, "cost", "The cost of a tick", 0, tracks.FULL)}


def parse_contest_cost(form: Form, table: Table) -> dict[str, Any]:
    return _number(form, "cost", "The cost of a tick", 0, tracks.FULL, required=True)


def parse_combat_start(form: Form, table: Table) -> dict[str, Any]:
    return {**_scene(form, table), **_said(form, "conditions", CONDITIONS_LIMIT)}


def parse_declare(form: Form, table: Table) -> dict[str, Any]:
    args = {**parse_names(form, table), **_said(form, "intent"), **_said(form, "action"),
            **_number(form, "damage", "A weapon's damage", 0, sheet.MAX_WEAPON_DAMAGE)}
    ranged = _flag(form, "ranged")
    if ranged is not None:
        args["ranged"] = ranged
    if _flag(form, "magic"):
        args["magic"] = True
    stance = value(form, "stance").strip().lower()
    if stance not in ("in", "out"):
        raise BadValue("Declare IN or OUT of the combat.")
    return {**args, "stance": stance}


def parse_timing(form: Form, table: Table) -> dict[str, Any]:
    return {**parse_names(form, table), **_said(form, "reason"),
            **_number(form, "modifier", "A Timing modifier", -100, 100, required=True)}


def parse_conditions(form: Form, table: Table) -> dict[str, Any]:
    hinder = _flag(form, "hinder")
    return {"conditions": _said(form, "conditions", CONDITIONS_LIMIT).get("conditions", ""),
            **_number(form, "modifier", "A modifier", -100, 100), **({} if hinder is None else {"hinder": hinder})}


def parse_status(form: Form, table: Table) -> dict[str, Any]:
    hindered = _flag(form, "hindered")
    return {**parse_names(form, table), **_said(form, "status", STATUS_LIMIT),
            "present": _flag(form, "present") is not False, **({} if hindered is None else {"hindered": hindered}),
            **_number(form, "modifier", "A modifier", -100, 100)}


def parse_correct(form: Form, table: Table) -> dict[str, Any]:
    track = value(form, "track").strip()
    if track not in sheet.TRACKS:
        raise BadValue(f"A track is one of {', '.join(sheet.TRACKS)}.")
    number = whole(form, "value", refuse=lambda raw: BadValue(f"A track's value is a whole number, not {raw[:20]!r}."))
    if number is None or not 0 <= number <= tracks.FULL:
        raise BadValue(f"{track.capitalize()} is a whole number from 0 to {tracks.FULL}.")
    return {**parse_names(form, table), "track": track, "value": number}



MOVES: tuple[Move, ...] = (
    players_move("check", "Roll a check", parse_check, checks.check, subject="combatant"),
    players_move("practice", "Practise a skill", parse_names, checks.practice, subject="combatant"),
    Move("contest_start", "Start a contest", parse_contest_start, contest.contest_start),
    players_move("contest_roll", "Roll in the contest", parse_names, contest.contest_roll, subject="combatant"),
    players_move("contest_break_off", "Break off the contest", parse_names, contest.contest_break_off, subject="combatant"),
    Move("contest_cost", "Change a tick's cost", parse_contest_cost, contest.contest_cost),
    Move("combat_start", "Start a fight", parse_combat_start, fight.combat_start),
    players_move("declare", "Declare", parse_declare, fight.declare, subject="combatant"),
    players_move("rest", "Rest", parse_names, fight.rest, subject="combatant"),
    players_move("tend", "Tend wounds", parse_check, fight.tend, subject="combatant"),
    Move("timing", "Set Timing", parse_timing, fight.timing),
    players_move("combat_roll", "Roll the Combat Roll", parse_names, fight.combat_roll, subject="combatant"),
    Move("resolve", "Call the Resolution Point", parse_nothing, fight.resolve),
    Move("set_conditions", "Set the Conditions", parse_conditions, director.set_conditions),
    Move("set_status", "Set a Persona's status", parse_status, director.set_status),
    Move("correct", "Correct a track", parse_correct, director.correct),
    Move("join", "Bring in reinforcements", parse_join, director.join),
    Move("result", "Enter a Result or Consequence", parse_result, director.result),
    Move("end", "End it", parse_nothing, director.end),
    side_move(),  # the Director moves a Persona to a side ("set_side", games/core/fights.py)
)


# The one-off check, outside any contest or fight: its player's or the Director's to roll (the
# platform checks the sender against ``character`` before ``run``).


def parse_roll_check(form: Form, table: Table) -> dict[str, Any]:
    character = table.character(value(form, "character") or None)
    if character is None:
        raise BadValue("Choose a Persona.")
    skill = parse_names(form, table).get("skill")
    if not skill:
        raise BadValue("Name the skill to roll.")
    mode = value(form, "mode", checks.CHECK).strip().lower() or checks.CHECK
    if mode not in checks.MODES:
        raise BadValue("Roll a check, a challenge or a practice.")
    # a call for this roll (the Director's form: "call"; "mode" challenge, the "as a challenge"
    # box): none leaves it to the Director's standing call (``checks.called_for``)
    call = value(form, "call").strip().lower() or None
    if call not in (None, checks.CHECK, checks.CHALLENGE):
        raise BadValue("A roll is called a check or a challenge.")
    if mode == checks.CHALLENGE or _flag(form, "challenge"):
        call = checks.CHALLENGE
    if mode == checks.PRACTICE:
        call = None
    return {"character": character.id, "skill": skill, "mode": checks.PRACTICE if mode == checks.PRACTICE
            else checks.CHECK, **({"call": call} if call else {})}


def run_check(run: CheckRun) -> tuple[dict[str, Any], str]:
    me = run.characters[run.args["character"]]
    # a Persona in the contest or fight under way checks there, as its Action (a challenge when
    # attacked, and never while Downed): this route knows no fight. Read under the table's lock.
    scene = run.state or {}
    if scene.get("mode") in (st.CONTEST, st.COMBAT) and me.cid in st.present(scene):
        where = "fight" if scene["mode"] == st.COMBAT else "contest"
        raise NotNow(f"{me.name} is in the {where} under way: roll the check there.")
    mode = checks.PRACTICE if run.args["mode"] == checks.PRACTICE else checks.called_for(
        scene, run.args.get("call"), is_gm=run.member.is_gm)
    if mode == checks.CHECK and st.hindered(scene, me.cid):  # a lasting condition that hinders
        mode = checks.CHALLENGE
    return checks.roll_check(me.sheet, name=me.name, skill=run.args["skill"], mode=mode, rng=run.rng,
                             secret=me.is_npc)


CHECK_ROLL = Check(
    name="check", label="Roll a check", parse=parse_roll_check, run=run_check, event=CHECK_EVENT,
    notice="games/passages/panel.html#check_notice", working=check_rolled_working,
)
