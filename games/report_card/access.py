"""Who may do what. A character's ``player`` is the member id of whoever plays it (None: nobody
does, and the GM decides for it); ``actor`` is the sender ({is_gm, controls, member, name})."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.report_card.errors import NotNow, NotYours


def is_gm(actor: Mapping[str, Any]) -> bool:
    return bool(actor.get("is_gm"))


def plays(actor: Mapping[str, Any], person: Mapping[str, Any]) -> bool:
    player = person.get("player")
    return player is not None and actor.get("member") == player


def decides_for(actor: Mapping[str, Any], person: Mapping[str, Any]) -> bool:
    """A choice only the character's player makes (the GM only when nobody plays it)."""
    return plays(actor, person) or (person.get("player") is None and is_gm(actor))


def require_gm(actor: Mapping[str, Any], what: str) -> None:
    if not is_gm(actor):
        raise NotYours(f"Only the GM can {what}.")


def open_check(state: Mapping[str, Any]) -> dict[str, Any]:
    if state["check"] is None:
        raise NotNow("No check is open.")
    return state["check"]
