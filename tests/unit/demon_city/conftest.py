"""Shared fixtures for the Demon City engine tests: scripted dice and a fight driver.

The tests write a move as the old command dicts did (``{"type": "announce", "combatant":
"slow", "kind": "defend", "actor": {"controls": ["slow"]}}``); ``send`` plays it on the engine
as the table does (``tests/support/engine.Play``: the sender checked against the move's
subject, each event folded with the log before it). A "start" or "add_combatant" that names
sheets (each with its ``id``), or characters, seats them at the table first and sends their ids:
the engine reads the sheets from the table (``Turn.characters``), never from the move.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableSequence, Sequence
from typing import Any

import pytest

from games.contract import Character, Member
from games.core.engine import Turn
from games.demon_city import ENGINE
from tests.support.engine import OnPlay, Play

GM: dict[str, Any] = {"is_gm": True, "controls": []}
PLAYER = 7  # the member id of a test's player: the owner of the characters an actor "controls"


class ScriptedRng:
    """An ``Rng`` whose dice come from a script, so a test can stage the seed's examples.

    ``randint`` hands out ``rolls`` in order and fails the test if a value is outside the
    asked range or the script runs dry; ``choice`` takes from ``choices``; ``shuffle``
    leaves the list alone unless ``shuffles`` supplies the new order.
    """

    def __init__(self, rolls: Sequence[int] = (), choices: Sequence[Any] = (),
                 shuffles: Sequence[Sequence[Any]] = ()) -> None:
        self.rolls, self.choices, self.shuffles = list(rolls), list(choices), list(shuffles)
        self.asked: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        assert self.rolls, f"the script ran out of dice (asked for {a}-{b})"
        value = self.rolls.pop(0)
        assert a <= value <= b, f"scripted {value} is outside {a}-{b}"
        self.asked.append((a, b))
        return value

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        raise AssertionError("the engine should roll with randint")

    def random(self) -> float:
        raise AssertionError("the engine should roll with randint")

    def choice(self, seq: Sequence[Any]) -> Any:
        assert self.choices, "the script has no choice left"
        value = self.choices.pop(0)
        assert value in seq, f"scripted choice {value!r} is not among {list(seq)!r}"
        return value

    def shuffle(self, x: MutableSequence[Any]) -> None:
        if self.shuffles:
            wanted = list(self.shuffles.pop(0))
            assert sorted(wanted) == sorted(x), "scripted shuffle must be a permutation"
            x[:] = wanted

    @property
    def spent(self) -> bool:
        return not self.rolls and not self.choices


def seat(table: dict[str, Character], sheet: Mapping[str, Any], *, npc: bool = False) -> str:
    """A test's sheet (with its ``id``, and its ``name`` if it has one) as a character at the table."""
    cid = str(sheet["id"])
    rest = {k: v for k, v in sheet.items() if k not in ("id", "name")}
    table[cid] = Character(id=len(table) + 1, cid=cid, name=str(sheet.get("name") or ""), sheet=rest, owner=None,
                           is_npc=npc)
    return cid


def move(table: dict[str, Character], command: Mapping[str, Any]) -> tuple[str, dict[str, Any], Member,
                                                                            dict[str, Character]]:
    """An old command dict as a move: its name, its arguments, its sender, and the table as the
    sender finds it (the characters an actor "controls" are that player's)."""
    args = {k: v for k, v in command.items() if k not in ("type", "actor", "npcs", "npc")}
    name = str(command.get("type"))
    npcs = set(command.get("npcs") or ())
    if name == "start" and isinstance(args.get("combatants"), list):
        args["combatants"] = [seat(table, s, npc=str(s["id"]) in npcs) if isinstance(s, Mapping)
                              else table.setdefault(s.cid, s).cid if isinstance(s, Character) else s
                              for s in args["combatants"]]
    if name == "add_combatant" and isinstance(args.get("combatant"), Mapping):
        args["combatant"] = seat(table, args["combatant"], npc=command.get("npc") is True)
    actor = command.get("actor") or GM
    if actor.get("is_gm"):
        return name, args, Member(id=1, name="GM", is_gm=True), table
    controls = tuple(map(str, actor.get("controls") or ()))
    mine = {cid: Character(c.id, c.cid, c.name, c.sheet, PLAYER if cid in controls else c.owner, c.is_npc)
            for cid, c in table.items()}
    return name, args, Member(id=PLAYER, name="Player", is_gm=False, controls=controls), mine


def no_log() -> tuple[dict[str, Any], ...]:
    raise AssertionError("an undo folds the log again: play it with a Fight, which keeps one")


def run(state: dict[str, Any], command: dict[str, Any], rng: Any = None) -> tuple[dict[str, Any], list]:
    """One move on ``state`` without a log (the table is the fight's combatants): the state it
    leaves and its events. An undo needs the log: use a ``Fight``."""
    table = {cid: Character(i, cid, c.get("name") or "", {k: v for k, v in c.items() if k not in ("id", "name")},
                            None, cid in state.get("npcs", ()))
             for i, (cid, c) in enumerate(state["combatants"].items(), start=1)}
    name, args, sender, seen = move(table, command)
    events = ENGINE.decide(state, name, args, Turn(member=sender, characters=seen, rng=rng or ScriptedRng(),
                                                   history=no_log))
    for event in events:
        state = ENGINE.apply(state, event)
    return state, events


class Fight(OnPlay):
    """Drives the engine the way the table does: decide, fold, keep the log and the table."""

    def __init__(self, combatants: list[dict[str, Any]], rng: Any = None, **start: Any) -> None:
        self.play = Play(ENGINE)
        self.table: dict[str, Character] = {}
        self.send({"type": "start", "combatants": combatants, **start}, rng or ScriptedRng())

    def send(self, command: dict[str, Any], rng: Any = None) -> list[dict[str, Any]]:
        name, args, sender, table = move(self.table, command)
        return self.play.send(name, args, sender, rng=rng or ScriptedRng(), table=table)

    def decide(self, command: dict[str, Any], rng: Any = None) -> list[dict[str, Any]]:
        """The events ``command`` would cause, folding nothing (a refusal raises)."""
        name, args, sender, table = move(dict(self.table), command)
        turn = Turn(member=sender, characters=table, rng=rng or ScriptedRng(), history=lambda: tuple(self.log))
        return ENGINE.decide(self.state, name, args, turn)

    def announce(self, who: str, kind: str, target: str | None = None, *,
                 actor: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
        command = {"type": "announce", "combatant": who, "kind": kind, **extra}
        if target is not None:
            command["target"] = target
        if actor is not None:
            command["actor"] = actor
        return self.send(command)[0]

    def roll(self, rng: ScriptedRng) -> list[dict[str, Any]]:
        events = self.send({"type": "roll"}, rng)
        assert rng.spent, f"the engine left scripted values unused: {rng.rolls} {rng.choices}"
        return events

    def person(self, cid: str) -> dict[str, Any]:
        return self.state["combatants"][cid]


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


@pytest.fixture
def scripted() -> type[ScriptedRng]:
    return ScriptedRng


@pytest.fixture
def fight() -> Callable[..., Fight]:
    return Fight


@pytest.fixture
def pick() -> Callable[[list[dict[str, Any]], str], list[dict[str, Any]]]:
    return of_type


@pytest.fixture
def gm() -> dict[str, Any]:
    return dict(GM)
