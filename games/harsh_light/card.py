"""The character card beside the table (``GameSystem.glance``) and what an NPC's card shows the
seats its sheet is hidden from (``npc_glance``).

Health is harm everyone watches (issue 22; the decided reading: "other seats see its name and what
the rules make public (a total, a track)"): its track, its marks, its wound penalty and whether
the character is unconscious, bleeding out or dead are on every card, an NPC's too. The rest of
an NPC's card (Defence, Speed, Willpower, Skills, its weapon, whether it is a vampire) is the
GM's, as the panel keeps it (audiences.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Character, Glance
from games.core.engine import RuleError
from games.harsh_light import health
from games.harsh_light.sheet import (
    RESISTANCE, again, attribute, defence, initiative_modifier, read, skill, speed, speed_now, trait_label,
    willpower_dots, willpower_points,
)

GLANCE_SKILLS = 4  # the card shows the character's best Skills
HEALTH = "Health"
HARM_TAGS = ("Unconscious", "Bleeding out", "In torpor", "Dead", "Final Death")


def penalty_tag(penalty: int) -> str:
    return f"Wounded: {penalty} to pools and Speed"


def harm(clean: Mapping[str, Any]) -> tuple[tuple[str, int, int], tuple[str, str] | None, list[str], bool]:
    """What everyone sees of a character's Health: its track (boxes left of its Health), its
    marks once wounded, its harm tags (a wound penalty, unconscious, bleeding out...), and
    whether it is out."""
    track = health.of(clean)
    tags = []
    if track.penalty():
        tags.append(penalty_tag(track.penalty()))
    state = health.state_words(clean)
    if state:
        tags.append(state[:1].upper() + state[1:])
    marks = (HEALTH, health.marks(track)) if track.filled else None  # the bar says "unharmed" alone
    return (HEALTH, track.size - track.filled, track.size), marks, tags, health.out(clean)


def glance(sheet: Mapping[str, Any]) -> Glance:
    """The character card: Health first (boxes left, its marks once wounded, the wound penalty, its state),
    what a fight and a pull turn on (Defence, Speed, initiative, the Resistance traits, the
    Skills it has, its weapon), Willpower points left of its dots, and tags for what changes its
    pulls (8- or 9-again, Blood Potency, a vampire's nature). Greyed when it is out."""
    try:
        clean = read(sheet)
    except RuleError:
        return Glance()
    track, marks, harm_tags, out = harm(clean)
    stats = [*([marks] if marks else []), ("Defence", str(defence(clean))), ("Speed", str(speed(clean))),
             ("Initiative", f"+{initiative_modifier(clean)}")]
    stats += [(trait_label(t), str(attribute(clean, t))) for t in RESISTANCE]
    stats += sorted(clean["skills"].items(), key=lambda kv: (-kv[1], kv[0]))[:GLANCE_SKILLS]
    if clean["weapon"]:
        stats.append(("Weapon", f"{clean['weapon']} +{clean['weapon_damage']}"))
    tags = list(harm_tags)
    if again(clean) != 10:
        tags.append(f"{again(clean)}-again")
    if clean["blood_potency"]:
        tags.append(f"Blood Potency {clean['blood_potency']}")
    elif health.is_vampire(clean):
        tags.append("Vampire")
    if willpower_points(clean) == 0:
        tags.append("No Willpower left")
    return Glance(stats=tuple((label, str(v)) for label, v in stats),
                  tracks=(track, ("Willpower", willpower_points(clean), willpower_dots(clean))),
                  tags=tuple(tags), out=out)


def npc_glance(glance: Glance) -> Glance:
    """An NPC's card for the seats that may not see its sheet: its Health (the track, its marks,
    the wound penalty and whether it is out), harm everyone at the table watches; none of its
    other figures (Willpower is points of its sheet's dots, not harm), and no other tag (a tag may
    name a trait: "Blood Potency 2", "Vampire")."""
    return Glance(stats=tuple(s for s in glance.stats if s[0] == HEALTH),
                  tracks=tuple(t for t in glance.tracks if t[0] == HEALTH),
                  tags=tuple(t for t in glance.tags if t in HARM_TAGS or t.startswith("Wounded: ")),
                  out=glance.out)


# The attack forms' Skills, each with the Attribute and the kind of attack the World of Darkness
# pairs it with: Strength + Brawl (fists) or Weaponry (a blade, a club) in melee, Dexterity +
# Athletics thrown, Dexterity + Firearms ranged. In this order, ties go to the first.
ATTACK_SKILLS = (("brawl", "strength", "melee"), ("weaponry", "strength", "melee"),
                 ("firearms", "dexterity", "ranged"), ("athletics", "dexterity", "thrown"))


def best_attack(clean: Mapping[str, Any]) -> dict[str, str]:
    """What the attack form starts on (the issue: "a skill list on the character's best skill
    for the action"): the character's best attack Skill with its Attribute and kind of attack,
    and its weapon when the Skill is one a weapon is used with; Strength, no Skill and melee when
    the sheet has no attack Skill."""
    rated = [(skill(clean, key), -n, key, attr, kind) for n, (key, attr, kind) in enumerate(ATTACK_SKILLS)]
    dots, _, key, attr, kind = max(rated)
    if dots <= 0:
        return {"skill": "", "attribute": "strength", "attack": "melee", "weapon": ""}
    armed = key in ("weaponry", "firearms") and bool(clean["weapon"])
    return {"skill": key, "attribute": attr, "attack": kind, "weapon": "sheet" if armed else ""}


def character_view(character: Character) -> dict[str, Any]:
    """What the panel shows of a character whose sheet the seat may see (``Panel.character_view``),
    from its sheet as it stands now: its Defence (the panel's Defence as it stands is the rules',
    reckon.py), Willpower points of dots, Speed less its wounds, its again, its weapon, for an
    attack made with it, and what its attack form starts on (``best_attack``)."""
    try:
        clean = read(character.sheet)
    except RuleError:
        return {}
    shown = {"defence": defence(clean), "willpower_points": willpower_points(clean), "again": again(clean),
             "willpower_dots": willpower_dots(clean), "speed": speed_now(clean), "attack": best_attack(clean)}
    return {**shown, "weapon": f"{clean['weapon']} (+{clean['weapon_damage']})"} if clean["weapon"] else shown
