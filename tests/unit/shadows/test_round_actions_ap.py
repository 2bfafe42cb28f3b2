"""Opposed and multi-draw actions taken during a combat round cost AP like any other action
(seed 000: "Although any of the other three types of actions can occur during a combat round";
"As each action takes a number of AP's"), and the GM may set the cost ("or more, if the GM
deems it appropriate for the action being taken")."""

from __future__ import annotations

import pytest

from games.shadows.errors import NotEnoughAP
from games.shadows.narrate import summary
from tests.unit.shadows.kit import GM, Table, ann, bob


def _sides() -> list[dict]:
    return [{"character": ann(), "skill": "chess", "attribute": "mind"},
            {"character": bob(), "skill": "chess", "attribute": "mind"}]


def _round() -> Table:
    table = Table()
    table.fight(ann(), bob())
    return table


def test_an_opposed_action_in_a_round_costs_each_side_an_ap() -> None:
    table = _round()
    before = {c: table.person(c)["ap"] for c in ("c1", "c2")}
    [done] = table.send(GM, "opposed", sides=_sides())
    assert done["ap"] == {"c1": 1, "c2": 1}
    assert summary(done, table.state).endswith("(Ann 1 AP, Bob 1 AP)")
    assert {c: table.person(c)["ap"] for c in ("c1", "c2")} == {c: ap - 1 for c, ap in before.items()}


def test_the_gm_sets_what_an_opposed_action_costs_and_ap_is_needed() -> None:
    table = _round()
    before = table.person("c1")["ap"]
    table.send(GM, "opposed", sides=_sides(), ap=3)
    assert table.person("c1")["ap"] == before - 3
    with pytest.raises(NotEnoughAP):
        table.send(GM, "opposed", sides=_sides(), ap=13)


def test_each_draw_of_a_multi_draw_action_in_a_round_costs_its_sides_ap() -> None:
    table = _round()
    [started] = table.send(GM, "contest_start", sides=_sides(), mode="draws", draws=3, scoring="wins")
    before = table.person("c2")["ap"]
    [drawn] = table.send(GM, "contest_draw", contest=started["id"])
    assert drawn["ap"] == {"c1": 1, "c2": 1}
    assert table.person("c2")["ap"] == before - 1
    table.send(GM, "contest_draw", contest=started["id"], ap=2)
    assert table.person("c2")["ap"] == before - 3


def test_outside_a_round_they_cost_nothing() -> None:
    [done] = Table().send(GM, "opposed", sides=_sides())
    assert done["ap"] == {}
