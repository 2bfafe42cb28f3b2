"""The Harsh Light sheet: World of Darkness Attributes and Skills, Willpower, Defence, Speed,
the character's "again" (10, 9 or 8), Size, a weapon and Health's wounds, as the platform's
``SheetField``s (the wounds and whether it is unconscious are the rules', health.py).

Seed 002: "a pool of Attribute + Skill"; the Resistance traits are "Resolve, Stamina, or
Composure". The derived traits follow the World of Darkness rulebook the seed converts,
and each may be typed over (a power, a merit, a Storyteller's ruling):

- Defence: the lower of Wits and Dexterity;
- Speed: Strength + Dexterity + 5 (a human's species factor);
- Willpower: Resolve + Composure dots; the points left start full and drop when spent;
- Initiative: Dexterity + Composure, plus a pull;
- Health: Stamina + Size (health.py).

The sheet as the platform reads it (``SHEET``) holds the character card beside the table
(``glance``) and what an NPC's card shows the seats its sheet is hidden from (``npc_glance``).
Health is harm everyone watches (issue 22; the decided reading: "other seats see its name and what
the rules make public (a total, a track)"): its track, its marks, its wound penalty and whether
the character is unconscious, bleeding out or dead are on every card, an NPC's too. The rest of
an NPC's card (Defence, Speed, Willpower, Skills, its weapon, whether it is a vampire) is the
GM's, as the panel keeps it (audiences.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Character, Glance, Sheet
from games.core.engine import RuleError
from games.harsh_light import health
from games.harsh_light.health import AGGRAVATED, BASHING, HUMAN_SIZE, KINDS, LETHAL, MAX_WOUNDS, of
from games.harsh_light.rules import AGAIN_VALUES
from games.sheets import SheetError, SheetField, parse_stats

MENTAL, PHYSICAL, SOCIAL = "Mental", "Physical", "Social"
ATTRIBUTES: dict[str, tuple[str, str]] = {
    "intelligence": ("Intelligence", MENTAL), "wits": ("Wits", MENTAL), "resolve": ("Resolve", MENTAL),
    "strength": ("Strength", PHYSICAL), "dexterity": ("Dexterity", PHYSICAL), "stamina": ("Stamina", PHYSICAL),
    "presence": ("Presence", SOCIAL), "manipulation": ("Manipulation", SOCIAL), "composure": ("Composure", SOCIAL),
}
SKILLS: dict[str, tuple[str, str]] = {
    **{k: (label, MENTAL) for k, label in (
        ("academics", "Academics"), ("computer", "Computer"), ("crafts", "Crafts"),
        ("investigation", "Investigation"), ("medicine", "Medicine"), ("occult", "Occult"),
        ("politics", "Politics"), ("science", "Science"))},
    **{k: (label, PHYSICAL) for k, label in (
        ("athletics", "Athletics"), ("brawl", "Brawl"), ("drive", "Drive"), ("firearms", "Firearms"),
        ("larceny", "Larceny"), ("stealth", "Stealth"), ("survival", "Survival"), ("weaponry", "Weaponry"))},
    **{k: (label, SOCIAL) for k, label in (
        ("animal_ken", "Animal Ken"), ("empathy", "Empathy"), ("expression", "Expression"),
        ("intimidation", "Intimidation"), ("persuasion", "Persuasion"), ("socialize", "Socialize"),
        ("streetwise", "Streetwise"), ("subterfuge", "Subterfuge"))},
}
# Seed: "a Resistance trait (Resolve, Stamina, or Composure)".
RESISTANCE = ("resolve", "stamina", "composure")
# World of Darkness: an untrained Skill costs -3 for a Mental one, -1 for a Physical or Social one.
UNSKILLED = {MENTAL: -3, PHYSICAL: -1, SOCIAL: -1}

TRAIT_MIN, TRAIT_MAX = 1, 10  # dots: 1-5 for mortals, more with Blood Potency and the like
SKILL_MAX = 10
HUMAN_SPECIES_FACTOR = 5
MAX_WEAPON, MAX_WEAPON_DAMAGE, MAX_SIZE = 40, 5, 20  # World of Darkness weapons deal +0 to +5

BEATS, MAX_EXPERIENCES = 5, 999  # "five Beats make an Experience"
SPECIALTY_MAX, SPECIALTIES_MAX, SPECIALTIES_TEXT = 30, 20, 800  # a Specialty's name, how many, the field

_DERIVED_HELP = "Leave blank for {rule}; type a number to override it."

# What the rules read (rules="read": once the character is in play its player asks the Storyteller
# to change them): the Attributes and Skills (every pool), the Willpower dots (the points a spend
# draws on), Defence (what an attack is resisted by), Speed (the steps a turn moves), the again
# (a pull that pulls a second card), Blood Potency (added to a vampire's Resistance traits), Size
# (Health is Stamina + Size), being a vampire (how its harm is marked) and the weapon (an attack
# made with it, and the damage it adds). What the rules keep in play is theirs ("kept").
FIELDS: tuple[SheetField, ...] = (
    *(SheetField(key, label, "int", default=1, max_length=2, rules="read",
                 help=f"{group} Attribute, 1 to 5 dots for a mortal.")
      for key, (label, group) in ATTRIBUTES.items()),
    SheetField("skills", "Skills", "skills", default={}, max_length=2000, rules="read",
               help="One per line, 'Skill: dots' (for example 'Firearms: 3'); Skills not listed have "
                    "no dots, and cost -3 (Mental) or -1 (Physical, Social) untrained."),
    # the decided reading: "Experiences buy dots (Attribute 4 a dot, Skill 2, Specialty 1: table
    # options)" (growth.py); the World of Darkness gives a Specialty that applies a die more
    SheetField("specialties", "Specialties", "longtext", default="", max_length=SPECIALTIES_TEXT, rules="read",
               help="One per line, 'Skill: Specialty' (for example 'Firearms: Pistols'), each in a Skill the "
                    "character has dots in. When one applies, the Storyteller adds 1 to the pool (a modifier)."),
    SheetField("willpower", "Willpower dots", "int", default="", max_length=2, rules="read",
               help=_DERIVED_HELP.format(rule="Resolve + Composure")),
    SheetField("willpower_points", "Willpower points left", "int", default="", max_length=2, rules="kept",
               help="Blank means full. Each point spent adds 3 to a pool or 2 to a resisting trait; "
                    "one a turn."),
    SheetField("defence", "Defence", "int", default="", max_length=2, rules="read",
               help=_DERIVED_HELP.format(rule="the lower of Wits and Dexterity")),
    SheetField("speed", "Speed", "int", default="", max_length=2, rules="read",
               help=_DERIVED_HELP.format(rule="Strength + Dexterity + 5")),
    SheetField("again", "Again", "int", default=10, max_length=2, rules="read",
               help="10 for most; 9 or 8 with certain powers or equipment: a first card this high "
                    "pulls a second."),
    SheetField("blood_potency", "Blood Potency", "int", default=0, max_length=2, rules="read",
               help="Vampires add it to their Resistance traits against supernatural effects."),
    SheetField("size", "Size", "int", default=HUMAN_SIZE, max_length=2, rules="read",
               help="5 for a grown human. Health is Stamina + Size."),
    SheetField("vampire", "A vampire", "bool", default=False, rules="read",
               help="As Blood Potency above 0 says too. The Requiem: firearms deal a vampire bashing damage, "
                    "bashing never knocks it out, and a track full of lethal is torpor, not death."),
    SheetField("weapon", "Weapon", "text", default="", max_length=MAX_WEAPON, rules="read",
               help="What the character fights with, if anything ('Knife'), for an attack made with it."),
    SheetField("weapon_damage", "Weapon damage", "int", default=0, max_length=2, rules="read",
               help=f"Added to an attack's successes when it hits with the weapon (0 to {MAX_WEAPON_DAMAGE})."),
    *(SheetField(kind, f"{kind.capitalize()} wounds", "int", default=0, max_length=2, rules="kept",
                 help=help_) for kind, help_ in (
        (BASHING, "Boxes of Health marked '/' (fists, falls): the rules fill them; the GM corrects them."),
        (LETHAL, "Boxes marked 'X' (blades, bullets)."),
        (AGGRAVATED, "Boxes marked '✱' (fire, sunlight, claws)."))),
    SheetField("unconscious", "Unconscious", "bool", default=False, rules="kept",
               help="A failed Stamina pull while the last box of Health holds bashing; healing wakes it."),
    # the decided reading: "Beats as the World of Darkness games count them (a Dramatic Failure, a
    # session's end, a Storyteller's award); five Beats make an Experience" (campaign.py)
    SheetField("beats", "Beats", "int", default=0, max_length=1, rules="kept",
               help=f"0 to {BEATS - 1}: a Dramatic Failure, a session's end and a Storyteller's award each give one; "
                    f"{BEATS} make an Experience."),
    SheetField("experiences", "Experiences", "int", default=0, max_length=3, rules="kept",
               help="Five Beats make one."),
)


def trait_label(key: str) -> str:
    if key in ATTRIBUTES:
        return ATTRIBUTES[key][0]
    if key in SKILLS:
        return SKILLS[key][0]
    return {"defence": "Defence", "speed": "Speed", "willpower": "Willpower", "blood_potency": "Blood Potency",
            "weapon_damage": "Weapon damage", **{k: f"{k.capitalize()} wounds" for k in KINDS},
            }.get(key, key.replace("_", " ").title())


def skill_key(name: str) -> str | None:
    """The Skill a name means, however it is written ('Animal Ken', 'animal_ken'); None if none."""
    key = name.strip().lower().replace("-", " ").replace("_", " ")
    key = "_".join(key.split())
    return key if key in SKILLS else None


def _whole(key: str, value: Any, *, low: int | None, high: int | None, blank: Any) -> Any:
    label = trait_label(key)
    if value is None or value == "":
        if blank is _REQUIRED:
            raise SheetError(key, f"{label} needs a number.")
        return blank
    if isinstance(value, bool):
        raise SheetError(key, f"{label} must be a whole number.")
    try:
        number = int(str(value).strip()) if not isinstance(value, int) else value
    except ValueError:
        raise SheetError(key, f"{label} must be a whole number, not {str(value)[:20]!r}.") from None
    if (low is not None and number < low) or (high is not None and number > high):
        span = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise SheetError(key, f"{label} must be {span}, not {number}.")
    return number


_REQUIRED = object()


def _yes(value: Any) -> bool:
    """A checkbox as the form sends it (True/False), or as a sample or a test writes it."""
    if isinstance(value, str):
        return value.strip().lower() in ("1", "yes", "true", "on", "y")
    return bool(value)


def parse_skills(value: Any) -> dict[str, int]:
    """Skills from a mapping or 'Skill: dots' lines, keyed by the Skill's own name ('Animal Ken')
    so the form shows them back as typed; an unknown Skill or a bad rating is refused by name."""
    if isinstance(value, Mapping):
        pairs = [(str(k), v) for k, v in value.items()]
    else:
        try:
            pairs = [(k, v) for k, v in parse_stats(str(value or ""))]
        except SheetError as exc:
            raise SheetError("skills", exc.message) from None
    skills: dict[str, int] = {}
    for name, rating in pairs:
        key = skill_key(name)
        if key is None:
            raise SheetError("skills", f"{name[:40]!r} is not a World of Darkness Skill.")
        label = SKILLS[key][0]
        if label in skills:
            raise SheetError("skills", f"{label} is listed twice.")
        try:
            dots = int(str(rating).strip())
        except ValueError:
            raise SheetError("skills", f"{label} needs a whole number of dots, not {str(rating)[:20]!r}.") from None
        if not 0 <= dots <= SKILL_MAX:
            raise SheetError("skills", f"{label} must be from 0 to {SKILL_MAX} dots, not {dots}.")
        if dots:
            skills[label] = dots
    return skills


def parse_specialties(value: Any) -> list[tuple[str, str]]:
    """Specialties from 'Skill: Specialty' lines, as ``(Skill's name, Specialty)`` in the order
    given; an unknown Skill, a blank or long name, or one listed twice is refused by name."""
    try:
        pairs = parse_stats(str(value or ""))
    except SheetError as exc:
        raise SheetError("specialties", exc.message.replace("'Name: value'", "'Skill: Specialty'")) from None
    found: list[tuple[str, str]] = []
    for name, specialty in pairs:
        key = skill_key(name)
        if key is None:
            raise SheetError("specialties", f"{name[:40]!r} is not a World of Darkness Skill.")
        called = " ".join(specialty.split())
        if not called or len(called) > SPECIALTY_MAX:
            raise SheetError("specialties", f"A Specialty of {SKILLS[key][0]} is named in 1 to {SPECIALTY_MAX} "
                                            "characters.")
        if (SKILLS[key][0], called.casefold()) in {(s, c.casefold()) for s, c in found}:
            raise SheetError("specialties", f"{SKILLS[key][0]}: {called} is listed twice.")
        found.append((SKILLS[key][0], called))
    if len(found) > SPECIALTIES_MAX:
        raise SheetError("specialties", f"At most {SPECIALTIES_MAX} Specialties.")
    return found


def specialties_text(found: list[tuple[str, str]]) -> str:
    return "\n".join(f"{skill}: {called}" for skill, called in found)


def clean_sheet(data: Mapping[str, Any]) -> dict[str, Any]:
    """A submitted sheet as the engine reads it; ``SheetError`` names the field at fault."""
    sheet: dict[str, Any] = {}
    for key in ATTRIBUTES:
        sheet[key] = _whole(key, data.get(key), low=TRAIT_MIN, high=TRAIT_MAX, blank=1)
    sheet["skills"] = parse_skills(data.get("skills"))
    sheet["specialties"] = specialties_text(parse_specialties(data.get("specialties")))
    sheet["willpower"] = _whole("willpower", data.get("willpower"), low=1, high=20, blank=None)
    sheet["willpower_points"] = _whole("willpower_points", data.get("willpower_points"), low=0, high=20,
                                       blank=None)
    sheet["defence"] = _whole("defence", data.get("defence"), low=0, high=20, blank=None)
    sheet["speed"] = _whole("speed", data.get("speed"), low=0, high=99, blank=None)
    again = _whole("again", data.get("again"), low=None, high=None, blank=10)
    if again not in AGAIN_VALUES:
        raise SheetError("again", f"Again is 10, 9 or 8, not {again}.")
    sheet["again"] = again
    sheet["blood_potency"] = _whole("blood_potency", data.get("blood_potency"), low=0, high=10, blank=0)
    sheet["size"] = _whole("size", data.get("size"), low=1, high=MAX_SIZE, blank=HUMAN_SIZE)
    sheet["vampire"] = _yes(data.get("vampire"))
    weapon = " ".join(str(data.get("weapon") or "").split())
    if len(weapon) > MAX_WEAPON:
        raise SheetError("weapon", f"A weapon's name is at most {MAX_WEAPON} characters.")
    sheet["weapon"] = weapon
    sheet["weapon_damage"] = _whole("weapon_damage", data.get("weapon_damage"), low=0, high=MAX_WEAPON_DAMAGE,
                                    blank=0)
    for kind in KINDS:  # the track's wounds, as the rules (and the GM) left them
        sheet[kind] = _whole(kind, data.get(kind), low=0, high=MAX_WOUNDS, blank=0)
    sheet["unconscious"] = _yes(data.get("unconscious"))
    sheet["beats"] = _whole("beats", data.get("beats"), low=0, high=BEATS - 1, blank=0)
    sheet["experiences"] = _whole("experiences", data.get("experiences"), low=0, high=MAX_EXPERIENCES, blank=0)
    dots = willpower_dots(sheet)
    if sheet["willpower_points"] is not None and sheet["willpower_points"] > dots:
        raise SheetError("willpower_points", f"Willpower points left cannot be more than the {dots} dots.")
    return sheet


def read(sheet: Mapping[str, Any]) -> dict[str, Any]:
    """A stored sheet (or one with a missing field) as the engine reads it, cleaned;
    ``RuleError`` when it cannot be read."""
    try:
        return clean_sheet({k: v for k, v in sheet.items() if k in {f.key for f in FIELDS}})
    except SheetError as exc:
        raise RuleError(exc.message) from None


def attribute(sheet: Mapping[str, Any], key: str) -> int:
    return int(sheet.get(key) or TRAIT_MIN)


def skill(sheet: Mapping[str, Any], key: str) -> int:
    return int((sheet.get("skills") or {}).get(SKILLS[key][0], 0))


def defence(sheet: Mapping[str, Any]) -> int:
    given = sheet.get("defence")
    return int(given) if given is not None else min(attribute(sheet, "wits"), attribute(sheet, "dexterity"))


def speed(sheet: Mapping[str, Any]) -> int:
    given = sheet.get("speed")
    if given is not None:
        return int(given)
    return attribute(sheet, "strength") + attribute(sheet, "dexterity") + HUMAN_SPECIES_FACTOR


def speed_now(sheet: Mapping[str, Any]) -> int:
    """Speed less the wound penalty, never below 0. The World of Darkness: "Wound penalties also
    affect movement, reducing your character's Speed trait by the amount listed for the rightmost
    box filled"."""
    return max(0, speed(sheet) + of(sheet).penalty())


def willpower_dots(sheet: Mapping[str, Any]) -> int:
    given = sheet.get("willpower")
    return int(given) if given is not None else attribute(sheet, "resolve") + attribute(sheet, "composure")


def willpower_points(sheet: Mapping[str, Any]) -> int:
    given = sheet.get("willpower_points")
    return int(given) if given is not None else willpower_dots(sheet)


def initiative_modifier(sheet: Mapping[str, Any]) -> int:
    """World of Darkness: "Dexterity + Composure", to which the pull is added."""
    return attribute(sheet, "dexterity") + attribute(sheet, "composure")


def again(sheet: Mapping[str, Any]) -> int:
    value = sheet.get("again") or 10
    return int(value) if value in AGAIN_VALUES else 10


# What a new character may start with (Sheet.creation). The rules convert "the mechanics found in
# Vampire: The Requiem and World of Darkness" and make no characters of their own, so a new one
# is made as those rulebooks make it:
# - Attributes: each starts at one dot; 5, 4 and 3 more dots go to the three groups (Mental,
#   Physical, Social), the player choosing which group gets which; no Attribute past 5 dots.
# - Skills: 11, 7 and 4 dots to the three groups, chosen the same way; no Skill past 5 dots.
# - Willpower is Resolve + Composure, Defence the lower of Wits and Dexterity, Speed Strength +
#   Dexterity + 5: a figure typed over one of them (a power, a merit) is the Storyteller's.
# - Again: "A pull of 10 (or, with certain powers and/or equipment, even 8 or 9)": 9- or 8-again
#   comes with a power or equipment the Storyteller grants.
# - Blood Potency: a newly Embraced vampire has 1 (a mortal 0); more is bought with merits the
#   sheet does not hold, so it is the Storyteller's. Size: a grown human's is 5; a larger one is
#   a merit's, the Storyteller's too. Whether the character is a vampire is the chronicle's, not
#   a figure: no limit.
# No limit on the weapon: its damage is already the World of Darkness's +0 to +5.
NEW_TRAIT_MAX = 5
NEW_BLOOD_POTENCY = 1


# The World of Darkness also shares out dots by group at creation (Attributes 5/4/3 past the first,
# Skills 11/7/4). Harsh Light's rules convert the World of Darkness's tests, not its making of a
# character, so those budgets are left to the table: a group that builds by them does so on its
# own, and only a trait past what any new character may have is asked of the Storyteller.


def _attributes_past(sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
    return [(key, f"{trait_label(key)} {sheet[key]}: a new character's Attributes are 1 to {NEW_TRAIT_MAX} dots.")
            for key in ATTRIBUTES if sheet[key] > NEW_TRAIT_MAX]


def _skills_past(sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
    return [("skills", f"{label} {dots}: a new character's Skills are 0 to {NEW_TRAIT_MAX} dots.")
            for label, dots in sheet["skills"].items() if dots > NEW_TRAIT_MAX]


def creation(sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``[(field, why)]``: each figure of a cleaned sheet past what a new character may have.
    A typed Willpower, Defence or Speed is judged against the Attributes the character is made
    with (those past the limits at one dot)."""
    past = _attributes_past(sheet)
    past += _skills_past(sheet)
    made = {**sheet, **{key: 1 for key, _ in past if key in ATTRIBUTES}}
    for key, rule, value in (("willpower", "Resolve + Composure", willpower_dots),
                             ("defence", "the lower of Wits and Dexterity", defence),
                             ("speed", "Strength + Dexterity + 5", speed)):
        ruled = value({**made, key: None})
        if sheet.get(key) is not None and sheet[key] != ruled:
            label = trait_label(key)
            past.append((key, f"{label} {sheet[key]}: a new character's {label} is {rule} ({ruled}); "
                              "another figure is the Storyteller's to grant."))
    if sheet["again"] != 10:
        past.append(("again", f"Again {sheet['again']}: only certain powers or equipment let a pull of "
                              f"{sheet['again']} pull a second card; the Storyteller grants them."))
    if sheet["blood_potency"] > NEW_BLOOD_POTENCY:
        past.append(("blood_potency", f"Blood Potency {sheet['blood_potency']}: a newly Embraced vampire has "
                                      f"{NEW_BLOOD_POTENCY}; more is the Storyteller's to grant."))
    if sheet["size"] > HUMAN_SIZE:
        past.append(("size", f"Size {sheet['size']}: a grown human is Size {HUMAN_SIZE}; a larger new "
                             "character is the Storyteller's to grant."))
    return past


# The character card beside the table

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
    Skills it has, its Specialties, its weapon), Willpower points left of its dots, and tags for
    what changes its pulls (8- or 9-again, Blood Potency, a vampire's nature); Beats and Experiences once it has
    any. Greyed when it is out."""
    try:
        clean = read(sheet)
    except RuleError:
        return Glance()
    track, marks, harm_tags, out = harm(clean)
    stats = [*([marks] if marks else []), ("Defence", str(defence(clean))), ("Speed", str(speed(clean))),
             ("Initiative", f"+{initiative_modifier(clean)}")]
    stats += [(trait_label(t), str(attribute(clean, t))) for t in RESISTANCE]
    stats += sorted(clean["skills"].items(), key=lambda kv: (-kv[1], kv[0]))[:GLANCE_SKILLS]
    if clean["specialties"]:  # bought with Experiences (growth.py)
        stats.append(("Specialties", ", ".join(f"{s} ({c})" for s, c in parse_specialties(clean["specialties"]))))
    if clean["weapon"]:
        stats.append(("Weapon", f"{clean['weapon']} +{clean['weapon_damage']}"))
    if clean["beats"] or clean["experiences"]:  # the campaign's (campaign.py): five Beats make an Experience
        stats += [("Beats", f"{clean['beats']} of {BEATS}"), ("Experiences", str(clean["experiences"]))]
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


SHEET = Sheet(FIELDS, clean_sheet, glance=glance, npc_glance=npc_glance, creation=creation)
