"""Corruption on the Report Card (issue 21): the circles are the rules' ("kept") and the A+, the F
and one's own card the player's only when making the character ("chosen"); the rules write the
circles back, and the GM may fill or empty them by hand, which a retry then counts at once.

Seed: "The player can take 1 Corruption Point to retry the check"; "When all three of the
Corruption Circles are filled, you may gain a new Skill, and fail a new skill".
"""

from __future__ import annotations

from typing import Any

import pytest

from games.report_card.errors import NotNow
from games.report_card.sheet import FIELDS
from tests.unit.report_card.conftest import Table
from tests.unit.report_card.helpers import player, report

MARIETA = player(7, "c1")


def test_the_rules_own_the_circles_and_the_chosen_skills_and_card() -> None:
    owners = {f.key: f.rules for f in FIELDS}
    assert {k: owners[k] for k in ("a_plus", "f_skill", "major", "corruption")} == {
        "a_plus": "chosen", "f_skill": "chosen", "major": "chosen", "corruption": "kept"}
    # Seed: "They can only choose a Skill if they have at least one of the associated Abilities":
    # Abilities a player could tick later would let any A+ pass, so they are chosen with the card
    assert all(owners[a] == "chosen" for a in ("charming", "fast", "clever", "strong", "wise", "lucky"))
    helps = {f.key: f.help for f in FIELDS}
    for key in ("a_plus", "f_skill"):  # how a player gets a new one, said where they would look
        assert "a new one when all three Corruption Circles are filled" in helps[key]
    assert "each retry of a failed check fills one" in helps["corruption"]


def failed_check(people: dict[str, dict[str, Any]]) -> Table:
    table = Table(people, {"c1": ["2C", "3C", "KC"]}, auto_draw=False)
    table.call("c1", "LAW", "hard")
    table.send({"type": "draw", "character": "c1"}, MARIETA)  # the Two of Cups fails at Hard
    assert table.part("c1")["attempts"][0]["outcome"] == "failure"
    return table


def test_circles_the_gm_fills_by_hand_mid_check_stop_a_retry() -> None:
    people = {"c1": report("Marieta", 7)}
    table = failed_check(people)
    people["c1"] = {**people["c1"], "corruption": 3}  # the GM fills them on her sheet
    with pytest.raises(NotNow, match="All three of Marieta's Corruption Circles are filled"):
        table.send({"type": "retry", "character": "c1"}, MARIETA)


def test_circles_the_gm_empties_by_hand_mid_check_let_her_retry() -> None:
    people = {"c1": report("Marieta", 7, corruption=3)}
    table = failed_check(people)
    people["c1"] = {**people["c1"], "corruption": 0}  # the GM empties them on her sheet
    [retried, drawn] = table.send({"type": "retry", "character": "c1"}, MARIETA)[:2]
    assert retried["corruption"] == 1 and people["c1"]["corruption"] == 1  # written back: 0 + 1
    assert drawn["type"] == "drawn" and drawn["attempt"]["rank"] == "medium"
