"""The workings Demon City registers (``Procedure.working``, ``Check.working``): each line's whole
working (working.py), and where an NPC's figure would reach the others, a public one built from
the event's public part with the whole as its private twin (twin.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Working
from games.demon_city.screen import task_visibility
from games.demon_city.twin import task, twin
from games.demon_city.working import Event, names, task_whole, whole


def working(event: Event, state: Mapping[str, Any]) -> Working | None:
    """The working of ``event``'s line, or None for bookkeeping (a round begins, a correction)."""
    return twin(event, whole(event, state), names(state))


def task_working(data: Mapping[str, Any]) -> Working:
    """A task outside Action Rounds, from its data. For or against an NPC
    (``screen.secret_task``), the working with its rating is the GM's, the twin of a public one
    built from the task's public part (``twin.task``)."""
    full = task_whole(data)
    if "gm_line" not in data:
        return full
    return task(data, full, task_visibility(data))
