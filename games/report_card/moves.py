"""Report Card's moves: each move's parser and its handler, and who may send it (``MOVES``).

A parser reads the submitted form, and only the form: it turns a submitted character (its id,
as a select sends it, or its combatant id, as the panel's buttons send it) into the
character's combatant id through ``table``, and it is the one validation of what was sent (a
skill, a difficulty, a task, a card's index). A handler (``calls``, ``choices``) gets those
arguments as they are and judges what they mean under the table's lock, reading the sheets as
they are then (``turn.characters``).

"controller" moves name their character in ``character``: the engine lets only its player or
the GM send them; what the rules give one person (a Bonus pick, a retry) the handler checks
(``access``).
"""

from __future__ import annotations

from itertools import zip_longest
from typing import Any

from games.contract import Character, Table
from games.core.engine import Move, players_move
from games.forms import Form, flag, text, value, values
from games.report_card import calls, choices
from games.report_card.errors import BadInput
from games.report_card.rules import rank_of
from games.report_card.skills import skill_of

TEXT = 120  # a task's words, at most: the panel's fields say so too (maxlength)
HELPERS = 4  # helpers in one check, at most (the panel offers two rows)
GRANTS = ("", "success", "failure")
GROUP_MODES = ("only_one", "everyone")


def _one(form: Form, table: Table, key: str = "character", what: str = "a character") -> Character:
    raw = value(form, key)
    found = table.character(raw) if raw else None
    if found is None and raw:
        found = next((c for c in table.characters if c.cid == raw), None)
    if found is None:
        raise BadInput(f"Choose {what}.")
    return found


def _text(form: Form, key: str) -> str:
    """A text field, its runs of spaces made one."""
    found = text(form, key, max_length=TEXT, refuse=lambda key: BadInput(
        f"{key.replace('_', ' ').capitalize()} is at most {TEXT} characters."))
    return " ".join(found.split())


def _same_as(form: Form) -> int | None:
    """The earlier check of the Day the GM says a new one repeats (its id), or None."""
    raw = value(form, "same_as").strip()
    if not raw:
        return None
    if not raw.isdigit() or len(raw) > 9:
        raise BadInput("Choose one of the Day's earlier checks, or none.")
    return int(raw)


def _check(form: Form, texts: dict[str, str]) -> dict[str, Any]:
    """What every call says: the skill, the difficulty, what it is for, and the GM's flags and
    say (``same_as``: the earlier check of the Day it repeats)."""
    if not texts["task"]:
        raise BadInput("Say what the check is for.")
    return {"skill": skill_of(texts["skill"]), "rank": rank_of(texts["rank"]), "task": texts["task"],
            "inconsequential": flag(form, "inconsequential"), "hold": flag(form, "hold"),
            "repeat": flag(form, "repeat"), "same_as": _same_as(form)}


def _helpers(form: Form, table: Table, drawing: list[str] | None) -> list[dict[str, Any]]:
    """The helpers a form names, one for each ``helper`` sent with a character, with the
    ``helper_skill``, ``helper_rank`` and ``helper_task`` sent beside it (and, for a group
    check, ``helps``: which of ``drawing`` it helps)."""
    rows = zip_longest(*(values(form, key) for key in ("helper", "helper_skill", "helper_rank", "helper_task",
                                                       "helps")), fillvalue="")
    found = []
    for raw, skill, rank, task, helps in rows:
        if not raw.strip():
            continue
        who = _one({"helper": [raw]}, table, "helper", "who helps")
        if len(task) > TEXT:
            raise BadInput(f"How they help is at most {TEXT} characters.")
        row = {"cid": who.cid, "skill": skill_of(skill.strip()), "rank": rank_of(rank.strip()),
               "task": " ".join(task.split()), "helps": None}
        if drawing is not None:
            member = _one({"helps": [helps]}, table, "helps", "whom each helper helps")
            if member.cid not in drawing:
                raise BadInput(f"{who.name} helps one of the characters drawing for the check.")
            row["helps"] = member.cid
        found.append(row)
    if len(found) > HELPERS:
        raise BadInput(f"At most {HELPERS} helpers in a check.")
    return found


def parse_call(form: Form, table: Table) -> dict[str, Any]:
    """One character's check; each ``helper`` (a character) adds "One Player Helps Another"."""
    main = _one(form, table)
    texts = {key: _text(form, key) for key in ("skill", "rank", "task", "grant")}
    if texts["grant"] not in GRANTS:
        raise BadInput("A granted check is a success or a failure.")
    return {**_check(form, texts), "character": main.cid, "bonus": flag(form, "bonus"),
            "penalty": flag(form, "penalty"), "grant": texts["grant"], "helpers": _helpers(form, table, None)}


def parse_group(form: Form, table: Table) -> dict[str, Any]:
    chosen = table.chosen(values(form, "characters"))
    if len(chosen) < 2:
        raise BadInput("Choose at least two characters for a group check.")
    texts = {key: _text(form, key) for key in ("skill", "rank", "task", "mode")}
    if texts["mode"] not in GROUP_MODES:
        raise BadInput("A group check is 'only one needs to succeed' or 'everyone needs to succeed'.")
    return {**_check(form, texts), "mode": texts["mode"], "characters": [c.cid for c in chosen],
            "bonus": [c.cid for c in table.chosen(values(form, "bonus"))],
            "penalty": [c.cid for c in table.chosen(values(form, "penalty"))],
            "helpers": _helpers(form, table, [c.cid for c in chosen])}


def parse_approve(form: Form, table: Table) -> dict[str, Any]:
    return {"rank": rank_of(_text(form, "rank")), "bonus": flag(form, "bonus"), "penalty": flag(form, "penalty")}


def parse_pick(form: Form, table: Table) -> dict[str, Any]:
    try:
        index = int(value(form, "index"))
    except ValueError:
        raise BadInput("Choose one of the two cards drawn.") from None
    return {"character": _one(form, table).cid, "index": index}


def parse_character(form: Form, table: Table) -> dict[str, Any]:
    return {"character": _one(form, table).cid}


def parse_rechoose(form: Form, table: Table) -> dict[str, Any]:
    character = _one(form, table)
    return {"character": character.cid, "a_plus": skill_of(_text(form, "a_plus")),
            "f_skill": skill_of(_text(form, "f_skill"))}


def parse_hold(form: Form, table: Table) -> dict[str, Any]:
    return {"hold": flag(form, "hold")}


def parse_allowed(form: Form, table: Table) -> dict[str, Any]:
    return {"allowed": flag(form, "allowed")}


def parse_nothing(form: Form, table: Table) -> dict[str, Any]:
    return {}



MOVES: tuple[Move, ...] = (
    players_move("call_check", "Call a check", parse_call, calls.call_check),
    Move("call_group", "Call a group check", parse_group, calls.call_group),
    # the label ends the log's line for the cards it draws, after the move's character:
    # "For Marieta's draw, 1 card comes off ..."
    Move("approve", "Approve the check", parse_approve, calls.approve),
    players_move("draw", "Draw", parse_character, choices.draw),
    players_move("pick", "Choose a card", parse_pick, choices.pick),
    players_move("retry", "Retry", parse_character, choices.retry),
    players_move("accept", "Let the failure stand", parse_character, choices.accept),
    players_move("rechoose", "Choose a new A+ and F", parse_rechoose, choices.rechoose),
    Move("hold", "Hold the rank on a retry", parse_hold, choices.hold),
    Move("close", "Close the check", parse_nothing, choices.close),
    Move("new_day", "Start a new Day", parse_nothing, choices.new_day),
    Move("allow_player_calls", "Let players call checks", parse_allowed, choices.allow_player_calls),
)
