"""Assistance (seed 000): "Assistance can be provided by a second or even a third character
(subject to GM approval, from a logistics standpoint). With one-half the second characters' skill
being added to the value of the attempt by the primary character and one-quarter of the third
characters' skill value being added if allowed by the GM."

The seed puts it among "all types of actions", so it adds to every attempt: a check (checks.py),
a side of an opposed or multi-draw action (contests.py) and an attack (fight.py). The GM's approval
(``approve_help``) counts on the character's next attempt, whichever it is, and is used up by it;
an event that used it names whom in ``help_used`` (events.py folds it away)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core.engine import RuleError, Turn
from games.shadows import resolution
from games.shadows import state as st
from games.shadows.profile import profile_of
from games.shadows.sheet import skill_key


def helper_rows(state: Mapping[str, Any], turn: Turn, person: Mapping[str, Any], raw: Sequence[str],
                skill: str) -> list[dict[str, Any]]:
    """Each helper of ``raw`` (ids, in order: the second character, then the third) with its
    value of ``skill``, read as the fight has it or as the table has it now."""
    if len(raw) > 2:
        raise RuleError("At most two others can help: a second and a third character.")
    helpers = []
    for cid in raw:
        helper = st.in_combat(state, cid)
        if helper is not None:
            st.require_standing(helper)  # a combatant down or dead helps nobody
        else:
            character = turn.character(cid)
            if character is None:
                raise RuleError("Choose who helps among the characters at the table.")
            helper = profile_of(character)
        if helper["id"] == person["id"]:
            raise RuleError("A character cannot help themself.")
        key = skill_key(skill) if skill else ""
        helpers.append({"id": helper["id"], "name": helper["name"],
                        "skill": int(helper["skills"].get(key, 0)) if key else 0,
                        **({"npc": True} if helper.get("npc") else {})})
    return helpers


def approved(state: Mapping[str, Any], turn: Turn, person: Mapping[str, Any], skill: str) -> dict[str, Any]:
    """The help the GM approved for ``person``'s next attempt, with ``skill``: ``helpers``, the
    ``assistance`` they add (half, then a quarter, of their skill) and ``screened`` when a helper is
    an NPC (what it adds is a figure of its sheet, the GM's). Nothing when none was approved."""
    raw = [str(h) for h in (state.get("help") or {}).get(person["id"], [])]
    if not raw:
        return {"helpers": [], "assistance": 0, "screened": False}
    helpers = helper_rows(state, turn, person, raw, skill)
    return {"helpers": helpers, "assistance": resolution.assistance([h["skill"] for h in helpers]),
            "screened": any(h.get("npc") for h in helpers)}
