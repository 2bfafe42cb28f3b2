"""Pulls at the table: cards from the Harsh Light deck, simple and resisted tests, Willpower."""

from __future__ import annotations

import pytest

from games.core.engine import NotYourMove, RuleError
from games.harsh_light import DECK
from games.harsh_light.errors import WillpowerRefused
from tests.unit.harsh_light.conftest import Table, player, sheet, stacked, tokens


def ann_and_bob() -> Table:
    return Table(c1=sheet("Ann", dexterity=3, strength=3, skills={"Firearms": 2, "Brawl": 2}),
                 c2=sheet("Bob", wits=3, dexterity=2, resolve=3, stamina=2, composure=4))


def test_a_pull_draws_one_card_from_the_harsh_light_deck_and_records_it() -> None:
    """Seed: "you pull a single card value from 1-10 and add your pool to that number"."""
    t = ann_and_bob()
    record = t.pull("c1", [3], attribute="dexterity", skill="firearms")
    assert t.drawn == tokens(3) and record["cards"] == tokens(3)
    assert (record["pool"]["size"], record["total"], record["successes"]) == (5, 8, 1)
    assert t.lines[-1] == "Ann pulls Dexterity + Firearms: Three of Spades + pool 5 = 8, 1 success: it succeeds."


def test_ten_again_pulls_a_second_card_and_never_a_third() -> None:
    """Seed: "Pulling a second 10 in a row doesn't let you keep adding, but you're adding +20 to
    your pool now, so enjoy that!\""""
    t = ann_and_bob()
    record = t.pull("c1", [10, 10, 10], attribute="dexterity", skill="firearms")
    assert t.drawn == tokens(10, 10)
    assert (record["total"], record["successes"], record["exceptional"]) == (25, 6, True)
    assert record["rules"] == ["ten-again", "exceptional success"]


def test_the_sheet_s_again_and_the_check_s() -> None:
    """The issue: "Some powers and equipment make it "8-again" or "9-again": the sheet and the
    check can say so"."""
    t = Table(c1=sheet("Ann", again=9))
    assert len(t.pull("c1", [9, 2], attribute="wits")["cards"]) == 2
    assert len(t.pull("c1", [8, 2], attribute="wits")["cards"]) == 1
    assert len(t.pull("c1", [8, 2], attribute="wits", again=8)["cards"]) == 2


def test_a_dramatic_failure_at_the_table() -> None:
    """Seed: "If you pull a 1 while using a pool of 0 or less, you have Dramatically Failed!\""""
    t = ann_and_bob()
    t.send({"type": "set_options", "untrained": True})
    record = t.pull("c2", [1], attribute="intelligence", skill="occult")  # 2 - 3 untrained = -1
    assert record["pool"]["size"] == -1 and record["dramatic"] and not record["succeeded"]
    assert "a Dramatic Failure" in t.lines[-1]


def test_an_automatic_success_taken_without_a_pull() -> None:
    """Seed: "your pool is 7 or above, then you will accomplish the task automatically, without
    needing to pull a card"."""
    t = Table(c1=sheet("Ann", dexterity=4, skills={"Athletics": 3}))
    record = t.pull("c1", attribute="dexterity", skill="athletics", no_pull=True)
    assert t.drawn == [] and record["automatic"] and record["succeeded"] and record["successes"] == 1
    assert t.lines[-1] == ("Ann pulls Dexterity + Athletics: pool 7 takes an automatic success without a pull, "
                           "worth 1 success.")
    with pytest.raises(RuleError, match="does not reach 2 successes on its own"):
        t.pull("c1", attribute="dexterity", skill="athletics", no_pull=True, needed=2)


def test_the_player_may_still_pull_with_an_automatic_pool() -> None:
    """Seed: "Note that you can still pull a card if you want, as some tasks give greater results
    based on more successes achieved"."""
    t = Table(c1=sheet("Ann", dexterity=4, skills={"Athletics": 3}))
    record = t.pull("c1", [9], attribute="dexterity", skill="athletics")
    assert record["automatic"] and record["successes"] == 3 and record["rules"] == ["automatic success"]


def test_an_exceptional_success_is_named() -> None:
    """Seed: "if you get a total of 5 or more successes (20+ on your test) you have achieved an
    Exceptional Success"."""
    t = Table(c1=sheet("Ann", dexterity=5, skills={"Firearms": 5}))
    record = t.pull("c1", [10, 2], attribute="dexterity", skill="firearms")
    assert record["total"] == 22 and record["exceptional"] and "an Exceptional Success" in t.lines[-1]


def test_a_player_pulls_only_for_their_own_character() -> None:
    """The issue: "refused for anyone acting out of turn or for another's character"."""
    t = ann_and_bob()
    with pytest.raises(NotYourMove, match="You act only for the characters you control"):  # the core's
        t.pull("c2", [5], actor=player("c1"), attribute="wits")
    assert t.pull("c1", [5], actor=player("c1"), attribute="wits")["total"] == 7
    assert t.pull("c2", [5], attribute="wits")["total"] == 8  # the GM acts for anyone


def test_a_refused_pull_draws_nothing_and_changes_nothing() -> None:
    t = ann_and_bob()
    before = t.state
    port = stacked(5)
    with pytest.raises(NotYourMove):
        t.send({"type": "pull", "combatant": "c2", "attribute": "wits"}, port, actor=player("c1"))
    assert port.placed == [] and t.state == before


@pytest.mark.parametrize(("command", "words"), [
    ({"attribute": "luck"}, "Choose an Attribute"),
    ({"attribute": "wits", "skill": "hacking"}, "no Skill called"),
    ({"attribute": "wits", "needed": 0}, "successes needed is from 1"),
    ({"attribute": "wits", "action": "slow"}, "instant, reflexive .the Storyteller's call., talking or resisting"),
    ({"attribute": "wits", "modifier": 99}, "modifier is a whole number"),
    ({"attribute": "wits", "target": "c2"}, "Say what resists"),
    ({"attribute": "wits", "target": "c2", "resist": "luck"}, "resisted by Defence, Resolve"),
    ({"attribute": "wits", "target": "c1", "resist": "defence"}, "does not resist itself"),
    ({"attribute": "wits", "target": "c9", "resist": "defence"}, "not a character at this table"),
    ({"attribute": "wits", "again": 7}, "Again is 10, 9 or 8"),
])
def test_bad_pulls_are_refused_with_a_message(command: dict, words: str) -> None:
    t = ann_and_bob()
    with pytest.raises(RuleError, match=words):
        t.pull("c1", [5], **command)


def test_a_resisted_pull_subtracts_the_defence_from_the_pool() -> None:
    """Seed: "Resisted rolls are where you subtract an opponent's pool from your roll – generally
    either Defence or a Resistance trait ... Nearly all attack rolls will be resisted by Defence"."""
    t = ann_and_bob()
    record = t.pull("c1", [4], attribute="strength", skill="brawl", target="c2", resist="defence")
    assert record["pool"]["parts"][-1] == ["Bob's Defence", -2]
    assert (record["pool"]["size"], record["total"], record["successes"], record["kind"]) == (3, 7, 0, "resisted")
    assert t.lines[-1].startswith("Ann attacks Bob in melee with Strength + Brawl: Four of Spades + pool 3 = 7")


@pytest.mark.parametrize(("trait", "value"), [("resolve", 3), ("stamina", 2), ("composure", 4)])
def test_a_resistance_trait_is_subtracted(trait: str, value: int) -> None:
    """Seed: "a Resistance trait (Resolve, Stamina, or Composure)"."""
    t = ann_and_bob()
    record = t.pull("c1", [6], attribute="presence", skill="intimidation", target="c2", resist=trait)
    assert record["pool"]["parts"][-1] == [f"Bob's {trait.title()}", -value]


def test_a_resisted_pool_driven_to_zero_risks_a_dramatic_failure() -> None:
    """Seed: a pool "reduced to 0 or less due to difficulty or penalties" and an Ace is a Dramatic
    Failure; we read Defence as one of those (it is subtracted from the pool)."""
    t = Table(c1=sheet("Ann", strength=1), c2=sheet("Bob", wits=3, dexterity=3))
    record = t.pull("c1", [1], attribute="strength", skill="brawl", target="c2", resist="defence")
    assert record["pool"]["size"] == 1 - 3 and record["dramatic"]


def test_a_number_the_storyteller_names_resists() -> None:
    t = ann_and_bob()
    record = t.pull("c1", [6], attribute="dexterity", skill="firearms", resist_value=2)
    assert record["pool"]["size"] == 3 and record["kind"] == "resisted"


def test_blood_potency_adds_to_a_resistance_trait_against_the_supernatural() -> None:
    """Seed: "Vampires will often add their Blood Potency to their Resistance traits when rolling
    vs. supernatural effects"."""
    t = Table(c1=sheet("Ann", presence=4), c2=sheet("Vlad", resolve=2, blood_potency=2))
    record = t.pull("c1", [6], attribute="presence", target="c2", resist="resolve", supernatural=True)
    assert record["pool"]["parts"][-2:] == [["Vlad's Resolve", -2], ["Vlad's Blood Potency", -2]]
    record = t.pull("c1", [6], attribute="presence", target="c2", resist="resolve")
    assert record["pool"]["size"] == 2  # not against a mundane test


def test_willpower_adds_three_to_the_pool_and_the_sheet_s_points_drop() -> None:
    """Seed: "Spending a point of Willpower adds 3 to your pool for a pull (generally adding a
    success)"; the issue: "the sheet's Willpower dots drop"."""
    t = ann_and_bob()
    plain = t.pull("c1", [3], attribute="dexterity", skill="firearms")
    spent = t.pull("c1", [3], attribute="dexterity", skill="firearms", willpower=True)
    assert (plain["total"], plain["successes"]) == (8, 1)
    assert (spent["total"], spent["successes"]) == (11, 2)  # "generally adding a success"
    assert spent["pool"]["parts"][-1] == ["Willpower", 3]
    assert t.sheets["c1"]["willpower_points"] == 3  # Resolve 2 + Composure 2, one spent
    assert "spends a Willpower point on +3 to the pool; 3 points left" in t.lines[-2]


def test_willpower_adds_two_to_a_resisting_trait_including_defence() -> None:
    """Seed: Willpower "adds 2 against a Resisted test (including attacks – spending a Willpower
    for +2 Defence can be a lifesaver in emergencies)"."""
    t = ann_and_bob()
    t.send({"type": "willpower", "combatant": "c2", "use": "resist"}, actor=player("c2", member=3))
    record = t.pull("c1", [6], attribute="strength", skill="brawl", target="c2", resist="defence")
    assert record["pool"]["parts"][-2:] == [["Bob's Defence", -2], ["Bob's Willpower", -2]]
    assert record["pool"]["size"] == 1 and t.sheets["c2"]["willpower_points"] == 6
    t.send({"type": "end_turn"})  # outside a fight the Storyteller calls a new turn
    t.send({"type": "willpower", "combatant": "c2", "use": "resist"})
    record = t.pull("c1", [6], attribute="presence", target="c2", resist="composure")
    assert record["pool"]["parts"][-1] == ["Bob's Willpower", -2]


def test_a_second_willpower_in_a_turn_is_refused() -> None:
    """Seed: "You may only spend one Willpower per turn (including Willpower spent to activate
    powers)"."""
    t = ann_and_bob()
    t.send({"type": "willpower", "combatant": "c1", "use": "power", "note": "Obfuscate"})
    with pytest.raises(WillpowerRefused, match="already spent a Willpower point this turn"):
        t.pull("c1", [3], attribute="dexterity", willpower=True)
    with pytest.raises(WillpowerRefused):
        t.send({"type": "willpower", "combatant": "c1", "use": "resist"})
    assert t.sheets["c1"]["willpower_points"] == 3


def test_no_willpower_left_is_refused() -> None:
    t = Table(c1=sheet("Ann", willpower_points=0))
    with pytest.raises(WillpowerRefused, match="no Willpower points left"):
        t.pull("c1", [3], attribute="wits", willpower=True)


def test_a_changed_sheet_is_read_before_the_pull() -> None:
    t = ann_and_bob()
    t.pull("c1", [3], attribute="dexterity")
    t.sheets["c1"]["dexterity"] = 5
    assert t.pull("c1", [3], attribute="dexterity")["total"] == 8
    # the sheet as the table holds it at each move (state.in_play): no copy of it in the log or the state
    assert {e["type"] for e in t.log} == {"pulled"} and "characters" not in t.state


def test_an_unknown_deck_or_command_is_refused() -> None:
    t = ann_and_bob()
    with pytest.raises(RuleError, match="There is no such command"):  # the core's dispatch
        t.send({"type": "explode"})
    from games.core.cards_port import StackedCards
    # No Harsh Light deck at the table: the refusal says how the GM brings one out.
    with pytest.raises(RuleError, match="The GM brings one out.*Ace to 10 \\(40 cards\\), named Harsh Light"):
        t.send({"type": "pull", "combatant": "c1", "attribute": "wits"}, StackedCards({"Fate": tokens(3)}))
    assert DECK == "Harsh Light" and t.state["recent"] == []


def test_outside_a_fight_the_storyteller_calls_the_next_turn_for_willpower() -> None:
    """Our reading of "You may only spend one Willpower per turn" without a turn order (issue
    22): a test does not end the turn; the Storyteller's new turn does."""
    t = ann_and_bob()
    t.pull("c1", [3], attribute="dexterity", willpower=True)
    with pytest.raises(WillpowerRefused, match="the Storyteller calls the next turn"):
        t.pull("c1", [3], attribute="dexterity", willpower=True)
    t.send({"type": "end_turn"})
    t.pull("c1", [3], attribute="dexterity", willpower=True)
    assert t.sheets["c1"]["willpower_points"] == 2


def test_the_untrained_penalty_is_the_storyteller_s_option_off_by_default() -> None:
    """The decided reading: "untrained Skills: the text has no penalty for a Skill at 0. The World of
    Darkness penalty (-3 Mental, -1 Physical and Social) is a table option the Storyteller turns
    on, off by default, and shown in the pool's breakdown when on"."""
    t = ann_and_bob()
    assert t.pull("c2", [5], attribute="intelligence", skill="occult")["pool"]["parts"] == [
        ["Intelligence", 2], ["Occult", 0]]
    with pytest.raises(NotYourMove):
        t.send({"type": "set_options", "untrained": True}, actor=player("c2", member=3))
    t.send({"type": "set_options", "untrained": True})
    assert t.lines[-1].startswith("The Storyteller turns the untrained Skill penalty on")
    assert t.pull("c2", [5], attribute="intelligence", skill="occult")["pool"]["parts"][-1] == [
        "untrained Mental Skill", -3]
    t.send({"type": "set_options"})
    assert t.pull("c2", [5], attribute="dexterity", skill="stealth")["pool"]["size"] == 2
