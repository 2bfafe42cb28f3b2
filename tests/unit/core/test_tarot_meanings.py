"""Major Arcana meanings and Minor Arcana suit influences, as seed 000 gives them."""

from __future__ import annotations

import pytest

from games.core import cards, tarot


def test_all_22_major_arcana_have_upright_and_reversed_meanings() -> None:
    assert [t.number for t in tarot.MAJOR_ARCANA] == list(range(22))
    for trump in tarot.MAJOR_ARCANA:
        assert trump.upright.strip() and trump.reversed.strip(), trump.name
        assert trump.upright != trump.reversed


def test_trump_names_match_the_major_arcana_cards() -> None:
    assert [(c.value, c.name) for c in cards.major_arcana()] == [
        (t.number, t.name) for t in tarot.MAJOR_ARCANA
    ]


@pytest.mark.parametrize(
    ("number", "upright", "reversed_"),
    [
        (0, "Beginnings, innocence, spontaneity, a free spirit",
         "Naivety, foolishness, recklessness, risk-taking"),
        (10, "Good luck, karma, life cycles, destiny, a turning point",
         "Bad luck, negative external forces, out of control"),
        (13, "Endings, beginnings, change, transformation, transition",
         "Resistance to change, unable to move on"),
        (15, "Bondage, addiction, sexuality, materialism",
         "Detachment, breaking free, power reclaimed"),
        (21, "Completion, integration, accomplishment, travel",
         "Lack of completion, lack of closure"),
    ],
)
def test_meanings_are_seed_000_words(number: int, upright: str, reversed_: str) -> None:
    """Seed 000, "Major Arcana Meanings", e.g. "Fool: Upright: Beginnings, innocence,
    spontaneity, a free spirit; Reversed: Naivety, foolishness, recklessness, risk-taking"."""
    trump = tarot.major_arcanum(number)
    assert trump.meaning() == upright
    assert trump.meaning(reversed=True) == reversed_


def test_tower_uses_the_traditional_meanings_not_seed_000s_copy_of_the_devil() -> None:
    """The decided reading: "000: the Tower's meanings are a copy of the Devil's. Use the
    traditional Tower meanings (upright: sudden upheaval, revelation, chaos, awakening;
    reversed: averting disaster, fear of change, delaying the inevitable)"."""
    tower, devil = tarot.major_arcanum(16), tarot.major_arcanum(15)
    assert tower.name == "The Tower"
    assert tower.keywords() == ("Sudden upheaval", "revelation", "chaos", "awakening")
    assert tower.keywords(reversed=True) == (
        "Averting disaster", "fear of change", "delaying the inevitable",
    )
    assert (tower.upright, tower.reversed) != (devil.upright, devil.reversed)


def test_major_arcanum_rejects_numbers_outside_0_to_21() -> None:
    for number in (-1, 22):
        with pytest.raises(KeyError):
            tarot.major_arcanum(number)


def test_four_suits_with_their_other_names() -> None:
    """Seed 000: "Cups/Chalice", "Coins/Pentacles", "Swords", "Staves/Wands"."""
    assert [(s.key, s.name, s.other_name) for s in tarot.TAROT_SUITS] == [
        ("cups", "Cups", "Chalice"),
        ("pentacles", "Pentacles", "Coins"),
        ("swords", "Swords", "Swords"),
        ("wands", "Wands", "Staves"),
    ]


def test_cups_influences() -> None:
    """Seed 000: "Cups/Chalice: Water, Emotion, Intuition, Creativity, Empathy, West, Red,
    Heart-- Social activities, Dodge, bleeding wounds"."""
    cups = tarot.tarot_suit("cups")
    assert cups.indicators == (
        "Water", "Emotion", "Intuition", "Creativity", "Empathy", "West", "Red", "Heart",
    )
    assert (cups.element, cups.direction, cups.colour) == ("Water", "West", "Red")
    assert cups.governs == ("Social activities", "Dodge")
    assert cups.wounds == "bleeding wounds"


def test_pentacles_influences() -> None:
    """Seed 000: "Coins/Pentacles: Earth, Health, Wealth, Physical, East, Green, Home--
    Trade/Artisan activities, Resistance (poisons, disease, etc.), skeletal/musculature
    wounds"."""
    coins = tarot.tarot_suit("pentacles")
    assert coins.indicators == ("Earth", "Health", "Wealth", "Physical", "East", "Green", "Home")
    assert coins.governs == ("Trade/Artisan activities", "Resistance (poisons, disease, etc.)")
    assert coins.wounds == "skeletal/musculature wounds"


def test_swords_influences() -> None:
    """Seed 000: "Swords: Air, Thought, Challenge, Observation, North, Blue, Mind--
    Melee/Missile Combat, stunning wounds"."""
    swords = tarot.tarot_suit("swords")
    assert swords.indicators == (
        "Air", "Thought", "Challenge", "Observation", "North", "Blue", "Mind",
    )
    assert swords.governs == ("Melee/Missile Combat",)
    assert swords.wounds == "stunning wounds"


def test_wands_influences() -> None:
    """Seed 000: "Staves/Wands: Fire, Creativity, Action, Motivation, Passion, South, Yellow,
    Spirit-- general Spell Casting/Magic, Parry, internal organ/tissue wounds"."""
    wands = tarot.tarot_suit("wands")
    assert wands.indicators == (
        "Fire", "Creativity", "Action", "Motivation", "Passion", "South", "Yellow", "Spirit",
    )
    assert (wands.element, wands.direction, wands.colour) == ("Fire", "South", "Yellow")
    assert wands.governs == ("general Spell Casting/Magic", "Parry")
    assert wands.wounds == "internal organ/tissue wounds"


def test_every_suit_element_direction_and_colour_are_among_its_indicators() -> None:
    for suit in tarot.TAROT_SUITS:
        assert suit.indicators[0] == suit.element
        assert {suit.direction, suit.colour} <= set(suit.indicators)
    with pytest.raises(KeyError):
        tarot.tarot_suit("hearts")
