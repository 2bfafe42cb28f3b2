"""Cards and chances as the panel shows them: plain data ``games/core/card_face.html`` draws."""

from __future__ import annotations

from typing import Any

from games.core.cards import OrientedCard
from games.shadows import deck
from games.shadows.combat import defence_card_value


def card_face(token: str) -> dict[str, Any]:
    """A card as the panel shows it: its id, name, value, rank, colour and glyph, plus what
    the rules read of it (its value as a defence card)."""
    oriented = OrientedCard.from_token(token)
    c = oriented.card
    return {"token": token, "id": c.id, "name": deck.name(token), "value": c.value, "suit": c.suit,
            "face": c.is_face, "symbol": c.symbol, "rank_label": c.rank_label, "colour": c.colour,
            "glyph": c.glyph, "reversible": c.reversible, "reversed": oriented.reversed,
            "defence": defence_card_value(token) if c.arcana == "minor" else 0}


def major_face(token: str) -> dict[str, Any]:
    """A Major Arcana card with both its meanings."""
    bare = deck.bare(token)
    return {**card_face(bare), "token": token, "name": deck.name(bare), "upright": deck.meaning(bare, False),
            "reversed_meaning": deck.meaning(bare, True)}


def pct(x: float) -> str:
    """A chance as the panel prints it: 12.3 (never "0.0" for a chance that is not nil)."""
    if 0 < x < 0.0005:
        return "<0.1"
    if 0.9995 < x < 1:
        return ">99.9"
    return f"{x * 100:.1f}"
