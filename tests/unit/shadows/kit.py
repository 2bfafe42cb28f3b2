"""What the Shadows engine tests share: senders, characters, stacked decks and a table
driver that runs commands the way the platform does (decide, then apply each event)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from games.core.cards_port import StackedCards
from games.shadows import deck
from games.shadows.events import apply
from games.shadows.procedure import decide
from games.shadows.state import new_state

GM_MEMBER, ANN_MEMBER, BOB_MEMBER = 1, 2, 3
GM: dict[str, Any] = {"is_gm": True, "controls": [], "member": GM_MEMBER, "name": "Gemma"}
ANN: dict[str, Any] = {"is_gm": False, "controls": ["c1"], "member": ANN_MEMBER, "name": "Ann"}
BOB: dict[str, Any] = {"is_gm": False, "controls": ["c2"], "member": BOB_MEMBER, "name": "Bob"}
MAJORS = [f"tarot:major:{n}" for n in range(22)]


def character(cid: str, name: str, owner: int | None, **sheet: Any) -> dict[str, Any]:
    """A character as a parser hands it to the engine: the sheet plus id, name and owner."""
    base: dict[str, Any] = {"id": cid, "name": name, "owner": owner,
                            "skills": {"melee": 6, "stealth": 4, "accuracy": 5, "chess": 3}}
    base.update(sheet)
    return base


def ann(**sheet: Any) -> dict[str, Any]:
    return character("c1", "Ann", ANN_MEMBER, **sheet)


def bob(**sheet: Any) -> dict[str, Any]:
    return character("c2", "Bob", BOB_MEMBER, **sheet)


def orc(**sheet: Any) -> dict[str, Any]:
    return character("c3", "Orc", None, **sheet)


def t(short: str) -> str:
    """'S11' -> 'tarot:swords:11'; 'P1' pentacles, 'C' cups, 'W' wands; 'M16' a trump."""
    suit = {"S": "swords", "P": "pentacles", "C": "cups", "W": "wands", "M": "major"}[short[0]]
    return f"tarot:{suit}:{short[1:]}"


def stacked(top: Iterable[str] = (), *, majors: Sequence[str] = (), seed: int | None = None) -> StackedCards:
    """A whole Minor Arcana with ``top`` (short names or tokens) first, the rest after (in
    deck order, or shuffled by ``seed``); the Major Arcana likewise."""
    first = [x if ":" in x else t(x) for x in top]
    rest = [c for c in deck.minor_tokens() if c not in first]
    if seed is not None:
        random.Random(seed).shuffle(rest)
    trumps = [x if ":" in x else t(x) for x in majors]
    return StackedCards({deck.MINOR: first + rest,
                         deck.MAJOR: trumps + [m for m in MAJORS if m not in trumps]})


class Table:
    """Runs commands as the platform does and keeps the log."""

    def __init__(self, cards: StackedCards | None = None) -> None:
        self.state = new_state()
        self.cards = cards or stacked()
        self.log: list[dict[str, Any]] = []
        self.rng = random.Random(0)

    def send(self, actor: dict[str, Any], kind: str, **command: Any) -> list[dict[str, Any]]:
        events = decide(self.state, {"type": kind, "actor": actor, **command}, self.rng, self.cards)
        for event in events:
            self.state = apply(self.state, event)
        self.log += events
        return events

    def hand(self, cid: str) -> list[str]:
        return list(self.state["combat"]["combatants"][cid]["hand"])

    def person(self, cid: str) -> dict[str, Any]:
        return self.state["combat"]["combatants"][cid]

    def fight(self, *people: dict[str, Any], focus: str = "physical", cards: StackedCards | None = None) -> None:
        """Start a combat, everyone declares ``focus``, the GM deals."""
        self.send(GM, "start_combat", combatants=list(people))
        for p in people:
            self.send(GM, "declare_focus", combatant=p["id"], focus=focus)
        if cards is not None:
            self.cards = cards
        self.send(GM, "deal")


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]
