"""The edges of a Shadows fight (games/shadows/edges.py, issue 33): the roster every seat reads,
the GM's guards, the skill an attack form offers first, and what ends with the fight.

Seed 000: damage to Health is how "to put someone down (for them to go unconscious or become
physically "incapacitated")". The decided reading: "when one side has no one able to act, the
fight is over"."""

from __future__ import annotations

import pytest

from games.contract import Seat
from games.core.engine import RuleError
from games.core.fights import winner
from games.shadows.edges import best_attack_skill, roster, roster_now
from games.shadows.panel import view
from tests.unit.shadows.kit import ANN, GM, Table, ann, character, stacked, t


def ghoul(**sheet) -> dict:
    return character("c3", "Ghoul", None, npc=True, **{"health": 25, "life": 15, **sheet})


def blade() -> dict:
    return {"name": "Blade", "type": "physical", "modifier": "0", "fumble": 0, "critical": "cups",
            "modern": False, "ap": 1, "material": "steel"}


def test_the_roster_is_the_fight_as_everyone_watched_it_and_the_gm_may_revive_it() -> None:
    table = Table(stacked(["S10", "C3", "P10", "W1", "S5", "C2", "P2", "S9"]))
    table.send(GM, "set_weapons", weapons=[blade()])
    table.fight(ann(), ghoul())
    assert [(f.name, f.side, f.out) for f in roster(table.state)] == [("Ann", "PCs", False), ("Ghoul", "NPCs", False)]
    table.send(GM, "adjust", combatant="c3", field="health", value="0")  # down: "put ... down"
    [_, ghoul_row] = roster(table.state)
    assert ghoul_row.out and ghoul_row.why == "down"
    assert winner(roster(table.state)) == (True, "PCs")
    with pytest.raises(RuleError, match="The fight is over: the PCs' side stands: end the fight rather than start"):
        table.send(GM, "new_round")
    # the GM brings it back above nothing: everyone still saw it fall (out until the next round),
    # but the GM's guard reads the tracks now, so the next round may start and bring it back
    table.send(GM, "adjust", combatant="c3", field="health", value="5")
    assert winner(roster(table.state))[0] and not winner(roster_now(table.state))[0]
    assert view(table.state, Seat("gm"))["combat"]["over_now"] is False
    table.send(GM, "new_round")
    assert not winner(roster(table.state))[0]


def test_taken_out_by_the_gm_is_out_too() -> None:
    table = Table(stacked([]))
    table.send(GM, "start_combat", combatants=[ann(), ghoul()])
    table.send(GM, "adjust", combatant="c3", field="in_fight", value="no")
    assert [(f.out, f.why) for f in roster(table.state)] == [(False, ""), (True, "out of the fight")]
    assert view(table.state, Seat("spectator"))["turn"]["says"] == "The fight is over: the PCs' side stands"


def test_the_skill_offered_first_is_the_best_that_says_an_attack_of_the_weapons_kind() -> None:
    """Reading: a sheet names its skills freely; an attack is offered the best skill whose name
    says an attack of the weapon's kind or names the weapon, else none (never Stealth 8)."""
    person = {"skills": {"stealth": 8, "melee": 5, "claws": 6, "accuracy": 9, "spellcasting": 7}}
    assert best_attack_skill(person, blade()) == "claws"
    assert best_attack_skill(person, {"name": "Bolt", "type": "mana"}) == "spellcasting"
    assert best_attack_skill({"skills": {"stealth": 8, "halberd": 3}}, {"name": "Halberd", "type": "physical"}) == "halberd"
    assert best_attack_skill({"skills": {"stealth": 8}}, blade()) == ""


def test_a_side_set_folds_and_ends_with_the_fight_and_a_player_cannot_set_one() -> None:
    table = Table(stacked(["S10", "C3", "P10", "W1", "S5", "C2", "P2", "S9"]))
    table.send(GM, "set_weapons", weapons=[blade()])
    table.fight(ann(), ghoul())
    with pytest.raises(RuleError, match="Only the GM"):
        table.send(ANN, "set_side", character=ann(), side="Cult")
    table.send(GM, "set_side", character=ghoul(), side="PCs")
    assert table.state["sides"] == {"c3": "PCs"} and not winner(roster(table.state))[0]  # one side: not a fight over
    table.send(ANN, "attack", combatant="c1", target="c3", weapon="Blade", cards=[t("S10")], skill="melee")
    table.send(GM, "defend", combatant="c3", cards=[])
    table.send(GM, "end_combat")
    assert "sides" not in table.state
