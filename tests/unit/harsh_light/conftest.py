"""Shared helpers for the Harsh Light engine tests: a stacked deck and a table driver that plays
moves the way the platform does: each form read by its move's parser, the sender checked by the
core against the move's subject (tests/support/engine.py's ``member``), the events folded in
order, what the rules write back put on the sheets, and each seat's panel drawn with what the
platform hands it (the deck as anyone may know it, a sheet's own figures where the seat may see
it)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

import pytest

from games.contract import Character, DeckView, Seat
from games.contract import Table as Facts
from games.core.cards_port import StackedCards, UnknownDeck
from games.core.engine import Turn
from games.harsh_light import DECK, ENGINE
from games.harsh_light.sheet import character_view
from games.harsh_light.panel import view
from tests.support.engine import member

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
    """A sheet with every Attribute at 2 unless given; Skills as {"Firearms": 3}; ``npc=True``
    for a character the table marks an NPC."""
    base: dict[str, Any] = {k: 2 for k in ("intelligence", "wits", "resolve", "strength", "dexterity",
                                           "stamina", "presence", "manipulation", "composure")}
    return {"name": name, **base, "skills": {}, **traits}


def form_of(command: Mapping[str, Any]) -> dict[str, list[str]]:
    """A move's arguments as the page's form sends them: a contest's ``sides`` as ``_a`` and
    ``_b`` fields, a box ticked as "1", a list as repeated values."""
    form: dict[str, list[str]] = {}
    fields = [(k, v) for k, v in command.items() if k not in ("type", "sides")]
    for side, given in zip("ab", command.get("sides") or ()):
        fields += [(f"{k}_{side}", v) for k, v in given.items()]
    for key, value in fields:
        if value is None or value is False:
            continue
        form[key] = [str(v) for v in value] if isinstance(value, list) else ["1" if value is True else str(value)]
    return form


def read_id(raw: object) -> int | None:
    text = str(raw)
    return int(text) if text.isdigit() and len(text) < 10 else None


class Table:
    """One table: its characters' sheets (by combatant id), the state and the log."""

    def __init__(self, **sheets: dict[str, Any]) -> None:
        self.sheets = {cid: dict(s) for cid, s in sheets.items()}
        self.state = ENGINE.new_state()
        self.log: list[dict[str, Any]] = []
        self.lines: list[str] = []
        self.port: StackedCards | None = None
        self.drawn: list[str] = []
        # A pull resisted by a character who could spend Willpower waits for its answer
        # (reaction.py): unless a test holds it (None), the Storyteller moves on at once.
        self.answer: str | None = "take"

    def characters(self, actor: Mapping[str, Any] = GM) -> dict[str, Character]:
        """The characters as the table holds them now: the sender plays those it ``controls``."""
        owners = {cid: actor.get("member") for cid in actor.get("controls") or ()}
        return {cid: Character(id=int(cid[1:]), cid=cid, name=str(s.get("name", cid)), owner=owners.get(cid),
                               sheet={k: v for k, v in s.items() if k not in ("name", "npc")},
                               is_npc=bool(s.get("npc")))
                for cid, s in self.sheets.items()}

    def send(self, command: dict[str, Any], cards: Iterable[int] | StackedCards = (),
             actor: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        port = cards if isinstance(cards, StackedCards) else stacked(*cards)
        self.port = port
        actor = actor or GM
        command = self.as_the_page_sends(command, actor)
        characters = self.characters(actor)
        move = ENGINE.move(command["type"])
        args = move.parse(form_of(command), Facts(tuple(characters.values()), read_id)) if move else {}
        drawn_before = len(port.placed)
        turn = Turn(member=member(actor), characters=characters, rng=random.Random(0), cards=port,
                    history=lambda: tuple(self.log))
        events = ENGINE.decide(self.state, command["type"], args, turn)
        for event in events:
            self.state = ENGINE.apply(self.state, event, lambda: tuple(self.log))  # an undo folds the log again
            self.lines.append(ENGINE.line(event, self.state))
            for cid, fields in (ENGINE.writeback(event, self.state) if ENGINE.writeback else {}).items():
                self.sheets[cid].update(fields)
        self.log += events
        self.drawn = [t for _, t, _, _ in port.placed[drawn_before:]]
        json.dumps(self.state)  # the platform keeps the state in one JSON column
        waiting = next((e for e in events if e["type"] == "reaction_opened"), None)
        if waiting is not None and self.answer is not None:
            return events + self.send({"type": "answer", "combatant": waiting["target"],
                                       "willpower": self.answer == "willpower"}, port, GM)
        return events

    def as_the_page_sends(self, command: dict[str, Any], actor: Mapping[str, Any]) -> dict[str, Any]:
        """A player's move as the panel sends it: its "End the action" button names the acting
        character, an extended action's form names the action's character (the core checks the
        sender plays it); the Storyteller may leave either out."""
        if actor.get("is_gm") or command.get("combatant"):
            return command
        if command["type"] == "end_turn" and self.state["combat"]:
            return {**command, "combatant": self.state["acting"]}
        if command["type"] == "extended_pull" and command.get("extended") in self.state["extended"]:
            return {**command, "combatant": self.state["extended"][command["extended"]]["combatant"]}
        return command

    def pull(self, cid: str, cards: Iterable[int] | StackedCards = (), actor: dict[str, Any] | None = None,
             **command: Any) -> dict[str, Any]:
        events = self.send({"type": "pull", "combatant": cid, **command}, cards, actor)
        return next(e for e in events if e["type"] == "pulled")["record"]

    def status(self, cid: str) -> dict[str, Any]:
        return self.state["status"][cid]

    def decks(self) -> tuple[DeckView, ...]:
        """The Harsh Light deck as anyone at the table may know it (what the platform hands a
        panel: ``Panel.decks``), from the last port a move drew through."""
        try:
            if self.port is None:
                return ()
            return (DeckView(name=DECK, unseen=tuple(sorted(self.port.unseen(DECK))),
                             draw=len(self.port.left(DECK, with_discard=False)),
                             discard=tuple(self.port.discards[DECK])),)
        except UnknownDeck:
            return ()

    def view(self, seat: Seat) -> dict[str, Any]:
        """The panel's view for ``seat``, the deck handed to it as the platform hands it."""
        return view(self.state, replace(seat, decks=self.decks()))

    def seen(self, seat: Seat) -> dict[str, Any]:
        """What the panel's template gets for ``seat``: the view, and each character with the
        figures of its sheet where the seat may see it (tabletop/feed/panels.py, view_for)."""
        return {**self.view(seat), "characters": [
            {"id": c.id, "cid": c.cid, "name": c.name, **({"view": character_view(c)} if seat.sees_sheet(c.cid) else {})}
            for c in self.characters().values()]}


@pytest.fixture
def table() -> type[Table]:
    return Table
