"""The registration and the forms: every engine command reachable, parsers reading plain form
data, the one-off check and the odds page."""

from __future__ import annotations

import random

import pytest

import games.passages as passages
from games import registry
from games.contract import Character, CheckRun, Member, Table
from games.passages import web
from games.passages.errors import BadValue, NotYours, RuleError
from games.passages.procedure import PLAYER_COMMANDS
from games.passages.state import new_state

ANN = Character(id=1, cid="c1", name="Ann", sheet={"skills": {"Brawl": 30, "Stealth": 40}}, owner=7)
BOB = Character(id=2, cid="c2", name="Bob", sheet={"skills": {"Brawl": 20}}, owner=None, is_npc=True)


def table_of(*characters: Character) -> Table:
    def read_id(raw: object) -> int | None:
        return int(raw) if str(raw).isdigit() else None
    return Table(characters=characters, state=new_state(), read_id=read_id)


TABLE = table_of(ANN, BOB)


def test_the_registration_is_whole() -> None:
    """``SYSTEM`` passes the registry's own check, and its panel names the templates given."""
    system = registry.check_registration(passages.SYSTEM)
    assert system.key == "passages" and system.available and system.rule_error is RuleError
    assert system.panel is not None
    assert system.panel.template == "games/passages/panel.html#panel"
    assert system.panel.notice == "games/passages/panel.html#notice"
    assert system.page("odds") is web.ODDS and system.check("check") is web.CHECK_ROLL


def test_every_engine_command_is_registered_with_its_sender() -> None:
    """Players send their own Persona's commands; the Director the rest."""
    system = passages.SYSTEM
    assert {c.name for c in system.commands} == set(passages.COMMANDS)
    for command in system.commands:
        assert command.sender == ("controller" if command.name in PLAYER_COMMANDS else "gm")


def test_parsers_read_plain_form_data() -> None:
    declare = passages.SYSTEM.command("declare")
    assert declare is not None
    args = declare.parse({"combatant": ["c1"], "stance": ["IN"], "target": ["c2"], "damage": ["3"],
                          "ranged": ["on"], "intent": ["disarm"]}, TABLE)
    assert args == {"combatant": "c1", "stance": "in", "target": "c2", "damage": 3, "ranged": True,
                    "intent": "disarm"}
    start = web.combat_start({"characters": ["1", "2", "99"], "conditions": ["fog"]}, TABLE)
    assert [c["id"] for c in start["combatants"]] == ["c1", "c2"] and start["conditions"] == "fog"
    contest = web.contest_start({"characters": ["1", "2"], "challenge": ["2"], "magic": ["1"], "cost": ["10"]},
                                TABLE)
    assert contest["challenge"] == ["c2"] and contest["magic"] and contest["cost"] == 10
    assert web.check({"combatant": ["c1"], "skill": ["Brawl"], "challenge": ["on"]}, TABLE)["challenge"]


@pytest.mark.parametrize(("parse", "form", "message"), [
    (web.combat_start, {"characters": ["1"]}, "two Personae"),
    (web.timing, {"modifier": ["lots"]}, "whole number"),
    (web.declare, {"ranged": ["perhaps"]}, "yes or no"),
    (web.plain, {"intent": ["x" * 301]}, "at most"),
])
def test_a_bad_form_is_refused_with_a_message(parse, form: dict, message: str) -> None:
    with pytest.raises(BadValue, match=message):
        parse(form, TABLE)


def test_a_parsed_command_runs_through_the_engine() -> None:
    start = passages.SYSTEM.command("combat_start")
    assert start is not None
    gm = Member(id=1, name="Dee", is_gm=True).actor()
    args = start.parse({"characters": ["1", "2"]}, TABLE)
    events = passages.decide(new_state(), {"type": "combat_start", "actor": gm, **args}, random.Random(1))
    assert [e["type"] for e in events] == ["combat_started", "turn_started"]


def test_the_one_off_check_runs_for_the_persona_the_sender_plays() -> None:
    args = web.check_args({"character": ["1"], "skill": ["Stealth"], "mode": ["challenge"]}, TABLE)
    assert args == {"character": 1, "skill": "Stealth", "mode": "challenge"}
    ann = Member(id=7, name="Ann's player", is_gm=False, controls=("c1",))
    run = CheckRun(member=ann, characters={1: ANN, 2: BOB}, args=args, rng=random.Random(3), cards=None)  # type: ignore[arg-type]
    data, line = web.run_check(run)
    assert data["challenge"] and data["value"] == 8 and line.startswith("Ann makes a challenge of Stealth")
    with pytest.raises(NotYours):
        web.run_check(CheckRun(member=ann, characters={1: ANN, 2: BOB}, args={**args, "character": 2},
                               rng=random.Random(3), cards=None))  # type: ignore[arg-type]
    assert web.check_args({"character": ["1"], "skill": ["Stealth"], "mode": ["check"], "challenge": ["on"]},
                          TABLE)["mode"] == "challenge"
    assert web.check_args({"character": ["1"], "skill": ["Stealth"], "mode": ["practice"], "challenge": ["on"]},
                          TABLE)["mode"] == "practice"
    with pytest.raises(BadValue, match="check, a challenge or a practice"):
        web.check_args({"character": ["1"], "skill": ["Stealth"], "mode": ["guess"]}, TABLE)


def test_the_odds_page() -> None:
    context = web.odds_context({"base": ["26"], "a_combat": ["18"], "a_defense": ["18"],
                                "b_combat": ["25"], "b_defense": ["25"]})
    plain, challenge = context["chosen"]
    # best band first: DD 1-13, Success 14-26, DU 27-52, Blown 53-99, Critical Fail 100
    assert [c["percent"] for c in plain["cells"]] == ["13", "13", "26", "47", "1"]
    [bar] = [b for b in context["charts"][0]["chart"]["bars"] if b["base"] == 26]
    assert [s["percent"] for s in bar["segments"]] == [13, 13, 26, 47, 1]
    assert sum(s["width"] for s in bar["segments"]) <= web.CHART_WIDTH
    assert (challenge["value"], challenge["du"], challenge["dd"]) == (6, 12, 3)
    assert context["pairing"]["a_lands"] == "93.0" and context["pairing"]["b_lands"] == "100.0"
    assert len(context["rows"]) == 20  # 5, 10 ... 95 and the chosen 26
    assert web.odds_context({"base": ["nonsense"]})["base"] == 26
    assert web.odds_context({"base": ["500"]})["base"] == 95
