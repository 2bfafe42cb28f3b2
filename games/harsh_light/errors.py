"""The exceptions Harsh Light raises to refuse: every one a ``RuleError``, with a message fit
to show to whoever sent the command. ``decide`` raises before anything changes."""

from __future__ import annotations


class RuleError(ValueError):
    """A command or value the rules do not allow; ``str(error)`` is the message to show."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class OutOfTurn(RuleError):
    """An instant action (a pull, a Dodge) by a character whose action it is not."""


class NotYourCharacter(RuleError):
    """A player acting for a character they do not control."""


class WillpowerRefused(RuleError):
    """A second Willpower point in a turn, or none left on the sheet."""
