"""Demon City's move table (``MOVES``) and its task (``TASK``): for each, the pure parser that
reads the submitted form into the handler's arguments, the one reading of each submitted value.

A parser reads the form and turns a submitted character id into a combatant id (``Table``); it
never reads the table's state (read outside the table's lock): what depends on the state (whose
turn it is, the table's Injury table) the handler resolves, under the lock. The handlers judge
what the values mean (``fight``, ``rounds``).
"""

from __future__ import annotations

from dataclasses import fields as dataclass_fields
from typing import Any

from games.contract import Check, CheckRun, Table
from games.core.engine import Handler, Move, Parser, RuleError
from games.demon_city import fight, rounds
from games.demon_city.audiences import TASK_EVENT, secret_task
from games.demon_city.combatant import STAT_NAMES, Combatant
from games.demon_city.injury_text import parse_injury_table
from games.demon_city.pools import condition_lost
from games.demon_city.sheet import parse_skills
from games.demon_city.task import task
from games.demon_city.working import task_working
from games.forms import NO, YES, Form, flag, texts, value, values, whole
from games.sheets import SheetError

# The plain fields a move may carry, as the handlers name them.
_TEXT_FIELDS = ("combatant", "kind", "description", "die", "change", "reason", "stat", "against")
_MAX_TEXT = 200
_MAX_REASON = 80  # a task's Situation or Lost Die reason (the form's own limit)


def _too_long(key: str, most: int = _MAX_TEXT) -> RuleError:
    return RuleError(f"{key} is at most {most} characters.")


def _common(form: Form) -> dict[str, Any]:
    """The fields most moves share; a handler ignores those it does not read."""
    args: dict[str, Any] = texts(form, _TEXT_FIELDS, max_length=_MAX_TEXT, refuse=_too_long)
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
    action names its own stat and the target's (the handler refuses them for the rest)."""
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


def start(form: Form, table: Table) -> dict[str, Any]:
    """The characters in the fight, by combatant id (their sheets are read under the lock), and
    the Host's "injuries from before count" box: unticked, an old injury costs no die."""
    chosen = table.chosen(values(form, "characters"))
    if not chosen:
        raise RuleError("Choose at least one character.")
    return {"combatants": [c.cid for c in chosen], "injuries_count": flag(form, "injuries_count")}


def add_combatant(form: Form, table: Table) -> dict[str, Any]:
    """The one character who joins (the first chosen), by combatant id."""
    [first, *_] = start(form, table)["combatants"]
    return {"combatant": first, "injuries_count": flag(form, "injuries_count")}


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
    else:  # text, or a field the handler will refuse by name
        if len(raw) > _MAX_TEXT:
            raise _too_long("value")
        parsed = raw
    return {**args, "field": name[:40], "value": parsed}


# Every move: its name, its button's words, its parser and its handler. The GM's undo is the
# core's (``Engine.undo``).
_TABLE: tuple[tuple[str, str, Parser, Handler], ...] = (
    ("start", "Start Action Rounds", start, fight.start),
    ("add_combatant", "Add someone to the fight", add_combatant, fight.add_combatant),
    ("announce", "Announce", announce, rounds.announce),
    ("allow_extra_targets", "Allow more than one target", plain, rounds.allow_extra_targets),
    ("adjust_pool", "Correct a pool", plain, rounds.adjust_pool),
    ("set_difficulty", "Set a difficulty", set_difficulty, rounds.set_difficulty),
    ("set_condition", "Correct a combatant", set_condition, fight.set_condition),
    ("set_injury_table", "Edit the Injury table", set_injury_table, fight.set_injury_table),
    ("roll", "Roll every Clash", plain, rounds.roll),
    ("next_round", "Next round", plain, rounds.next_round),
    ("end", "End Action Rounds", plain, fight.end),
    ("settle_ties", "Settle Agility ties again", plain, fight.settle_ties),
)
# The moves a player sends for a character they play, by the argument naming it: the core lets
# that character's player (or the GM) send it. Every other move is the GM's.
_PLAYERS = {"announce": "combatant"}
MOVES: tuple[Move, ...] = tuple(
    Move(name, label, parse, handle, sender="controller" if name in _PLAYERS else "gm", subject=_PLAYERS.get(name))
    for name, label, parse, handle in _TABLE)


# The task: a stat against a difficulty, or against the Host's roll for an opponent.


def _reasons(form: Form, key: str) -> tuple[str, ...]:
    """A task's Situation or Lost Dice reasons; one past the form's own limit is refused, as the
    other text fields are (it had been cut short in silence)."""
    found = tuple(r.strip() for r in values(form, key) if r.strip())
    if any(len(r) > _MAX_REASON for r in found):
        raise _too_long(key, _MAX_REASON)
    return found


def task_args(form: Form, table: Table) -> dict[str, Any]:
    character = table.character(value(form, "character") or None)
    if character is None:
        raise RuleError("Choose a character.")
    opponent = table.character(value(form, "opponent") or None)
    if opponent is not None and opponent.id == character.id:
        raise RuleError(f"{character.name} cannot be their own opponent: choose someone else, or a difficulty.")
    number = whole(form, "target_number", refuse=lambda raw: RuleError(f"{raw!r} is not a whole number."))
    if opponent is None and number is None:
        raise RuleError("Give a difficulty or choose an opponent.")
    # a stat or one of the character's own skills, by the name the sheet gives it (as an
    # announcement reads it: a name longer than any field may hold is refused, not cut short)
    stats = texts(form, ("stat", "opponent_stat"), max_length=_MAX_TEXT, refuse=_too_long)
    return {
        "character": character.id,
        "stat": stats.get("stat", "agility"),
        "target_number": None if opponent else number,
        "opponent": opponent.id if opponent else None,
        "opponent_stat": stats.get("opponent_stat", "agility"),
        "distracted": value(form, "distracted") in ("1", "on"),
        "situation": _reasons(form, "situation"),
        # seed: "that side gets another d10": the Host's die may go to whichever side has the
        # advantage, the opponent's too
        "opponent_situation": _reasons(form, "opponent_situation") if opponent else (),
        "lost": _reasons(form, "lost"),
    }


# Seed 003: "If a task has some other outside factor introduced that makes it more likely one side
# will win ... then that side gets another d10", and "the Host may subtract up to two Lost Dice":
# the dice a situation earns are the Host's to judge. A player asks; the GM rolls the task with
# them (the form shows a player this, and offers the dice to the GM alone).
HOSTS_DICE = ("Situation Dice, the Distraction Die and Lost Dice are the Host's to grant: "
              "ask the GM, who rolls the task with them.")


def _hosts_dice(args: dict[str, Any]) -> bool:
    return bool(args["situation"] or args["distracted"] or args["lost"] or args.get("opponent_situation"))


def run_task(run: CheckRun) -> tuple[dict[str, Any], str]:
    args = run.args
    if not run.member.is_gm and _hosts_dice(args):
        raise RuleError(HOSTS_DICE)
    me = run.characters[args["character"]]
    other = run.characters.get(args["opponent"]) if args.get("opponent") else None
    if other is not None and other.is_npc and not run.member.is_gm and args["opponent_stat"] not in STAT_NAMES:
        # its skills are the GM's: whether it has one is not for a player to learn by trying
        raise RuleError(f"Against {other.name}, choose one of the sheet's stats: its other skills are the GM's.")
    data, line = task(
        me.sheet, name=me.name, stat=args["stat"], rng=run.rng, target_number=args["target_number"],
        other=other.sheet if other else None, other_name=other.name if other else "",
        other_stat=args["opponent_stat"], distracted=args["distracted"],
        situation=tuple(args["situation"]),
        # the Host's Lost Dice and those of the character's lasting conditions (effect lost_die)
        lost=tuple(condition_lost(run.state or {}, me.cid, tuple(args["lost"]))),
        other_situation=tuple(args.get("opponent_situation") or ()),
    )
    # an NPC's rating is the GM's: the line everyone reads keeps the dice and leaves it out
    return secret_task(data, line, mine=me.is_npc, theirs=bool(other and other.is_npc))


TASK = Check(
    name="task", label="Roll a task", parse=task_args, run=run_task, event=TASK_EVENT,
    notice="games/demon_city/panel.html#task_notice", working=task_working,
)
