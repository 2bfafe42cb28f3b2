"""The line a panel opens with: what the table waits for now, said to the seat it is drawn for.

A system's view holds whose move it is (``turn``: games/contract.py, Panel); the page's banner
says it too, but the panel is where a player acts, so it opens with the same news: "Your turn:
<prompt>." to a player whose character the step waits for (the form for it comes first, open),
"Your turn: <prompt>." to the GM when the step is the GM's, and "Now: <says>." to everyone
else. Empty when nothing waits: the panel then says what the table waits for in its own words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Seat


def line(turn: Mapping[str, Any] | None, seat: Seat) -> str:
    """The panel's opening line for ``seat``, from the view's ``turn``; "" when none."""
    if not turn:
        return ""
    waiting = [c for c in [turn.get("combatant"), *turn.get("waiting", ())] if c]
    own = [c for c in waiting if seat.plays(c)] if seat.role == "player" else []
    if own:
        prompt = turn.get("prompts", {}).get(own[0], turn.get("prompt", ""))
        return f"Your turn: {prompt}."
    if seat.is_gm and turn.get("gm"):
        return f"Your turn: {turn.get('prompt', '')}."
    return f"Now: {turn.get('says', '')}."
