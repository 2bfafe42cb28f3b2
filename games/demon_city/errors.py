"""The one exception the Demon City engine raises for an illegal command."""

from __future__ import annotations


class RuleError(Exception):
    """A command or input the rules do not allow.

    Raised before anything changes: ``decide`` never mutates the state it is given,
    so a caller can show ``str(error)`` to the person who sent the command and carry on.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
