"""Willpower on Defence at the moment of the attack (issue 26).

Seed 002: Willpower "adds 2 against a Resisted test (including attacks – spending a Willpower for
+2 Defence can be a lifesaver in emergencies)"; "You may only spend one Willpower per turn". Before,
a defender had to spend the point before the attacker pulled, and a point spent on its own action
lapsed unused. Now a pull resisted by a character who could still spend a point waits, before any
card, for that character's answer (or the Storyteller moving on)."""

from __future__ import annotations

import pytest

from games.contract import Seat
from games.core.engine import NotYourMove, RuleError
from tests.unit.harsh_light.conftest import GM, Table, player, sheet, tokens

ANN, BOB = player("c1", member=2), player("c2", member=3, name="Bo")


def fight() -> Table:
    t = Table(c1=sheet("Ann", strength=3, skills={"Brawl": 2}),
              c2=sheet("Bob", strength=3, wits=3, dexterity=3, skills={"Brawl": 2}))
    t.send({"type": "set_order", "order": ["c2", "c1"]})
    t.answer = None  # nobody answers for Bob: the test does
    return t


def bob_acts_then_ann_attacks(t: Table) -> list[dict]:
    t.send({"type": "dodge", "combatant": "c2"}, actor=BOB)  # Bob's own action: no point spent
    t.send({"type": "end_turn"}, actor=BOB)
    return t.send({"type": "pull", "combatant": "c1", "attribute": "strength", "skill": "brawl", "target": "c2",
                   "resist": "defence"}, [6], actor=ANN)


def test_an_attack_waits_for_the_target_s_answer_before_any_card() -> None:
    """Seed: "spending a Willpower for +2 Defence can be a lifesaver in emergencies": the attack
    waits, nothing drawn or spent, and every seat is told whose answer it waits for."""
    t = fight()
    events = bob_acts_then_ann_attacks(t)
    assert [e["type"] for e in events] == ["reaction_opened"] and t.drawn == []
    assert t.lines[-1] == "Ann attacks Bob: before the card, Bob may spend Willpower for +2 Defence, or take it."
    seen = t.view(Seat("player", member=2, controls=frozenset({"c1"})))
    assert seen["reaction"]["target"] == "c2" and seen["reaction"]["against"] == "Defence"
    assert seen["turn"]["combatant"] == "c2" and "Willpower for +2 Defence" in seen["turn"]["prompt"]
    assert t.status("c1")["acted"] is False and t.sheets["c2"].get("willpower_points") is None


def test_the_target_spends_willpower_when_attacked_and_its_defence_meets_the_pull_with_two_more() -> None:
    """Seed: Willpower "adds 2 against a Resisted test (including attacks ...)": spent at the
    attack, on Bob's Defence (doubled by his Dodge to 6), after his own action was done."""
    t = fight()
    bob_acts_then_ann_attacks(t)
    events = t.send({"type": "answer", "combatant": "c2", "willpower": True}, [6], actor=BOB)
    assert [e["type"] for e in events][:3] == ["reaction_answered", "willpower_spent", "pulled"]
    record = next(e for e in events if e["type"] == "pulled")["record"]
    assert record["pool"]["parts"][-2:] == [["Bob's Defence", -6], ["Bob's Willpower", -2]]
    assert record["pool"]["size"] == 3 + 2 - 6 - 2 and t.drawn == tokens(6)
    assert t.sheets["c2"]["willpower_points"] == 3 and t.state["reaction"] is None
    assert t.status("c1")["acted"] and not t.status("c2")["resist_willpower"]
    assert "Bob answers Ann's pull with Willpower: +2 Defence." in t.lines


def test_taking_it_or_the_storyteller_moving_on_makes_the_pull_without_the_point() -> None:
    """Seed: "one Willpower per turn": the point not spent stays; the pull is made as it stands.
    The Storyteller moves on for a player away (the same answer, sent by the GM)."""
    for actor, line in ((BOB, "Bob takes Ann's pull without Willpower."),
                        (GM, "The Storyteller moves on: Ann's pull is made without Bob's Willpower.")):
        t = fight()
        bob_acts_then_ann_attacks(t)
        events = t.send({"type": "answer", "combatant": "c2"}, [6], actor=actor)
        record = next(e for e in events if e["type"] == "pulled")["record"]
        assert record["pool"]["parts"][-1] == ["Bob's Defence", -6] and line in t.lines
        assert t.sheets["c2"].get("willpower_points") is None and not t.status("c2")["willpower_spent"]


def test_only_the_target_s_player_or_the_gm_answers_and_nothing_else_moves_meanwhile() -> None:
    """The pull is made when the target answers or the GM moves on: Ann may not answer for Bob,
    nor end her action, nor pull again while it waits."""
    t = fight()
    bob_acts_then_ann_attacks(t)
    with pytest.raises(NotYourMove):
        t.send({"type": "answer", "combatant": "c2"}, actor=ANN)
    with pytest.raises(RuleError, match="waits for Bob's answer"):
        t.send({"type": "end_turn"}, actor=ANN)
    with pytest.raises(RuleError, match="waits for Bob's answer"):
        t.pull("c1", [5], actor=ANN, attribute="wits", action="talking")
    assert t.state["reaction"]["target"] == "c2"


@pytest.mark.parametrize("why", ["spent", "kept to resist", "none left", "ranged"])
def test_no_window_when_the_target_could_not_spend_a_point_on_it(why: str) -> None:
    """Seed: "You may only spend one Willpower per turn"; "Defence usually doesn't apply against
    most ranged attacks": with nothing to answer, the attack is pulled at once."""
    t = fight()
    if why == "none left":
        t.sheets["c2"]["willpower_points"] = 0
    elif why != "ranged":
        t.send({"type": "willpower", "combatant": "c2", "use": "power" if why == "spent" else "resist"}, actor=BOB)
    t.send({"type": "dodge", "combatant": "c2"}, actor=BOB)
    t.send({"type": "end_turn"}, actor=BOB)
    events = t.send({"type": "pull", "combatant": "c1", "attribute": "strength", "skill": "brawl", "target": "c2",
                     "resist": "defence", "attack": "ranged" if why == "ranged" else "melee"}, [6], actor=ANN)
    assert "reaction_opened" not in [e["type"] for e in events] and t.drawn == tokens(6)


def test_an_npc_target_s_window_says_nothing_of_its_willpower_left() -> None:
    """The decided reading: an NPC's figures are the GM's: its window opens with no point left, and the
    GM answers it."""
    t = Table(c1=sheet("Ann", strength=3), c2=sheet("Ghoul", npc=True, willpower_points=0))
    t.answer = None
    events = t.send({"type": "pull", "combatant": "c1", "attribute": "strength", "target": "c2",
                     "resist": "defence"}, [6], actor=ANN)
    assert [e["type"] for e in events] == ["reaction_opened"]
    with pytest.raises(RuleError, match="no Willpower points left"):
        t.send({"type": "answer", "combatant": "c2", "willpower": True}, [6])
    assert any(e["type"] == "pulled" for e in t.send({"type": "answer", "combatant": "c2"}, [6]))


def test_a_pull_that_can_no_longer_be_made_lapses_when_answered() -> None:
    """No rule dead-ends: Ann falls while her pull waits; the answer closes it, nothing drawn."""
    t = Table(c1=sheet("Ann", strength=3), c2=sheet("Bob"))
    t.answer = None
    t.send({"type": "pull", "combatant": "c1", "attribute": "strength", "target": "c2", "resist": "composure"}, [6])
    t.send({"type": "harm", "combatant": "c1", "points": 7, "kind": "lethal"})
    events = t.send({"type": "answer", "combatant": "c2", "willpower": True}, [6])
    assert [e["type"] for e in events] == ["reaction_answered"] and events[0]["lapsed"] and t.drawn == []
    assert t.state["reaction"] is None and t.sheets["c2"].get("willpower_points") is None
