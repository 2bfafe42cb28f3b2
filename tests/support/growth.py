"""A table for the growth tests (games/core/growth.py): a system's engine played as the platform
plays it, each move's form through its parser, the sender checked by the core, each event folded
and what it writes back put on the sheets; a session's close read from its form by the clock's
``closing_parse`` and run by ``Engine.close_session``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from games.contract import Character, GameSystem, Member
from games.contract import Table as Facts
from games.core.cards_port import Cards
from games.core.engine import Turn
from games.core.rng import Rng
from tests.support.engine import Play

GM = Member(id=1, name="Gail", is_gm=True)
ANN = Member(id=7, name="Ann", is_gm=False, controls=("c1",))
WATCHER = Member(id=9, name="Wes", is_gm=False)


def read_id(raw: object) -> int | None:
    return int(str(raw)) if str(raw).isascii() and str(raw).isdigit() else None


def form(**fields: Any) -> dict[str, list[str]]:
    """A form as a page posts it: each value a string."""
    return {k: [str(v)] for k, v in fields.items()}


class Grown:
    """``system``'s engine at a table of these characters (``{cid: (name, sheet)}``; Ann plays
    c1, ``npcs`` are the GM's)."""

    def __init__(self, system: GameSystem, people: Mapping[str, tuple[str, Mapping[str, Any]]],
                 npcs: Sequence[str] = (), rng: Rng | None = None, cards: Cards | None = None) -> None:
        assert system.engine is not None
        self.system, self.engine = system, system.engine
        self.play = Play(self.engine)
        self.rng, self.cards = rng, cards
        self.characters = {cid: Character(id=int(cid[1:]), cid=cid, name=name, sheet=dict(sheet),
                                          owner=ANN.id if cid == "c1" else None, is_npc=cid in npcs)
                           for cid, (name, sheet) in people.items()}

    def facts(self) -> Facts:
        return Facts(characters=tuple(self.characters.values()), read_id=read_id)

    def sheet(self, cid: str) -> dict[str, Any]:
        return dict(self.characters[cid].sheet)

    def _written(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for event in events:
            for cid, fields in self.engine.written(event, self.play.state).items():
                if cid in self.characters:
                    found = self.characters[cid]
                    self.characters[cid] = replace(found, sheet={**found.sheet, **fields})
        return events

    def send(self, member: Member, name: str, posted: Mapping[str, list[str]]) -> list[dict[str, Any]]:
        """One move, its form read by its parser (a refusal raises, nothing changed)."""
        move = self.engine.move(name)
        assert move is not None, name
        args = move.parse(posted, self.facts())
        return self._written(self.play.send(name, args, member, rng=self.rng, cards=self.cards,
                                            table=dict(self.characters)))

    def close(self, posted: Mapping[str, list[str]]) -> list[dict[str, Any]]:
        """The GM closes the session with this close form."""
        clock = self.engine.clock
        assert clock is not None
        args = clock.closing_parse(posted, self.facts())
        turn = Turn(member=GM, characters=dict(self.characters), rng=self.rng, cards=self.cards,
                    history=lambda: tuple(self.play.log))
        events = self.engine.close_session(self.play.state, args, turn)
        for event in events:
            self.play.state = self.engine.apply(self.play.state, event, lambda: tuple(self.play.log))
            self.play.log.append(event)
        return self._written(events)

    def line(self, event: Mapping[str, Any]) -> str:
        return self.engine.line(dict(event), self.play.state)

    def seen(self, event: Mapping[str, Any]) -> Any:
        return self.system.visibility(event)

    def set_option(self, key: str, value: int) -> None:
        self.send(GM, "set_option", form(option=key, value=value))

    def price(self, after: Mapping[str, Any], cid: str = "c1") -> Any:
        """What the character's sheet changed to ``after`` (the asked fields over it) costs now."""
        assert self.system.growth is not None
        before = self.sheet(cid)
        return self.system.growth.price(before, {**before, **after}, self.play.state)
