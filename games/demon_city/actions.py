"""Announced actions and which stat each one uses and targets.

Seed: "Most close combat actions in combat (kicking, punching, knifing) rely on Agility
or Toughness, whatever is higher, or Hand To Hand if they have it and target the foe's
Agility or, if they have it, the foe's Hand-to-Hand combat skill. All shooting relies on
Agility (or Firearms or Exotic Weapons if applicable) and targets Agility. Once a foe is
grabbed, actions generally target a foe's Toughness."
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.core.engine import RuleError
from games.demon_city.combatant import Combatant, stat_label

MELEE, GRAB, SHOOT, EXOTIC, DEFEND, OTHER = "melee", "grab", "shoot", "exotic", "defend", "other"
KINDS = {
    MELEE: "Close combat (kick, punch, knife)",
    GRAB: "Grab (close combat; a grabbed foe is then targeted on Toughness)",
    SHOOT: "Shoot a firearm",
    EXOTIC: "Use an exotic weapon (bow, flamethrower, ritual dagger...)",
    DEFEND: "Only defend (dodge, block, parry, run away)",
    OTHER: "Anything else (help someone up, fix the antenna, pickpocket...)",
}
DAMAGING = frozenset({MELEE, SHOOT, EXOTIC})
NEEDS_TARGET = frozenset({MELEE, GRAB, SHOOT, EXOTIC})

# Which ratings an attack may rely on; the engine takes the best of them, as a player
# would. Skills come first so that a tie names the skill ("Firearms 5", not "Agility 5").
_ATTACK_STATS = {
    MELEE: ("hand_to_hand", "agility", "toughness"),
    GRAB: ("hand_to_hand", "agility", "toughness"),
    SHOOT: ("firearms", "agility"),
    EXOTIC: ("exotic_weapons", "agility"),
}
_SKILLS = frozenset({"hand_to_hand", "firearms", "exotic_weapons"})
# The seed says close combat targets "the foe's Agility or, if they have it, the foe's
# Hand-to-Hand". We take the higher of the two: a skill on the sheet should never make its
# owner easier to hit, and a Host would let the defender use their best.
_TARGETED_STATS = {
    MELEE: ("hand_to_hand", "agility"),
    GRAB: ("hand_to_hand", "agility"),
    SHOOT: ("agility",),
    EXOTIC: ("agility",),
}


@dataclass(frozen=True)
class Action:
    """One announced action: a kind, at most one target unless the GM allows more.

    ``stat`` and ``against`` name the ratings for an ``other`` action (e.g. "driving"
    against the target's "driving"); combat kinds choose them by the seed's rules.
    """

    actor: str
    kind: str
    targets: tuple[str, ...] = ()
    description: str = ""
    stat: str | None = None
    against: str | None = None
    massive: bool = False

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Action:
        kind = data.get("kind")
        if kind not in KINDS:
            raise RuleError(f"Unknown action kind {kind!r}; choose one of {', '.join(KINDS)}.")
        targets = data.get("targets")
        if targets is None:
            targets = [data["target"]] if data.get("target") else []
        if not isinstance(targets, (list, tuple)) or not all(isinstance(t, str) for t in targets):
            raise RuleError("targets must be a list of combatant ids.")
        if len(set(targets)) != len(targets):
            raise RuleError("The same target is named twice.")
        action = cls(actor=str(data.get("actor", "")), kind=kind, targets=tuple(targets),
                     description=str(data.get("description", "")), stat=data.get("stat"),
                     against=data.get("against"), massive=bool(data.get("massive", False)))
        action._check()
        return action

    def _check(self) -> None:
        if self.actor in self.targets:
            raise RuleError("An action cannot target its own actor.")
        if self.kind in NEEDS_TARGET and not self.targets:
            raise RuleError(f"A {self.kind} action needs a target.")
        if self.kind != OTHER and (self.stat or self.against):
            raise RuleError("Only an 'other' action names its own stat and targeted stat.")
        if self.massive and self.kind not in DAMAGING:
            raise RuleError("Only a damaging action can do Massive Damage.")

    def to_dict(self) -> dict[str, Any]:
        return {"actor": self.actor, "kind": self.kind, "targets": list(self.targets),
                "description": self.description, "stat": self.stat, "against": self.against,
                "massive": self.massive}


def attack_stat(actor: Combatant, action: Action) -> tuple[str, int]:
    """The rating an action relies on: the best the seed allows for its kind."""
    if action.kind == OTHER:
        name = action.stat or "agility"
        return name, actor.stat(name)
    if action.kind == DEFEND:
        # Dodging, blocking and parrying: whichever is better, as for close combat.
        names: tuple[str, ...] = ("hand_to_hand", "agility")
    else:
        names = _ATTACK_STATS[action.kind]
    name = _best(actor, names)
    return name, actor.stat(name)


def _best(who: Combatant, names: tuple[str, ...]) -> str:
    """The highest of ``names``; a skill rated 0 is one the entity does not have."""
    held = [n for n in names if n not in _SKILLS or who.stat(n) > 0]
    return max(held, key=who.stat)  # first listed wins a tie


def targeted_stat(target: Combatant, action: Action) -> tuple[str, int] | None:
    """The target's rating the action is measured against, or ``None`` (no Skill Die)."""
    if action.kind == DEFEND:
        return None
    if action.kind == OTHER:
        return (action.against, target.stat(action.against)) if action.against else None
    if target.grabbed:
        return "toughness", target.toughness
    name = _best(target, _TARGETED_STATS[action.kind])
    return name, target.stat(name)


def describe_stat(who: Combatant, name: str) -> str:
    return f"{who.name or who.id}'s {stat_label(name)} {who.stat(name)}"
