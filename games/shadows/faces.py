"""Cards and chances as the panel shows them: plain data ``games/core/card_face.html`` draws."""

from __future__ import annotations

from math import floor, log10
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
    """A Major Arcana card with both its meanings, and the one it has as it lies (``lies``,
    ``oriented_name``: a guide drawn reversed reads reversed, as the log says it)."""
    bare = deck.bare(token)
    return {**card_face(bare), "token": token, "name": deck.name(bare), "upright": deck.meaning(bare, False),
            "reversed_meaning": deck.meaning(bare, True), "lies": deck.meaning(token),
            "oriented_name": deck.name(token)}


def _decimals(share: float) -> int:
    """How many decimals show ``share`` (a percentage above 0) to two significant figures, at
    least one."""
    return max(1, 1 - floor(log10(share)))


def pct(x: float) -> str:
    """A chance as a table "in percent" prints it: 12.3; a chance below 0.1 % or above 99.9 %
    with two significant figures of itself or of what it misses (0.037, 99.963), so no chance
    that is not nil reads as 0.0, nor one short of certain as 100.0."""
    if x <= 0 or x >= 1:
        return "0" if x <= 0 else "100"
    if x < 0.001:
        return f"{x * 100:.{_decimals(x * 100)}f}"
    if x > 0.999:
        return f"{x * 100:.{_decimals((1 - x) * 100)}f}"
    return f"{x * 100:.1f}"


def _one_in(x: float) -> str:
    """"1 in 2,500", "1 in 2.7 million": the odds against, to two significant figures."""
    n = float(f"{1 / x:.2g}")
    for size, word in ((1e9, "billion"), (1e6, "million")):
        if n >= size:
            return f"1 in {n / size:g} {word}"
    return f"1 in {n:,.0f}"


def chance(x: float) -> str:
    """A chance as a person reads it, with its unit: "12.3 %" from 1 % to 99.9 %; below, "1 in
    2,500"; above, "all but 1 in 2,000" (to two significant figures); "0 %" only when it never
    happens, "100 %" only when it always does."""
    if 0 < x < 0.01:
        return _one_in(x)
    if 0.999 < x < 1:
        return f"all but {_one_in(1 - x)}"
    return f"{pct(x)} %"
