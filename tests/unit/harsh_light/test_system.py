"""The registration, the form parsers, the panel and the odds page."""

from __future__ import annotations

from games.contract import Seat

import json
import random
from typing import Any

import pytest

from games.contract import Character, Glance, Table
from games.core.cards_port import StackedCards
from games.core.engine import RuleError, Turn, UnknownEvent
from games.harsh_light import DECK, ENGINE, SYSTEM, moves
from games.harsh_light.odds import ODDS, odds_context
from games.harsh_light.panel import view
from games.registry import check_registration
from tests.support.engine import member
from tests.unit.harsh_light.conftest import GM, Table as Driver, player, sheet, stacked


def read_id(raw: object) -> int | None:
    text = str(raw)
    return int(text) if text.isdigit() and len(text) < 10 else None


def table() -> Table:
    ann = sheet("Ann", dexterity=3, skills={"Firearms": 2})
    bob = sheet("Bob", wits=3, dexterity=3)
    return Table(characters=(Character(1, "c1", "Ann", {k: v for k, v in ann.items() if k != "name"}, 2),
                             Character(2, "c2", "Bob", {k: v for k, v in bob.items() if k != "name"}, 3)),
                 read_id=read_id)


def form(**fields: Any) -> dict[str, list[str]]:
    return {k: v if isinstance(v, list) else [str(v)] for k, v in fields.items()}


def test_the_registration_is_complete() -> None:
    """On the one engine (issue 24): its move table, no procedure of its own."""
    assert check_registration(SYSTEM) is SYSTEM
    assert SYSTEM.key == "harsh_light" and SYSTEM.engine is ENGINE
    # and the clock's: the GM's moves of time, conditions and table options (campaign.py); and the
    # GM's undo (undo.py)
    assert {c.name for c in SYSTEM.commands} == {m.name for m in moves.MOVES} | {
        "pass_time", "add_condition", "end_condition", "set_option", "undo"}
    players = {c.name for c in SYSTEM.commands if c.sender == "controller"}
    assert players == {"set_up_pull", "pull", "put_away", "willpower", "answer", "dodge", "move", "end_turn",
                       "extended_pull", "contest_pull"}
    assert {c.subject for c in SYSTEM.commands if c.sender == "controller"} == {"combatant"}
    assert SYSTEM.panel.template == "games/harsh_light/panel.html#panel"
    assert SYSTEM.panel.notice == "games/harsh_light/panel.html#notice" and SYSTEM.panel.decks == (DECK,)
    assert SYSTEM.page("odds") is ODDS


def test_the_pull_form_reads_the_pool_and_the_target_and_the_rules_read_the_sheets() -> None:
    """The parser reads the form; the sheets are the table's, read under the lock (``Turn``)."""
    args = moves.pull(form(combatant=1, attribute="dexterity", skill="firearms", modifier="-1", reason="cover",
                           willpower="on", target=2, resist="defence", attack="melee", needed=""), table())
    assert args["combatant"] == "c1" and args["target"] == "c2" and args["resist"] == "defence"
    assert args["modifier"] == -1 and args["willpower"] is True and "needed" not in args and "sheets" not in args
    characters = {c.cid: c for c in table().characters}
    turn = Turn(member=member(player("c1")), characters=characters, rng=random.Random(0), cards=stacked(6))
    state, waiting = ENGINE.run(ENGINE.new_state(), "pull", args, turn)
    assert [e["type"] for e in waiting] == ["reaction_opened"]  # Bob may still spend Willpower: +2 Defence
    turn = Turn(member=member(GM), characters=characters, rng=random.Random(0), cards=stacked(6))
    events = [e for e in ENGINE.decide(state, "answer", {"combatant": "c2"}, turn) if e["type"] == "pulled"]
    assert events[-1]["record"]["pool"]["size"] == 4 + 3 - 3  # Dex 3 + Firearms 2 - 1, Willpower, Bob's Defence


@pytest.mark.parametrize(("fields", "words"), [
    ({"attribute": "wits"}, "Choose a character"),
    ({"combatant": "99", "attribute": "wits"}, "Choose a character"),
    ({"combatant": "1", "modifier": "lots"}, "A modifier is a whole number"),
    ({"combatant": "1", "needed": "two"}, "successes needed is a whole number"),
    ({"combatant": "1", "label": "x" * 81}, "at most 80 characters"),
])
def test_a_bad_pull_form_is_refused_with_a_message(fields: dict, words: str) -> None:
    with pytest.raises(RuleError, match=words):
        moves.pull(form(**fields), table())


def test_the_order_keeps_the_storyteller_s_order() -> None:
    assert moves.set_order(form(order=["2", "1", "2", "x"]), table())["order"] == ["c2", "c1"]
    assert moves.roll_initiative(form(characters=["2", "1"]), table())["characters"] == ["c1", "c2"]
    with pytest.raises(RuleError):
        moves.set_order(form(), table())


def test_whose_turn_and_which_action_are_read_under_the_lock_not_from_the_form() -> None:
    """A parser never reads the state (issue 24): an extended pull names its action and, from a
    player, its character (the core checks they play it); the Storyteller's end of the action
    may name nobody, and the handler ends whoever is acting."""
    assert moves.extended_pull(form(extended="x1", willpower="on"), table()) == {"extended": "x1", "willpower": True,
                                                                                "no_pull": False}
    assert moves.end_turn(form(), table()) == {}
    t = Driver(c1=sheet("Ann"), c2=sheet("Bob"))
    t.send({"type": "extended_start", "combatant": "c1", "attribute": "wits", "needed": 5})
    t.send({"type": "set_order", "order": ["c2", "c1"]})
    t.send({"type": "end_turn"})
    assert t.state["acting"] == "c1" and t.lines[-1] == "Bob's action is done. Ann acts."
    with pytest.raises(RuleError, match="no such extended action"):
        t.send({"type": "extended_pull", "extended": "x7"})
    sides = moves.contest_start(form(combatant_a=1, attribute_a="wits", combatant_b=2, attribute_b="wits",
                                     skill_b="empathy", needed=3), table())["sides"]
    assert [s["combatant"] for s in sides] == ["c1", "c2"] and sides[1]["skill"] == "empathy"


def scenario() -> Driver:
    """A little of everything, as the browser test will play it."""
    t = Driver(c1=sheet("Ann", strength=3, skills={"Brawl": 2}), c2=sheet("Bob", wits=3, dexterity=3))
    t.send({"type": "pull", "combatant": "c2", "attribute": "presence", "target": "c1", "resist": "composure"},
           [5])  # Ann could spend Willpower against it: it waits for her answer, and the Storyteller moves on
    t.send({"type": "roll_initiative", "characters": ["c1", "c2"]}, [9, 2])
    t.send({"type": "set_side", "character": "2", "side": "Rivals"})  # the Storyteller's: Bob against Ann
    t.send({"type": "willpower", "combatant": "c2", "use": "resist"}, actor=player("c2"))
    t.send({"type": "set_up_pull", "combatant": "c1", "attribute": "dexterity"})
    t.send({"type": "put_away", "combatant": "c1"})
    t.send({"type": "set_up_pull", "combatant": "c1", "attribute": "strength", "skill": "brawl", "target": "c2",
            "resist": "defence", "willpower": True})
    t.send({"type": "pull", "combatant": "c1", "set_up": True}, [10, 4])
    t.send({"type": "move", "combatant": "c1"})
    t.send({"type": "end_turn"})
    t.send({"type": "dodge", "combatant": "c2"})
    t.send({"type": "end_turn"})
    t.send({"type": "end_combat"})
    t.send({"type": "set_options", "untrained": True})
    t.send({"type": "extended_start", "combatant": "c1", "attribute": "wits", "needed": 2})
    t.send({"type": "extended_pull", "extended": "x1"}, [6])
    t.send({"type": "extended_start", "combatant": "c2", "attribute": "wits", "needed": 9})
    t.send({"type": "extended_stop", "extended": "x2"})
    t.send({"type": "contest_start", "sides": [{"combatant": "c1", "attribute": "wits"},
                                               {"combatant": "c2", "attribute": "wits"}]})
    t.send({"type": "contest_pull", "contest": "k3", "combatant": "c1"}, [5])
    t.send({"type": "contest_pull", "contest": "k3", "combatant": "c2"}, [5])
    t.send({"type": "contest_start", "sides": [{"combatant": "c1", "attribute": "wits"},
                                               {"combatant": "c2", "attribute": "wits"}]})
    t.send({"type": "contest_stop", "contest": "k4"})
    # harm (issue 22): the Storyteller's, to the last box in bashing, and a Stamina pull failed
    t.send({"type": "harm", "combatant": "c1", "points": 7, "kind": "bashing", "reason": "a fall"}, [2])
    t.send({"type": "heal", "combatant": "c1", "points": 2})
    return t


def test_every_event_has_a_plain_english_line() -> None:
    t = scenario()
    # the clock's (campaign.py): a condition, time passing, a table option, a Dramatic Failure's Beat
    t.send({"type": "add_condition", "character": "1", "name": "Shaken", "effect": "dice", "amount": -1})
    t.send({"type": "end_condition", "condition": 1})
    t.send({"type": "pass_time", "span": "night"})
    t.send({"type": "set_option", "option": "willpower_close", "value": 1})
    t.pull("c2", [1], attribute="wits", modifier=-5)
    t.send({"type": "undo"})  # and the Storyteller's undo (undo.py)
    assert {e["type"] for e in t.log} == set(ENGINE.events)
    for line in t.lines:
        assert line[:1].isupper() and line.endswith((".", "!")) and "_" not in line.split(":")[0]
        assert "{" not in line and "None" not in line


def test_the_panel_is_plain_json_and_the_same_for_every_lens() -> None:
    """The issue: "the turn order and whose action it is, each character's current Defence,
    running extended and contested actions with their totals, every pull with its card(s), total,
    successes, and the rule that decided". Live for everyone, spectators included."""
    t = scenario()
    seen = t.view(Seat("spectator"))
    assert json.loads(json.dumps(seen)) == seen

    def shared(view: dict) -> dict:
        # what is said to one seat (games/core/now.py: its opening line; whether it has other
        # moves to fold) aside, every lens sees the same
        return {k: v for k, v in view.items() if k not in ("now", "has_moves")}

    assert shared(t.view(Seat("gm"))) == shared(t.view(Seat("player"))) == shared(seen)
    assert t.view(Seat("gm"))["has_moves"] and not seen["has_moves"]
    newest, contested = seen["recent"][0], seen["recent"][1]
    assert newest["kind"] == "consciousness" and [c["name"] for c in newest["cards"]] == ["Two of Spades"]
    assert contested["kind"] == "contested" and [c["name"] for c in contested["cards"]] == ["Five of Spades"]
    attack = next(r for r in seen["recent"] if r["kind"] == "resisted")
    assert attack["rules"] == ["ten-again"] and [c["id"] for c in attack["cards"]] == ["ten:S:10", "ten:S:4"]
    assert [x["gathered"] for x in seen["extended"]] == [1, 0]
    assert seen["contests"][0]["done"] and seen["contests"][1]["outcome"] == "stopped"
    assert attack["cards"][0]["name"] == "Ten of Spades" and attack["outcome"] == "4 successes: it succeeds"
    assert seen["prepared"] == [] and seen["deck_count"] == 40 and seen["deck"] == DECK


def test_the_panel_shows_the_order_and_defence_as_it_stands() -> None:
    t = Driver(c1=sheet("Ann", strength=3), c2=sheet("Bob", wits=3, dexterity=3))
    t.send({"type": "set_order", "order": ["c1", "c2"]})
    t.pull("c1", [3], attribute="strength", target="c2", resist="defence")
    seen = t.seen(Seat("player"))
    assert seen["acting_name"] == "Ann" and [p["name"] for p in seen["order"]] == ["Ann", "Bob"]
    bob = seen["order"][1]
    assert (bob["defence"], bob["attacks"]) == (2, 1)
    assert seen["characters"][1]["view"]["defence"] == 3  # the sheet's, as the table hands it


def test_the_panel_draws_before_any_state() -> None:
    seen = view({}, Seat("spectator"))
    assert seen["order"] == [] and not seen["combat"] and not seen["deck_known"]


def test_odds_before_the_pull_come_from_the_cards_left() -> None:
    """The issue: "the exact chance of 0, 1, 2 ... successes and of a Dramatic Failure for this
    pool, from the cards actually left in the deck, beside the pull form"."""
    t = Driver(c1=sheet("Ann"))
    port = StackedCards({DECK: [f"ten:{s}:{v}" for v in (1, 2) for s in "SHDC"]})
    t.send({"type": "pull", "combatant": "c1", "attribute": "wits"}, port)  # the Ace of Spades
    t.send({"type": "set_up_pull", "combatant": "c1", "attribute": "wits", "modifier": -2}, port)
    seen = t.view(Seat("spectator"))
    assert seen["deck_known"] and seen["deck_left"] == [3, 4, 0, 0, 0, 0, 0, 0, 0, 0]
    [ready] = seen["prepared"]
    assert ready["pool"]["size"] == 0 and ready["odds"]["dramatic"] == round(100 * 3 / 7, 1)


def test_willpower_goes_back_on_the_sheet_and_no_sheet_is_copied_into_the_log() -> None:
    event = {"type": "willpower_spent", "combatant": "c1", "use": "pool", "points_left": 2}
    assert SYSTEM.engine.writeback(event, ENGINE.new_state()) == {"c1": {"willpower_points": 2}}
    assert SYSTEM.engine.writeback({"type": "pulled"}, ENGINE.new_state()) == {}
    assert not {"sheet_read", "deck_counted"} & SYSTEM.event_kinds()
    assert SYSTEM.visibility({"type": "pulled"}).audience == "everyone"


def test_the_odds_page() -> None:
    """The issue: "a page with a table and an SVG chart of pools -3 to 15 on a fresh deck (10-,
    9- and 8-again)"."""
    page = odds_context(form(again="9"))
    assert page["again"] == 9 and len(page["rows"]) == 19 and page["rows"][0]["again"] == 9
    assert len(page["chart"]["series"]) == 6
    assert odds_context(form(again="7"))["again"] == 10
    assert odds_context(form(again="x"))["again"] == 10


def test_the_sheet_registered_is_the_engine_s() -> None:
    clean = SYSTEM.clean_sheet({"dexterity": "3", "skills": "Firearms: 2"})
    assert clean["dexterity"] == 3 and ("Defence", "1") in SYSTEM.glance(clean).stats
    assert SYSTEM.glance({"wits": "bad"}) == Glance() and SYSTEM.derived(clean) == []
    with pytest.raises(UnknownEvent):  # a sheet is read at each move, never copied into the state
        ENGINE.apply(ENGINE.new_state(), {"type": "sheet_read", "combatant": "c1", "sheet": {**clean, "name": "A"}})


def test_the_gm_controls_everyone() -> None:
    t = Driver(c1=sheet("Ann"))
    assert t.pull("c1", [4], actor=GM, attribute="wits")["total"] == 6


def test_a_reason_too_long_for_its_pool_is_refused_not_cut_short() -> None:
    """Issue 24: one policy for a submitted value. A modifier's reason is a part of the pool, shown
    in its line: the form took up to 80 characters and the pool cut it to 60 in silence; now the
    parser refuses past 60, and a reason it takes is the pool's whole."""
    reason = "in the dark, with the rain in her eyes, the lock rusted shut!"
    assert len(reason) == 61
    with pytest.raises(RuleError, match="Reason is at most 60 characters"):
        moves.set_up_pull(form(combatant=1, attribute="dexterity", modifier="-1", reason=reason), table())
    args = moves.set_up_pull(form(combatant=1, attribute="dexterity", modifier="-1", reason=reason[:60]), table())
    t = Driver(c1=sheet("Ann"))
    t.send({"type": "set_up_pull", "combatant": "c1", "attribute": "dexterity", "modifier": -1, "reason": reason[:60]})
    assert args["reason"] == reason[:60] and t.state["prepared"]["c1"]["now"]["pool"]["parts"][1] == [reason[:60], -1]
