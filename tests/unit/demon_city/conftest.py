"""Shared fixtures for the Demon City engine tests: scripted dice and a fight driver."""

from __future__ import annotations

from collections.abc import Callable, MutableSequence, Sequence
from typing import Any

import pytest

from games.demon_city import apply, decide, new_state

GM: dict[str, Any] = {"is_gm": True, "controls": []}


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


class Fight:
    """Drives the state machine the way the Django side will: decide, apply, keep the log."""

    def __init__(self, combatants: list[dict[str, Any]], rng: Any = None) -> None:
        self.state = new_state()
        self.log: list[dict[str, Any]] = []
        self.send({"type": "start", "actor": GM, "combatants": combatants}, rng or ScriptedRng())

    def send(self, command: dict[str, Any], rng: Any = None) -> list[dict[str, Any]]:
        command = {"actor": GM, **command}
        events = decide(self.state, command, rng or ScriptedRng())
        for event in events:
            self.state = apply(self.state, event)
        self.log += events
        return events

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
