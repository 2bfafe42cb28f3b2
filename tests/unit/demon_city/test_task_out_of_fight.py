"""Issue 13, bug 5: "A character out of the fight (Toughness -3, Knocked out) could still roll
a task; the sheet's own help says it cannot." Seed 003: "At Current Toughness -1 they are out of
the fight"; the sheet's Out of the fight: "Cannot announce or roll".

Issue 35: after the fight, the decided reading "003, damage belongs to the fight": ""out of the
fight" ends with the fight for the living. Who went out keeps the Injury result they rolled
until it heals ... the Lost Die for Injury lasts while an injury does": a task is rolled, with
that die, and nobody edits a sheet for it."""

from __future__ import annotations

import random

import pytest

from games.core.engine import RuleError
from games.demon_city.task import task

SHEET = {"name": "Ann", "agility": 4, "toughness": 3}


@pytest.mark.parametrize("changes", [{"out_of_fight": True}, {"dead": True},
                                     {"out_of_fight": True, "current_toughness": -3, "injury": "Killed"}])
def test_a_character_out_of_the_fight_cannot_roll_a_task(changes) -> None:
    with pytest.raises(RuleError, match="out of the fight"):
        task({**SHEET, **changes}, name="Ann", stat="agility", rng=random.Random(1), target_number=3)


def test_a_character_still_up_rolls_one() -> None:
    data, line = task({**SHEET, "current_toughness": 0}, name="Ann", stat="agility", rng=random.Random(1),
                      target_number=3)
    assert data["kind"] == "static" and line.startswith("Ann tries Agility 4")


def test_one_who_went_out_rolls_after_the_fight_with_the_lost_die_for_injury() -> None:
    """The fight is over, "out of the fight" with it; the Injury result stays and costs its die:
    "the Lost Die for Injury lasts while an injury does" (down to one die: seed, "down to a
    minimum of one die")."""
    sheet = {**SHEET, "current_toughness": -3, "injured": True, "injury": "Knocked out"}
    data, line = task(sheet, name="Ann", stat="agility", rng=random.Random(1), target_number=3)
    dice = data["roll"]["pool"]["dice"]
    assert [d["kind"] for d in dice] == ["base", "skill", "lost_injury"]
    assert dice[-1]["reason"] == "Knocked out, not yet healed" and data["roll"]["pool"]["size"] == 1
    healed, _ = task({**SHEET, "current_toughness": None}, name="Ann", stat="agility", rng=random.Random(1),
                     target_number=3)
    assert healed["roll"]["pool"]["size"] == 2
