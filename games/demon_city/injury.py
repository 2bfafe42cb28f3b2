"""The Injury table: data the GM may replace, and the roll on it.

The seed promises the table "in a later entry", so the default below is ours: a d10,
low is bad, and some results are not conclusive, which is what the seed's step 8 needs
("Anyone who is present, out of the fight, still alive, and who needs to roll on the
Injury table because their last roll wasn't conclusive does").

Each row also says how long its result takes to heal (``heals``: a scene, a night, a week, or
never), as the decided reading "003, damage belongs to the fight" has it: "Who went out keeps
the Injury result they rolled until it heals: each row of the Injury table (the GM's to edit)
says how long it takes to heal (a scene, a night, a week, never); the Lost Die for Injury lasts
while an injury does." The defaults are read from each row's own words: "Unconscious for a few
minutes" heals when the scene ends, "hurt and shaken" after a night, "A broken bone or torn
muscle" after a week, and the dead never.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core.engine import RuleError
from games.core.rng import Rng
from games.demon_city.dice import SIDES

SCENE, NIGHT, WEEK, NEVER = "scene", "night", "week", "never"
# How long a result takes to heal, in the table's words.
HEALS: dict[str, str] = {SCENE: "a scene", NIGHT: "a night", WEEK: "a week", NEVER: "never"}
# The results each span of time heals: a night heals what a scene does, a week all but "never".
HEALED_BY: dict[str, frozenset[str]] = {
    SCENE: frozenset({SCENE}),
    NIGHT: frozenset({SCENE, NIGHT}),
    WEEK: frozenset({SCENE, NIGHT, WEEK}),
}

DEFAULT_INJURY_TABLE: list[dict[str, Any]] = [
    {"low": 1, "high": 1, "result": "Killed", "dead": True, "conclusive": True, "heals": NEVER,
     "description": "Dead, or beyond any help the scene can offer."},
    {"low": 2, "high": 3, "result": "Bleeding out", "dead": False, "conclusive": False, "heals": NIGHT,
     "description": "Unconscious and bleeding: roll again next round unless someone "
                    "stops the bleeding."},
    {"low": 4, "high": 5, "result": "Broken", "dead": False, "conclusive": True, "heals": WEEK,
     "description": "A broken bone or torn muscle; unconscious for the rest of the scene."},
    {"low": 6, "high": 7, "result": "Knocked out", "dead": False, "conclusive": True, "heals": SCENE,
     "description": "Unconscious for a few minutes."},
    {"low": 8, "high": 10, "result": "Battered", "dead": False, "conclusive": True, "heals": NIGHT,
     "description": "Conscious, hurt and shaken: can crawl or hide, not fight."},
]

_KEYS = {"low", "high", "result", "dead", "conclusive", "heals", "description"}


def default_heals(row: Mapping[str, Any]) -> str:
    """How long a row heals when it does not say (a table saved before rows said it): the
    default row of that name's, else a night; the dead never."""
    if row.get("dead"):
        return NEVER
    same = next((r for r in DEFAULT_INJURY_TABLE if r["result"] == row.get("result")), None)
    return str(same["heals"]) if same else NIGHT


def validate_table(table: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Check a GM-edited table: rows cover 1-10 exactly once, each says how long it takes to
    heal (the dead never); returns a plain copy. A row without ``heals`` (a table kept from
    before rows said it) takes its default (``default_heals``)."""
    covered: list[int] = []
    rows = []
    for row in table:
        row = {**row, "heals": row["heals"]} if "heals" in row else {**row, "heals": default_heals(row)}
        if set(row) != _KEYS:
            raise RuleError(f"Each Injury table row needs exactly: {', '.join(sorted(_KEYS))}.")
        low, high = row["low"], row["high"]
        if not (isinstance(low, int) and isinstance(high, int) and 1 <= low <= high <= SIDES):
            raise RuleError(f"Injury row {row['result']!r} must span 1-{SIDES}, low <= high.")
        if not isinstance(row["dead"], bool) or not isinstance(row["conclusive"], bool):
            raise RuleError("Injury rows say dead and conclusive with true or false.")
        if row["heals"] not in HEALS:
            raise RuleError(f"Injury row {row['result']!r} heals after a scene, a night, a week, or never.")
        if row["dead"] and row["heals"] != NEVER:
            raise RuleError(f"Injury row {row['result']!r} is dead: the dead never heal.")
        covered += range(low, high + 1)
        rows.append(dict(row))
    if sorted(covered) != list(range(1, SIDES + 1)):
        raise RuleError(f"The Injury table must cover every roll 1-{SIDES} exactly once.")
    return rows


def lookup(table: Sequence[Mapping[str, Any]], die: int) -> dict[str, Any]:
    for row in table:
        if row["low"] <= die <= row["high"]:
            return dict(row)
    raise RuleError(f"The Injury table has no row for {die}.")


def row_of(table: Sequence[Mapping[str, Any]], result: str) -> dict[str, Any] | None:
    """The row of a kept Injury result, by its name (None for a result the table no longer has)."""
    return next((dict(r) for r in table if r.get("result") == result), None)


def heals_of(table: Sequence[Mapping[str, Any]], result: str) -> str:
    """How long a kept Injury result takes to heal, as the table says now (the GM's edits
    count). A result the table no longer names heals after a week: the longest span short of
    never, so no result is kept for ever by a rename."""
    row = row_of(table, result)
    if row is None:
        return WEEK
    return str(row.get("heals") or default_heals(row))


def final(table: Sequence[Mapping[str, Any]], result: str) -> bool:
    """Whether a kept Injury result is conclusive ("final"): one the table no longer names is."""
    row = row_of(table, result)
    return True if row is None else bool(row["conclusive"])


def roll_injury(table: Sequence[Mapping[str, Any]], rng: Rng) -> tuple[int, dict[str, Any]]:
    """Roll one d10 on the table; returns the die and the row it lands on."""
    die = rng.randint(1, SIDES)
    return die, lookup(table, die)
