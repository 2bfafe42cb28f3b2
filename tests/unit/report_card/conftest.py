"""Shared helpers for the Report Card engine tests: Report Cards, people and a table driver
that runs commands through ``decide`` and ``apply`` with stacked decks."""

from __future__ import annotations

from typing import Any

import pytest

from games.core.cards import tarot
from games.core.cards_port import StackedCards
from games.report_card.draws import deck_name
from games.report_card.events import apply
from games.report_card.narrate import summary
from games.report_card.procedure import decide
from games.report_card.state import drawable, new_state
from games.report_card.table import writeback
from tests.unit.report_card.helpers import GM, card, report


class Table:
    """Drives the engine as the platform does: decide, apply each event, write what it changes
    back on the sheets (``people``, sent with every command), keep the log."""

    def __init__(self, people: dict[str, dict[str, Any]], decks: dict[str, list[str]] | None = None,
                 *, fill: bool = True, auto_draw: bool = True) -> None:
        self.people = people
        # A called check waits for each part's ``draw``; most tests are about what a draw does,
        # so the driver draws for every part that may draw (as the GM) after each command.
        self.auto_draw = auto_draw
        self.state = new_state()
        self.log: list[dict[str, Any]] = []
        self.lines: list[str] = []
        stacked = {deck_name(cid): [card(c) if ":" not in c else c for c in (decks or {}).get(cid, [])]
                   for cid in people}
        if fill:  # the rest of a full deck under the stacked cards, in a fixed order
            for cards in stacked.values():
                cards.extend(c.id for c in tarot() if c.id not in cards)
        self.cards = StackedCards(stacked)

    def send(self, command: dict[str, Any], actor: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        events = self._send(command, actor)
        while self.auto_draw and self.state["check"] is not None and drawable(self.state["check"]):
            cid = self.state["check"]["parts"][drawable(self.state["check"])[0]]["cid"]
            events += self._send({"type": "draw", "combatant": cid}, GM)
        return events

    def _send(self, command: dict[str, Any], actor: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        command = {"actor": actor or GM, "characters": self.people, **command}
        events = decide(self.state, command, None, self.cards)
        for event in events:
            self.state = apply(self.state, event)
            self.lines.append(summary(event, self.state))
            for cid, fields in writeback(event, self.state).items():  # onto the sheets, as the table does
                self.people[cid] = {**self.people[cid], **fields}
        self.log += events
        return events

    def call(self, cid: str, skill: str, rank: str, task: str = "pick the lock",
             actor: dict[str, Any] | None = None, **extra: Any) -> list[dict[str, Any]]:
        return self.send({"type": "call_check", "combatant": cid, "skill": skill, "rank": rank,
                          "task": task, **extra}, actor)

    def part(self, cid: str) -> dict[str, Any]:
        check = self.state["check"] or self.state["history"][-1]
        return next(p for p in check["parts"] if p["cid"] == cid)

    @property
    def closed(self) -> dict[str, Any]:
        assert self.state["check"] is None, "the check is still open"
        return self.state["history"][-1]

    def drawn(self, cid: str) -> list[str]:
        """The tokens drawn from this character's deck (face up, as a check draws), in order."""
        return [token for deck, token, to, _ in self.cards.placed if deck == deck_name(cid) and to == "play"]


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


@pytest.fixture
def marieta() -> dict[str, Any]:
    """Fast and Clever, A+ FREE, F GYM, own Major the Star (17), played by member 7."""
    return report("Marieta", 7)


@pytest.fixture
def two() -> dict[str, dict[str, Any]]:
    return {"c1": report("Marieta", 7), "c2": report("Jo", 8, abilities=("wise",), a_plus="LAW",
                                                     f_skill="ART", major=5)}
