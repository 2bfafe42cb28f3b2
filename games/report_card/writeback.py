"""What the rules put back on a character's sheet: the Corruption Point a retry takes, and the
new A+ and F chosen once all three circles are filled (which empties them), and what a step the
GM takes back had written there, as it was."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def writeback(event: Mapping[str, Any], state: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The sheet fields ``event`` changes, by combatant id."""
    if event["type"] == "retried":
        return {event["cid"]: {"corruption": event["corruption"]}}
    if event["type"] == "undone":  # the GM took back a step that wrote on sheets (campaign.settle)
        return {cid: dict(fields) for cid, fields in (event.get("restore") or {}).items()}
    if event["type"] == "skills_rechosen":
        return {event["cid"]: {"a_plus": event["a_plus"], "f_skill": event["f_skill"], "corruption": 0}}
    return {}
