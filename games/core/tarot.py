"""Tarot reference data: Major Arcana meanings and Minor Arcana suit influences.

The words are Shadows of Humanity's (seed 000, "Major Arcana Meanings" and "Minor Arcana
Suit Indicators and Influences"), kept verbatim so a player sees the text the rules give,
with one deliberate exception: the Tower (see ``_TOWER``).

Numbering follows the order seed 000 lists the cards in (Strength VIII, Justice XI),
from 0 The Fool to 21 The World. Pure data: no Django, no randomness.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class MajorArcanum:
    """One trump: its number (0-21), its name, and its meanings as the seed words them."""

    number: int
    name: str
    upright: str
    reversed: str

    def meaning(self, reversed: bool = False) -> str:
        """The reversed meaning when ``reversed`` is true, else the upright one."""
        return self.reversed if reversed else self.upright

    def keywords(self, reversed: bool = False) -> tuple[str, ...]:
        """The meaning split into its comma-separated keywords."""
        return tuple(word.strip() for word in self.meaning(reversed).split(","))


# Seed 000 prints the Tower's meanings as a copy of the Devil's ("Bondage, addiction,
# sexuality, materialism" / "Detachment, breaking free, power reclaimed"). The project's decided reading
# is to use the traditional Tower meanings instead.
_TOWER = MajorArcanum(
    16,
    "The Tower",
    "Sudden upheaval, revelation, chaos, awakening",
    "Averting disaster, fear of change, delaying the inevitable",
)

MAJOR_ARCANA: tuple[MajorArcanum, ...] = (
    MajorArcanum(
        0,
        "The Fool",
        "Beginnings, innocence, spontaneity, a free spirit",
        "Naivety, foolishness, recklessness, risk-taking",
    ),
    MajorArcanum(
        1,
        "The Magician",
        "Power, skill, concentration, action, resourcefulness",
        "Manipulation, poor planning, latent talents",
    ),
    MajorArcanum(
        2,
        "The High Priestess",
        "Intuition, Higher powers, mystery, subconscious mind",
        "Hidden agendas, need to listen to inner voice",
    ),
    MajorArcanum(
        3,
        "The Empress",
        "Fertility, femininity, beauty, nature, abundance",
        "Creative block, dependence on others",
    ),
    MajorArcanum(
        4,
        "The Emperor",
        "Authority, father-figure, structure, solid foundation",
        "Domination, excessive control, rigidity, inflexibility",
    ),
    MajorArcanum(
        5,
        "The Hierophant",
        "Religion, group identification, conformity, tradition, beliefs",
        "Restriction, challenging the status quo",
    ),
    MajorArcanum(
        6,
        "The Lovers",
        "Love, union, relationships, values alignment, choices",
        "Disharmony, imbalance, misalignment of values",
    ),
    MajorArcanum(
        7,
        "The Chariot",
        "Control, will power, victory, assertion, determination",
        "Lack of control and direction, aggression",
    ),
    MajorArcanum(
        8,
        "Strength",
        "Strength, courage, patience, control, compassion",
        "Weakness, self-doubt, lack of self-discipline",
    ),
    MajorArcanum(
        9,
        "The Hermit",
        "Soul-searching, introspection, being alone, inner guidance",
        "Isolation, loneliness, withdrawal",
    ),
    MajorArcanum(
        10,
        "Wheel of Fortune",
        "Good luck, karma, life cycles, destiny, a turning point",
        "Bad luck, negative external forces, out of control",
    ),
    MajorArcanum(
        11,
        "Justice",
        "Justice, fairness, truth, cause and effect, law",
        "Unfairness, lack of accountability, dishonesty",
    ),
    MajorArcanum(
        12,
        "The Hanged Man",
        "Suspension, restriction, letting go, sacrifice",
        "Martyrdom, indecision, delay",
    ),
    MajorArcanum(
        13,
        "Death",
        "Endings, beginnings, change, transformation, transition",
        "Resistance to change, unable to move on",
    ),
    MajorArcanum(
        14,
        "Temperance",
        "Balance, moderation, patience, purpose, meaning",
        "Imbalance, excess, lack of long-term vision",
    ),
    MajorArcanum(
        15,
        "The Devil",
        "Bondage, addiction, sexuality, materialism",
        "Detachment, breaking free, power reclaimed",
    ),
    _TOWER,
    MajorArcanum(
        17,
        "The Star",
        "Hope, spirituality, renewal, inspiration, serenity",
        "Lack of faith, despair, discouragement",
    ),
    MajorArcanum(
        18,
        "The Moon",
        "Illusion, fear, anxiety, insecurity, subconscious",
        "Release of fear, unhappiness, confusion",
    ),
    MajorArcanum(
        19,
        "The Sun",
        "Fun, warmth, success, positivity, vitality",
        "Temporary depression, lack of success",
    ),
    MajorArcanum(
        20,
        "Judgement",
        "Judgement, rebirth, inner calling, absolution",
        "Self-doubt, refusal of self-examination",
    ),
    MajorArcanum(
        21,
        "The World",
        "Completion, integration, accomplishment, travel",
        "Lack of completion, lack of closure",
    ),
)


def major_arcanum(number: int) -> MajorArcanum:
    """The trump numbered ``number`` (0-21); ``KeyError`` for any other number."""
    if not 0 <= number < len(MAJOR_ARCANA):
        raise KeyError(f"no Major Arcanum numbered {number!r}")
    return MAJOR_ARCANA[number]


@dataclass(frozen=True, slots=True)
class TarotSuit:
    """A Minor Arcana suit and what seed 000 says it stands for.

    ``indicators`` is the list before the seed's "--" (element first); ``governs`` and
    ``wounds`` split the list after it into the activities the suit covers and the kind of
    wound it deals, which the combat rules need separately.
    """

    key: str
    name: str
    other_name: str
    element: str
    direction: str
    colour: str
    indicators: tuple[str, ...]
    governs: tuple[str, ...]
    wounds: str


TAROT_SUITS: tuple[TarotSuit, ...] = (
    TarotSuit(
        key="cups",
        name="Cups",
        other_name="Chalice",
        element="Water",
        direction="West",
        colour="Red",
        indicators=(
            "Water", "Emotion", "Intuition", "Creativity", "Empathy", "West", "Red", "Heart",
        ),
        governs=("Social activities", "Dodge"),
        wounds="bleeding wounds",
    ),
    TarotSuit(
        key="pentacles",
        name="Pentacles",
        other_name="Coins",
        element="Earth",
        direction="East",
        colour="Green",
        indicators=("Earth", "Health", "Wealth", "Physical", "East", "Green", "Home"),
        governs=("Trade/Artisan activities", "Resistance (poisons, disease, etc.)"),
        wounds="skeletal/musculature wounds",
    ),
    TarotSuit(
        key="swords",
        name="Swords",
        other_name="Swords",
        element="Air",
        direction="North",
        colour="Blue",
        indicators=("Air", "Thought", "Challenge", "Observation", "North", "Blue", "Mind"),
        governs=("Melee/Missile Combat",),
        wounds="stunning wounds",
    ),
    TarotSuit(
        key="wands",
        name="Wands",
        other_name="Staves",
        element="Fire",
        direction="South",
        colour="Yellow",
        indicators=(
            "Fire", "Creativity", "Action", "Motivation", "Passion", "South", "Yellow", "Spirit",
        ),
        governs=("general Spell Casting/Magic", "Parry"),
        wounds="internal organ/tissue wounds",
    ),
)


def tarot_suit(key: str) -> TarotSuit:
    """The suit whose key is ``key`` (``"cups"``, ``"pentacles"``, ``"swords"``, ``"wands"``)."""
    for suit in TAROT_SUITS:
        if suit.key == key:
            return suit
    raise KeyError(f"no Tarot suit {key!r}")
