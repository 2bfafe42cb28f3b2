"""Ties in Agility, settled once and kept.

Seed 003, step 1: "Whatever entity involved has the lowest Agility (Ties are decided randomly)
announces", and its advice: "write down player characters' names in ascending order of Agility,
so you can do this the same every time. Resolve ties between player at the beginning of the
game to make life simple." A tie is drawn the first time it matters and kept, across fights,
in ``state["settled"]`` (the ids in the order they announce among equals: earlier announces
first), until the Host settles the ties again ("settle_ties"). Two entities that never tied are
ordered by that list too once they do, when both are in it: a draw made once, as the seed asks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import groupby
from typing import Any

from games.core.rng import Rng
from games.demon_city.combatant import Combatant


def settled(state: Mapping[str, Any]) -> list[str]:
    return [str(c) for c in state.get("settled") or ()]


def settle_block(block: Sequence[str], kept: Sequence[str], rng: Rng) -> list[str]:
    """The announcement order among entities of equal Agility: as kept where it was settled, a
    fresh draw where it was not (a newcomer at a random place among the settled)."""
    known = [c for c in kept if c in block]
    fresh = [c for c in block if c not in known]
    if not fresh:
        return known
    if not known:
        drawn = list(block)
        rng.shuffle(drawn)
        return drawn
    if len(fresh) > 1:
        rng.shuffle(fresh)
    result = list(known)
    for cid in fresh:
        result.insert(rng.randint(0, len(result)), cid)
    return result


def merged(kept: Sequence[str], blocks: Sequence[Sequence[str]]) -> list[str]:
    """``kept`` with each settled block written in: its members in the block's order, where the
    first of them stood (at the end for a block none of whom was settled)."""
    result = list(kept)
    for block in blocks:
        at = min((result.index(c) for c in block if c in result), default=len(result))
        result = [c for c in result if c not in block]
        result[at:at] = list(block)
    return result


def ordered(people: Sequence[Combatant], kept: Sequence[str], rng: Rng) -> tuple[list[str], list[list[str]]]:
    """The announcement order of ``people`` (ascending Agility) and its tie blocks, settled as
    kept (``settle_block``)."""
    order: list[str] = []
    ties: list[list[str]] = []
    for _, same in groupby(sorted(people, key=lambda p: p.agility), key=lambda p: p.agility):
        block = [p.id for p in same]
        if len(block) > 1:
            block = settle_block(block, kept, rng)
            ties.append(list(block))
        order += block
    return order, ties


def place(person: Combatant, order: Sequence[str], people: Mapping[str, Combatant], kept: Sequence[str],
          rng: Rng) -> tuple[list[str], list[str]]:
    """``order`` with ``person`` inserted by Agility, and the kept ties with its place written in:
    among equals where the kept ties put it, else at a random place, as the seed decides ties,
    while the ties already decided between others stay put."""
    rest = [c for c in order if c != person.id]
    first = sum(1 for c in rest if people[c].agility < person.agility)
    equals = [c for c in rest if people[c].agility == person.agility]
    if not equals:
        return [*rest[:first], person.id, *rest[first:]], list(kept)
    if person.id in kept and all(c in kept for c in equals):
        at = sum(1 for c in equals if kept.index(c) < kept.index(person.id))
    else:
        at = rng.randint(0, len(equals))
    block = [*equals[:at], person.id, *equals[at:]]
    return [*rest[:first], *block, *rest[first + len(equals):]], merged(kept, [block])
