"""Combat arithmetic (seed 000, "Combat Actions"), on fixed cards."""

from __future__ import annotations

import pytest

from games.core.engine import RuleError
from games.shadows import combat as cb


def t(short: str) -> str:
    suit = {"S": "swords", "P": "pentacles", "C": "cups", "W": "wands"}[short[0]]
    return f"tarot:{suit}:{short[1:]}"


@pytest.mark.parametrize("quickness, ap", [(1, 6), (2, 6), (3, 7), (8, 9), (15, 13), (16, 13)])
def test_action_points_are_five_plus_half_quickness_rounded_up(quickness: int, ap: int) -> None:
    """Seed: "a number of Action Points ... equal to five plus half their Quickness attribute
    (rounded up)"; "The normal maximum is 13 AP's (5 + Qu/2) for an extremely quick character
    while the normal minimum is 6 AP's for an extremely slow character"."""
    assert cb.action_points(quickness) == ap


def test_the_minimum_is_six_and_the_maximum_thirteen() -> None:
    assert min(cb.action_points(q) for q in range(1, 17)) == 6
    assert max(cb.action_points(q) for q in range(1, 17)) == 13


def test_a_hand_is_dealt_by_the_rounds_focus() -> None:
    """Seed: "Physical ...: Body + 1/2xPhysical / Mental ...: Mind + 1/2xMental / Spiritual
    ...: Spirit + 1/2xEmotional" (the half rounds up, as for AP)."""
    attributes = {"body": 6, "physical": 5, "mind": 4, "mental": 4, "spirit": 2, "emotional": 9}
    assert cb.hand_size(attributes, "physical") == 6 + 3
    assert cb.hand_size(attributes, "mental") == 4 + 2
    assert cb.hand_size(attributes, "spiritual") == 2 + 5
    with pytest.raises(RuleError):
        cb.hand_size(attributes, "emotional")


def test_actions_outside_the_focus_take_minus_three() -> None:
    """Seed: "whenever a character's actions are outside of their players stated "focus" for
    that round, they suffer a -3 to each action that they attempt"."""
    assert cb.off_focus("physical", cb.category_of("quickness")) == 0
    assert cb.off_focus("mental", cb.category_of("quickness")) == -3
    assert cb.off_focus("physical", cb.ATTACK_FOCUS["mana"]) == -3
    assert cb.off_focus(None, "physical") == 0  # outside combat there is no focus


def test_defence_is_quickness_against_physical_intuition_and_discipline_against_magic() -> None:
    """Seed: "a Defensive value based on ... their Quickness attribute"; "Intuition attribute
    value against Spiritual magic, Discipline attribute against Mana based magic"."""
    attrs = {"quickness": 7, "intuition": 4, "discipline": 9}
    assert cb.defence("physical", attrs).total == 7
    assert cb.defence("spiritual", attrs).total == 4
    assert cb.defence("mana", attrs).total == 9


def test_pentacles_dodge_and_parry_cards_count_double() -> None:
    """Seed: "the use of one card ... from their hand to add to their Defensive value, with
    Pentacle/Coins suited card values being doubled"."""
    guard = cb.defence("physical", {"quickness": 5}, cards=[t("P6"), t("C6")])
    assert guard.card_total == 12 + 6 and guard.total == 5 + 18


def test_cover_or_movement_but_not_both_and_accuracy_offsets_them() -> None:
    """Seed: "partial cover will provide a +5, +10, +15 or +20 ... with Movement also
    providing a similar Defensive bonus (although only cover or movement, not both) ...
    ranged attacks with the use of Accuracy skill will allowing for the offset"."""
    assert cb.cover_bonus(15, 0) == 15
    assert cb.cover_bonus(0, 10) == 10
    assert cb.cover_bonus(15, 0, accuracy=6) == 9
    assert cb.cover_bonus(5, 0, accuracy=9) == 0
    with pytest.raises(RuleError):
        cb.cover_bonus(5, 5)
    with pytest.raises(RuleError):
        cb.cover_bonus(7, 0)


def test_equipment_adds_to_defence_and_an_active_off_focus_defence_takes_minus_three() -> None:
    """Seed: "Any armor or other protective equipment can further modify this Defensive value"."""
    assert cb.defence("physical", {"quickness": 5}, protection=3).total == 8
    assert cb.defence("physical", {"quickness": 5}, cards=[t("C2")], focus="mental").total == 5 + 2 - 3
    assert cb.defence("physical", {"quickness": 5}, focus="mental").total == 5  # passive: no action


@pytest.mark.parametrize("code, values, added", [
    ("D1", [9], 9),
    ("D2", [9, 4], 13),
    ("L2", [9, 4], 4),
    ("H2", [9, 4], 9),
    ("L3", [9, 4, 12], 4 + 9),
    ("H3", [9, 4, 12], 9 + 12),
    ("M3", [9, 4, 12], 9),
])
def test_each_damage_modifier_on_fixed_cards(code: str, values: list[int], added: int) -> None:
    """Seed: "D1 => Draw one card and use its value as the added damage / D2 => Draw two cards
    and add both values / L2 => ... the lower value / H2 => ... the higher value / L3 => Draw
    three cards and add the lower and middle values / H3 => ... the middle and higher values /
    M3 => ... the middle of the three values"."""
    assert cb.modifier_cards(code) == len(values)
    assert cb.modifier_value(code, values) == added


def test_a_fixed_modifier_draws_nothing() -> None:
    assert cb.modifier_cards("+2") == 0 and cb.modifier_value("+2", []) == 2
    with pytest.raises(RuleError):
        cb.modifier_value("X9", [])


def test_the_attacks_own_suit_does_full_damage_any_other_one_point() -> None:
    """Seed: "If the suit of the attack card played is the suit associated with that type of
    attack (Staves/Wands for Mana based magic, Cups/Chalice for Spiritual ... Swords for
    Physical) then the full ... value is applied"; otherwise "it does one point of damage"."""
    assert cb.base_damage(7, t("S9"), "physical") == 7
    assert cb.base_damage(7, t("C9"), "physical") == 1
    assert cb.base_damage(7, t("W9"), "mana") == 7
    assert cb.base_damage(7, t("C9"), "spiritual") == 7
    assert cb.base_damage(0, t("S9"), "physical") == 0  # not positive: no damage


def test_a_face_attack_against_a_non_face_defence_starts_the_critical_chain() -> None:
    """Seed: "if the attack card played was a face card and the defense card was not a face
    card"; "If this defense card is a face card, then it will allow for the countering of
    (prevention of) one level of critical"."""
    assert cb.critical_starts(t("S11"), [])
    assert cb.critical_starts(t("S11"), [t("P10")])
    assert not cb.critical_starts(t("S11"), [t("C12")])
    assert not cb.critical_starts(t("S10"), [])


def test_the_chain_minor_first_then_major_by_the_weapons_critical_suit() -> None:
    """Seed: the first extra card is "added to the result as a minor critical"; further cards
    "add effects indicating a Major Critical ... for the suit indicating the type of critical
    that the weapon ... is specified as doing. If this major critical is of the wrong suit ...
    then the value of the card is added to the damage instead"."""
    assert cb.chain_step(1, t("W12"), "cups")["kind"] == cb.MINOR_CRITICAL
    assert cb.chain_step(1, t("W12"), "cups")["continues"]
    assert cb.chain_step(2, t("C5"), "cups")["kind"] == cb.MAJOR_CRITICAL
    assert cb.chain_step(2, t("S5"), "cups")["kind"] == cb.ADDED
    assert not cb.chain_step(2, t("S5"), "cups")["continues"]


@pytest.mark.parametrize("damage, life", [(1, 1), (5, 1), (6, 2), (10, 2), (11, 3), (14, 3), (0, 0)])
def test_modern_weapons_do_a_fifth_of_their_damage_to_life(damage: int, life: int) -> None:
    """Seed: "card values 1-5 yield 1 Life damage, card values 6-10 yield 2 Life damage and
    face cards yield only 3 Life damage from guns and similar "modern" weapons"."""
    assert cb.modern_life_damage(damage) == life
    assert cb.tracks_hit(damage, "physical", True) == {"health": damage, "life": life}


def test_spiritual_attacks_lower_aessence() -> None:
    assert cb.tracks_hit(6, "spiritual", False) == {"aessence": 6}
    assert cb.tracks_hit(6, "mana", False) == {"health": 6, "life": 6}


def test_vulnerability_doubles_resistance_halves_immunity_cancels_after_armour() -> None:
    """Seed: "any attacks of this type cause double damage"; "Resistances ... only cause half
    damage"; "Immunities ... (no damage taken)"; "These damage values may be reduced or
    modified by armor"."""
    assert cb.protected(10, armour=2, kinds=["physical", "silver"])[0] == 8
    assert cb.protected(10, armour=2, kinds=["physical", "silver"], vulnerabilities="silver, fire")[0] == 16
    assert cb.protected(10, armour=0, kinds=["physical", "fire"], resistances="Fire")[0] == 5
    assert cb.protected(9, armour=0, kinds=["physical", "fire"], resistances="fire")[0] == 4
    assert cb.protected(10, armour=0, kinds=["mana", "fire"], immunities="fire")[0] == 0
    assert cb.protected(3, armour=5, kinds=["physical"])[0] == 0


def test_a_combat_fumble_is_a_card_at_or_under_the_weapons_fumble_value() -> None:
    """Seed: "an additional Minor Arcana card is immediately drawn and compared to the Fumble
    value for the attack/weapon being used and if it is equal to or less than this value, a
    fumble occurs"."""
    assert cb.combat_fumble(t("C3"), 3)
    assert not cb.combat_fumble(t("C4"), 3)
