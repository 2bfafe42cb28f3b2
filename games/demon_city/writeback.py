"""What a Demon City fight leaves on the characters' sheets when Action Rounds end."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


# What a fight leaves on the characters' sheets when Action Rounds end.
LASTING = ("current_toughness", "injured", "out_of_fight")


def writeback(event: Mapping[str, Any], state: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """When Action Rounds end, each combatant's Toughness and injuries go back to its sheet."""
    if event.get("type") != "action_rounds_ended":
        return {}
    # An injury from before the fight stays on the sheet though it cost no Lost Die here.
    return {cid: {**{k: c[k] for k in LASTING},
                  "injured": bool(c["injured"] or c.get("injured_before"))}
            for cid, c in state["combatants"].items()}
