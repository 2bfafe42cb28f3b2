"""The combat turn: the order, one instant action each, Defence as it stands, Dodge, All-Out
Attack, ranged and thrown attacks, moving Speed once a turn."""

from __future__ import annotations

import pytest

from games.contract import Seat
from games.core.engine import NotYourMove, RuleError
from games.harsh_light.errors import OutOfTurn, WillpowerRefused
from tests.unit.harsh_light.conftest import Table, player, sheet, tokens

ANN, BOB, CAL = player("c1", member=2), player("c2", member=3, name="Bo"), player("c3", member=4, name="Cy")


def fight(order: tuple[str, ...] = ("c1", "c2", "c3")) -> Table:
    t = Table(c1=sheet("Ann", strength=3, skills={"Brawl": 2, "Firearms": 2}),
              c2=sheet("Bob", strength=3, wits=3, dexterity=3, skills={"Brawl": 2}),
              c3=sheet("Cal", strength=3, skills={"Weaponry": 2}))
    t.send({"type": "set_order", "order": list(order)})
    return t


def attack(t: Table, who: str, target: str, card: int, actor: dict, **extra: object) -> dict:
    skill = {"c1": "brawl", "c2": "brawl", "c3": "weaponry"}[who]
    return t.pull(who, [card], actor=actor, attribute="strength", skill=skill, target=target,
                  resist="defence", **extra)


def test_the_storyteller_sets_the_order_and_the_first_acts() -> None:
    """The issue: "whose action it is (an order the Storyteller sets ...)"."""
    t = fight(("c2", "c1", "c3"))
    assert t.state["combat"] and t.state["turn"] == 1 and t.state["acting"] == "c2"
    assert t.lines[-1] == "The Storyteller sets the order for turn 1: Bob, Ann, Cal."
    with pytest.raises(NotYourMove, match="Only the GM can set the turn order"):  # the core's refusal
        t.send({"type": "set_order", "order": ["c1"]}, actor=ANN)


def test_initiative_is_dexterity_plus_composure_plus_a_pull() -> None:
    """The issue: "initiative as World of Darkness rolls it, Dexterity + Composure + a pull"."""
    t = Table(c1=sheet("Ann", dexterity=3, composure=3), c2=sheet("Bob", dexterity=2, composure=2),
              c3=sheet("Cal", dexterity=4, composure=1))
    t.send({"type": "roll_initiative", "characters": ["c1", "c2", "c3"]}, [2, 9, 3])
    assert t.drawn == tokens(2, 9, 3)  # one card each, and a 9 brings no second
    assert {c: i["total"] for c, i in t.state["initiative"].items()} == {"c1": 8, "c2": 13, "c3": 8}
    # Ann and Cal tie at 8 on Dexterity + Composure 6 v 5: Ann first.
    assert t.state["order"] == ["c2", "c1", "c3"] and t.state["acting"] == "c2"
    assert "Initiative: Ann 6 + Two of Spades = 8; Bob 4 + Nine of Spades = 13" in t.lines[-1]


def test_a_ten_for_initiative_is_one_card() -> None:
    """Our reading: initiative is one pull with no again (World of Darkness rolls one die)."""
    t = Table(c1=sheet("Ann"))
    t.send({"type": "roll_initiative", "characters": ["c1"]}, [10, 10])
    assert t.drawn == tokens(10) and t.state["initiative"]["c1"]["total"] == 14


def test_an_instant_action_out_of_turn_is_refused() -> None:
    """The issue: "refused for anyone acting out of turn"; seed: "In combat, you get one instant
    action per turn"."""
    t = fight()
    with pytest.raises(OutOfTurn, match="It is Ann's action, not Bob's"):
        attack(t, "c2", "c1", 5, BOB)
    with pytest.raises(OutOfTurn, match="Ann's action"):
        t.send({"type": "dodge", "combatant": "c2"}, actor=BOB)
    with pytest.raises(OutOfTurn):
        t.send({"type": "end_turn", "combatant": "c2"}, actor=BOB)


def test_one_instant_action_per_turn() -> None:
    """Seed: "In combat, you get one instant action per turn (attacking, activating most powers,
    etc)"."""
    t = fight()
    attack(t, "c1", "c2", 5, ANN)
    with pytest.raises(OutOfTurn, match="already taken an instant action this turn"):
        attack(t, "c1", "c2", 5, ANN)
    with pytest.raises(OutOfTurn):
        t.send({"type": "dodge", "combatant": "c1"}, actor=ANN)


def test_reflexive_actions_are_taken_out_of_turn() -> None:
    """Seed: "Reflexive: ... you can take several Reflexive actions per turn (within reason).
    Examples include talking, activating simple powers, or resisting an opponent's power"."""
    t = fight()
    record = t.pull("c2", [5], actor=BOB, attribute="resolve", skill="composure", action="resisting")
    assert record["action"] == "resisting"
    t.pull("c2", [5], actor=BOB, attribute="wits", action="talking")
    assert not t.status("c2")["acted"]


def test_an_attack_is_never_reflexive() -> None:
    """Seed: "In combat, you get one instant action per turn (attacking, activating most powers,
    etc)": an attack cannot be slipped in out of turn as a reflexive action."""
    t = fight()
    with pytest.raises(RuleError, match="An attack is an instant action"):
        attack(t, "c2", "c1", 5, BOB, action="talking")


def test_the_turn_passes_down_the_order_and_a_new_turn_begins() -> None:
    t = fight()
    t.send({"type": "end_turn"}, actor=ANN)
    assert t.state["acting"] == "c2" and t.lines[-1] == "Ann's action is done. Bob acts."
    with pytest.raises(NotYourMove, match="You act only for the characters you control"):  # the core's
        t.send({"type": "end_turn"}, actor=ANN)
    t.send({"type": "end_turn"}, actor=BOB)
    t.send({"type": "end_turn"}, actor=CAL)
    assert t.state["turn"] == 2 and t.state["acting"] == "c1"
    assert t.lines[-1] == "Cal's action is done. Turn 2 begins. Ann acts."


def test_each_attack_lowers_defence_by_one_until_its_next_action() -> None:
    """Seed: "Each attack on an enemy lowers their Defence by 1 until their next action – gang up
    on people, try to avoid being ganged up on"."""
    t = fight(("c1", "c3", "c2"))
    first = attack(t, "c1", "c2", 5, ANN)
    assert first["pool"]["parts"][-1] == ["Bob's Defence", -3]
    t.send({"type": "end_turn"}, actor=ANN)
    second = attack(t, "c3", "c2", 5, CAL)
    assert second["pool"]["parts"][-1] == ["Bob's Defence", -2]
    assert t.status("c2")["attacks"] == 2
    t.send({"type": "end_turn"}, actor=CAL)  # Bob's action: his Defence is whole again
    assert t.status("c2")["attacks"] == 0
    t.send({"type": "end_turn"}, actor=BOB)
    assert attack(t, "c1", "c2", 5, ANN)["pool"]["parts"][-1] == ["Bob's Defence", -3]


def test_all_out_attack_adds_two_and_gives_up_defence_until_its_next_action() -> None:
    """Seed: "You can give up your Defence for a +2 to your pool in melee (known as an All-Out
    Attack)"."""
    t = fight()
    record = attack(t, "c1", "c2", 5, ANN, all_out=True)
    assert ["All-Out Attack", 2] in record["pool"]["parts"] and record["pool"]["size"] == 4
    t.send({"type": "end_turn"}, actor=ANN)
    back = attack(t, "c2", "c1", 5, BOB)
    assert ["Ann's Defence", 0] not in back["pool"]["parts"] and back["pool"]["size"] == 5
    t.send({"type": "end_turn"}, actor=BOB)
    t.send({"type": "end_turn"}, actor=CAL)
    assert not t.status("c1")["all_out"]  # her next action: her Defence is back


def test_all_out_is_a_melee_attack() -> None:
    """Seed: "+2 to your pool in melee"."""
    t = fight()
    with pytest.raises(RuleError, match="All-Out Attack is a melee attack"):
        attack(t, "c1", "c2", 5, ANN, all_out=True, attack="ranged")


def test_a_dodge_doubles_defence_until_its_next_turn_and_gives_up_the_attack() -> None:
    """Seed: "give up your attack to double your Defence until your next turn (known as a Dodge
    move)"."""
    t = fight(("c2", "c1", "c3"))
    t.send({"type": "dodge", "combatant": "c2"}, actor=BOB)
    assert t.lines[-1] == "Bob dodges: Defence doubled to 6 until Bob's next turn."
    with pytest.raises(OutOfTurn, match="already taken an instant action"):
        attack(t, "c2", "c1", 5, BOB)
    t.send({"type": "end_turn"}, actor=BOB)
    assert attack(t, "c1", "c2", 5, ANN)["pool"]["parts"][-1] == ["Bob's Defence", -6]
    t.send({"type": "end_turn"}, actor=ANN)
    # "Each attack" still takes 1 off the doubled Defence.
    assert attack(t, "c3", "c2", 5, CAL)["pool"]["parts"][-1] == ["Bob's Defence", -5]
    t.send({"type": "end_turn"}, actor=CAL)
    assert not t.status("c2")["dodging"]


def test_defence_does_not_apply_to_ranged_attacks_unless_within_arms_reach() -> None:
    """Seed: "Defence usually doesn't apply against most ranged attacks (unless your attacker is
    within arm's reach)"."""
    t = fight()
    shot = t.pull("c1", [5], actor=ANN, attribute="dexterity", skill="firearms", target="c2",
                  resist="defence", attack="ranged")
    assert shot["pool"]["size"] == 4 and shot["kind"] == "resisted"
    assert t.status("c2")["attacks"] == 0  # our reading: Defence not used, not worn down
    t.send({"type": "end_turn"}, actor=ANN)
    t.send({"type": "end_turn"}, actor=BOB)
    close = t.pull("c3", [5], actor=CAL, attribute="dexterity", skill="firearms", target="c2",
                   resist="defence", attack="ranged_close")
    assert close["pool"]["parts"][-1] == ["Bob's Defence", -3]


def test_defence_applies_to_thrown_attacks() -> None:
    """Seed: "The notable exception is Thrown Attacks, which do take Defence into account due to
    the relatively slow speed that the missile is traveling"."""
    t = fight()
    thrown = t.pull("c1", [5], actor=ANN, attribute="dexterity", skill="athletics", target="c2",
                    resist="defence", attack="thrown")
    assert thrown["pool"]["parts"][-1] == ["Bob's Defence", -3]
    assert t.status("c2")["attacks"] == 1


def test_willpower_for_defence_lasts_for_one_attack() -> None:
    """Seed: "spending a Willpower for +2 Defence can be a lifesaver in emergencies"."""
    t = fight(("c1", "c3", "c2"))
    t.send({"type": "willpower", "combatant": "c2", "use": "resist"}, actor=BOB)
    assert attack(t, "c1", "c2", 5, ANN)["pool"]["parts"][-2:] == [["Bob's Defence", -3], ["Bob's Willpower", -2]]
    t.send({"type": "end_turn"}, actor=ANN)
    assert attack(t, "c3", "c2", 5, CAL)["pool"]["parts"][-1] == ["Bob's Defence", -2]
    with pytest.raises(WillpowerRefused):  # one a turn
        t.send({"type": "willpower", "combatant": "c2", "use": "resist"}, actor=BOB)


def test_willpower_comes_back_with_a_new_turn() -> None:
    """Seed: "You may only spend one Willpower per turn": the next turn, another."""
    t = fight()
    t.pull("c1", [3], actor=ANN, attribute="strength", willpower=True)
    with pytest.raises(WillpowerRefused):
        t.send({"type": "willpower", "combatant": "c1", "use": "power"}, actor=ANN)
    for who in (ANN, BOB, CAL):
        t.send({"type": "end_turn"}, actor=who)
    t.send({"type": "willpower", "combatant": "c1", "use": "power"}, actor=ANN)
    assert t.sheets["c1"]["willpower_points"] == 2


def test_moving_speed_once_a_turn() -> None:
    """Seed: "All characters may move their Speed in steps as a reflexive action once per turn"."""
    t = fight()
    t.send({"type": "move", "combatant": "c2"}, actor=BOB)  # reflexive: out of its turn too
    assert t.lines[-1] == "Bob moves up to 11 steps."
    with pytest.raises(RuleError, match="already moved this turn"):
        t.send({"type": "move", "combatant": "c2"}, actor=BOB)
    for who in (ANN, BOB, CAL):
        t.send({"type": "end_turn"}, actor=who)
    t.send({"type": "move", "combatant": "c2"}, actor=BOB)


def test_a_dodge_needs_a_turn_order_and_the_fight_ends() -> None:
    t = Table(c1=sheet("Ann"))
    with pytest.raises(RuleError, match="needs a turn order"):
        t.send({"type": "dodge", "combatant": "c1"})
    t.send({"type": "set_order", "order": ["c1"]})
    t.send({"type": "dodge", "combatant": "c1"})
    t.send({"type": "end_combat"})
    assert not t.state["combat"] and t.state["order"] == [] and not t.status("c1")["dodging"]
    with pytest.raises(RuleError, match="No fight"):
        t.send({"type": "end_combat"})


def test_whether_an_action_is_reflexive_is_the_storyteller_s_call_not_a_box_the_player_ticks() -> None:
    """Seed: "In combat, you get one instant action per turn"; "Reflexive: ... Examples include
    talking, activating simple powers, or resisting an opponent's power". A player names a listed
    kind (talking, resisting a power) or asks the Storyteller, who may call any pull reflexive."""
    t = fight()
    for command in ({"type": "pull", "combatant": "c2", "attribute": "wits", "action": "reflexive"},
                    {"type": "set_up_pull", "combatant": "c2", "attribute": "wits", "action": "reflexive"}):
        with pytest.raises(RuleError, match="the Storyteller's call"):
            t.send(command, [5], actor=BOB)
    assert t.log[-1]["type"] == "order_set"
    t.send({"type": "set_up_pull", "combatant": "c2", "attribute": "wits", "action": "reflexive"})  # the GM's call
    t.pull("c2", [5], actor=BOB, set_up=True)  # Bob pulls it as the Storyteller set it up
    assert not t.status("c2")["acted"] and t.log[-1]["record"]["action"] == "reflexive"
    assert t.lines[-1].startswith("Bob pulls Wits (reflexive, the Storyteller's call): ")


def test_a_character_outside_the_turn_order_has_one_instant_action_a_turn_in_a_fight() -> None:
    """Seed: "In combat, you get one instant action per turn": Cal, left out of the order, is held
    to it too, until the next turn comes round."""
    t = fight(("c1", "c2"))
    t.pull("c3", [5], actor=CAL, attribute="wits")
    assert t.status("c3")["acted"]
    with pytest.raises(OutOfTurn, match="already taken an instant action this turn"):
        t.pull("c3", [5], actor=CAL, attribute="wits")
    t.pull("c3", [5], actor=CAL, attribute="wits", action="talking")  # a listed reflexive kind still goes
    t.send({"type": "end_turn"}, actor=ANN)
    t.send({"type": "end_turn"}, actor=BOB)
    t.pull("c3", [5], actor=CAL, attribute="wits")  # turn 2


def test_defence_lowered_outside_a_fight_comes_back_with_the_storyteller_s_new_turn() -> None:
    """Seed: "Each attack on an enemy lowers their Defence by 1 until their next action". Outside
    a fight, the Storyteller's "New turn" is everyone's next action: Bob's Defence is whole again."""
    t = Table(c1=sheet("Ann", strength=3, skills={"Brawl": 2}), c2=sheet("Bob", wits=3, dexterity=3))
    for _ in range(2):
        t.pull("c1", [5], attribute="strength", skill="brawl", target="c2", resist="defence")
    assert t.status("c2")["attacks"] == 2 and t.view(Seat("gm"))["others"][1]["defence"] == 1
    t.send({"type": "end_turn"})
    assert t.status("c2")["attacks"] == 0 and t.view(Seat("gm"))["others"][1]["defence"] == 3
    assert t.lines[-1] == "A new turn: everyone may spend Willpower again, and Defence comes back."
    record = t.pull("c1", [5], attribute="strength", skill="brawl", target="c2", resist="defence")
    assert ["Bob's Defence", -3] in record["pool"]["parts"]
