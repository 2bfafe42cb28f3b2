"""The exceptions the Report Card engine raises to refuse a command, each fit to show."""

from __future__ import annotations


class RuleError(Exception):
    """A command or input the rules do not allow; raised before anything changes (and before
    any card is drawn), so the sender sees ``str(error)`` and the table carries on."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotYours(RuleError):
    """The choice belongs to someone else: a Bonus pick or a retry to the character's player,
    a Penalty pick to the GM, calling a check to the GM unless the GM lets players call."""


class NotNow(RuleError):
    """The command does not fit the moment: no check is open, a card is still to be chosen,
    the check already succeeded."""


class AlreadyToday(RuleError):
    """Seed 004: "Skill Checks for a specific thing cannot be made more than once per Day"."""


class BadInput(RuleError):
    """A rank, skill, card or character the rules do not know."""
