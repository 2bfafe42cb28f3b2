"""Demon City's refusals: the one ``RuleError`` of games/core/engine.py (a move or input the rules
do not allow, raised before anything changes), and the kinds of it these rules name."""

from __future__ import annotations

from games.core.engine import RuleError


class NotNow(RuleError):
    """A move the rules allow, at the wrong moment: the fight's phase does not take it, or it is
    another entity's turn to announce."""


class NotInFight(RuleError):
    """A combatant the fight does not hold, or a character the table does not seat."""
