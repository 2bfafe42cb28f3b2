"""How Shadows of Humanity's parsers (moves.py) read a form's fields, each the one way: a
character (by its platform id, or its combatant id), a whole number in its range, a text of
its length, a hand's cards. Each refuses what is malformed with a message fit to show."""

from __future__ import annotations

from typing import Any

from games.contract import Character, Table
from games.core.engine import RuleError
from games.forms import Form, text, value, values, whole
from games.shadows import deck
from games.shadows.errors import NotInHand

_MAX_TEXT = 200
_MAX_CARDS = 30


def number(form: Form, key: str, default: int | None = None, what: str = "",
           span: tuple[int, int] | None = None) -> int | None:
    """A whole number (``default`` when blank), within ``span`` when given."""
    found = whole(form, key, refuse=lambda raw: RuleError(f"{what or key.capitalize()} is a whole number."))
    found = default if found is None else found
    if found is not None and span is not None and not span[0] <= found <= span[1]:
        raise RuleError(f"{what or key.capitalize()} is from {span[0]} to {span[1]}.")
    return found


def words(form: Form, key: str, limit: int = _MAX_TEXT) -> str:
    return text(form, key, max_length=limit, refuse=lambda key: RuleError(
        f"{key.capitalize()} is at most {limit} characters."))


def character(form: Form, table: Table, key: str = "character", what: str = "a character") -> Character:
    """The character a field names, by its platform id or its combatant id (``c<id>``: the
    panel's rows name combatants so)."""
    raw = value(form, key).strip()
    found = next((c for c in table.characters if c.cid == raw), None) if raw.startswith("c") else None
    found = found or table.character(raw or None)
    if found is None:
        raise RuleError(f"Choose {what}.")
    return found


def subject(form: Form, table: Table) -> dict[str, Any]:
    """The character a move is for: its ``combatant`` field, or ``character``."""
    return {"combatant": character(form, table, "combatant" if value(form, "combatant") else "character").cid}


def hand_cards(form: Form, key: str = "cards") -> list[str]:
    """Cards of the Minor Arcana, each named once (a hand's cards, as the panel posts them)."""
    tokens = [v.strip() for v in values(form, key) if v.strip()]
    if len(tokens) > _MAX_CARDS:
        raise RuleError("Too many cards.")
    if len(set(tokens)) != len(tokens):
        raise RuleError("The same card is named twice.")
    if any(not deck.is_minor(t) for t in tokens):
        raise NotInHand("That is not a card of the Minor Arcana: pick the cards in the hand.")
    return tokens


def ap_spent(form: Form, low: int) -> dict[str, int]:
    """The AP an action spends, when the form says (13 is the seed's "normal maximum")."""
    spent = number(form, "ap", None, "The AP", (low, 13))
    return {} if spent is None else {"ap": spent}


def gm_modifier(form: Form) -> int:
    """What the GM adds to a check or an attack (only the GM may: access.gm_only)."""
    return int(number(form, "modifier", 0, "The modifier", (-50, 50)) or 0)


def drawn_count(form: Form, key: str = "cards") -> int:
    """One card or three: "must be decided before any the process is started" (seed)."""
    count = number(form, key, 1, "The number of cards")
    if count not in (1, 3):
        raise RuleError("Draw one card or three: it is decided before drawing.")
    return int(count)
