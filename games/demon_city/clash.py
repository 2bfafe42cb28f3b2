"""Grouping announced actions into Clashes, and deciding who acts in one.

Seed: "It's possible for a fight with characters squaring off against multiple opponents
to actually made up of multiple clashes, so long as none of the personnel trying to
interfere with each other overlap."
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.core.rng import Rng
from games.demon_city.actions import Action

WINNER, SAME_SIDE_TIE, OPPOSING_TIE, BOTH_FUMBLE = (
    "winner", "same_side_tie", "opposing_tie", "both_fumble")
OPPOSING_TIE_PROMPT = ("Tie between opposing sides: nobody's action takes. Host, change "
                       "something in the situation that affects everyone in the Clash.")
BOTH_FUMBLE_PROMPT = ("Every side's best roll is a 1: nobody's action takes and the "
                      "situation gets worse for both sides.")


@dataclass(frozen=True)
class Clash:
    """A group of entangled entities: ``actors`` roll, ``members`` also holds the targets
    that cannot act (e.g. out of the fight)."""

    members: tuple[str, ...]
    actors: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"members": list(self.members), "actors": list(self.actors)}


@dataclass(frozen=True)
class Grouping:
    """Step 4's unresisted actions (by actor) and step 5's Clashes, both in fight order."""

    unresisted: tuple[str, ...]
    clashes: tuple[Clash, ...]


def group(actions: Sequence[Action], order: Sequence[str]) -> Grouping:
    """Link actors with their targets and split the links into connected groups.

    A group with one actor is unresisted (seed, step 4: "Any action that couldn't interfere
    with anyone else's action ... is resolved"): nobody targets that actor and nobody
    its action touches is acting. Everything else is a Clash.
    """
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for action in actions:
        find(action.actor)
        for target in action.targets:
            parent[find(target)] = find(action.actor)
    rank = {cid: i for i, cid in enumerate(order)}
    components: dict[str, list[str]] = {}
    for cid in sorted(parent, key=lambda c: (rank.get(c, len(rank)), c)):
        components.setdefault(find(cid), []).append(cid)
    acting = {a.actor for a in actions}
    unresisted: list[str] = []
    clashes: list[Clash] = []
    for members in components.values():  # dict keeps first-seen order, i.e. fight order
        actors = tuple(m for m in members if m in acting)
        if len(actors) == 1:
            unresisted.append(actors[0])
        else:
            clashes.append(Clash(tuple(members), actors))
    unresisted.sort(key=lambda c: rank.get(c, len(rank)))
    return Grouping(tuple(unresisted), tuple(clashes))


@dataclass(frozen=True)
class ClashOutcome:
    """Who acts in a Clash, and why."""

    kind: str
    winner: str | None
    tied: tuple[str, ...]
    critical: bool
    fumbles: tuple[str, ...]

    @property
    def prompt(self) -> str | None:
        return {OPPOSING_TIE: OPPOSING_TIE_PROMPT, BOTH_FUMBLE: BOTH_FUMBLE_PROMPT}.get(self.kind)

    def to_dict(self) -> dict[str, Any]:
        return {"outcome": self.kind, "winner": self.winner, "tied": list(self.tied),
                "critical": self.critical, "fumbles": list(self.fumbles),
                "prompt": self.prompt}


def side_of(cid: str, sides: Mapping[str, str]) -> str:
    # An entity with a blank side is on nobody's side but its own.
    return sides.get(cid) or f"\0{cid}"


def pick_winner(bests: Mapping[str, int], sides: Mapping[str, str], rng: Rng) -> ClashOutcome:
    """Seed, step 6: "Whoever rolls highest in a Clash takes their action"; a tie for
    first on the same side "is decided randomly"; between opposing sides "nobody's action
    takes". ``bests`` must be in fight order so the random pick replays identically.
    """
    top = max(bests.values())
    tied = tuple(cid for cid, b in bests.items() if b == top)
    fumbles = tuple(cid for cid, b in bests.items() if b == 1)
    if len(tied) == 1:
        return ClashOutcome(WINNER, tied[0], (), top == 10, fumbles)
    if len({side_of(cid, sides) for cid in tied}) > 1:
        return ClashOutcome(BOTH_FUMBLE if top == 1 else OPPOSING_TIE, None, tied, False, fumbles)
    # "flipping a coin or rolling lone d10s will do it"; a random pick is the same odds.
    # A tie is not a win, so a 10 that only wins the coin flip is no critical.
    return ClashOutcome(SAME_SIDE_TIE, rng.choice(list(tied)), tied, False, fumbles)
