"""The refusals Shadows of Humanity names: kinds of the one ``RuleError`` (games/core/engine.py),
each raised before anything changes, its message fit to show whoever sent the move. A test, or
a caller, tells them apart by kind."""

from __future__ import annotations

from games.core.engine import RuleError


class GMOnly(RuleError):
    """A part of a move only the GM may choose: a modifier, what an action costs, help the GM
    has not approved."""


class NotInHand(RuleError):
    """A card that is not in the acting character's hand."""


class NotEnoughAP(RuleError):
    """An action costing more Action Points than the character has left this round."""


class WrongStep(RuleError):
    """A move that does not fit where the combat (or the check) is."""
