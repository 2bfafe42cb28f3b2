"""Demon City's forms: reading each command's and the task's arguments from submitted form
data, and the odds page's figures. Pure Python: the platform hands over the form as plain
data and the table as ``games.contract.Table``; the engine judges what the values mean.
"""

from __future__ import annotations

from dataclasses import fields as dataclass_fields
from typing import Any

from games.contract import (
    Character, Check, CheckRun, Command, Page, Parser, Sender, Table,
)
from games.demon_city import odds
from games.forms import NO, YES, Form, flag, texts, value, values, whole
from games.demon_city.character_sheet import parse_skills
from games.demon_city.chart import odds_chart
from games.demon_city.errors import RuleError
from games.demon_city.injury_text import parse_injury_table
from games.demon_city.sheet import STAT_NAMES, Combatant
from games.demon_city.screen import secret_task
from games.demon_city.task import task
from games.demon_city.unfold import task_working
from games.sheets import SheetError

# The plain fields a command may carry, as the engine names them.
_TEXT_FIELDS = ("combatant", "kind", "description", "die", "change", "reason", "stat", "against")
_MAX_TEXT = 200


def _common(form: Form) -> dict[str, Any]:
    """The fields most commands share; a command ignores those it does not read."""
    args: dict[str, Any] = texts(form, _TEXT_FIELDS, max_length=_MAX_TEXT,
                                 refuse=lambda key: RuleError(f"{key} is at most {_MAX_TEXT} characters."))
    targets = [t for t in values(form, "targets") if t]
    if len(targets) > 1:
        args["targets"] = targets
    elif targets or value(form, "target"):
        args["target"] = targets[0] if targets else value(form, "target")
    return args


def plain(form: Form, table: Table) -> dict[str, Any]:
    return _common(form)


def announce(form: Form, table: Table) -> dict[str, Any]:
    """The announce form always carries its "anything else" stat choices; only an "other"
    action names its own stat and the target's (the engine refuses them for the rest)."""
    args = _common(form)
    if args.get("kind") != "other":
        args.pop("stat", None)
        args.pop("against", None)
    args["massive"] = value(form, "massive") in ("1", "on", "true")
    args.setdefault("description", "")
    return args


def set_difficulty(form: Form, table: Table) -> dict[str, Any]:
    args = _common(form)
    try:
        args["target_number"] = int(value(form, "target_number"))
    except ValueError:
        raise RuleError("The difficulty is a whole number.") from None
    return args


# The side a sheet left blank joins: NPCs oppose the players by default, so a tie between a
# player's character and an NPC is "between characters on opposing sides" (nobody acts) and
# characters teaming up on an NPC earn the Distraction Die.
PLAYERS_SIDE, NPC_SIDE = "players", "opponents"


def fighter(character: Character) -> dict[str, Any]:
    """A table's character as it enters a fight: a blank side is filled in by who plays it."""
    combatant = character.combatant
    if not str(combatant.get("side") or "").strip():
        combatant["side"] = NPC_SIDE if character.is_npc else PLAYERS_SIDE
    return combatant


def _chosen(form: Form, table: Table) -> list[dict[str, Any]]:
    chosen = table.chosen(values(form, "characters"))
    if not chosen:
        raise RuleError("Choose at least one character.")
    return [fighter(c) for c in chosen]


def _injuries_count(form: Form) -> bool:
    """The Host's "injuries from before count" box: unticked, an old injury costs no die."""
    return flag(form, "injuries_count")


def start(form: Form, table: Table) -> dict[str, Any]:
    # A new fight keeps the table's own Injury table, as the GM last edited it. The engine
    # learns which are NPCs: their figures are the GM's (screen.py).
    chosen = table.chosen(values(form, "characters"))
    return {"combatants": _chosen(form, table), "injury_table": (table.state or {}).get("injury_table"),
            "injuries_count": _injuries_count(form), "npcs": [c.cid for c in chosen if c.is_npc]}


def add_combatant(form: Form, table: Table) -> dict[str, Any]:
    [first, *_] = table.chosen(values(form, "characters")) or [None]
    return {"combatant": _chosen(form, table)[0], "injuries_count": _injuries_count(form),
            "npc": first is not None and first.is_npc}


def set_injury_table(form: Form, table: Table) -> dict[str, Any]:
    return {"table": parse_injury_table(value(form, "table"))}


_KINDS = {f.name: str(f.type) for f in dataclass_fields(Combatant)}


def set_condition(form: Form, table: Table) -> dict[str, Any]:
    """``field`` and its ``value`` as the sheet stores it: a checkbox, a number or text."""
    args = {k: v for k, v in _common(form).items() if k == "combatant"}
    name, raw = value(form, "field").strip(), value(form, "value").strip()
    kind = _KINDS.get(name)
    if kind == "bool":
        if raw.lower() not in ("", *YES, *NO):
            raise RuleError(f"{name} is yes or no, not {raw[:20]!r}.")
        parsed: Any = raw.lower() in YES
    elif kind == "int":
        try:
            parsed = int(raw)
        except ValueError:
            raise RuleError(f"{name} is a whole number.") from None
    elif kind is not None and kind.startswith("Mapping"):
        try:
            parsed = parse_skills(raw)
        except SheetError as exc:
            raise RuleError(exc.message) from None
    else:  # text, or a field the engine will refuse by name
        if len(raw) > _MAX_TEXT:
            raise RuleError(f"value is at most {_MAX_TEXT} characters.")
        parsed = raw
    return {**args, "field": name[:40], "value": parsed}


def _command(name: str, label: str, parse: Parser = plain, *, sender: Sender = "gm") -> Command:
    return Command(name=name, label=label, parse=parse, sender=sender)


# Every command of the engine (procedure.COMMANDS), each reachable from the web.
COMMANDS: tuple[Command, ...] = (
    _command("start", "Start Action Rounds", start),
    _command("add_combatant", "Add someone to the fight", add_combatant),
    _command("announce", "Announce", announce, sender="controller"),
    _command("allow_extra_targets", "Allow more than one target"),
    _command("adjust_pool", "Correct a pool"),
    _command("set_difficulty", "Set a difficulty", set_difficulty),
    _command("set_condition", "Correct a combatant", set_condition),
    _command("set_injury_table", "Edit the Injury table", set_injury_table),
    _command("roll", "Roll every Clash"),
    _command("next_round", "Next round"),
    _command("end", "End Action Rounds"),
    _command("undo", "Undo the last step"),
)


# The task: a stat against a difficulty, or against the Host's roll for an opponent.


def task_args(form: Form, table: Table) -> dict[str, Any]:
    character = table.character(value(form, "character") or None)
    if character is None:
        raise RuleError("Choose a character.")
    opponent = table.character(value(form, "opponent") or None)
    number = whole(form, "target_number", refuse=lambda raw: RuleError(f"{raw!r} is not a whole number."))
    if opponent is None and number is None:
        raise RuleError("Give a difficulty or choose an opponent.")
    # a stat or one of the character's own skills, by the name the sheet gives it (as an
    # announcement reads it: a name longer than any field may hold is refused, not cut short)
    stats = texts(form, ("stat", "opponent_stat"), max_length=_MAX_TEXT,
                  refuse=lambda key: RuleError(f"{key} is at most {_MAX_TEXT} characters."))
    return {
        "character": character.id,
        "stat": stats.get("stat", "agility"),
        "target_number": None if opponent else number,
        "opponent": opponent.id if opponent else None,
        "opponent_stat": stats.get("opponent_stat", "agility"),
        "distracted": value(form, "distracted") in ("1", "on"),
        "situation": tuple(r.strip()[:80] for r in values(form, "situation") if r.strip()),
        "lost": tuple(r.strip()[:80] for r in values(form, "lost") if r.strip()),
    }


def run_task(run: CheckRun) -> tuple[dict[str, Any], str]:
    args = run.args
    me = run.characters[args["character"]]
    other = run.characters.get(args["opponent"]) if args.get("opponent") else None
    if other is not None and other.is_npc and not run.member.is_gm and args["opponent_stat"] not in STAT_NAMES:
        # its skills are the GM's: whether it has one is not for a player to learn by trying
        raise RuleError(f"Against {other.name}, choose one of the sheet's stats: its other skills are the GM's.")
    data, line = task(
        me.sheet, name=me.name, stat=args["stat"], rng=run.rng, target_number=args["target_number"],
        other=other.sheet if other else None, other_name=other.name if other else "",
        other_stat=args["opponent_stat"], distracted=args["distracted"],
        situation=tuple(args["situation"]), lost=tuple(args["lost"]),
    )
    # an NPC's rating is the GM's: the line everyone reads keeps the dice and leaves it out
    return secret_task(data, line, mine=me.is_npc, theirs=bool(other and other.is_npc))


TASK = Check(
    name="task", label="Roll a task", parse=task_args, run=run_task, event="task_rolled",
    notice="games/demon_city/panel.html#task_notice", working=task_working,
)


# The odds page: exact chances of a pool against a pool and against a static number.


def _pct(x: float) -> str:
    return f"{x * 100:.1f}"


def odds_context(query: Form) -> dict[str, Any]:
    try:
        opponent = min(5, max(1, int(value(query, "against", "1"))))
    except ValueError:
        opponent = 1
    pools = range(1, 6)
    clash_rows = [
        {"label": f"{a}d10 v {b}d10", **{k: _pct(getattr(odds.clash(a, b), k)) for k in
                                         ("win", "tie", "lose", "crit", "fumble", "win_ties_rerolled")}}
        for a in pools for b in pools
    ]
    target_rows = [
        {"pool": n, "cells": [_pct(odds.against_target(n, t).win) for t in range(0, 10)]}
        for n in pools
    ]
    return {"clash_rows": clash_rows, "target_rows": target_rows, "targets": range(0, 10),
            "chart": odds_chart(opponent), "opponent": opponent, "opponents": pools}


ODDS = Page(slug="odds", title="Demon City odds", template="games/demon_city/odds.html", context=odds_context)
