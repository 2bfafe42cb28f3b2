"""The GM's Major Critical tables: one per suit, an effect for each card value.

Seed: "See the Critical Result table below for details of the effects of this Major
Critical", and then "I will not be posting the "Critical Tables" that I will be using, so
that the critical results will be more of a surprise to the players". So the tables are
the GM's own: the GM edits them, only the GM's view shows them, and a Major Critical's
effect reaches the GM alone until the GM announces it.

The defaults only name the wound of each suit (seed, "Minor Arcana Suit Indicators and
Influences": Cups bleeding, Pentacles skeletal/musculature, Swords stunning, Wands internal
organ/tissue) and a severity by value; the GM replaces them.

As text, one entry a line:  <suit> <value or low-high> | <effect>
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.engine import Args, Event, RuleError, Turn
from games.core.tarot import tarot_suit
from games.shadows import deck

_SEVERITY = ((1, 5, "A light"), (6, 10, "A serious"), (11, 14, "A grievous"))


def default_tables() -> dict[str, dict[str, str]]:
    tables: dict[str, dict[str, str]] = {}
    for suit in deck.SUITS:
        wound = tarot_suit(suit).wounds.removesuffix("s")
        tables[suit] = {
            str(v): f"{word} {wound}."
            for low, high, word in _SEVERITY for v in range(low, high + 1)
        }
    return tables


def effect(tables: Mapping[str, Mapping[str, str]], suit: str, value: int) -> str:
    return str(tables.get(suit, {}).get(str(value), "")) or "The GM decides the effect."


def format_tables(tables: Mapping[str, Mapping[str, str]]) -> str:
    """Consecutive values with the same effect share a line ("cups 1-5 | ...")."""
    lines = []
    for suit in deck.SUITS:
        rows = tables.get(suit, {})
        v = 1
        while v <= 14:
            text = rows.get(str(v))
            if not text:
                v += 1
                continue
            high = v
            while high + 1 <= 14 and rows.get(str(high + 1)) == text:
                high += 1
            span = str(v) if high == v else f"{v}-{high}"
            lines.append(f"{suit} {span} | {text}")
            v = high + 1
    return "\n".join(lines)


_SUIT_NAMES = {"cups": "cups", "chalice": "cups", "pentacles": "pentacles", "coins": "pentacles",
               "swords": "swords", "wands": "wands", "staves": "wands"}


def parse_tables(text: str) -> dict[str, dict[str, str]]:
    tables: dict[str, dict[str, str]] = {s: {} for s in deck.SUITS}
    for number, line in enumerate(str(text).splitlines(), start=1):
        if not line.strip():
            continue
        head, sep, body = line.partition("|")
        words = head.split()
        if not sep or len(words) != 2 or words[0].lower() not in _SUIT_NAMES or not body.strip():
            raise RuleError(f"Critical line {number}: write '<suit> <value or low-high> | effect'.")
        low, _, high = words[1].partition("-")
        try:
            lo, hi = int(low), int(high or low)
        except ValueError:
            raise RuleError(f"Critical line {number}: {words[1]!r} is not a value like 11 or 11-14.") from None
        if not 1 <= lo <= hi <= 14:
            raise RuleError(f"Critical line {number}: values run from 1 (Ace) to 14 (King).")
        for v in range(lo, hi + 1):
            tables[_SUIT_NAMES[words[0].lower()]][str(v)] = body.strip()[:300]
    return tables


def set_criticals(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """The GM's move: the tables, as the parser read them (``parse_tables``)."""
    return [{"type": "criticals_set", "tables": args["tables"]}]
