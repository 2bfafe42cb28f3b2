"""The exceptions the Passages engine raises to refuse: every one a ``RuleError``.

Raised before anything changes (``decide`` never mutates the state it is given), with a
message fit to show the person who sent the command. The subclasses say why, so a test
(or a page) can tell a refusal for the wrong seat from one for the wrong moment.
"""

from __future__ import annotations


class RuleError(ValueError):
    """A command or value the rules of Passages do not allow."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadValue(RuleError):
    """A number or name out of its range: a BASE of 96, a roll of 0, an unknown skill."""


class BadSheet(BadValue):
    """A sheet value out of range; ``field`` names the sheet field at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class NotYours(RuleError):
    """Someone acting for a Persona they do not play (the Director plays everyone)."""


class NotNow(RuleError):
    """A command out of its moment: a roll before every Persona has declared, say."""


class CannotAct(RuleError):
    """A Downed Persona doing anything but rest, or an Unconscious one doing anything."""
