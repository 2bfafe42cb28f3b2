"""The one source of randomness for every engine.

Engines never import :mod:`random` themselves: they take an ``Rng`` argument, so a
test can pass a seeded ``random.Random`` and a log can be replayed, while
production passes :func:`system_rng` (the operating system's CSPRNG).
"""

from __future__ import annotations

import secrets
from collections.abc import MutableSequence, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

T = TypeVar("T")


@runtime_checkable
class Rng(Protocol):
    """What an engine may ask of a random source; ``random.Random`` satisfies it."""

    def randint(self, a: int, b: int) -> int: ...

    def randrange(self, start: int, stop: int | None = ..., step: int = ...) -> int: ...

    def random(self) -> float: ...

    def shuffle(self, x: MutableSequence[Any]) -> None: ...

    def choice(self, seq: Sequence[T]) -> T: ...


def system_rng() -> Rng:
    """The production source: ``secrets.SystemRandom`` (unpredictable, not seedable)."""
    return secrets.SystemRandom()
