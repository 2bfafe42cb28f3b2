"""What the rules put back on the sheets, at once, so the character card and the next move read
it: Willpower points left (the issue: "the sheet's Willpower dots drop"), and Health's wounds and
whether the character is unconscious (issue 22), as moves and time (campaign.py) leave them; Beats
and Experiences; and, when the Storyteller takes a step back, what that step had overwritten
(undo.py). Each from the event alone.

Within one move a later rule reads the sheets as the earlier events leave them (a wound, then the
Stamina pull it calls for): ``after`` folds an event into a rule's view of the table (state.in_play)
and writes it back on the view's sheets, as the table will write it back on the characters'.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from games.core.engine import UNDONE
from games.harsh_light import undo
from games.harsh_light.events import FOLDS

SHEETS = ("characters", "unread")  # what a rule's view holds beside the state


def writeback(event: Mapping[str, Any], state: Mapping[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """The sheet fields ``event`` changes, by combatant id."""
    kind, cid = event.get("type"), event.get("combatant")
    if kind == "willpower_spent":
        return {cid: {"willpower_points": event["points_left"]}}
    if kind in ("damaged", "healed"):
        return {cid: {**event["health"], "unconscious": event["track"]["unconscious"]}}
    if kind == "consciousness_pulled":
        return {cid: {"unconscious": event["track"]["unconscious"]}}
    if kind == "rested":  # time's healing and Willpower (campaign.py)
        fields = {**event["health"], "unconscious": event["track"]["unconscious"]} if "track" in event else {}
        if event.get("willpower"):
            fields["willpower_points"] = event["willpower"]["points_left"]
        return {cid: fields}
    if kind == "beats_gained":
        return {cid: dict(event["now"])}
    if kind == UNDONE:  # the Storyteller took a step back: the sheets as they were before it (undo.py)
        return undo.written(event)
    return {}


def after(view: Mapping[str, Any], event: Mapping[str, Any]) -> dict[str, Any]:
    """A rule's view of the table once ``event`` has happened: the state folded, the sheets
    written back. ``view`` itself is left as it was."""
    state = copy.deepcopy({k: v for k, v in view.items() if k not in SHEETS})
    FOLDS[event["type"]](state, dict(event))
    sheets = dict(view["characters"])
    for cid, fields in writeback(event).items():
        sheets[cid] = {**sheets[cid], **fields}
    return {**state, "characters": sheets, "unread": view.get("unread", {})}
