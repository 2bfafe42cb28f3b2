"""The Action Rounds panel while announcing and once rolled.

Issue 13: "The clash odds on the panel compare two allies attacking the same foe; a player never
sees their own chance. Show each announcer their own chance against the side they face." Seed
003, step 6: "Whoever rolls highest in a Clash takes their action"; a tie "between two
characters on the same side ... is decided randomly", so allies never face each other.

Issue 13, bug 6: "After a round resolves, the panel shows recalculated pools and odds (3d10, new
percentages) instead of what was actually rolled." Seed, step 5: "Everybody involved in a Clash
rolls d10s at once"; what they rolled is what the table saw.
"""

from __future__ import annotations

from games.demon_city import odds
from games.demon_city.panel import panel

ALFIE = {"id": "alfie", "name": "Alfie", "agility": 2, "toughness": 3, "hand_to_hand": 4, "side": "players"}
BETTY = {"id": "betty", "name": "Betty", "agility": 4, "firearms": 5, "side": "players"}
DEMON = {"id": "demon", "name": "Demon", "agility": 9, "toughness": 1, "hand_to_hand": 6,
         "side": "opponents"}


def chances(state) -> dict[str, dict]:
    (clash,) = panel(state)["clashes"]
    return {c["name"]: c for c in clash["chances"]}


def test_allies_on_the_same_foe_are_never_each_other_s_odds(fight):
    f = fight([ALFIE, BETTY, DEMON])
    f.announce("alfie", "melee", "demon")
    f.announce("betty", "shoot", "demon")
    (clash,) = panel(f.state)["clashes"]
    assert "odds" not in clash and "top" not in clash
    assert [(c["name"], c["against"]) for c in clash["chances"]] == [("Alfie", []), ("Betty", [])]


def test_each_announcer_sees_its_own_chance_against_the_side_it_faces(fight):
    f = fight([ALFIE, BETTY, DEMON])
    f.announce("alfie", "melee", "demon")  # 4 is not > the Demon's 9: one die
    f.announce("betty", "shoot", "demon")  # the second attacker's Distraction Die: two dice
    f.announce("demon", "defend")  # the Defense Die: two dice
    seen = chances(f.state)
    assert seen["Alfie"]["against"] == ["Demon"] and seen["Betty"]["against"] == ["Demon"]
    assert seen["Demon"]["against"] == ["Alfie", "Betty"] and seen["Demon"]["against_size"] == 3
    for name, (mine, theirs) in {"Alfie": (1, 2), "Betty": (2, 2), "Demon": (2, 3)}.items():
        expected = odds.clash(mine, theirs)
        assert (seen[name]["win"], seen[name]["tie"], seen[name]["lose"]) == (
            odds.percent(expected.win), odds.percent(expected.tie), odds.percent(expected.lose)), name


def test_once_rolled_the_panel_shows_the_dice_rolled_not_a_recomputed_pool(fight, scripted):
    f = fight([ALFIE, {**DEMON, "agility": 3, "hand_to_hand": 2}])
    f.announce("alfie", "melee", "demon")  # Hand-to-Hand 4 > Agility 3: two dice
    f.announce("demon", "melee", "alfie")  # Agility 3 is not > Hand-to-Hand 4: one die
    f.roll(scripted([2, 3, 9, 2, 5, 6]))  # the Demon acts; three damage dice, lowest 2
    view = panel(f.state)
    entries = {e["name"]: e for e in view["order"]}
    # Alfie is hurt now: a recomputed pool would have lost a die to the injury.
    assert entries["Alfie"]["pool"]["size"] == 2 and entries["Alfie"]["rolled"] == {"dice": [2, 3], "best": 3}
    assert entries["Demon"]["pool"]["size"] == 1 and entries["Demon"]["rolled"] == {"dice": [9], "best": 9}
    (clash,) = view["clashes"]
    assert "chances" not in clash and clash["outcome"] == "Demon acts."
    assert [(r["name"], r["dice"]) for r in clash["rolls"]] == [("Alfie", [2, 3]), ("Demon", [9])]
    assert [h["line"] for h in view["happened"]] == [
        "Demon hits Alfie: rolls 2, 5, 6 and takes the lowest, 2. Toughness 3 falls to 1."]


def test_an_unresisted_task_shows_what_was_rolled(fight, scripted):
    f = fight([ALFIE, {**BETTY, "side": "opponents"}])
    f.announce("alfie", "other", description="climb the fence")
    f.announce("betty", "defend")
    f.send({"type": "set_difficulty", "combatant": "alfie", "target_number": 1})  # Agility 2 > 1
    f.roll(scripted([1, 7]))
    view = panel(f.state)
    entries = {e["name"]: e for e in view["order"]}
    assert entries["Alfie"]["rolled"] == {"dice": [1, 7], "best": 7}
    assert entries["Betty"]["pool"] is None  # nothing was rolled: her defence simply happened
    assert [u["result"] for u in view["unresisted"]] == [
        "Agility against difficulty 1: best 7, succeeds", "unresisted: it happens"]
