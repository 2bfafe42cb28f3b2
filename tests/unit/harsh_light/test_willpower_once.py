"""Willpower once a turn, whatever it buys (issue 22).

Seed 002: "You may only spend one Willpower per turn (including Willpower spent to activate
powers)", and a point "adds 3 to your pool for a pull ... or adds 2 against a Resisted test".
Every kind of spend, one after another in the same turn, in a fight and out of one: the second
is refused and the sheet loses one point only. Outside a fight the turn lasts until the
Storyteller calls a new one (our reading: the tests made meanwhile do not end it).
"""

from __future__ import annotations

import pytest

from games.harsh_light.errors import OutOfTurn, WillpowerRefused
from tests.unit.harsh_light.conftest import Table, sheet

# What a point can buy: +3 on a pull, on an extended action's pull, on a contest's pull; +2 kept
# to resist; a power. A pull set up with Willpower spends nothing until it is pulled, but is
# checked as its pull would be: it is refused too once the point is spent.
SPENDS = ("pool", "extended", "contest", "resist", "power")
SECONDS = (*SPENDS, "set_up")


def table(fight: bool) -> Table:
    t = Table(c1=sheet("Ann", resolve=5, composure=5), c2=sheet("Bob", resolve=5, composure=5))
    t.send({"type": "extended_start", "combatant": "c1", "attribute": "dexterity", "needed": 50})
    t.send({"type": "contest_start", "needed": 50, "sides": [
        {"combatant": "c1", "attribute": "wits"}, {"combatant": "c2", "attribute": "wits"}]})
    if fight:
        t.send({"type": "set_order", "order": ["c1", "c2"]})
    return t


def spend(t: Table, kind: str) -> None:
    if kind == "pool":
        t.pull("c1", [5], attribute="wits", willpower=True, action="reflexive")
    elif kind == "set_up":
        t.send({"type": "set_up_pull", "combatant": "c1", "attribute": "wits", "willpower": True,
                "action": "reflexive"})
    elif kind == "extended":
        t.send({"type": "extended_pull", "extended": "x1", "willpower": True}, [5])
    elif kind == "contest":
        t.send({"type": "contest_pull", "contest": "k2", "combatant": "c1", "willpower": True}, [5])
    else:
        t.send({"type": "willpower", "combatant": "c1", "use": kind})


def what_comes_between(t: Table, first: str, second: str) -> None:
    """What once ended a turn outside a fight: a test resisted by Ann's Composure (which uses a
    point kept to resist), and a plain pull of Ann's; and Bob's side of the contest round."""
    t.pull("c2", [5], attribute="presence", target="c1", resist="composure", action="reflexive")
    t.pull("c1", [5], attribute="wits", action="reflexive")
    if first == "contest" and second == "contest":
        t.send({"type": "contest_pull", "contest": "k2", "combatant": "c2"}, [5])


@pytest.mark.parametrize("fight", [False, True], ids=["outside a fight", "in a fight"])
@pytest.mark.parametrize("second", SECONDS)
@pytest.mark.parametrize("first", SPENDS)
def test_a_second_willpower_point_in_a_turn_is_refused_whatever_each_buys(first: str, second: str,
                                                                          fight: bool) -> None:
    """Seed: "You may only spend one Willpower per turn (including Willpower spent to activate
    powers)"."""
    t = table(fight)
    spend(t, first)
    assert t.sheets["c1"]["willpower_points"] == 9
    what_comes_between(t, first, second)
    if fight and first == second == "extended":
        # an extended pull is the turn's one instant action: refused as that first
        with pytest.raises(OutOfTurn, match="already taken an instant action"):
            spend(t, second)
    else:
        with pytest.raises(WillpowerRefused, match="already spent a Willpower point this turn"):
            spend(t, second)
    assert t.sheets["c1"]["willpower_points"] == 9


@pytest.mark.parametrize("fight", [False, True], ids=["outside a fight", "in a fight"])
@pytest.mark.parametrize("second", SPENDS)
@pytest.mark.parametrize("first", SPENDS)
def test_the_next_turn_brings_the_next_point(first: str, second: str, fight: bool) -> None:
    """Seed: "one Willpower per turn": in a fight the next turn comes round the order; outside
    one the Storyteller calls it (the panel's "New turn: everyone may spend Willpower again")."""
    t = table(fight)
    spend(t, first)
    if first == second == "contest":
        t.send({"type": "contest_pull", "contest": "k2", "combatant": "c2"}, [5])
    if fight:
        t.send({"type": "end_turn"})  # Ann's action is done: Bob acts, in the same turn
        assert t.status("c1")["willpower_spent"]
        t.send({"type": "end_turn"})  # Bob's too: turn 2, Ann acts
    else:
        t.send({"type": "end_turn"})
        assert "everyone may spend Willpower again" in t.lines[-1]
    spend(t, second)
    assert t.sheets["c1"]["willpower_points"] == 8


def test_a_point_kept_to_resist_and_used_is_still_the_turn_s_point() -> None:
    """Seed: Willpower "adds 2 against a Resisted test"; "one Willpower per turn". Outside a
    fight, Bob's +2 lasts one resisted test; the test used it, and the turn's point is spent."""
    t = table(fight=False)
    t.send({"type": "willpower", "combatant": "c2", "use": "resist"})
    record = t.pull("c1", [6], attribute="presence", target="c2", resist="composure")
    assert record["pool"]["parts"][-1] == ["Bob's Willpower", -2]
    assert not t.status("c2")["resist_willpower"] and t.status("c2")["willpower_spent"]
    with pytest.raises(WillpowerRefused, match="the Storyteller calls the next turn"):
        t.send({"type": "willpower", "combatant": "c2", "use": "resist"})
