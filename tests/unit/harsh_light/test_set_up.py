"""At the table: a pull set up and shown before the card, the odds from the cards the deck's
draw pile holds, the deck counted, whose move it is, and each character at a glance."""

from __future__ import annotations

from games.contract import Seat

import pytest

from games.contract import Glance
from games.core.cards_port import StackedCards
from games.core.engine import NotYourMove, RuleError
from games.harsh_light import DECK, SYSTEM, odds
from games.harsh_light.errors import OutOfTurn
from games.harsh_light.panel import turn
from tests.unit.harsh_light.conftest import GM, Table, player, sheet, tokens

ANN, BOB = player("c1", member=2), player("c2", member=3, name="Bo")


def two() -> Table:
    return Table(c1=sheet("Ann", strength=3, skills={"Brawl": 2}),
                 c2=sheet("Bob", strength=3, wits=3, dexterity=3, skills={"Brawl": 2}))


def set_up(t: Table, cid: str, actor: dict, cards: object = (), **pull: object) -> list[dict]:
    return t.send({"type": "set_up_pull", "combatant": cid, **pull}, cards, actor=actor)


def test_a_pull_is_shown_before_its_card_and_spends_nothing_until_it_is_made() -> None:
    """The issue: "a pull form that builds the pool from the sheet (choose Attribute + Skill, add
    modifiers, Willpower) and shows it before the pull"; seed: "Spending a point of Willpower
    adds 3 to your pool for a pull"."""
    t = two()
    events = set_up(t, "c1", ANN, attribute="strength", skill="brawl", modifier=-1, reason="dark",
                    willpower=True, target="c2", resist="defence", attack="melee")
    assert t.drawn == [] and "willpower_spent" not in [e["type"] for e in events]
    assert t.lines[-1] == ("Ann sets up an attack against Bob: pool 4 (Strength 3 + Brawl 2 - dark 1 + "
                           "Willpower 3 - Bob's Defence 3), one success needed.")
    [ready] = t.view(Seat("spectator"))["prepared"]
    assert [p["reason"] for p in ready["pool"]["parts"]] == ["Strength", "Brawl", "dark", "Willpower", "Bob's Defence"]
    assert ready["pool"]["size"] == 4 and ready["odds"]["success"] == odds.percent(odds.pull_exact(4).at_least(1))
    record = t.pull("c1", [6], actor=ANN, set_up=True)
    assert record["pool"]["size"] == 4 and record["total"] == 10 and record["successes"] == 1
    assert t.sheets["c1"]["willpower_points"] == 3  # 4 dots, one spent with the pull, written back
    assert t.state["prepared"] == {} and t.view(Seat("spectator"))["prepared"] == []


def test_a_pull_set_up_is_refused_out_of_turn_and_for_another_s_character() -> None:
    """The issue: "refused for anyone acting out of turn or for another's character"; seed: "In
    combat, you get one instant action per turn"."""
    t = two()
    t.send({"type": "set_order", "order": ["c1", "c2"]})
    before = dict(t.state)
    with pytest.raises(OutOfTurn, match="It is Ann's action, not Bob's"):
        set_up(t, "c2", BOB, attribute="strength")
    with pytest.raises(NotYourMove, match="You act only for the characters you control"):  # the core's
        set_up(t, "c1", BOB, attribute="strength")
    set_up(t, "c1", ANN, attribute="strength")
    with pytest.raises(NotYourMove):
        t.send({"type": "pull", "combatant": "c1", "set_up": True}, [5], actor=BOB)
    with pytest.raises(NotYourMove):
        t.send({"type": "put_away", "combatant": "c1"}, actor=BOB)
    assert before["prepared"] == {} and "c1" in t.state["prepared"]
    t.send({"type": "end_turn"}, actor=ANN)
    assert t.state["prepared"] == {}  # Ann's action is over: what she set up is put away


def test_the_pull_set_up_is_the_one_made() -> None:
    """Nothing of the set-up pull can be swapped at the pull: only whether to take an automatic
    success comes with it."""
    t = two()
    set_up(t, "c1", ANN, attribute="strength", skill="brawl")
    record = t.pull("c1", [3], actor=ANN, set_up=True, attribute="wits", modifier=9)
    assert [p[0] for p in record["pool"]["parts"]] == ["Strength", "Brawl"] and record["total"] == 8
    with pytest.raises(RuleError, match="Ann has no pull set up: set one up first"):
        t.send({"type": "pull", "combatant": "c1", "set_up": True}, [3], actor=ANN)


def test_the_player_chooses_to_take_an_automatic_success_or_to_pull_for_more() -> None:
    """Seed: "If something only takes a single success to achieve, and your pool is 7 or above,
    then you will accomplish the task automatically, without needing to pull a card ... Note that
    you can still pull a card if you want"."""
    t = Table(c1=sheet("Ann", strength=4, skills={"Brawl": 3}))
    set_up(t, "c1", ANN, attribute="strength", skill="brawl")
    [ready] = t.view(Seat("player"))["prepared"]
    assert ready["automatic"] and ready["odds"]["automatic"]
    taken = t.pull("c1", actor=ANN, set_up=True, no_pull=True)
    assert t.drawn == [] and taken["automatic"] and taken["successes"] == 1
    set_up(t, "c1", ANN, attribute="strength", skill="brawl")
    more = t.pull("c1", [10, 6], actor=ANN, set_up=True)
    assert t.drawn == tokens(10, 6) and more["successes"] == 6 and more["exceptional"]


def test_a_pull_set_up_shows_defence_as_it_stands() -> None:
    """Seed: "Each attack on an enemy lowers their Defence by 1 until their next action": a pull
    set up against Bob shows his Defence as it stands when it drops before the card."""
    t = Table(c1=sheet("Ann", strength=3), c2=sheet("Bob", wits=3, dexterity=3), c3=sheet("Cal", strength=3))
    set_up(t, "c1", ANN, attribute="strength", target="c2", resist="defence")
    assert t.view(Seat("player"))["prepared"][0]["pool"]["size"] == 0
    t.pull("c3", [4], attribute="strength", target="c2", resist="defence")
    [ready] = t.view(Seat("player"))["prepared"]
    assert ready["pool"]["parts"][-1] == {"reason": "Bob's Defence", "value": 2, "sign": "−"}
    assert ready["pool"]["size"] == 1 and ready["odds"]["dramatic"] == 0.0


def test_a_pool_of_zero_shows_the_risk_of_a_dramatic_failure() -> None:
    """Seed: "If you pull a 1 while using a pool of 0 or less, you have Dramatically Failed!"."""
    t = Table(c1=sheet("Ann"))
    set_up(t, "c1", ANN, attribute="strength", modifier=-2)
    [ready] = t.view(Seat("player"))["prepared"]
    assert ready["pool"]["size"] == 0 and ready["odds"]["dramatic"] == 10.0  # four Aces in forty
    assert ready["odds_table"]["lines"][0] == {"label": "Dramatic Failure", "cells": [10.0]}


def test_the_odds_come_from_the_draw_pile_and_from_the_discard_once_it_is_empty() -> None:
    """The issue: "the exact chance ... for this pool, from the cards actually left in the deck";
    an empty draw pile is refilled from the discard, so the next pull's odds come from it."""
    t = Table(c1=sheet("Ann"))
    port = StackedCards({DECK: tokens(1, 2, 3)})
    t.send({"type": "pull", "combatant": "c1", "attribute": "wits"}, port)
    assert t.view(Seat("spectator"))["deck_left"] == [0, 1, 1, 0, 0, 0, 0, 0, 0, 0]
    t.send({"type": "pull", "combatant": "c1", "attribute": "wits"}, port)
    t.send({"type": "pull", "combatant": "c1", "attribute": "wits"}, port)
    assert port.left(DECK, with_discard=False) == []
    assert t.view(Seat("spectator"))["deck_left"] == [1, 1, 1, 0, 0, 0, 0, 0, 0, 0]


def test_the_panel_reads_the_deck_as_it_is_or_says_how_to_bring_one_out() -> None:
    """The odds count the deck as the platform hands every seat (``Seat.decks``), read as it is
    at every redraw: no command counts it, and none is needed once the GM brings it out."""
    t = Table(c1=sheet("Ann"))
    seen = t.view(Seat("spectator"))
    assert not seen["deck_known"] and seen["deck_count"] is None and seen["deck_left"] == list(odds.FRESH)
    with pytest.raises(RuleError, match="no Harsh Light deck on the table yet. The GM brings one out"):
        t.send({"type": "pull", "combatant": "c1", "attribute": "wits"}, StackedCards({"Fate": tokens(1)}))
    assert not t.view(Seat("spectator"))["deck_known"]
    t.send({"type": "set_up_pull", "combatant": "c1", "attribute": "wits"})  # a table with the deck out
    seen = t.view(Seat("spectator"))
    assert seen["deck_known"] and seen["deck_count"] == 40
    assert seen["deck_line"].startswith("40 cards not lying face up: the draw pile and any cards held in hands.")


def test_refusals_name_characters_never_their_ids() -> None:
    """Plain words for players: a character the state has not met yet is named from its sheet."""
    t = two()
    with pytest.raises(RuleError) as refused:
        t.send({"type": "put_away", "combatant": "c2"}, actor=BOB)
    assert str(refused.value) == "Bob has no pull set up." and "c2" not in str(refused.value)


def test_whose_move_it_is() -> None:
    """The turn banner (games/contract.py, Panel): the character whose action it is in a fight;
    outside one, a contest's side still to pull, a pull set up, an extended action running."""
    t = two()
    assert turn(t.state) is None
    t.send({"type": "extended_start", "combatant": "c2", "attribute": "wits", "needed": 5, "label": "the lock"})
    assert turn(t.state) == {"combatant": "c2", "gm": False, "says": "Bob works at the lock",
                             "prompt": "pull for Bob: the lock, 0 of 5 so far"}
    set_up(t, "c1", ANN, attribute="strength")
    # two awaited at once: each named, with its own prompt (each player reads "Your turn")
    assert turn(t.state) == {"combatant": None, "gm": False, "waiting": ["c1", "c2"],
                             "prompts": {"c1": "pull for Ann, or put the pull away",
                                         "c2": "pull for Bob: the lock, 0 of 5 so far"},
                             "says": "Ann is about to pull; Bob works at the lock",
                             "prompt": "pull for Ann, or put the pull away"}
    t.send({"type": "contest_start", "sides": [{"combatant": "c1", "attribute": "wits"},
                                               {"combatant": "c2", "attribute": "wits"}], "label": "a race"})
    assert turn(t.state)["says"] == "Ann pulls in a race; Bob pulls in a race"
    assert turn(t.state)["waiting"] == ["c1", "c2"]
    t.send({"type": "set_order", "order": ["c2", "c1"]})
    assert turn(t.state) == {"combatant": "c2", "gm": False, "says": "Bob acts",
                             "prompt": "act for Bob: set up a pull, Dodge, or end the action"}
    t.send({"type": "dodge", "combatant": "c2"}, actor=BOB)
    assert turn(t.state)["says"] == "Bob finishes the action"
    assert t.view(Seat("spectator"))["turn"] == turn(t.state)


def test_a_character_at_a_glance() -> None:
    """The character card: Defence, Speed, initiative, the Resistance traits (seed: "Resolve,
    Stamina, or Composure"), the best Skills, Willpower points of dots, and what changes pulls."""
    seen = SYSTEM.glance({**sheet("Ann", wits=3, dexterity=4, resolve=3, composure=2,
                                  skills={"Firearms": 3, "Brawl": 1}), "again": 9, "willpower_points": 0})
    assert dict(seen.stats) == {"Defence": "3", "Speed": "11", "Initiative": "+6", "Resolve": "3", "Stamina": "2",
                                "Composure": "2", "Firearms": "3", "Brawl": "1"}
    assert seen.tracks == (("Health", 7, 7), ("Willpower", 0, 5)) and seen.tags == ("9-again", "No Willpower left")
    assert SYSTEM.glance({"strength": "lots"}) == Glance()
    assert GM["is_gm"]


def test_only_an_attack_keeps_its_attack_kind() -> None:
    """Issue 22: a pull that is no attack was headed "in melee" (the form sends the attack
    select's choice with every pull). Seed: "Nearly all attack rolls will be resisted by
    Defence": an attack is a pull against a target's Defence; nothing else says a kind."""
    t = two()
    set_up(t, "c1", ANN, attribute="wits", attack="melee")
    assert "attack" not in t.state["prepared"]["c1"]["args"]
    [ready] = t.view(Seat("spectator"))["prepared"]
    assert (ready["label"], ready["attack"]) == ("a pull", "")
    assert t.lines[-1].startswith("Ann sets up a pull: ")
    set_up(t, "c1", ANN, attribute="presence", target="c2", resist="composure", attack="thrown")
    [ready] = t.view(Seat("spectator"))["prepared"]
    assert (ready["label"], ready["attack"]) == ("a pull", "")
    set_up(t, "c1", ANN, attribute="strength", skill="brawl", target="c2", resist="defence", attack="thrown")
    [ready] = t.view(Seat("spectator"))["prepared"]
    assert (ready["label"], ready["attack"]) == ("an attack", "thrown")
