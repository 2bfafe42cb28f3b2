"""Demon City on the one engine (issue 24): its moves read the table as it is under the lock
(``Turn``), its parsers read only the form, the core checks the sender and takes a step back, and
the panel says what that undo would take back."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from games.contract import Character, Seat, Table
from games.core.engine import RuleError
from games.demon_city import ENGINE
from games.demon_city.moves import MOVES
from games.demon_city.narrate import names_of, summary
from games.demon_city.panel import view
from tests.support.engine import GM, Play
from tests.unit.demon_city.conftest import Fight, ScriptedRng

ALFIE = {"id": "alfie", "name": "Alfie", "agility": 2, "toughness": 3, "hand_to_hand": 4, "side": "players"}
DEMON = {"id": "demon", "name": "Demon", "agility": 3, "toughness": 3, "hand_to_hand": 2, "side": "opponents"}


def test_no_parser_reads_the_state() -> None:
    """Issue 24: "A parser must NOT read ``table.state`` ... resolve it in the handler, which
    runs under the lock" (the start form had read the table's Injury table from it)."""
    alfie = Character(id=1, cid="c1", name="Alfie", sheet={}, owner=5)
    table = Table(characters=(alfie,), read_id=lambda raw: int(raw) if str(raw).isdigit() else None)
    form = {"characters": ["1"], "combatant": ["c1"], "kind": ["melee"], "target": ["c2"], "target_number": ["3"],
            "field": ["unaware"], "value": ["yes"], "table": ["1-10 | Out | alive | final | down"],
            "die": ["situation"], "reason": ["high ground"]}
    for move in MOVES:
        assert isinstance(move.parse(form, table), dict), move.name


def test_a_fight_reads_each_sheet_as_the_table_has_it_when_it_starts() -> None:
    """The start form sends the characters' ids; the sheets are the table's, read under its lock
    (``Turn.characters``), and the fight's first event records them as they entered it."""
    play = Play(ENGINE)
    now = {"c1": Character(1, "c1", "Alfie", {"agility": 6, "toughness": 2}, owner=5),
           "c2": Character(2, "c2", "Demon", {"agility": 3, "hand_to_hand": 7}, owner=None, is_npc=True)}
    [started] = play.send("start", {"combatants": ["c1", "c2"], "injuries_count": False}, GM, rng=ScriptedRng(),
                          table=now)
    assert [(c["id"], c["name"], c["agility"], c["side"]) for c in started["combatants"]] == [
        ("c1", "Alfie", 6, "players"), ("c2", "Demon", 3, "opponents")]
    assert started["npcs"] == ["c2"] and play.state["order"] == ["c2", "c1"]
    with pytest.raises(RuleError, match="No character 'c9' at this table"):
        Play(ENGINE).send("start", {"combatants": ["c1", "c9"]}, GM, rng=ScriptedRng(), table=now)


def test_a_new_fight_keeps_the_table_s_injury_table_as_the_gm_last_edited_it() -> None:
    """Issue 4: the Injury table is "GM-editable"; the start move finds it in the state, under
    the lock, where the form had read it outside."""
    play = Play(ENGINE)
    eaten = [{"low": 1, "high": 10, "result": "Eaten", "dead": True, "conclusive": True, "description": "Gone."}]
    play.send("set_injury_table", {"table": eaten}, GM)
    table = {"c1": Character(1, "c1", "Alfie", {"agility": 2}, owner=5)}
    [started] = play.send("start", {"combatants": ["c1"]}, GM, rng=ScriptedRng(), table=table)
    # a row saved without how long it heals takes its default: the dead never heal
    kept = [{**eaten[0], "heals": "never"}]
    assert started["injury_table"] == kept and play.state["injury_table"] == kept


def test_the_panel_says_what_the_gm_s_undo_takes_back() -> None:
    """Issue 24: the undo keeps no snapshot in the state, only the steps the GM may take back
    (``[{step, what}]``); the GM's panel names the newest, and offers no undo with none left."""
    f = Fight([ALFIE, DEMON])
    f.announce("alfie", "melee", "demon")
    assert [u["step"] for u in f.state["undo"]] == [1, 2]
    assert view(f.state, Seat("gm"))["undo"] == "Alfie announces close combat at Demon (2 dice)."
    f.announce("demon", "melee", "alfie")
    f.roll(ScriptedRng([5, 2, 9, 4, 6, 3]))  # the Demon's 9 acts; three damage dice; no one is out
    assert view(f.state, Seat("gm"))["undo"] == "the roll of round 1"
    for _ in range(3):
        f.send({"type": "undo"})
    assert f.state["phase"] == "announce" and f.state["actions"] == []
    f.send({"type": "undo"})
    assert f.state["phase"] == "idle" and view(f.state, Seat("gm"))["undo"] is None
    with pytest.raises(RuleError, match="Nothing to undo"):
        f.send({"type": "undo"})


def test_an_undo_says_the_pools_it_changes_back() -> None:
    """Issue 22 kept: "Each event that changes a pool already announced now says so", the
    Host's undo of a Situation Die too."""
    f = Fight([ALFIE, DEMON])
    f.announce("alfie", "melee", "demon")
    f.send({"type": "adjust_pool", "combatant": "alfie", "die": "situation", "reason": "high ground"})
    [undone] = f.send({"type": "undo"})
    assert undone["pools_now"] == [["alfie", 2]] and undone["restores"] == []
    assert summary(undone, names_of(f.state)) == "The Host undoes step 3. Pools now: Alfie 2 dice."


def test_only_the_gm_takes_a_step_back_and_a_player_announces_only_their_own() -> None:
    """The core checks the sender once (issue 24): the GM's moves refuse a player, and an
    announcement is its character's player's (or the GM's)."""
    f = Fight([ALFIE, DEMON])
    ann = {"controls": ["alfie"]}
    with pytest.raises(RuleError, match="Only the GM can undo the last step"):
        f.send({"type": "undo", "actor": ann})
    with pytest.raises(RuleError, match="You act only for the characters you control"):
        f.send({"type": "announce", "combatant": "alfie", "kind": "defend", "actor": {"controls": ["demon"]}})
    f.announce("alfie", "defend", actor=ann)
    assert f.log[-1]["by_gm"] is False and f.log[0]["by_gm"] is True


def test_the_log_folds_back_into_the_state_with_its_undos() -> None:
    f = Fight([ALFIE, DEMON])
    f.announce("alfie", "melee", "demon")
    f.send({"type": "undo"})
    f.announce("alfie", "defend")
    f.announce("demon", "melee", "alfie")
    f.roll(ScriptedRng([4, 1, 8, 2, 3, 4]))  # Alfie defends on two dice, the Demon hits on one: 3 - 2 = 1
    assert ENGINE.fold(f.log) == f.state

