"""Who may make a choice the rules give one person, beyond who may send a move (the core's
check: the GM anything, a player the announcements of the characters they play)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Member
from games.demon_city.state import npcs


def may_aim_at_several(member: Member, state: Mapping[str, Any], cid: str) -> bool:
    """Seed: "Actions can normally only target one foe at a time--exceptions will be noted": the
    Host makes the exception, for one entity this round (``allow_extra_targets``), or by
    announcing it themselves."""
    return member.is_gm or cid in state["extra_targets"]


def knows_skills_of(member: Member, state: Mapping[str, Any], cid: str) -> bool:
    """Whether the sender may name ``cid``'s own skills: an NPC's are the GM's, so a player's
    refusal must not tell which it has."""
    return member.is_gm or cid not in npcs(state)
