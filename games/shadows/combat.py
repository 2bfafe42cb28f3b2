"""Combat arithmetic (seed 000, "Combat Actions"): Action Points, hands, Defence, damage,
damage modifiers, the critical chain, modern weapons, vulnerabilities and armour.

Pure functions over plain values and card tokens; the moves' handlers (``fight``, ``hits``) draw
the cards and record them, these judge them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.core.engine import RuleError
from games.shadows import deck

# The sheet's attributes, in three categories. The seed names Body, Mind, Spirit, Physical,
# Mental, Emotional, Quickness, Intuition and Discipline; its focus formulas pair Body with
# Physical, Mind with Mental and Spirit with Emotional. Reading (the seed promises "Details
# for this will be made available"): Quickness is physical, Discipline mental and Intuition
# spiritual, so each category holds the attributes its focus and its defence use.
CATEGORIES: dict[str, tuple[str, ...]] = {
    "physical": ("body", "physical", "quickness"),
    "mental": ("mind", "mental", "discipline"),
    "spiritual": ("spirit", "emotional", "intuition"),
}
ATTRIBUTES: tuple[str, ...] = tuple(a for group in CATEGORIES.values() for a in group)
ATTRIBUTE_LABELS = {a: a.capitalize() for a in ATTRIBUTES}
FOCI = tuple(CATEGORIES)
FOCUS_LABELS = {"physical": "Physical", "mental": "Mental", "spiritual": "Spiritual"}

# Seed: "Physical ...: Body + 1/2xPhysical", "Mental ...: Mind + 1/2xMental",
# "Spiritual ...: Spirit + 1/2xEmotional".
FOCUS_FORMULA: dict[str, tuple[str, str]] = {
    "physical": ("body", "physical"),
    "mental": ("mind", "mental"),
    "spiritual": ("spirit", "emotional"),
}

# Attack types and their suits: "Staves/Wands for Mana based magic, Cups/Chalice for
# Spiritual based magic or attacks and Swords for Physical attacks".
ATTACK_TYPES = ("physical", "mana", "spiritual")
ATTACK_SUIT = {"physical": "swords", "mana": "wands", "spiritual": "cups"}
ATTACK_LABELS = {"physical": "physical", "mana": "mana magic", "spiritual": "spiritual"}
# Which focus an attack type belongs to. Reading: mana magic is the Mental focus's
# ("mental activities or mental based magical effects").
ATTACK_FOCUS = {"physical": "physical", "mana": "mental", "spiritual": "spiritual"}
# Seed: a Defensive value "based on ... their Quickness attribute"; "Intuition attribute
# value against Spiritual magic, Discipline attribute against Mana based magic".
DEFENCE_ATTRIBUTE = {"physical": "quickness", "mana": "discipline", "spiritual": "intuition"}

OFF_FOCUS_PENALTY = -3
COVER_STEPS = (0, 5, 10, 15, 20)


def half_up(n: int) -> int:
    """Half, rounded up (the seed's "half their Quickness attribute (rounded up)")."""
    return -(-n // 2)


def action_points(quickness: int) -> int:
    """Seed: "a number of Action Points ... equal to five plus half their Quickness
    attribute (rounded up)"; "The normal maximum is 13 AP's ... the normal minimum is 6"."""
    return 5 + half_up(quickness)


def hand_size(attributes: Mapping[str, int], focus: str) -> int:
    """The cards dealt for a round's focus: e.g. Body + 1/2 x Physical.

    Reading: the half rounds up, as it does for Action Points (the seed gives no rounding
    here; a table keeps one habit)."""
    if focus not in FOCUS_FORMULA:
        raise RuleError("The focus is Physical, Mental or Spiritual.")
    whole, half = FOCUS_FORMULA[focus]
    return max(0, int(attributes.get(whole, 0)) + half_up(max(0, int(attributes.get(half, 0)))))


def category_of(attribute: str) -> str | None:
    for category, members in CATEGORIES.items():
        if attribute in members:
            return category
    return None


def off_focus(focus: str | None, category: str | None) -> int:
    """Seed: "whenever a character's actions are outside of their players stated focus for
    that round, they suffer a -3 to each action that they attempt and use with an attribute
    outside of that category"."""
    if focus is None or category is None or category == focus:
        return 0
    return OFF_FOCUS_PENALTY


def defence_card_value(token: str) -> int:
    """A dodge or parry card's value: "with Pentacle/Coins suited card values being doubled"."""
    c = deck.card(token)
    return c.value * 2 if c.suit == "pentacles" else c.value


def cover_bonus(cover: int, movement: int, accuracy: int = 0) -> int:
    """Seed: "partial cover will provide a +5, +10, +15 or +20 to the Defense result ...
    with Movement also providing a similar Defensive bonus (although only cover or
    movement, not both). Note that ranged attacks with the use of Accuracy skill will
    allowing for the offset of Movement or Cover bonuses to defense".

    Reading: the Accuracy skill value comes off the bonus, never below nothing."""
    for bonus in (cover, movement):
        if bonus not in COVER_STEPS:
            raise RuleError("Cover and movement give +5, +10, +15 or +20.")
    if cover and movement:
        raise RuleError("Only cover or movement, not both.")
    return max(0, cover + movement - max(0, accuracy))


@dataclass(frozen=True)
class Defence:
    attribute: str
    base: int
    bonus: int
    protection: int
    cards: tuple[str, ...]
    card_total: int
    penalty: int

    @property
    def total(self) -> int:
        return self.base + self.bonus + self.protection + self.card_total + self.penalty

    def to_dict(self) -> dict[str, Any]:
        return {"attribute": self.attribute, "base": self.base, "bonus": self.bonus,
                "protection": self.protection, "cards": list(self.cards),
                "card_total": self.card_total, "penalty": self.penalty, "total": self.total}


def defence(attack_type: str, attributes: Mapping[str, int], *, bonus: int = 0, protection: int = 0,
            cards: Sequence[str] = (), focus: str | None = None) -> Defence:
    """Defence = the attribute for the attack type + cover or movement + protective
    equipment ("Any armor or other protective equipment can further modify this Defensive
    value") + each dodge/parry card played (Pentacles doubled).

    Reading: an active dodge or parry is an action, so playing cards with a defence
    attribute outside the round's focus takes the -3; the passive Defence does not."""
    attribute = DEFENCE_ATTRIBUTE[attack_type]
    penalty = off_focus(focus, category_of(attribute)) if cards else 0
    return Defence(attribute, int(attributes.get(attribute, 0)), bonus, protection, tuple(cards),
                   sum(defence_card_value(t) for t in cards), penalty)


# Damage modifiers, "exactly as listed":
MODIFIERS: dict[str, tuple[int, str]] = {
    "D1": (1, "Draw one card and use its value as the added damage"),
    "D2": (2, "Draw two cards and add both values as the added damage"),
    "L2": (2, "Draw two cards and use the lower value as the added damage"),
    "H2": (2, "Draw two cards and use the higher value as the added damage"),
    "L3": (3, "Draw three cards and add the lower and middle values as the added damage"),
    "H3": (3, "Draw three cards and add the middle and higher values as the added damage"),
    "M3": (3, "Draw three cards and use the middle of the three values as the added damage"),
}


def modifier_cards(code: str) -> int:
    """How many cards a damage modifier draws (0 for a fixed modifier such as "+2")."""
    return MODIFIERS[code][0] if code in MODIFIERS else 0


def modifier_value(code: str, values: Sequence[int]) -> int:
    """The added damage of a modifier from the values of the cards it drew."""
    if code not in MODIFIERS:
        return fixed_modifier(code)
    if len(values) != MODIFIERS[code][0]:
        raise ValueError(f"{code} draws {MODIFIERS[code][0]} cards")
    low = sorted(values)
    return {
        "D1": lambda: low[0],
        "D2": lambda: sum(low),
        "L2": lambda: low[0],
        "H2": lambda: low[-1],
        "L3": lambda: low[0] + low[1],
        "H3": lambda: low[1] + low[2],
        "M3": lambda: low[1],
    }[code]()


def fixed_modifier(code: str) -> int:
    try:
        return int(code or 0)
    except ValueError:
        raise RuleError(f"A damage modifier is one of {', '.join(MODIFIERS)} or a number, "
                        f"not {code!r}.") from None


def is_hit(raw: int) -> bool:
    """Seed: "If this is positive, then apply the following guidelines for damage dealt"."""
    return raw > 0


def base_damage(raw: int, lead_card: str, attack_type: str) -> int:
    """Seed: with the attack type's own suit "the full (positive, after the defensive
    adjustment) value is applied"; otherwise "it does one point of damage plus the damage
    modifier ... indicating a lesser but still connecting attack"."""
    if not is_hit(raw):
        return 0
    return raw if deck.suit(lead_card) == ATTACK_SUIT[attack_type] else 1


def critical_starts(lead_card: str, defence_cards: Sequence[str]) -> bool:
    """Seed: damage "can also be further increased by an additional card drawn from the deck
    (not from the attacker's hand) if the attack card played was a face card and the defense
    card was not a face card"; "If this defense card is a face card, then it will allow for
    the countering of (prevention of) one level of critical".

    Reading: the lead card (the first played) is "the attack card". A face card among the
    defence cards prevents the first level, the Minor Critical, and every later level is
    reached only through it, so the chain never starts. No defence card is "not a face card"."""
    return deck.is_face(lead_card) and not any(deck.is_face(t) for t in defence_cards)


MINOR_CRITICAL, MAJOR_CRITICAL, ADDED = "minor", "major", "added"


def chain_step(level: int, token: str, critical_suit: str) -> dict[str, Any]:
    """One card of the critical chain. Level 1 is the Minor Critical ("With the value of this
    drawn card also being added to the result as a minor critical"); level 2 on are Major
    Criticals when the card is of the weapon's critical suit ("a Major Critical damage of a
    type based on the suit and value of this additional drawn card"), and otherwise "the
    value of the card is added to the damage instead". Reading: a Major Critical card's value
    is added too (they "do more than just add additional damage")."""
    c = deck.card(token)
    if level == 1:
        kind = MINOR_CRITICAL
    else:
        kind = MAJOR_CRITICAL if c.suit == critical_suit else ADDED
    return {"card": token, "value": c.value, "level": level, "kind": kind,
            "continues": c.is_face}


def modern_life_damage(damage: int) -> int:
    """Seed: modern weapons "only inflict 20% Life damage (divide damage to Life score by
    five, in other words card values 1-5 yield 1 Life damage, card values 6-10 yield 2 Life
    damage and face cards yield only 3 Life damage)". Reading: divided by five, rounded up
    (1-5 -> 1, 6-10 -> 2, 11-15 -> 3, which is the face cards' 3)."""
    return -(-max(0, damage) // 5)


def _names(text: Any) -> set[str]:
    if isinstance(text, str):
        parts = text.replace(";", ",").split(",")
    else:
        parts = list(text or [])
    return {str(p).strip().lower() for p in parts if str(p).strip()}


def protected(damage: int, *, armour: int, kinds: Sequence[str], vulnerabilities: Any = "",
              resistances: Any = "", immunities: Any = "") -> tuple[int, list[str]]:
    """Damage after armour, then vulnerabilities, resistances and immunities.

    Seed: "These damage values may be reduced or modified by armor"; a Vulnerability means
    "double damage to their Health, Life and Æssence values", Resistances "only cause half
    damage", Immunities "no damage taken". ``kinds`` are the attack's damage types (its type
    and its material or element). Readings: armour comes off first (it stops the blow, the
    being's nature works on what gets through); a half rounds down."""
    notes: list[str] = []
    after = max(0, damage - max(0, armour))
    if armour and damage:
        notes.append(f"armour {armour}")
    wanted = {k.lower() for k in kinds if k}
    immune = wanted & _names(immunities)
    if immune:
        return 0, [*notes, f"immune to {', '.join(sorted(immune))}"]
    vulnerable = wanted & _names(vulnerabilities)
    if vulnerable:
        after *= 2
        notes.append(f"vulnerable to {', '.join(sorted(vulnerable))} (double)")
    resistant = wanted & _names(resistances)
    if resistant:
        after //= 2
        notes.append(f"resists {', '.join(sorted(resistant))} (half)")
    return after, notes


def tracks_hit(damage: int, attack_type: str, modern: bool) -> dict[str, int]:
    """Which of Health, Life and Æssence a hit lowers, and by how much.

    Reading (the seed names the three values but not which attack hits which): physical
    attacks and mana magic lower Health and Life, "modern" weapons Life by a fifth only;
    spiritual attacks lower Æssence."""
    if attack_type == "spiritual":
        return {"aessence": damage}
    return {"health": damage, "life": modern_life_damage(damage) if modern else damage}


def combat_fumble(fumble_card: str, fumble_value: int) -> bool:
    """Seed: "an additional Minor Arcana card is immediately drawn and compared to the
    Fumble value for the attack/weapon being used and if it is equal to or less than this
    value, a fumble occurs"."""
    return deck.value(fumble_card) <= fumble_value


# Reading: in combat no complexity is set, so the "possible fumble" is the table's first
# row: "a one or ace value card".
COMBAT_FUMBLE_TOP = 1
