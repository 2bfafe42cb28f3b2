"""Playing a system's engine in a unit test as the table plays it: each move through
``Engine.decide`` (the sender checked against the move's subject, as the platform has it
checked) and each event folded with the log before it, so an undo folds the log again.

``member(actor)`` reads the old ``{is_gm, controls, member, name}`` dicts the tests were written
with; ``Play.send`` keeps the state and the log."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.contract import Character, Member
from games.core.cards_port import Cards
from games.core.engine import Engine, Turn
from games.core.rng import Rng

GM = Member(id=1, name="GM", is_gm=True)


def member(actor: Mapping[str, Any] | Member | None) -> Member:
    """A sender from an actor dict (``{"is_gm": True}``, ``{"controls": ["c1"], "member": 7}``)."""
    if isinstance(actor, Member):
        return actor
    actor = actor or {}
    return Member(id=int(actor.get("member") or (1 if actor.get("is_gm") else 0)), name=str(actor.get("name") or ""),
                  is_gm=bool(actor.get("is_gm")), controls=tuple(map(str, actor.get("controls") or ())))


def characters(sheets: Mapping[str, Mapping[str, Any]], owners: Mapping[str, int | None] | None = None,
               npcs: Sequence[str] = ()) -> dict[str, Character]:
    """The table's characters by combatant id, from sheets (each may carry its ``name``)."""
    owners = owners or {}
    return {cid: Character(id=int(cid.lstrip("c") or 0) if cid.lstrip("c").isdigit() else 0, cid=cid,
                           name=str(sheet.get("name", cid)), sheet=dict(sheet), owner=owners.get(cid),
                           is_npc=cid in npcs)
            for cid, sheet in sheets.items()}


@dataclass
class Play:
    """One table's procedure: its state and its log, moved on by ``send``."""

    engine: Engine
    state: dict[str, Any] = field(default_factory=dict)
    log: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.state:
            self.state = self.engine.new_state()

    def send(self, name: str, args: Mapping[str, Any], sender: Mapping[str, Any] | Member | None = None, *,
             rng: Rng | None = None, cards: Cards | None = None,
             table: Mapping[str, Character] | None = None) -> list[dict[str, Any]]:
        turn = Turn(member=member(sender) if sender is not None else GM, characters=table or {}, rng=rng,
                    cards=cards, history=lambda: tuple(self.log))
        events = self.engine.decide(self.state, name, args, turn)
        for event in events:
            self.state = self.engine.apply(self.state, event, lambda: tuple(self.log))
            self.log.append(event)
        return events


class OnPlay:
    """A system's test table driven through one ``Play``: its state and its log are the Play's."""

    play: Play

    @property
    def state(self) -> dict[str, Any]:
        return self.play.state

    @property
    def log(self) -> list[dict[str, Any]]:
        return self.play.log
