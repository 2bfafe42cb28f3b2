"""The refusals of Passages: each a ``games.core.engine.RuleError`` (the one the platform
knows), raised before anything changes, with a message fit to show whoever sent the move. The
subclasses say why, so a test (or a page) can tell a refusal for the wrong value from one for
the wrong moment. Who may send a move at all is the core's to refuse (``NotYourMove``).
"""

from __future__ import annotations

from games.core.engine import RuleError


class BadValue(RuleError):
    """A number or name out of its range: a BASE of 96, a roll of 0, an unknown skill."""


class BadSheet(BadValue):
    """A sheet value out of range; ``field`` names the sheet field at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class NotNow(RuleError):
    """A move out of its moment: a roll before every Persona has declared, say."""


class CannotAct(RuleError):
    """A Downed Persona doing anything but rest, or an Unconscious one doing anything."""
