"""Report Card's registration, its form parsers, its panel and its odds page, without Django."""

from __future__ import annotations

import json
from typing import Any

import pytest

import games.report_card as report_card
from games.contract import Character, Member, Seat, Table
from games.core.cards import tarot
from games.core.cards_port import StackedCards
from games.core.engine import RuleError, Turn
from games.registry import check_registration
from games.report_card import ENGINE, SYSTEM
from games.report_card.draws import deck_title
from games.report_card.errors import BadInput
from games.report_card.moves import MOVES
from games.report_card.odds import odds_context
from games.sheets import SheetField
from tests.unit.report_card.helpers import card

SHEETS = {
    12: {"charming": True, "fast": True, "clever": False, "strong": False, "wise": False, "lucky": False,
         "a_plus": "ART", "f_skill": "GYM", "corruption": 0, "major": 17},
    13: {"charming": False, "fast": False, "clever": False, "strong": False, "wise": True, "lucky": False,
         "a_plus": "LAW", "f_skill": "ART", "corruption": 0, "major": 5},
}
ANN = Member(id=7, name="Ann", is_gm=False, controls=("c12",))
GAIL = Member(id=1, name="Gail", is_gm=True)


def read_id(raw: object) -> int | None:
    try:
        return int(str(raw))
    except ValueError:
        return None


CHARACTERS = (Character(12, "c12", "Marieta", SHEETS[12], owner=7), Character(13, "c13", "Jo", SHEETS[13], owner=8))


def table() -> Table:
    return Table(characters=CHARACTERS, read_id=read_id)


def send(state: dict[str, Any], name: str, form: dict[str, list[str]], member: Member, cards: StackedCards
         ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """As the platform does: parse the form, then decide and fold under the lock, the sender,
    the characters and the decks handed over as a ``Turn``."""
    command = SYSTEM.command(name)
    assert command is not None
    args = command.parse(form, table())
    return ENGINE.run(state, name, args, Turn(member=member, characters={c.cid: c for c in CHARACTERS}, cards=cards))


def test_the_registration_is_complete_and_the_platform_accepts_it() -> None:
    assert check_registration(SYSTEM) is SYSTEM and SYSTEM.key == "report_card"
    assert report_card.SYSTEM is SYSTEM
    assert all(isinstance(f, SheetField) for f in SYSTEM.sheet_fields)
    assert SYSTEM.engine is not None
    assert SYSTEM.panel is not None and SYSTEM.panel.template == "games/report_card/panel.html#panel"
    assert SYSTEM.panel.notice == "games/report_card/panel.html#notice"
    assert SYSTEM.page("odds") is not None and SYSTEM.engine is ENGINE


def test_every_move_is_reachable_from_the_web_and_names_its_character() -> None:
    # the system's moves, then the clock's (time and conditions) and the GM's undo, all the GM's
    assert SYSTEM.commands[:len(MOVES)] == MOVES
    assert [c.name for c in SYSTEM.commands[len(MOVES):]] == ["pass_time", "add_condition", "end_condition",
                                                              "set_option", "award", "undo"]
    controllers = {c.name for c in SYSTEM.commands if c.sender == "controller"}
    assert controllers == {"call_check", "draw", "pick", "retry", "accept", "rechoose"}
    assert {c.subject for c in SYSTEM.commands if c.sender == "controller"} == {"character"}


def test_a_check_from_the_form_to_the_cards() -> None:
    cards = StackedCards({deck_title("Marieta"): [card("3C"), card("KC"), card("M19")],
                          deck_title("Jo"): [c.id for c in tarot()]})
    form = {"character": ["12"], "skill": ["art"], "rank": ["Hard"], "task": ["  forge the  note "],
            "bonus": ["on"]}
    state, events = send(ENGINE.new_state(), "call_check", form, GAIL, cards)
    [part] = events[0]["check"]["parts"]
    assert (part["name"], part["major"]) == ("Marieta", 17) and events[0]["check"]["task"] == "forge the note"
    assert part["deck"] == "Marieta's Tarot" and cards.placed == []
    state, events = send(state, "draw", {"character": ["12"]}, ANN, cards)
    assert events[0]["deck"] == "Marieta's Tarot" and len(cards.placed) == 2
    with pytest.raises(RuleError, match="Marieta's player chooses"):
        send(state, "pick", {"character": ["12"], "index": ["1"]}, GAIL, cards)
    state, events = send(state, "pick", {"character": ["12"], "index": ["1"]}, ANN, cards)
    assert state["check"] is None and state["history"][-1]["outcome"] == "success"


def test_parsers_refuse_what_they_cannot_read() -> None:
    call = SYSTEM.command("call_check")
    group = SYSTEM.command("call_group")
    pick = SYSTEM.command("pick")
    assert call and group and pick
    with pytest.raises(BadInput, match="Choose a character"):
        call.parse({"character": ["99"]}, table())
    with pytest.raises(BadInput, match="who helps"):
        call.parse({"character": ["12"], "task": ["lift"], "skill": ["LAW"], "rank": ["easy"], "helper": ["x"]},
                   table())
    with pytest.raises(BadInput, match="at least two"):
        group.parse({"characters": ["12"]}, table())
    with pytest.raises(BadInput, match="one of the two cards"):
        pick.parse({"character": ["12"], "index": ["left"]}, table())
    with pytest.raises(BadInput, match="at most"):
        call.parse({"character": ["12"], "task": ["x" * 121]}, table())


def test_a_group_and_a_helper_are_parsed_to_their_characters() -> None:
    group = SYSTEM.command("call_group")
    call = SYSTEM.command("call_check")
    assert group and call
    args = group.parse({"characters": ["13", "12"], "mode": ["everyone"], "bonus": ["13"], "skill": ["LAW"],
                        "rank": ["easy"], "task": ["sneak"]}, table())
    assert args["characters"] == ["c12", "c13"] and args["bonus"] == ["c13"] and args["mode"] == "everyone"
    args = call.parse({"character": ["12"], "helper": ["13"], "helper_skill": ["LAW"], "helper_rank": ["easy"],
                       "skill": ["LAW"], "rank": ["easy"], "task": ["read the file"]}, table())
    assert args["character"] == "c12"
    assert args["helpers"] == [{"cid": "c13", "skill": "LAW", "rank": "easy", "task": "", "helps": None}]


def test_several_helpers_are_parsed_in_rows_and_a_group_names_whom_each_helps() -> None:
    """Issue 26: "more than one helper where the GM allows; helpers on group checks"."""
    group = SYSTEM.command("call_group")
    call = SYSTEM.command("call_check")
    assert group and call
    sam = Character(14, "c14", "Sam", SHEETS[13], owner=9)

    def table() -> Table:
        return Table(characters=(*CHARACTERS, sam), read_id=read_id)
    args = call.parse({"character": ["12"], "helper": ["13", "", "14"], "helper_skill": ["LAW", "ART", "GYM"],
                       "helper_rank": ["easy", "easy", "hard"], "helper_task": ["hold it", "", "push"],
                       "skill": ["LAW"], "rank": ["easy"], "task": ["lift"]}, table())
    assert [(h["cid"], h["skill"], h["rank"], h["task"]) for h in args["helpers"]] == [
        ("c13", "LAW", "easy", "hold it"), ("c14", "GYM", "hard", "push")]
    base = {"characters": ["12", "13"], "mode": ["everyone"], "skill": ["LAW"], "rank": ["easy"], "task": ["sneak"],
            "helper": ["14"], "helper_skill": ["GYM"], "helper_rank": ["easy"], "helper_task": ["a distraction"]}
    args = group.parse({**base, "helps": ["13"]}, table())
    assert args["helpers"] == [{"cid": "c14", "skill": "GYM", "rank": "easy", "task": "a distraction",
                                "helps": "c13"}]
    with pytest.raises(BadInput, match="helps one of the characters drawing"):
        group.parse({**base, "helps": ["14"]}, table())
    with pytest.raises(BadInput, match="whom each helper helps"):
        group.parse(base, table())


def test_the_panel_is_plain_data_and_the_same_for_every_lens() -> None:
    cards = StackedCards({deck_title("Marieta"): [card("M10"), card("KC"), card("2C")]})
    state, _ = send(ENGINE.new_state(), "call_check", {"character": ["12"], "skill": ["ART"], "rank": ["medium"],
                                                "task": ["sing"], "penalty": ["on"]}, GAIL, cards)
    state, _ = send(state, "draw", {"character": ["12"]}, GAIL, cards)
    assert SYSTEM.panel is not None
    views = [SYSTEM.panel.view(state, Seat(lens)) for lens in ("gm", "player", "spectator")]
    # the opening line is said to each seat (games/core/now.py): the GM's step is "Your turn" to
    # the GM, "Now: ..." to the others; all else is the same for every lens
    said = [v.pop("now") for v in views]
    assert said == ["Your turn: choose the worse of Marieta's two cards (Penalty).",
                    "Now: The GM chooses the worse of Marieta's two cards.",
                    "Now: The GM chooses the worse of Marieta's two cards."]
    assert views[0] == views[1] == views[2]
    json.dumps(views[0])
    part = views[0]["check"]["parts"][0]
    assert (part["pending"], part["edge"], part["rank"], part["deck"]) == ("gm", "Penalty", "Easy", "Marieta's Tarot")
    wheel = part["attempts"][0]["draws"][0]
    assert wheel["name"] == "Wheel of Fortune" and wheel["second"]["name"] == "Two of Cups"
    assert wheel["outcome_label"] == "critical failure" and wheel["happenstance"] and wheel["meaning"]
    assert part["odds"] is None  # a card to choose: no draw is next
    assert SYSTEM.panel.character_view(CHARACTERS[0]) == {"a_plus": "ART", "f_skill": "GYM", "corruption": 0,
                                                          "rechoose": False}
    assert views[0]["turn"] == {"combatant": None, "gm": True, "says": "The GM chooses the worse of Marieta's two cards",
                                "prompt": "choose the worse of Marieta's two cards (Penalty)"}


def test_the_odds_page_lists_every_rank_plain_with_bonus_and_with_penalty() -> None:
    page = SYSTEM.page("odds")
    assert page is not None
    context = page.context({"major": ["XVI"], "edge": ["bonus"]})
    assert context["major"] == 16 and [r["rank"] for r in context["rows"]][0] == "Automatic"
    for row in context["rows"]:
        for key in ("plain", "bonus", "penalty"):
            assert sum(row[key].values()) == pytest.approx(100, abs=0.3)
    for bar in context["chart"]["bars"]:
        assert sum(s["width"] for s in bar["segments"]) == 300
    assert odds_context({"major": ["moose"], "edge": ["sideways"]})["major"] is None


def test_sheet_registration_cleans_and_derives() -> None:
    assert SYSTEM.clean_sheet is not None
    cleaned = SYSTEM.clean_sheet({**SHEETS[12], "major": "The Star"})
    assert cleaned == {**SHEETS[12], "xp": 0}  # no experience awarded yet
    assert dict(SYSTEM.glance(cleaned).stats)["Own card"] == "The Star (17)"
    assert dict(SYSTEM.derived(cleaned))["A+ ART"] == "Performance, Disguise & Forgery"
