"""The edges of a fight (games/core/fights.py), the decided reading "All systems, fights": "the out
are not targets of a rule move unless a seed's rule allows it; when one side has no one able to
act, the fight is over"."""

from __future__ import annotations

import pytest

from games.core.engine import RuleError, Turn
from games.core.facts import Character, Member, Table
from games.core.fights import (
    NPCS, PCS, SIDE_SET, Fighter, default_side, default_target, fold_side, over_line, refuse_out,
    refuse_when_over, side_line, side_move, side_of, targets_first, winner,
)

ANN = Fighter("c1", "Ann", PCS)
BRAM = Fighter("c2", "Bram", PCS)
GHOUL = Fighter("c3", "Ghoul", NPCS)
KEMP = Fighter("c4", "Kemp", NPCS, out=True, why="out of the fight")


def test_sides_default_to_pcs_and_npcs_and_a_sheet_may_name_one():
    assert default_side({}, False) == PCS
    assert default_side({}, True) == NPCS
    assert default_side({"side": "demons"}, True) == "demons"
    demon = Character(id=3, cid="c3", name="Demon", sheet={"side": "demons"}, owner=None, is_npc=True)
    assert side_of({}, demon) == "demons"
    assert side_of({"sides": {"c3": "PCs"}}, demon) == "PCs"  # the GM moved it


def test_the_gm_moves_a_character_to_a_side():
    demon = Character(id=3, cid="c3", name="Demon", sheet={}, owner=None, is_npc=True)
    move = side_move()
    assert move.sender == "gm"
    table = Table(characters=(demon,), read_id=lambda raw: int(raw) if str(raw).isdigit() else None)
    args = move.parse({"character": ["3"], "side": ["PCs"]}, table)
    turn = Turn(member=Member(id=1, name="GM", is_gm=True), characters={"c3": demon})
    [event] = move.handle({}, args, turn)
    assert event == {"type": SIDE_SET, "combatant": "c3", "name": "Demon", "side": "PCs"}
    state: dict = {}
    fold_side(state, event)
    assert side_of(state, demon) == "PCs"
    assert side_line(event) == "The GM moves Demon to the PCs' side"
    with pytest.raises(RuleError, match="already on the PCs' side"):
        move.handle(state, args, turn)
    with pytest.raises(RuleError, match="Choose a character"):
        move.parse({"character": ["99"], "side": ["PCs"]}, table)


def test_when_one_side_has_no_one_able_to_act_the_fight_is_over():
    assert winner([ANN, BRAM, GHOUL, KEMP]) == (False, None)
    gone = Fighter("c3", "Ghoul", NPCS, out=True, why="fallen")
    assert winner([ANN, BRAM, gone, KEMP]) == (True, PCS)
    assert over_line(PCS) == "The fight is over: the PCs' side stands"
    assert over_line(None) == "The fight is over: nobody stands"
    assert winner([Fighter("c1", "Ann", PCS, out=True), gone]) == (True, None)
    # one side alone has not fought anyone yet
    assert winner([ANN, BRAM]) == (False, None)


def test_a_target_defaults_to_a_standing_enemy_never_an_ally():
    assert default_target([ANN, BRAM, KEMP, GHOUL], "c1") == "c3"
    assert default_target([ANN, BRAM, KEMP], "c1") is None
    assert [f.cid for f in targets_first([BRAM, ANN, KEMP, GHOUL], "c1")] == ["c3", "c2"]


def test_a_move_against_one_who_is_out_is_refused_with_the_reason():
    with pytest.raises(RuleError, match="Kemp is out of the fight and cannot be targeted"):
        refuse_out([ANN, KEMP], "c4")
    refuse_out([ANN, KEMP], "c1")
    with pytest.raises(RuleError, match="The fight is over: the PCs' side stands"):
        refuse_when_over([ANN, KEMP])
