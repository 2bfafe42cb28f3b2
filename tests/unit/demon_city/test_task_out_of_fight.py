"""Issue 13, bug 5: "A character out of the fight (Toughness -3, Knocked out) could still roll
a task; the sheet's own help says it cannot." Seed 003: "At Current Toughness -1 they are out of
the fight"; the sheet's Out of the fight: "Cannot announce or roll"."""

from __future__ import annotations

import random

import pytest

from games.core.engine import RuleError
from games.demon_city.task import task

SHEET = {"name": "Ann", "agility": 4, "toughness": 3}


@pytest.mark.parametrize("changes", [{"current_toughness": -3}, {"current_toughness": -1},
                                     {"out_of_fight": True}, {"dead": True}])
def test_a_character_out_of_the_fight_cannot_roll_a_task(changes) -> None:
    with pytest.raises(RuleError, match="out of the fight"):
        task({**SHEET, **changes}, name="Ann", stat="agility", rng=random.Random(1), target_number=3)


def test_a_character_still_up_rolls_one() -> None:
    data, line = task({**SHEET, "current_toughness": 0}, name="Ann", stat="agility", rng=random.Random(1),
                      target_number=3)
    assert data["kind"] == "static" and line.startswith("Ann tries Agility 4")
