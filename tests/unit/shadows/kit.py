"""What the Shadows engine tests share: senders, characters, stacked decks and a table driver
that plays each move as the platform does: the move's form through its parser (which reads the
table's characters, never the state), the sender checked once by the core against the
character the move names, the handler with a ``Turn``, each event folded with the log before it.

A test names a character by its sheet (``ann(quickness=9)``): the driver seats it at the table
with that sheet, as the table has it from then on, and posts its id, as the page's forms do."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games.contract import Character
from games.contract import Table as Facts
from games.core.cards_port import StackedCards
from games.core.engine import Turn
from games.shadows import deck
from games.shadows.criticals import format_tables
from games.shadows.system import ENGINE
from games.shadows.weapons import format_table
from tests.support.engine import OnPlay, Play, member

GM_MEMBER, ANN_MEMBER, BOB_MEMBER = 1, 2, 3
GM: dict[str, Any] = {"is_gm": True, "controls": [], "member": GM_MEMBER, "name": "Gemma"}
ANN: dict[str, Any] = {"is_gm": False, "controls": ["c1"], "member": ANN_MEMBER, "name": "Ann"}
BOB: dict[str, Any] = {"is_gm": False, "controls": ["c2"], "member": BOB_MEMBER, "name": "Bob"}
MAJORS = [f"tarot:major:{n}" for n in range(22)]


def character(cid: str, name: str, owner: int | None, **sheet: Any) -> dict[str, Any]:
    """A character as a test names it: its sheet, with its combatant id, name, player and
    whether it is an NPC (``npc``)."""
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


def platform_id(cid: str) -> int:
    return int(cid.lstrip("c"))


def read_id(raw: object) -> int | None:
    return int(str(raw)) if str(raw).isdigit() else None


# The form field a move's parser reads where a test names the engine's argument.
FIELDS = {("approve_help", "combatant"): "character", ("counter", "combatant"): "character"}


class Table(OnPlay):
    """A table: Ann's, Bob's and an Orc nobody plays seated; moves played as the platform does,
    the log kept."""

    def __init__(self, cards: StackedCards | None = None) -> None:
        self.play = Play(ENGINE)
        self.cards = cards or stacked()
        self.rng = random.Random(0)
        self.characters: dict[str, Character] = {}
        for person in (ann(), bob(), orc()):
            self.seat(person)

    def seat(self, person: Mapping[str, Any]) -> str:
        """Seats (or re-seats) a character with this sheet; its platform id, as a form posts it."""
        cid = str(person["id"])
        self.characters[cid] = Character(
            id=platform_id(cid), cid=cid, name=str(person.get("name", cid)),
            sheet={k: v for k, v in person.items() if k not in ("id", "name", "owner", "npc")},
            owner=person.get("owner"), is_npc=bool(person.get("npc")))
        return str(platform_id(cid))

    def form(self, kind: str, command: Mapping[str, Any]) -> dict[str, list[str]]:
        """A move's arguments as the page's form posts them."""
        posted: dict[str, list[str]] = {}
        for key, raw in command.items():
            key = FIELDS.get((kind, key), key)
            if raw is None:
                continue
            if key == "sides":
                for tag, side in zip("abcdef", raw):
                    posted[f"character_{tag}"] = [self.seat(side["character"])]
                    posted[f"skill_{tag}"] = [str(side.get("skill") or "")]
                    posted[f"attribute_{tag}"] = [str(side.get("attribute") or "")]
            elif key == "combatants":
                posted["characters"] = [self.seat(p) for p in raw]
            elif key == "weapons":
                posted["table"] = [format_table(raw)]
            elif key == "tables":
                posted["table"] = [format_tables(raw)]
            elif key == "keep":
                for cid, token in raw.items():
                    posted[f"keep_{platform_id(cid)}"] = [str(token)]
            elif isinstance(raw, Mapping):
                posted[key] = [self.seat(raw)]
            elif isinstance(raw, (list, tuple)):
                posted[key] = [self.seat(x) if isinstance(x, Mapping) else
                               str(platform_id(x)) if re.fullmatch(r"c\d+", str(x)) else str(x) for x in raw]
            elif isinstance(raw, bool):
                posted[key] = ["yes" if raw else "no"]
            else:
                posted[key] = [str(raw)]
        return posted

    def send(self, actor: Mapping[str, Any], kind: str, **command: Any) -> list[dict[str, Any]]:
        move = ENGINE.move(kind)
        assert move is not None, kind
        form = self.form(kind, command)
        args = move.parse(form, Facts(characters=tuple(self.characters.values()), read_id=read_id))
        return self.play.send(kind, args, actor, rng=self.rng, cards=self.cards, table=dict(self.characters))

    def close_session(self, keep: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
        """The GM closes the session, as the platform does (only the GM may: the platform's verb
        ``session_manage``): the form's ``keep_<id>`` fields read by ``Clock.closing_parse``, the
        close decided by ``Engine.close_session``, each event folded with the log before it."""
        clock = ENGINE.clock
        assert clock is not None and clock.closing_parse is not None
        args = clock.closing_parse(self.form("close", {"keep": dict(keep or {})}),
                                   Facts(characters=tuple(self.characters.values()), read_id=read_id))
        turn = Turn(member=member(GM), characters=dict(self.characters), rng=self.rng, cards=self.cards,
                    history=lambda: tuple(self.play.log))
        events = ENGINE.close_session(self.state, args, turn)
        for event in events:
            self.play.state = ENGINE.apply(self.state, event, lambda: tuple(self.play.log))
            self.play.log.append(event)
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
