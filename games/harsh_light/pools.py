"""Building a pool from the sheet, every part named so the table sees how it was made.

Seed: "a pool of Attribute + Skill"; "reduced to 0 or less due to difficulty or penalties";
"Spending a point of Willpower adds 3 to your pool"; "give up your Defence for a +2 to your
pool in melee (known as an All-Out Attack)"; resisted tests "subtract an opponent's pool". Wounds
cost a pool what they cost a World of Darkness dice pool (health.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.harsh_light import health
from games.harsh_light import sheet as sh
from games.core.engine import RuleError

WILLPOWER_POOL = 3  # "adds 3 to your pool for a pull"
WILLPOWER_RESIST = 2  # "or adds 2 against a Resisted test"
ALL_OUT_BONUS = 2  # "+2 to your pool in melee"
MAX_MODIFIER = 20
WOUNDS = "wound penalty"


@dataclass(frozen=True)
class Pool:
    """A pool as a list of ``(reason, value)`` parts; ``size`` is their sum (it may be 0 or less)."""

    parts: tuple[tuple[str, int], ...] = field(default_factory=tuple)

    @property
    def size(self) -> int:
        return sum(v for _, v in self.parts)

    def plus(self, reason: str, value: int) -> Pool:
        return Pool((*self.parts, (reason, value)))

    def to_dict(self) -> dict[str, Any]:
        return {"size": self.size, "parts": [[r, v] for r, v in self.parts]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Pool:
        return cls(tuple((str(r), int(v)) for r, v in data["parts"]))

    def describe(self) -> str:
        """'Dexterity 3 + Firearms 2 - 1 (cover) = 4'."""
        if not self.parts:
            return "0"
        text = f"{self.parts[0][0]} {self.parts[0][1]}"
        for reason, value in self.parts[1:]:
            text += f" {'+' if value >= 0 else '-'} {reason} {abs(value)}"
        return f"{text} = {self.size}"


def check(attribute: str, skill: str | None = None, modifier: int = 0) -> None:
    """What a pool is built from, refused when no rule could use it: an Attribute, a Skill or a
    second Attribute, a modifier within bounds. The move's parser asks this (the one reading of
    a submitted pool), and so does ``build``, which a form never reaches unchecked."""
    if attribute not in sh.ATTRIBUTES:
        raise RuleError(f"Choose an Attribute, not {attribute!r}.")
    if skill and skill not in sh.ATTRIBUTES and skill not in sh.SKILLS:
        raise RuleError(f"There is no Skill called {skill!r}.")
    if not isinstance(modifier, int) or isinstance(modifier, bool) or abs(modifier) > MAX_MODIFIER:
        raise RuleError(f"A modifier is a whole number from -{MAX_MODIFIER} to {MAX_MODIFIER}.")


def build(character: Mapping[str, Any], attribute: str, skill: str | None = None, *,
          modifier: int = 0, reason: str = "", untrained: bool = False,
          lasting: tuple[tuple[str, int], ...] = ()) -> Pool:
    """Attribute + Skill (or + a second Attribute, as Resolve + Composure) + modifiers, less the
    wound penalty of the character's Health (health.py: -1, -2, -3 as the last boxes fill).

    the decided reading: "the text has no penalty for a Skill at 0. The World of Darkness
    penalty (-3 Mental, -1 Physical and Social) is a table option the Storyteller turns on, off by
    default, and shown in the pool's breakdown when on" (``untrained``: state.untrained_penalty).
    ``lasting``: the dice the conditions on the character add or take (state.dice), each named.
    """
    check(attribute, skill, modifier)
    parts: list[tuple[str, int]] = [(sh.trait_label(attribute), sh.attribute(character, attribute))]
    if skill in sh.ATTRIBUTES:
        parts.append((sh.trait_label(skill), sh.attribute(character, skill)))
    elif skill:
        dots = sh.skill(character, skill)
        parts.append((sh.trait_label(skill), dots))
        if dots == 0 and untrained:
            group = sh.SKILLS[skill][1]
            parts.append((f"untrained {group} Skill", sh.UNSKILLED[group]))
    if modifier:
        parts.append((reason or "modifier", modifier))
    parts += [(called, amount) for called, amount in lasting]
    wounds = health.of(character).penalty()
    if wounds:
        parts.append((WOUNDS, wounds))
    return Pool(tuple(parts))


def supernatural_bonus(character: Mapping[str, Any], traits: tuple[str, ...]) -> int:
    """Seed: "Vampires will often add their Blood Potency to their Resistance traits when rolling
    vs. supernatural effects". Once per test, when a Resistance trait is in play."""
    if any(t in sh.RESISTANCE for t in traits):
        return int(character.get("blood_potency") or 0)
    return 0


def pool_text(pool: Mapping[str, Any]) -> str:
    """'pool 5 (Dexterity 3 + Firearms 2)'."""
    parts = " ".join(
        (f"{r} {v}" if i == 0 else f"{'+' if v >= 0 else '-'} {r} {abs(v)}")
        for i, (r, v) in enumerate(pool["parts"])
    )
    return f"pool {pool['size']} ({parts})" if pool["parts"] else f"pool {pool['size']}"
