"""Issue 23, "Dice as dice": every d10 the Demon City panel shows is drawn as a die, the die
a roll counts kept (the best marked where the rule takes the highest) and the others marked not
counted; a damage roll keeps its lowest die, an injury its one d10."""

from __future__ import annotations

from games.demon_city.panel import panel
from games.demon_city.thrown import thrown
from tests.unit.demon_city.test_panel_rounds import ALFIE, DEMON


def marks(dice: list[dict]) -> list[tuple[int, bool, bool]]:
    return [(d["value"], d["faces"][0]["kept"], d["faces"][0]["best"]) for d in dice]


def test_a_clash_keeps_the_best_die_and_a_hit_its_lowest(fight, scripted):
    """Seed: "Their official roll for the purposes of deciding the contest is whichever of their
    rolls is highest. So if you roll a 6 and an 8, your "roll" is 8."; damage: "roll and take
    the lowest"."""
    f = fight([ALFIE, {**DEMON, "agility": 3, "hand_to_hand": 2}])
    f.announce("alfie", "melee", "demon")  # Hand-to-Hand 4 > Agility 3: two dice
    f.announce("demon", "melee", "alfie")  # one die
    f.roll(scripted([6, 8, 9, 2, 5, 6]))  # the Demon acts; three damage dice, lowest 2
    for hidden in (frozenset(), frozenset({"demon"})):  # every die is public, an NPC's too
        view = panel(f.state, hidden)
        entries = {e["name"]: e for e in view["order"]}
        assert marks(entries["Alfie"]["thrown"]) == [(6, False, False), (8, True, True)]
        assert marks(entries["Demon"]["thrown"]) == [(9, True, True)]
        (clash,) = view["clashes"]
        assert [marks(r["thrown"]) for r in clash["rolls"]] == [[(6, False, False), (8, True, True)],
                                                                [(9, True, True)]]
        [hit] = view["happened"]
        assert marks(hit["thrown"]) == [(2, True, False), (5, False, False), (6, False, False)]
        assert all(f["sides"] == 10 for d in hit["thrown"] for f in d["faces"])


def test_ties_keep_one_die_massive_damage_its_highest_an_injury_its_one():
    """Seed: Massive Damage: "roll one die for each point of the attacker's stat and take the
    highest"; a tie among a roller's own dice still counts one die."""
    assert marks(thrown([7, 7])) == [(7, True, True), (7, False, False)]
    assert marks(thrown([3, 9, 4], "best")) == [(3, False, False), (9, True, True), (4, False, False)]
    assert marks(thrown([4], "one")) == [(4, True, False)]
    assert thrown([]) == []
