"""Shared helpers for the Harsh Light engine tests: a stacked deck and a table driver that
runs commands the way the platform does (decide, apply, write back to the sheets)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from typing import Any

import pytest

from games.core.cards_port import StackedCards
from games.harsh_light import DECK, SYSTEM, apply, decide, new_state

GM: dict[str, Any] = {"is_gm": True, "controls": [], "member": 1, "name": "Gail"}
SUITS = "SHDC"


def player(*cids: str, member: int = 2, name: str = "Ann") -> dict[str, Any]:
    return {"is_gm": False, "controls": list(cids), "member": member, "name": name}


def tokens(*values: int) -> list[str]:
    """Card tokens of these values, each a different card (suits taken in turn per value)."""
    used: dict[int, int] = {}
    out = []
    for v in values:
        n = used.get(v, 0)
        assert n < 4, f"the deck has only four cards of value {v}"
        used[v] = n + 1
        out.append(f"ten:{SUITS[n]}:{v}")
    return out


def stacked(*values: int) -> StackedCards:
    """The Harsh Light deck with these values on top, in order, then the rest of the deck."""
    top = tokens(*values)
    rest = [f"ten:{s}:{v}" for v in range(1, 11) for s in SUITS if f"ten:{s}:{v}" not in top]
    return StackedCards({DECK: top + rest})


def sheet(name: str, **traits: Any) -> dict[str, Any]:
    """A sheet with every Attribute at 2 unless given; Skills as {"Firearms": 3}."""
    base: dict[str, Any] = {k: 2 for k in ("intelligence", "wits", "resolve", "strength", "dexterity",
                                           "stamina", "presence", "manipulation", "composure")}
    return {"name": name, **base, "skills": {}, **traits}


class Table:
    """Drives the engine as the platform does: the sheets as the table holds them go with each
    command, events are applied in order, and Willpower points are written back to the sheets."""

    def __init__(self, **sheets: dict[str, Any]) -> None:
        self.sheets = {cid: dict(s) for cid, s in sheets.items()}
        self.state = new_state()
        self.log: list[dict[str, Any]] = []
        self.lines: list[str] = []

    def send(self, command: dict[str, Any], cards: Iterable[int] | StackedCards = (),
             actor: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        port = cards if isinstance(cards, StackedCards) else stacked(*cards)
        sent = {"actor": actor or GM, "sheets": {c: dict(s) for c, s in self.sheets.items()}, **command}
        drawn_before = len(port.placed)
        events = decide(self.state, sent, random.Random(0), port)
        for event in events:
            self.state = apply(self.state, event)
            self.lines.append(SYSTEM.engine.summary(event, self.state))
            for cid, fields in SYSTEM.engine.writeback(event, self.state).items():
                self.sheets[cid].update(fields)
        self.log += events
        self.drawn = [t for _, t, _, _ in port.placed[drawn_before:]]
        json.dumps(self.state)  # the platform keeps the state in one JSON column
        return events

    def pull(self, cid: str, cards: Iterable[int] = (), actor: dict[str, Any] | None = None,
             **command: Any) -> dict[str, Any]:
        events = self.send({"type": "pull", "combatant": cid, **command}, cards, actor)
        return next(e for e in events if e["type"] == "pulled")["record"]

    def status(self, cid: str) -> dict[str, Any]:
        return self.state["status"][cid]


@pytest.fixture
def table() -> type[Table]:
    return Table
