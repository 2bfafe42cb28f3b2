"""Report Card's refusals, each fit to show: subclasses of the engine's one ``RuleError``
(games/core/engine.py), raised before anything changes and before any card is drawn."""

from __future__ import annotations

from games.core.engine import RuleError


class NotYours(RuleError):
    """The choice is one person's and the rules give it to someone else: a Bonus pick or a
    retry to the character's player, a Penalty pick to the GM, calling a check to the GM unless
    the GM lets players call. (Who may send a move at all the engine checks, once.)"""


class NotNow(RuleError):
    """The move does not fit the moment: no check is open, a card is still to be chosen,
    the check already succeeded."""


class AlreadyToday(RuleError):
    """Seed 004: "Skill Checks for a specific thing cannot be made more than once per Day"."""


class BadInput(RuleError):
    """A rank, skill, card or character the rules do not know."""
