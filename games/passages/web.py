"""Passages' forms: each command's and the one-off check's arguments read from submitted form
data, and the odds page's figures. Plain functions over ``games.forms.Form`` and ``Table``;
the engine judges what the values mean.
"""

from __future__ import annotations

from typing import Any

from games.contract import Check, CheckRun, Command, Page, Parser, Sender, Table
from games.forms import Form, bounded, texts, value, values, whole, yes_no
from games.passages import odds, rules
from games.passages.errors import BadValue, NotYours
from games.passages.procedure import PLAYER_COMMANDS
from games.passages.table import CHALLENGE, CHECK, MODES, roll_check
from games.passages.unfold import check_rolled_working

_TEXT_FIELDS = ("combatant", "skill", "target", "patient", "intent", "action", "combat", "defense",
                "reason", "status", "track", "stance")
_MAX_TEXT = 300


def _common(form: Form) -> dict[str, Any]:
    """The fields most commands share; a command ignores those it does not read."""
    return texts(form, _TEXT_FIELDS, max_length=_MAX_TEXT,
                 refuse=lambda key: BadValue(f"{key.capitalize()} is at most {_MAX_TEXT} characters."))


def _whole(form: Form, key: str, label: str) -> int | None:
    return whole(form, key, refuse=lambda raw: BadValue(f"{label} is a whole number, not {raw[:20]!r}."))


def _flag(form: Form, key: str) -> bool | None:
    return yes_no(form, key, refuse=lambda raw: BadValue(f"{key.capitalize()} is yes or no."))


def plain(form: Form, table: Table) -> dict[str, Any]:
    return _common(form)


def check(form: Form, table: Table) -> dict[str, Any]:
    return {**_common(form), "challenge": bool(_flag(form, "challenge"))}


def _chosen(form: Form, table: Table) -> list[dict[str, Any]]:
    chosen = table.chosen(values(form, "characters"))
    if len(chosen) < 2:
        raise BadValue("Choose at least two Personae.")
    # the engine keeps an NPC's figures behind the Director's screen (screen.py)
    return [{**c.combatant, "npc": c.is_npc} for c in chosen]


def contest_start(form: Form, table: Table) -> dict[str, Any]:
    args: dict[str, Any] = {"combatants": _chosen(form, table),
                            "challenge": [c.cid for c in table.chosen(values(form, "challenge"))],
                            "magic": bool(_flag(form, "magic"))}
    cost = _whole(form, "cost", "The cost of a tick")
    if cost is not None:
        args["cost"] = cost
    return args


def contest_cost(form: Form, table: Table) -> dict[str, Any]:
    return {"cost": _whole(form, "cost", "The cost of a tick")}


def combat_start(form: Form, table: Table) -> dict[str, Any]:
    args: dict[str, Any] = {"combatants": _chosen(form, table)}
    conditions = value(form, "conditions").strip()
    if conditions:
        args["conditions"] = conditions[:_MAX_TEXT]
    return args


def declare(form: Form, table: Table) -> dict[str, Any]:
    args = _common(form)
    args["stance"] = args.get("stance", "").lower()
    damage = _whole(form, "damage", "A weapon's damage")
    if damage is not None:
        args["damage"] = damage
    ranged = _flag(form, "ranged")
    if ranged is not None:
        args["ranged"] = ranged
    return args


def timing(form: Form, table: Table) -> dict[str, Any]:
    return {**_common(form), "modifier": _whole(form, "modifier", "A Timing modifier")}


def set_conditions(form: Form, table: Table) -> dict[str, Any]:
    return {"conditions": value(form, "conditions").strip()[:_MAX_TEXT]}


def set_status(form: Form, table: Table) -> dict[str, Any]:
    return {**_common(form), "present": _flag(form, "present") is not False}


def correct(form: Form, table: Table) -> dict[str, Any]:
    return {**_common(form), "value": _whole(form, "value", "A track's value")}


def _command(name: str, label: str, parse: Parser = plain) -> Command:
    sender: Sender = "controller" if name in PLAYER_COMMANDS else "gm"
    return Command(name=name, label=label, parse=parse, sender=sender)


# Every command of the engine (procedure.COMMANDS), each reachable from the web.
COMMANDS: tuple[Command, ...] = (
    _command("check", "Roll a check", check),
    _command("practice", "Practise a skill"),
    _command("contest_start", "Start a contest", contest_start),
    _command("contest_roll", "Roll in the contest"),
    _command("contest_break_off", "Break off the contest"),
    _command("contest_cost", "Change a tick's cost", contest_cost),
    _command("combat_start", "Start a fight", combat_start),
    _command("declare", "Declare", declare),
    _command("rest", "Rest"),
    _command("tend", "Tend wounds"),
    _command("timing", "Set Timing", timing),
    _command("combat_roll", "Roll the Combat Roll"),
    _command("resolve", "Call the Resolution Point"),
    _command("set_conditions", "Set the Conditions", set_conditions),
    _command("set_status", "Set a Persona's status", set_status),
    _command("correct", "Correct a track", correct),
    _command("end", "End it"),
    _command("undo", "Take back the last step"),
)


# The one-off check, outside any contest or fight.


def check_args(form: Form, table: Table) -> dict[str, Any]:
    character = table.character(value(form, "character") or None)
    if character is None:
        raise BadValue("Choose a Persona.")
    skill = value(form, "skill").strip()
    if not skill:
        raise BadValue("Name the skill to roll.")
    mode = value(form, "mode", CHECK).strip().lower() or CHECK
    if mode not in MODES:
        raise BadValue("Roll a check, a challenge or a practice.")
    if mode == CHECK and _flag(form, "challenge"):  # the form's "as a challenge" box
        mode = CHALLENGE
    return {"character": character.id, "skill": skill[:60], "mode": mode}


def run_check(run: CheckRun) -> tuple[dict[str, Any], str]:
    me = run.characters[run.args["character"]]
    if not (run.member.is_gm or me.cid in run.member.controls):
        raise NotYours(f"You do not play {me.name}: nobody rolls for another's Persona.")
    return roll_check(me.sheet, name=me.name, skill=run.args["skill"], mode=run.args["mode"], rng=run.rng,
                      secret=me.is_npc)


CHECK_ROLL = Check(
    name="check", label="Roll a check", parse=check_args, run=run_check, event="check_rolled",
    notice="games/passages/panel.html#check_notice", working=check_rolled_working,
)


# The odds page: each band's chance for a BASE, as a check and as a challenge, and a pairing.


def _band_row(base: int, challenge: bool) -> dict[str, Any]:
    t = rules.thresholds(base, challenge=challenge)
    chances = odds.check(base, challenge=challenge)
    return {"base": base, "challenge": challenge, "value": t.value, "du": t.du, "dd": t.dd,
            "cells": [{"band": b, "label": rules.LABELS[b], "percent": f"{chances[b] * 100:.0f}"}
                      for b in reversed(rules.BANDS)],
            "success": f"{odds.success(base, challenge=challenge) * 100:.0f}"}


CHART_WIDTH, BAR_HEIGHT, BAR_GAP, LABEL_WIDTH = 300, 14, 4, 64


def band_chart(bases: list[int], *, challenge: bool = False) -> dict[str, Any]:
    """An SVG's bars: one a BASE, split into its bands best first, each as wide as its chance
    (the d100's faces, so whole percents); the template only draws what this returns."""
    bars = []
    for row, base in enumerate(bases):
        chances = odds.check(base, challenge=challenge)
        x, segments = LABEL_WIDTH, []
        for band in reversed(rules.BANDS):
            faces = round(chances[band] * 100)
            width = faces * CHART_WIDTH // 100
            if faces:
                segments.append({"band": band, "label": rules.LABELS[band], "x": x, "width": width,
                                 "percent": faces})
            x += width
        bars.append({"base": base, "y": row * (BAR_HEIGHT + BAR_GAP), "segments": segments,
                     "label": f"BASE {base}"})
    return {"width": LABEL_WIDTH + CHART_WIDTH, "height": len(bars) * (BAR_HEIGHT + BAR_GAP),
            "bar_height": BAR_HEIGHT, "bars": bars}


def odds_context(query: Form) -> dict[str, Any]:
    base = bounded(query, "base", 26, rules.MIN_BASE, rules.MASTERED)
    sides = {key: bounded(query, key, default, 0, rules.MASTERED) for key, default in (
        ("a_combat", 18), ("a_defense", 18), ("b_combat", 25), ("b_defense", 25))}
    a_timing = bounded(query, "a_timing", 0, -100, 100)
    b_timing = bounded(query, "b_timing", 0, -100, 100)
    pairing = odds.pairing(sides["a_combat"], sides["a_defense"], sides["b_combat"], sides["b_defense"],
                           a_timing=a_timing, b_timing=b_timing)
    bases = sorted({base, *range(5, rules.MASTERED + 1, 5)})
    return {
        "base": base, "bands": [{"key": b, "label": rules.LABELS[b], "meaning": rules.MEANINGS[b]}
                                for b in reversed(rules.BANDS)],
        "chosen": [_band_row(base, False), _band_row(base, True)],
        "rows": [_band_row(b, False) for b in bases],
        "charts": [{"key": "check", "title": "Checks, against the BASE", "chart": band_chart(bases)},
                   {"key": "challenge", "title": "Challenges, against the Core",
                    "chart": band_chart(bases, challenge=True)}],
        "challenge_rows": [_band_row(b, True) for b in bases],
        "pairing": {**sides, "a_timing": a_timing, "b_timing": b_timing,
                    **{k: f"{v * 100:.1f}" for k, v in pairing.items()}},
    }


ODDS = Page(slug="odds", title="Passages odds", template="games/passages/odds.html", context=odds_context)
