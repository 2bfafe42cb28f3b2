"""Issue 13 (Demon City at the table): "The Lost Die for injury is written to the sheet and
carries into the next fight and into tasks; the seed gives it to 'anyone who has taken at least
one injury during the fight'. Keep the injury on the sheet, but start each fight without the
fight-only Lost Die unless the Host says."

Seed 003: "Anyone who has taken at least one injury during the fight loses a single die (the
Lost Die for Injury)"; for tasks, "if there is some reason they can't be or haven't been
already, the Host may subtract up to two Lost Dice".
"""

from __future__ import annotations

import random

import pytest

from games.core.engine import RuleError
from games.demon_city.narrate import names_of, summary
from games.demon_city.state import current_pools, new_state
from games.demon_city.task import task
from games.demon_city.writeback import lasting, writeback
from tests.unit.demon_city.conftest import run

GM = {"is_gm": True}
HURT = {"id": "hurt", "name": "Hurt", "agility": 2, "toughness": 3, "injured": True}
FOE = {"id": "foe", "name": "Foe", "agility": 5, "side": "x"}


def lost_injury(f, cid: str) -> int:
    return current_pools(f.state)[cid].count("lost_injury")


def test_an_injury_from_before_costs_no_die_in_a_new_fight(fight):
    f = fight([HURT, FOE])
    assert f.person("hurt")["injured"] is False and f.person("hurt")["injured_before"] is True
    f.announce("hurt", "melee", "foe")
    assert lost_injury(f, "hurt") == 0


def test_the_host_may_say_injuries_from_before_count(fight, scripted):
    f = fight([FOE])
    events = f.send({"type": "add_combatant", "combatant": HURT, "injuries_count": True}, scripted())
    assert events[0]["combatant"]["injured"] is True
    state, rng = new_state(), random.Random(1)
    _, (started,) = run(state, {"type": "start", "actor": GM, "combatants": [HURT, FOE],
                                "injuries_count": True}, rng)
    assert started["combatants"][0]["injured"] is True
    assert summary(started, {"hurt": "Hurt", "foe": "Foe"}).endswith(
        "Injuries from before the fight count.")
    with pytest.raises(RuleError, match="yes or no"):
        run(state, {"type": "start", "actor": GM, "combatants": [HURT], "injuries_count": "1"}, rng)


def test_counted_injuries_cost_the_lost_die(fight):
    f = fight([FOE])
    f.send({"type": "add_combatant", "combatant": HURT, "injuries_count": True})
    f.announce("hurt", "melee", "foe")
    assert lost_injury(f, "hurt") == 1


def test_a_hit_during_the_fight_costs_the_die_and_the_sheet_keeps_every_injury(fight, scripted):
    f = fight([HURT, FOE, {"id": "fresh", "name": "Fresh", "agility": 3, "toughness": 5}])
    f.announce("hurt", "defend")
    f.announce("fresh", "defend")
    f.announce("foe", "melee", "fresh")
    rolled = f.roll(scripted([2, 3, 9, 4, 5, 6, 7, 8, 6]))  # Foe 9 over Fresh 2, 3; five damage dice
    # the hit goes on Fresh's sheet as it lands (issue 22: the cards follow the round)
    [hit] = [e for e in rolled if e["type"] == "damage_rolled"]
    assert writeback(hit, f.state)["fresh"]["injured"] is True
    f.send({"type": "next_round"})
    f.announce("hurt", "defend")
    f.announce("fresh", "melee", "foe")
    assert lost_injury(f, "fresh") == 1
    # Hurt's injury from before stays on its sheet: what it holds is never written over
    assert lasting(f.person("hurt"))["injured"] is True
    assert summary(f.log[0], names_of(f.state)).endswith("Hurt, Fresh, Foe.")


def test_a_task_outside_a_fight_loses_no_die_for_an_old_injury() -> None:
    sheet = {"name": "Ann", "agility": 4, "toughness": 3, "injured": True}
    data, _ = task(sheet, name="Ann", stat="agility", rng=random.Random(1), target_number=6)
    assert [d["kind"] for d in data["roll"]["pool"]["dice"]] == ["base"]
    data, _ = task(sheet, name="Ann", stat="agility", rng=random.Random(1), target_number=6,
                   lost=("her arm is in a sling",))
    assert [d["kind"] for d in data["roll"]["pool"]["dice"]] == ["base", "lost_misc"]
    opposed, _ = task({"agility": 4}, name="Ann", stat="agility", rng=random.Random(1),
                      other=sheet, other_name="Bob")
    assert [d["kind"] for d in opposed["other_roll"]["pool"]["dice"]] == ["base"]
