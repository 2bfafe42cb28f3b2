"""The workings Passages registers (``Procedure.working``, ``Check.working``): each line's whole
working (working.py), and where an NPC's figure would reach the others, a public one built from
the event's public part with the whole as its private twin, the Director's (twin.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Working
from games.passages.screen import check_visibility
from games.passages.state import names_of
from games.passages.twin import one_off, twin
from games.passages.working import Event, check_working, whole


def working(event: Event, state: Mapping[str, Any]) -> Working | None:
    """The working of ``event``'s line, or None for bookkeeping (a scene begins, a status)."""
    names = names_of(state)
    return twin(event, whole(event, state), lambda cid: names.get(str(cid), str(cid)))


def check_rolled_working(data: Mapping[str, Any]) -> Working:
    """The one-off check's working, from its data. An NPC's (its figures in the Director's
    part: ``screen.CHECK_FIGURES``) is the twin of a public one (``twin.one_off``)."""
    full = check_working(data)
    if "gm_line" not in data:
        return full
    return one_off(data, full, check_visibility(data))
