"""Counts in words, as a log line or a panel says them: "1 card", "3 cards", never "1 cards"."""

from __future__ import annotations


def count(n: int, singular: str, plural: str | None = None) -> str:
    """``n`` and the noun, singular for exactly one: ``count(1, "die", "dice")`` is "1 die"."""
    return f"{n} {singular if n == 1 else plural or singular + 's'}"
