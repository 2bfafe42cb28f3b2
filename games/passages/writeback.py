"""What goes back on the sheets: each Persona's tracks as the contest or fight leaves them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.passages import sheet
from games.passages import state as st


# Events after which the sheets keep each Persona's tracks as the scene has them: so the
# character cards beside the table say what the panel says, turn by turn.
_KEPT_AT = frozenset({"contest_round", "resolution_point", "track_corrected", "undone", "status_set"})
_ENDS = frozenset({"contest_ended", "combat_ended"})


def writeback(event: Mapping[str, Any], state: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Each Persona's tracks go back on its sheet when a contest round or a Resolution Point
    changes them, when the Director corrects one or takes a step back, and when it ends. Seed:
    "Health and Fatigue are the current values of the Persona at the Resolution Point". An
    undo back to before the scene writes nothing: the sheets are as they were then."""
    kind = event.get("type")
    if kind == "rested":  # outside a fight: the sheets themselves
        return {event["combatant"]: dict(event["after"])}
    if kind == "time_recovered":  # the clock: the sheets themselves
        return {row["combatant"]: dict(row["after"]) for row in event["rows"]}
    if kind == "skills_advanced":  # a session's close: the marked skills' new BASEs
        return {cid: {"skills": dict(skills)} for cid, skills in event["skills"].items()}
    if kind == "tended":
        return {cid: dict(t) for cid, t in event["after"].items()}
    if kind == "track_corrected" and "sheet" in event:
        return {event["combatant"]: dict(event["sheet"])}
    if kind in _ENDS:
        return {cid: {k: p[k] for k in sheet.LASTING} for cid, p in state["personae"].items()}
    if kind == "undone" and event.get("restore"):  # a step outside a fight taken back
        return {cid: dict(t) for cid, t in event["restore"].items()}
    if kind in _KEPT_AT:
        return {cid: {k: state["personae"][cid][k] for k in sheet.LASTING} for cid in st.in_scene(state)}
    return {}
