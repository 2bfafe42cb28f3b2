"""Opposed actions with more than two sides (seed 000: "Opposed actions are types of actions in
which two people are directly competing against one another. These can include such things as
playing games, two or more people trying to argue a point to convince additional parties")."""

from __future__ import annotations

import pytest

from games.core.engine import RuleError
from games.shadows.narrate import summary
from tests.unit.shadows.kit import GM, Table, ann, bob, orc, stacked


def _three() -> list[dict]:
    return [{"character": who(skills={"chess": 3}, mind=5), "skill": "chess", "attribute": "mind"}
            for who in (ann, bob, orc)]


def test_three_sides_draw_and_the_highest_total_wins() -> None:
    table = Table(stacked(["C9", "W4", "S12"]))
    [done] = table.send(GM, "opposed", sides=_three())
    assert [s["id"] for s in done["sides"]] == ["c1", "c2", "c3"]
    assert done["totals"] == [17, 12, 20] and done["winner"] == "c3"
    assert "Orc wins" in summary(done, table.state)


def test_only_the_sides_tied_for_the_lead_draw_again() -> None:
    """Seed: "If this results in a tie, then both sides draw an additional card, continuing to
    do so until one side succeeds" (reading: the sides tied at the top; the others are out)."""
    table = Table(stacked(["C9", "W9", "S4", "C5", "W2"]))
    [done] = table.send(GM, "opposed", sides=_three())
    assert done["ties"] == 1 and done["winner"] == "c1"
    assert len(done["draws"][2]) == 1 and len(done["draws"][0]) == 2
    assert done["totals"] == [22, 19, 12]


def test_a_side_named_twice_is_refused() -> None:
    sides = _three()
    sides[2] = dict(sides[0])
    with pytest.raises(RuleError):
        Table().send(GM, "opposed", sides=sides)
