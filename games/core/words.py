"""Counts in words, as a log line or a panel says them: "1 card", "3 cards", never "1 cards"."""

from __future__ import annotations


def count(n: int, singular: str, plural: str | None = None) -> str:
    """``n`` and the noun, singular for exactly one: ``count(1, "die", "dice")`` is "1 die"."""
    return f"{n} {singular if n == 1 else plural or singular + 's'}"


def for_whom(name: str, label: str) -> str:
    """How a line opens that says for whose move the rules moved cards: a move named by a noun
    reads "For the Ghoul's defence"; one named by what it does ("Choose a card", "End the
    combat") reads "As Pip chooses a card" ("For Pip's choose a card" is no sentence)."""
    first, _, rest = label.strip().partition(" ")
    if not rest:
        return f"For {name}'s {label.strip().lower()}"
    verb = first.lower()
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        verb += "es"
    elif verb.endswith("y") and verb[-2:-1] not in ("a", "e", "i", "o", "u"):
        verb = verb[:-1] + "ies"
    else:
        verb += "s"
    return f"As {name} {verb} {rest}"
