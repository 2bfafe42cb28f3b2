"""A combat fumble risked by an Ace anywhere among the cards played (seed 000: "if a one or ace
value card is drawn ... If this occurs in combat, then an additional Minor Arcana card is
immediately drawn and compared to the Fumble value for the attack/weapon being used and if it
is equal to or less than this value, a fumble occurs")."""

from __future__ import annotations

from tests.unit.shadows.test_combat_procedure import attack, fight


def test_an_ace_played_second_risks_the_fumble_as_one_played_first() -> None:
    table = fight(["C2"])  # the fumble card: 2, at or under the Blade's Fumble value 3
    [declared] = attack(table, "S5", "W1", ap=2)  # the Ace of Wands paid for by the second AP
    assert declared["fumble"] is not None and declared["fumble"]["fumbled"]


def test_no_ace_played_draws_no_fumble_card() -> None:
    table = fight(["C2"])
    [declared] = attack(table, "S5", "P2", ap=2)
    assert declared["fumble"] is None
