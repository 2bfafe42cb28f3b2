"""The task form read once, with one policy (issue 24): what is malformed is refused with a clear
message, never cut short in silence."""

from __future__ import annotations

import pytest

from games.contract import Character, Table
from games.core.engine import RuleError
from games.demon_city.moves import task_args

ANN = Character(id=1, cid="c1", name="Ann", sheet={"agility": 4}, owner=5)
TABLE = Table(characters=(ANN,), read_id=lambda raw: int(raw) if str(raw).isdigit() else None)


@pytest.mark.parametrize("key", ["situation", "lost"])
def test_a_die_s_reason_longer_than_the_form_allows_is_refused_not_cut(key: str) -> None:
    """Seed: "the Host may subtract up to two Lost Dice ... to account for problems"; each die
    shows its reason, up to the form's 80 characters: a longer one is refused as the other text
    fields are, not stored cut short."""
    form = {"character": ["1"], "target_number": ["3"], key: ["x" * 81]}
    with pytest.raises(RuleError, match=f"{key} is at most 80 characters"):
        task_args(form, TABLE)
    kept = task_args({**form, key: ["  " + "x" * 80 + "  ", " "]}, TABLE)
    assert kept[key] == ("x" * 80,)
