"""The chance each attack card gets through, as a person reads it (issue 22): the panel read
"<0.1 %" for every card against a full hand, which tells a player nothing. Each card's chance
now reads as a number ("1 in 2,500", "12.3 %"), checked here against the exact count
(games/shadows/odds.py), and a chance of exactly nothing says so.

Seed: damage is "an attack card played from the attacker's hand ... minus their opponents
Defense value plus the attacker's attack skill value. If this is positive" it gets through; a
dodge or parry adds "one card (for each AP they are willing to spend ...) from their hand"."""

from __future__ import annotations

import re
from fractions import Fraction
from math import comb

import pytest

from games.contract import Seat
from games.shadows import deck, odds, odds_page
from games.shadows.faces import chance, pct
from games.shadows.panel import view
from tests.unit.shadows.kit import ANN, GM, Table, ann, bob, stacked

PLAYER = Seat("player", member=2, controls=frozenset({"c1"}))


def read(label: str) -> float:
    """The chance a label says, as a number: "1 in 6.3 billion", "all but 1 in 2,000", "12.3 %"."""
    words = {"billion": 1e9, "million": 1e6}
    found = re.fullmatch(r"(all but )?1 in ([\d.,]+)(?: (billion|million))?", label)
    if found:
        one_in = 1 / (float(found.group(2).replace(",", "")) * words.get(found.group(3), 1))
        return 1 - one_in if found.group(1) else one_in
    found = re.fullmatch(r"([\d.]+) %", label)
    assert found, f"{label!r} is not a chance a person reads"
    return float(found.group(1)) / 100


def honest(label: str, exact: Fraction) -> bool:
    """The label gives the exact chance to its two significant figures (a percentage from 1 %
    up, to one decimal), and says 0 or 100 % only when it is exactly that."""
    if exact in (0, 1):
        return label == f"{int(exact) * 100} %"
    said = read(label)
    if exact < Fraction(1, 100) or exact > Fraction(999, 1000):
        small = min(exact, 1 - exact)
        return abs((min(said, 1 - said) - float(small)) / float(small)) <= 0.05
    return abs(said - float(exact)) <= 0.0005 + 1e-12


def exact_through(value: int, bonus: int, defence: int, hand: int, held: frozenset[str] = frozenset()) -> Fraction:
    """The chance a card of ``value`` gets through a Defence and the best dodge card of a hand of
    ``hand`` dealt from a fresh Minor Arcana less the cards ``held`` by the one aiming (issue 25),
    from odds.py's exact count of hands."""
    pool = [c for c in deck.minor_tokens() if c not in held]
    dist = odds.best_defence_distribution(pool, hand, 1)
    return Fraction(sum(w for extra, w in dist.items() if value + bonus > defence + extra), comb(len(pool), hand))


def aimed(**bob_sheet) -> dict:
    """Ann (Melee 4) lines up a blow at Bob (Quickness 8: Defence 8; a hand of 12)."""
    table = Table(stacked())
    table.fight(ann(skills={"melee": 4}), bob(quickness=8, body=8, physical=8, **bob_sheet))
    table.send(ANN, "aim", combatant="c1", target="c2", weapon="Sword", skill="melee")
    [aim] = view(table.state, PLAYER)["combat"]["aims"]
    return aim


def test_each_cards_chance_against_a_full_hand_reads_as_a_number_matching_the_exact_count() -> None:
    """Against a hand of 12 every card's chance is below 0.1 %: each now reads as a different,
    honest number ("1 in 4,000" for a King), never "<0.1"."""
    table = Table(stacked())
    table.fight(ann(skills={"melee": 4}), bob(quickness=8, body=8, physical=8))
    table.send(ANN, "aim", combatant="c1", target="c2", weapon="Sword", skill="melee")
    [aim] = view(table.state, PLAYER)["combat"]["aims"]
    held = frozenset(table.person("c1")["hand"])  # Ann's own hand: not in Bob's (issue 25)
    assert (aim["defence"], aim["target_hand"], aim["dodge_cards"]) == (8, 12, 1)
    labels = {row["value"]: row["chance"] for row in aim["odds"]}
    for value, label in labels.items():
        assert honest(label, exact_through(value, 4, 8, 12, held)), (value, label)
    assert labels[8] == "0 %" and labels[14].startswith("1 in ") and labels[9].endswith("billion")
    assert len(set(labels.values()) - {"0 %"}) == 6 and not aim["none_through"]


def test_when_no_card_gets_through_the_panel_says_so_plainly() -> None:
    aim = aimed(protection=40)  # Defence 48: a King and Melee 4 make 18
    assert aim["none_through"] and {row["chance"] for row in aim["odds"]} == {"0 %"}


@pytest.mark.parametrize(("x", "label", "percent"), [
    (Fraction(0), "0 %", "0"),
    (Fraction(1), "100 %", "100"),
    (Fraction(1, 2500), "1 in 2,500", "0.040"),
    (Fraction(37, 100_000_000), "1 in 2.7 million", "0.000037"),
    (Fraction(123, 1000), "12.3 %", "12.3"),
    (Fraction(1, 100), "1.0 %", "1.0"),
    (Fraction(1999, 2000), "all but 1 in 2,000", "99.950"),
])
def test_a_chance_is_printed_to_two_significant_figures_never_as_less_than_a_tenth(x, label, percent) -> None:
    assert (chance(float(x)), pct(float(x))) == (label, percent) and honest(label, x)


def test_the_odds_page_gives_each_card_its_chance_and_says_when_none_gets_through() -> None:
    page = odds_page.odds_context({"skill": ["4"], "defence": ["8"], "hand": ["12"], "dodges": ["1"]})["attack"]
    for row in page["by_value"]:
        assert honest(row["chance"], exact_through(row["value"], 4, 8, 12)), row
    # the Ten of Swords alone: the defender's hand is dealt from the deck less that card
    assert page["hit"] == "1 in 71 million" and not page["none_through"]
    walled = odds_page.odds_context({"skill": ["0"], "defence": ["80"]})["attack"]
    assert walled["none_through"] and walled["hit"] == "0 %"
    assert odds_page.odds_context({"card": ["swords:12"], "skill": ["5"], "defence": ["8"]})["attack"]["hit"] == "100 %"


def test_the_gm_sees_the_same_labels_for_an_npcs_odds() -> None:
    table = Table(stacked())
    table.fight(ann(skills={"melee": 4}), {**bob(quickness=8, body=8, physical=8), "npc": True, "owner": None})
    table.send(GM, "aim", combatant="c1", target="c2", weapon="Sword", skill="melee")
    [aim] = view(table.state, Seat("gm"))["combat"]["aims"]
    assert [row["chance"] for row in aim["odds"]][-1] == "1 in 4,000"
