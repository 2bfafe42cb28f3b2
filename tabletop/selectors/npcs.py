"""What the GM's NPC tools read: who fights in the fight under way and who is out of it, the
retired characters of a table, and a GM's bestiary for one system (theirs alone)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from games import registry
from games.core.fights import Fighter
from tabletop.models import BestiaryEntry, Character, Table
from tabletop.selectors import character_facts, combatant_id, procedure_state


def fight_roster(table: Table, characters: Iterable[Character], state: Any = None) -> list[Fighter]:
    """The fight under way as the system's ``Fights`` says it (its sides, who is out), read from
    the procedure's state and every character of the table, retired or not: a fight's state may
    name one retired once it went out, and its name and side still count. Empty between fights
    and at a table whose system has none."""
    game = registry.get(table.system)
    if game.fights is None:
        return []
    found = procedure_state(table) if state is None else state
    if not found:
        return []
    return list(game.fights.roster(found, {combatant_id(c): character_facts(c) for c in characters}))


def seated(table: Table, characters: Sequence[Character]) -> set[str]:
    """The combatant ids a rule of the system reads at the table: every character but the
    retired, and a retired one the fight under way still holds (out of it and put away, its
    fight's state names it: the rules must still find it by its id)."""
    cids = {combatant_id(c) for c in characters if not c.retired}
    if any(c.retired for c in characters):
        fighting = {f.cid for f in fight_roster(table, characters)}
        cids |= {combatant_id(c) for c in characters if c.retired and combatant_id(c) in fighting}
    return cids


def is_out(table: Table, character: Character, roster: Sequence[Fighter]) -> bool:
    """Whether a character is out: out of the fight under way as its system says (fallen, out of
    the fight, incapacitated, not Combat Eligible), or, outside that fight, its card greyed out by
    what its sheet holds (``Glance.out``: a Current Toughness past -1, a Health of 0)."""
    cid = combatant_id(character)
    fighter = next((f for f in roster if f.cid == cid), None)
    if fighter is not None:
        return fighter.out
    return bool(registry.get(table.system).glance(character.sheet).out)


def retired_list(table: Table) -> list[dict[str, Any]]:
    """The table's retired characters, newest first, as the GM's short list shows them."""
    rows = table.characters.filter(retired=True).order_by("-pk").values_list("pk", "name", "is_npc")[:50]
    return [{"id": pk, "name": name, "npc": npc} for pk, name, npc in rows]


def bestiary_list(owner_id: int, system: str) -> list[dict[str, Any]]:
    """A GM's bestiary for one system, by name: no other GM's entries, no other system's."""
    rows = BestiaryEntry.objects.filter(owner_id=owner_id, system=system).order_by("name", "pk")
    return [{"id": pk, "name": name} for pk, name in rows.values_list("pk", "name")]


def npc_desk(table: Table, user_id: int) -> dict[str, Any]:
    """The GM's NPC tools beside the characters: the retired list and the bestiary of the
    table's system."""
    return {"retired": retired_list(table), "bestiary": bestiary_list(user_id, table.system),
            "system": registry.get(table.system).name}
