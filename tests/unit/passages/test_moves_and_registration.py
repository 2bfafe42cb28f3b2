"""The registration and the forms: every move reachable with its sender, parsers reading plain
form data (the one check of what was sent), the one-off check and the odds page."""

from __future__ import annotations

import random

import pytest

import games.passages as passages
from games import registry
from games.contract import Character, CheckRun, Member, Table
from games.core.engine import NotYourMove, RuleError, Turn, require_sender
from games.passages import moves, odds
from games.passages.errors import BadValue
from games.passages.state import new_state
from games.passages.system import ENGINE

ANN = Character(id=1, cid="c1", name="Ann", sheet={"skills": {"Brawl": 30, "Stealth": 40}}, owner=7)
BOB = Character(id=2, cid="c2", name="Bob", sheet={"skills": {"Brawl": 20}}, owner=None, is_npc=True)


def table_of(*characters: Character) -> Table:
    def read_id(raw: object) -> int | None:
        return int(raw) if str(raw).isdigit() else None
    return Table(characters=characters, read_id=read_id)


TABLE = table_of(ANN, BOB)


def test_the_registration_is_whole() -> None:
    """``SYSTEM`` passes the registry's own check, and its panel names the templates given."""
    system = registry.check_registration(passages.SYSTEM)
    assert system.key == "passages"  # one RuleError, the core.s (no rule_error of its own)
    assert system.panel is not None
    assert system.panel.template == "games/passages/panel.html#panel"
    assert system.panel.notice == "games/passages/panel.html#notice"
    assert system.page("odds") is odds.ODDS and system.check("check") is moves.CHECK_ROLL
    assert system.engine is ENGINE


# A player's moves, each for the Persona it names (``combatant``); the Director sends the rest.
PLAYER_MOVES = {"check", "practice", "contest_roll", "contest_break_off", "declare", "rest", "tend", "combat_roll"}
DIRECTOR_MOVES = {"contest_start", "contest_cost", "combat_start", "timing", "resolve", "set_conditions",
                  "set_status", "correct", "join", "result", "end", "undo", "set_side",
                  # the table's clock (games/core/clock.py): time, lasting conditions, table options
                  "pass_time", "add_condition", "end_condition", "set_option"}


def test_every_move_is_registered_with_its_sender() -> None:
    """Players send their own Persona's moves; the Director the rest, the undo included."""
    system = passages.SYSTEM
    assert {m.name for m in system.commands} == PLAYER_MOVES | DIRECTOR_MOVES
    for move in system.commands:
        assert move.sender == ("controller" if move.name in PLAYER_MOVES else "gm"), move.name
        assert move.subject == ("combatant" if move.name in PLAYER_MOVES else None), move.name


def test_parsers_read_plain_form_data() -> None:
    declare = passages.SYSTEM.command("declare")
    assert declare is not None
    args = declare.parse({"combatant": ["c1"], "stance": ["IN"], "target": ["c2"], "damage": ["3"],
                          "ranged": ["on"], "intent": ["disarm"]}, TABLE)
    assert args == {"combatant": "c1", "stance": "in", "target": "c2", "damage": 3, "ranged": True,
                    "intent": "disarm"}
    start = moves.parse_combat_start({"characters": ["1", "2", "99"], "conditions": ["fog"]}, TABLE)
    assert start == {"combatants": ["c1", "c2"], "conditions": "fog"}  # the sheets are read under the lock
    contest = moves.parse_contest_start({"characters": ["1", "2"], "challenge": ["2"], "magic": ["1"],
                                         "cost": ["10"]}, TABLE)
    assert contest["challenge"] == ["c2"] and contest["magic"] and contest["cost"] == 10
    assert moves.parse_check({"combatant": ["c1"], "skill": ["Brawl"], "challenge": ["on"]}, TABLE)["challenge"]


@pytest.mark.parametrize(("parse", "form", "message"), [
    (moves.parse_combat_start, {"characters": ["1"]}, "two Personae"),
    (moves.parse_timing, {"modifier": ["lots"]}, "whole number"),
    (moves.parse_declare, {"ranged": ["perhaps"]}, "yes or no"),
    (moves.parse_declare, {"intent": ["x" * 301]}, "at most"),
])
def test_a_bad_form_is_refused_with_a_message(parse, form: dict, message: str) -> None:
    with pytest.raises(BadValue, match=message):
        parse(form, TABLE)


def test_a_parsed_move_runs_through_the_engine() -> None:
    """The handler reads the sheets as the table has them now (``Turn.characters``), and the
    event records them: the rules' own record of the sheets as the fight began."""
    start = passages.SYSTEM.command("combat_start")
    assert start is not None
    args = start.parse({"characters": ["1", "2"]}, TABLE)
    turn = Turn(member=Member(id=1, name="Dee", is_gm=True), characters={c.cid: c for c in (ANN, BOB)},
                rng=random.Random(1))
    events = ENGINE.decide(new_state(), "combat_start", args, turn)
    assert [e["type"] for e in events] == ["combat_started", "turn_started"]
    ann, bob = events[0]["personae"]
    assert ann["skills"] == {"Brawl": 30, "Stealth": 40} and not ann["npc"] and bob["npc"]


def test_the_one_off_check_runs_for_the_persona_the_sender_plays() -> None:
    args = moves.parse_roll_check({"character": ["1"], "skill": ["Stealth"], "mode": ["challenge"]}, TABLE)
    assert args == {"character": 1, "skill": "Stealth", "mode": "check", "call": "challenge"}
    ann = Member(id=7, name="Ann's player", is_gm=False, controls=("c1",))
    # the Director's standing call: the Conditions hinder, so Ann's roll is a Challenge
    run = CheckRun(member=ann, characters={1: ANN, 2: BOB}, args=args, rng=random.Random(3), cards=None,  # type: ignore[arg-type]
                   state={"mode": "idle", "hinder": True})
    data, line = moves.run_check(run)
    assert data["challenge"] and data["value"] == 8 and line.startswith("Ann makes a challenge of Stealth")
    # nobody rolls for another's Persona: the check names its subject and sender, which the
    # platform checks under the lock before it runs (the one rule, require_sender)
    check = moves.CHECK_ROLL
    assert (check.sender, check.subject) == ("controller", "character")
    with pytest.raises(NotYourMove, match="You act only for the characters you control"):
        require_sender(check.sender, check.label, ann, BOB)
    assert moves.parse_roll_check({"character": ["1"], "skill": ["Stealth"], "mode": ["check"],
                                   "challenge": ["on"]}, TABLE)["call"] == "challenge"
    assert moves.parse_roll_check({"character": ["1"], "skill": ["Stealth"], "mode": ["practice"],
                                   "challenge": ["on"]}, TABLE)["mode"] == "practice"
    with pytest.raises(BadValue, match="check, a challenge or a practice"):
        moves.parse_roll_check({"character": ["1"], "skill": ["Stealth"], "mode": ["guess"]}, TABLE)


def test_the_odds_page() -> None:
    context = odds.odds_context({"base": ["26"], "a_combat": ["18"], "a_defense": ["18"],
                                "b_combat": ["25"], "b_defense": ["25"]})
    plain, challenge = context["chosen"]
    # best band first: DD 1-13, Success 14-26, DU 27-52, Blown 53-99, Critical Fail 100
    assert [c["percent"] for c in plain["cells"]] == ["13", "13", "26", "47", "1"]
    [bar] = [b for b in context["charts"][0]["chart"]["bars"] if b["base"] == 26]
    assert [s["percent"] for s in bar["segments"]] == [13, 13, 26, 47, 1]
    assert sum(s["width"] for s in bar["segments"]) <= odds.CHART_WIDTH
    assert (challenge["value"], challenge["du"], challenge["dd"]) == (6, 12, 3)
    assert context["pairing"]["a_lands"] == "93.0" and context["pairing"]["b_lands"] == "100.0"
    assert len(context["rows"]) == 20  # 5, 10 ... 95 and the chosen 26
    assert odds.odds_context({"base": ["nonsense"]})["base"] == 26
    assert odds.odds_context({"base": ["500"]})["base"] == 95
