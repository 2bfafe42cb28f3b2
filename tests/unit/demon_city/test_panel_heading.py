"""Issue 13, bug 7: "After 'End Action Rounds' the heading still says 'round 2'"."""

from __future__ import annotations

from games.demon_city.state import new_state
from games.demon_city.panel import panel


def test_no_round_is_named_once_action_rounds_end_or_before_they_start() -> None:
    for phase in ("idle", "ended"):
        state = {**new_state(), "phase": phase, "round": 2}
        assert panel(state)["round"] is None
