"""Shared helpers for the Report Card engine tests: Report Cards, people and a table driver
that plays moves as the platform does, with stacked decks."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.contract import Character, DeckView, Seat
from games.contract import Table as Facts
from games.core.cards import tarot
from games.core.cards_port import StackedCards
from games.core.engine import Turn
from games.report_card import ENGINE
from games.report_card.draws import deck_title
from games.report_card.state import drawable
from games.report_card.writeback import writeback
from tests.support.engine import member
from tests.unit.report_card.helpers import GM, card, report

CID = re.compile(r"c(\d+)")


def read_id(raw: object) -> int | None:
    return int(str(raw)) if str(raw).isdigit() else None


def _id(raw: str) -> str:
    found = CID.fullmatch(raw)
    return found.group(1) if found else raw


def form_of(command: dict[str, Any]) -> dict[str, list[str]]:
    """A move's arguments as a form would post them: a box ticked or not, each character of a
    list by its id (as the panel's checkboxes send it), anything else as text."""
    form: dict[str, list[str]] = {}
    for key, value in command.items():
        if key == "type" or value is None or value is False:
            continue
        if isinstance(value, (list, tuple)):
            form[key] = [_id(str(v)) for v in value]
        else:
            form[key] = ["1" if value is True else str(value)]
    return form


class Table:
    """Plays the engine as the table does: each move's form parsed by its parser, decided with a
    ``Turn`` (the sender, the characters with their sheets as they are now, the stacked decks),
    each event folded and its line written, and what it changes written back on the sheets
    (``people``: name, player and sheet, by combatant id)."""

    def __init__(self, people: dict[str, dict[str, Any]], decks: dict[str, list[str]] | None = None,
                 *, fill: bool = True, auto_draw: bool = True) -> None:
        self.people = people
        # A called check waits for each part's ``draw``; most tests are about what a draw does,
        # so the driver draws for every part that may draw (as the GM) after each move.
        self.auto_draw = auto_draw
        self.state = ENGINE.new_state()
        self.log: list[dict[str, Any]] = []
        self.lines: list[str] = []
        stacked = {self.deck(cid): [card(c) if ":" not in c else c for c in (decks or {}).get(cid, [])]
                   for cid in people}
        if fill:  # the rest of a full deck under the stacked cards, in a fixed order
            for cards in stacked.values():
                cards.extend(c.id for c in tarot() if c.id not in cards)
        self.cards = StackedCards(stacked)

    def deck(self, cid: str) -> str:
        """The character's own deck, as the table names it."""
        return deck_title(self.people[cid]["name"])

    def characters(self) -> dict[str, Character]:
        """The table's characters as they are now, by combatant id."""
        return {cid: Character(id=int(cid[1:]), cid=cid, name=p["name"], owner=p["player"], is_npc=p.get("npc", False),
                               sheet={k: v for k, v in p.items() if k not in ("name", "player", "npc")})
                for cid, p in self.people.items()}

    def seat(self, lens: str = "spectator") -> Seat:
        """A seat as the platform hands it to the panel (``Panel.rule_decks``): every deck as it
        lies now, its cards not face up sorted (draw pile and hands), its draw count, its discard."""
        decks = tuple(DeckView(name=name, unseen=tuple(sorted(self.cards.unseen(name))), draw=len(pile),
                               discard=tuple(t.split("/")[0] for t in self.cards.discards[name]))
                      for name, pile in self.cards.decks.items())
        return Seat(role=lens, decks=decks)  # type: ignore[arg-type]

    def send(self, command: dict[str, Any], actor: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        events = self._send(command, actor)
        while self.auto_draw and self.state["check"] is not None and drawable(self.state["check"]):
            cid = self.state["check"]["parts"][drawable(self.state["check"])[0]]["cid"]
            events += self._send({"type": "draw", "character": cid}, GM)
        return events

    def _send(self, command: dict[str, Any], actor: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        characters = self.characters()
        move = ENGINE.move(command["type"])
        args = move.parse(form_of(command), Facts(tuple(characters.values()), read_id)) if move else {}
        turn = Turn(member=member(actor or GM), characters=characters, cards=self.cards,
                    history=lambda: tuple(self.log))
        events = ENGINE.decide(self.state, command["type"], args, turn)
        for done, event in enumerate(events):
            # an undo folds the log again without the step it takes back: the log so far
            self.state = ENGINE.apply(self.state, event, lambda: tuple(self.log) + tuple(events[:done]))
            self.lines.append(ENGINE.line(event, self.state))
            for cid, fields in writeback(event, self.state).items():  # onto the sheets, as the table does
                self.people[cid] = {**self.people[cid], **fields}
        self.log += events
        return events

    def call(self, cid: str, skill: str, rank: str, task: str = "pick the lock",
             actor: dict[str, Any] | None = None, **extra: Any) -> list[dict[str, Any]]:
        return self.send({"type": "call_check", "character": cid, "skill": skill, "rank": rank,
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
        return [token for deck, token, to, _ in self.cards.placed if deck == self.deck(cid) and to == "play"]


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
