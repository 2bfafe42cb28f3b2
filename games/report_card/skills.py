"""The Report Card's skills (seed 004, "Skills"): the six Abilities, the nine Skills and the two
each needs, and the rank a character faces with its A+ and F skills."""

from __future__ import annotations

from dataclasses import dataclass

from games.report_card.errors import BadInput
from games.report_card.rules import easier

ABILITIES = ("charming", "fast", "clever", "strong", "wise", "lucky")


@dataclass(frozen=True)
class Skill:
    key: str
    covers: str
    abilities: tuple[str, str]


# Seed 004, "Choose a Skill": each Skill with the two Abilities it lists, in its order.
SKILLS: tuple[Skill, ...] = (
    Skill("FINAID", "Empathy, Perception & Danger Sense", ("fast", "lucky")),
    Skill("ART", "Performance, Disguise & Forgery", ("charming", "fast")),
    Skill("SCI", "Computers, Chemistry, Biology, Physics & Math", ("clever", "charming")),
    Skill("FREE", "Stealth, Breaking & Entering", ("clever", "fast")),
    Skill("GYM", "Movement, Sport & Dance", ("strong", "fast")),
    Skill("AID", "First Aid, Exploration & Survival", ("wise", "charming")),
    Skill("SHOP", "Mechanical, Constructive & Culinary", ("wise", "strong")),
    Skill("LAW", "Bureaucracy, Legal & Investigative", ("wise", "clever")),
    Skill("MISC", "Everything Not Otherwise Covered", ("lucky", "strong")),
)
SKILL = {skill.key: skill for skill in SKILLS}


def skill_of(value: object) -> str:
    key = str(value or "").strip().upper()
    if key not in SKILL:
        raise BadInput(f"{str(value)[:20]!r} is not a skill: choose one of {', '.join(SKILL)}.")
    return key


def with_skill(rank: str, skill: str, a_plus: str, f_skill: str) -> tuple[str, str]:
    """The rank a character faces for ``skill``, and why it changed ("" when it did not).

    Seed: "Any Skill Check that the player performs against a Skill that they have chosen
    becomes easier by one rank" and "Any skill check against a failed Skill becomes Unlikely
    for the player". Readings: the seed's example "an Impossible check becomes Hard" skips
    Unlikely, which its own rank list has; we take "one rank" literally (Impossible becomes
    Unlikely), as the issue says. An F never makes a check easier: Impossible stays
    Impossible (the seed calls the F skill one the player is "bad at")."""
    if skill == f_skill:
        if rank == "impossible":
            return rank, "F skill: stays Impossible"
        return "unlikely", "F skill: Unlikely"
    if skill == a_plus and rank != "automatic":
        return easier(rank), "A+ skill: one rank easier"
    return rank, ""
