"""Helpers for the Passages engine tests: scripted percentile dice."""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Any

GM: dict[str, Any] = {"is_gm": True, "controls": [], "member": 1, "name": "Dee"}


def player(*cids: str, member: int = 2) -> dict[str, Any]:
    return {"is_gm": False, "controls": list(cids), "member": member, "name": f"player {member}"}


class Dice:
    """An ``Rng`` whose d100s come from a script; it fails the test if the engine asks for
    anything but a d100, or for more dice than scripted."""

    def __init__(self, *rolls: int) -> None:
        self.rolls = list(rolls)

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, 100), f"the engine asked for {a}-{b}, not a d100"
        assert self.rolls, "the script ran out of dice"
        return self.rolls.pop(0)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        raise AssertionError("the engine should roll with randint")

    def random(self) -> float:
        raise AssertionError("the engine should roll with randint")

    def shuffle(self, x: MutableSequence[Any]) -> None:
        raise AssertionError("nothing in Passages is shuffled")

    def choice(self, seq: Sequence[Any]) -> Any:
        raise AssertionError("nothing in Passages is chosen at random")
