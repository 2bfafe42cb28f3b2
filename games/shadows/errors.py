"""The exceptions the Shadows of Humanity engine raises to refuse a command.

Every refusal is a :class:`RuleError` (the registration's ``rule_error``), raised before
anything changes: ``decide`` never mutates the state it is given, so the platform can show
``str(error)`` to whoever sent the command and carry on. The subclasses name the refusals
the table cares about most, so a test (or a caller) can tell them apart.
"""

from __future__ import annotations


class RuleError(Exception):
    """A command or input the rules do not allow; the message is fit to show."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotYourCharacter(RuleError):
    """Someone acting for a character they do not play (the GM plays anyone)."""


class GMOnly(RuleError):
    """Something only the GM may do."""


class NotInHand(RuleError):
    """A card that is not in the acting character's hand."""


class NotEnoughAP(RuleError):
    """An action costing more Action Points than the character has left this round."""


class WrongStep(RuleError):
    """A command that does not fit where the combat (or the check) is."""
