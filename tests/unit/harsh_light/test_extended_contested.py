"""Extended, contested, and contested + extended actions."""

from __future__ import annotations

import pytest

from games.core.engine import NotYourMove, RuleError
from games.harsh_light.errors import OutOfTurn
from tests.unit.harsh_light.conftest import Table, player, sheet

ANN, BOB = player("c1", member=2), player("c2", member=3, name="Bo")


def lockpicker() -> Table:
    return Table(c1=sheet("Ann", dexterity=3, intelligence=3, skills={"Larceny": 2, "Academics": 2}),
                 c2=sheet("Bob", strength=3, dexterity=2, skills={"Athletics": 3}))


def test_picking_a_simple_lock_takes_five_successes_a_combat_round_a_pull() -> None:
    """Seed: "The player pulls cards until they have accumulated however many successes are needed
    (perhaps five to pick a simple lock ...), with each test taking up an appropriate amount of
    time (examples: a combat round for lockpicking ...)"."""
    t = lockpicker()
    t.send({"type": "extended_start", "combatant": "c1", "attribute": "dexterity", "skill": "larceny",
            "needed": 5, "unit": "combat round", "label": "picking the lock"})
    assert t.lines[-1] == "Ann begins picking the lock: 5 successes needed, a pull each combat round."
    [action] = t.state["extended"].values()
    gathered = []
    for card in (4, 6, 2):  # pool 5: 9 is 1, 11 is 2, 7 is none
        t.send({"type": "extended_pull", "extended": action["id"]}, [card], actor=ANN)
        gathered.append(t.state["extended"][action["id"]]["gathered"])
    assert gathered == [1, 3, 3] and not t.state["extended"][action["id"]]["done"]
    t.send({"type": "extended_pull", "extended": action["id"]}, [10, 1], actor=ANN)  # 16: 3 more
    done = t.state["extended"][action["id"]]
    assert done["done"] and done["gathered"] == 6 and len(done["pulls"]) == 4
    assert t.lines[-1].endswith("6 of 5 gathered. Done!")
    assert t.lines[-1] == ("Ann's pull 4 for picking the lock: Ten of Spades and Ace of Spades (ten-again) + pool 5 "
                           "= 16, 3 successes; 6 of 5 gathered. Done!")
    with pytest.raises(RuleError, match="is over"):
        t.send({"type": "extended_pull", "extended": action["id"]}, [5], actor=ANN)


@pytest.mark.parametrize(("unit", "needed"), [("hour", 8), ("day", 25)])
def test_research_by_the_hour_and_building_by_the_day(unit: str, needed: int) -> None:
    """Seed: "up to 25 to build something large and/or complicated"; "an hour for research, or a
    day for large-scale construction". The Storyteller names the unit of time."""
    t = lockpicker()
    t.send({"type": "extended_start", "combatant": "c1", "attribute": "intelligence", "skill": "academics",
            "needed": needed, "unit": unit})
    [action] = t.state["extended"].values()
    assert (action["needed"], action["unit"]) == (needed, unit)
    with pytest.raises(NotYourMove, match="Only the GM can start an extended action"):  # the core's refusal
        t.send({"type": "extended_start", "combatant": "c1", "attribute": "wits"}, actor=ANN)


def test_an_extended_pull_is_its_own_character_s_and_in_a_fight_its_instant_action() -> None:
    t = lockpicker()
    t.send({"type": "extended_start", "combatant": "c1", "attribute": "dexterity", "skill": "larceny", "needed": 5})
    t.send({"type": "set_order", "order": ["c2", "c1"]})
    with pytest.raises(NotYourMove, match="You act only for the characters you control"):  # the core's
        t.send({"type": "extended_pull", "extended": "x1"}, [5], actor=BOB)
    with pytest.raises(OutOfTurn):
        t.send({"type": "extended_pull", "extended": "x1"}, [5], actor=ANN)
    t.send({"type": "end_turn"}, actor=BOB)
    t.send({"type": "extended_pull", "extended": "x1", "willpower": True}, [5], actor=ANN)
    assert t.state["extended"]["x1"]["gathered"] == 2  # pool 5 + Willpower 3 + a 5 = 13: two
    with pytest.raises(OutOfTurn, match="already taken an instant action"):
        t.send({"type": "extended_pull", "extended": "x1"}, [5], actor=ANN)


def test_an_extended_pull_may_be_an_automatic_success() -> None:
    """Seed: automatic success "without needing to pull a card", each unit of time."""
    t = Table(c1=sheet("Ann", intelligence=5, skills={"Academics": 3}))
    t.send({"type": "extended_start", "combatant": "c1", "attribute": "intelligence", "skill": "academics",
            "needed": 6, "unit": "hour"})
    t.send({"type": "extended_pull", "extended": "x1", "no_pull": True})
    assert t.drawn == [] and t.state["extended"]["x1"]["gathered"] == 1  # 8 + an Ace = 9


def test_the_storyteller_stops_an_extended_action() -> None:
    t = lockpicker()
    t.send({"type": "extended_start", "combatant": "c1", "attribute": "dexterity", "needed": 5})
    with pytest.raises(RuleError):
        t.send({"type": "extended_stop", "extended": "x1"}, actor=ANN)
    t.send({"type": "extended_stop", "extended": "x1"})
    assert t.state["extended"]["x1"]["outcome"] == "stopped"
    with pytest.raises(RuleError, match="no such extended action"):
        t.send({"type": "extended_stop", "extended": "x9"})


def race(needed: int = 0) -> Table:
    t = lockpicker()
    t.send({"type": "contest_start", "label": "a race", "needed": needed, "sides": [
        {"combatant": "c1", "attribute": "dexterity", "skill": "athletics"},
        {"combatant": "c2", "attribute": "dexterity", "skill": "athletics"}]})
    return t


def test_a_contest_both_pull_and_the_higher_successes_win() -> None:
    """Seed: "A contested action is one where you are directly competing against another
    character (running a race ...). Both pull a card, add their pools and compare successes, with
    the higher number of successes winning"."""
    t = race()
    t.send({"type": "contest_pull", "contest": "k1", "combatant": "c1"}, [6], actor=ANN)  # 2 + 6 = 8
    assert not t.state["contests"]["k1"]["done"]
    with pytest.raises(RuleError, match="has pulled this round"):
        t.send({"type": "contest_pull", "contest": "k1", "combatant": "c1"}, [6], actor=ANN)
    with pytest.raises(NotYourMove, match="You act only for the characters you control"):  # the core's
        t.send({"type": "contest_pull", "contest": "k1", "combatant": "c2"}, [6], actor=ANN)
    t.send({"type": "contest_pull", "contest": "k1", "combatant": "c2"}, [7], actor=BOB)  # 5 + 7 = 12
    contest = t.state["contests"]["k1"]
    assert contest["done"] and contest["winner"] == "c2"
    assert t.lines[-1] == "Round 1 (Ann 1, Bob 2): Bob wins the contest."


def test_a_tied_contest_is_pulled_again() -> None:
    """Our reading: with equal successes no side has "the higher number", so both pull again."""
    t = race()
    t.send({"type": "contest_pull", "contest": "k1", "combatant": "c1"}, [9], actor=ANN)  # 11: 2
    t.send({"type": "contest_pull", "contest": "k1", "combatant": "c2"}, [6], actor=BOB)  # 11: 2
    assert t.lines[-1] == "Round 1 (Ann 2, Bob 2): a tie, both pull again."
    assert t.state["contests"]["k1"]["round"] == 2 and not t.state["contests"]["k1"]["done"]


def test_contested_and_extended_until_one_reaches_the_successes() -> None:
    """Seed: "Some tests are both contested and extended – in those cases, you continue pulling
    until one of the characters reaches the required number of successes"."""
    t = race(needed=3)
    for a, b in ((6, 3), (9, 4)):  # Ann 8, 11: 1 then 2; Bob 8, 9: 1 then 1
        t.send({"type": "contest_pull", "contest": "k1", "combatant": "c1"}, [a], actor=ANN)
        t.send({"type": "contest_pull", "contest": "k1", "combatant": "c2"}, [b], actor=BOB)
    contest = t.state["contests"]["k1"]
    assert contest["winner"] == "c1" and contest["gathered"] == {"c1": 3, "c2": 2}
    assert len(contest["rounds"]) == 2


def test_willpower_in_a_contest_adds_three() -> None:
    t = race()
    t.send({"type": "contest_pull", "contest": "k1", "combatant": "c1", "willpower": True}, [3], actor=ANN)
    pulled = t.state["contests"]["k1"]["pulled"]["c1"]
    assert pulled["pool"]["parts"][-1] == ["Willpower", 3]
    assert pulled["total"] == 9  # Dexterity 3, Willpower 3, a 3 (untrained Athletics: the penalty is off)


def test_a_contest_needs_two_sides() -> None:
    t = lockpicker()
    with pytest.raises(RuleError, match="two sides"):
        t.send({"type": "contest_start", "sides": [{"combatant": "c1", "attribute": "wits"}]})
    with pytest.raises(RuleError, match="does not contest itself"):
        t.send({"type": "contest_start", "sides": [{"combatant": "c1", "attribute": "wits"},
                                                   {"combatant": "c1", "attribute": "wits"}]})
    t.send({"type": "contest_start", "sides": [{"combatant": "c1", "attribute": "wits"},
                                               {"combatant": "c2", "attribute": "wits"}]})
    t.send({"type": "contest_stop", "contest": "k1"})
    assert t.state["contests"]["k1"]["outcome"] == "stopped"


def test_the_storyteller_may_limit_the_pulls_and_let_a_dramatic_failure_lose_the_progress() -> None:
    """The decided reading: "extended actions: the text is silent on failure; the Storyteller may set,
    when starting one, a limit of pulls and whether a Dramatic Failure loses the successes
    gathered. Default: no limit, nothing lost"."""
    t = lockpicker()
    t.send({"type": "extended_start", "combatant": "c1", "attribute": "dexterity", "skill": "larceny",
            "modifier": -6, "needed": 5, "limit": 3, "lose": True, "label": "the safe"})
    assert t.lines[-1] == ("Ann begins the safe: 5 successes needed, a pull each turn, at most 3 pulls; "
                           "a Dramatic Failure loses the successes gathered.")
    t.send({"type": "extended_pull", "extended": "x1"}, [10, 9], actor=ANN)  # pool -1 + 19 = 18: 4
    assert t.state["extended"]["x1"]["gathered"] == 4
    t.send({"type": "extended_pull", "extended": "x1"}, [1], actor=ANN)  # an Ace on -1: all lost
    # the line before the Beat a player character's Dramatic Failure gives (campaign.py)
    assert t.state["extended"]["x1"]["gathered"] == 0 and "the successes gathered are lost" in t.lines[-2]
    t.send({"type": "extended_pull", "extended": "x1"}, [10, 8], actor=ANN)  # 17: 4, the third and last
    action = t.state["extended"]["x1"]
    assert action["done"] and action["outcome"] == "failed" and action["gathered"] == 4
    assert t.lines[-1].endswith("That was the last of 3 pulls: it fails.")
    with pytest.raises(RuleError, match="is over"):
        t.send({"type": "extended_pull", "extended": "x1"}, [5], actor=ANN)


def test_by_default_an_extended_action_has_no_limit_and_a_dramatic_failure_loses_nothing() -> None:
    """The decided reading: "Default: no limit, nothing lost"."""
    t = lockpicker()
    t.send({"type": "extended_start", "combatant": "c1", "attribute": "dexterity", "modifier": -3, "needed": 9})
    t.send({"type": "extended_pull", "extended": "x1"}, [10, 6], actor=ANN)  # 0 + 16: 3
    t.send({"type": "extended_pull", "extended": "x1"}, [1], actor=ANN)  # Dramatic: nothing more, nothing lost
    for _ in range(4):
        t.send({"type": "extended_pull", "extended": "x1"}, [2], actor=ANN)
    assert t.state["extended"]["x1"]["gathered"] == 3 and not t.state["extended"]["x1"]["done"]


def test_a_contest_pull_takes_its_own_modifier_as_a_simple_pull_does() -> None:
    """The issue: "extended and contested pulls have the per-pull modifier, automatic success and
    again choices a simple pull has"."""
    t = race()
    t.send({"type": "contest_pull", "contest": "k1", "combatant": "c1", "modifier": -2, "reason": "mud",
            "again": 8}, [8, 3], actor=ANN)
    pulled = t.state["contests"]["k1"]["pulled"]["c1"]
    assert pulled["pool"]["parts"][-1] == ["mud", -2] and pulled["values"] == [8, 3]
