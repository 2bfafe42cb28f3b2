"""Harsh Light's refusals: each a ``games.core.engine.RuleError`` (the platform answers it with
400 and the message), worded for whoever sent the move. A handler raises before anything is
drawn or changed. Who may send a move at all (the GM's moves, a character's player) is the
core's to refuse, once, before any handler runs."""

from __future__ import annotations

from games.core.engine import RuleError


class OutOfTurn(RuleError):
    """An instant action (a pull, a Dodge) by a character whose action it is not, or a second
    one in a turn."""


class WillpowerRefused(RuleError):
    """A second Willpower point in a turn, or none left on the sheet."""
