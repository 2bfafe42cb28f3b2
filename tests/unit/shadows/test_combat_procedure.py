"""Combat through the state machine: dealt hands, attacks, dodges, damage and criticals on
stacked decks, and the refusals the server must make."""

from __future__ import annotations

import pytest

from games.core.engine import NotYourMove, RuleError
from games.shadows import deck
from games.shadows.errors import NotEnoughAP, NotInHand, WrongStep
from tests.unit.shadows.kit import (
    ANN, ANN_MEMBER, BOB, GM, GM_MEMBER, Table, ann, bob, of_type, orc, stacked, t,
)

# Ann (Quickness 5: 8 AP; Body 5 + half Physical 5: 8 cards) is dealt first, then the Orc.
ANN_HAND = ["S12", "C3", "P10", "W1", "S5", "C11", "P2", "S14"]
ORC_HAND = ["C12", "P6", "W9", "S3", "C4", "P8", "W2", "S7"]

# One weapon per test, so the modifier and critical suit are known.
def weapon(**row) -> dict:
    return {"name": "Blade", "type": "physical", "modifier": "0", "fumble": 3, "critical": "cups",
            "modern": False, "ap": 1, "material": "steel", **row}


def fight(after: list[str] = (), *, table_weapon: dict | None = None, orc_sheet: dict | None = None) -> Table:
    table = Table(stacked(ANN_HAND + ORC_HAND + list(after)))
    table.send(GM, "set_weapons", weapons=[table_weapon or weapon()])
    table.fight(ann(), orc(**(orc_sheet or {})))
    return table


def attack(table: Table, *cards: str, actor: dict = ANN, **extra) -> list[dict]:
    return table.send(actor, "attack", combatant="c1", target="c3", weapon="Blade",
                      cards=[t(c) for c in cards], skill="melee", **extra)


def defend(table: Table, *cards: str, actor: dict = GM) -> list[dict]:
    return table.send(actor, "defend", combatant="c3", cards=[t(c) for c in cards])


def test_the_gm_deals_each_hand_face_down_to_its_player_by_focus() -> None:
    """Seed: "combat is handled by the GM shuffling the Minor Arcana and dealing out a number
    of cards to each player based on that player's appropriate combat Attributes for their
    stated focus"; "only the GM and the particular player will see their own card draws"."""
    table = fight()
    assert table.hand("c1") == [t(c) for c in ANN_HAND]
    assert table.hand("c3") == [t(c) for c in ORC_HAND]
    holders = {(token, holder) for _, token, to, holder in table.cards.placed if to == "hand"}
    assert holders == {(t(c), ANN_MEMBER) for c in ANN_HAND} | {(t(c), GM_MEMBER) for c in ORC_HAND}


def test_everyone_has_five_plus_half_quickness_ap_and_the_quicker_act_first() -> None:
    """Seed: "those with a higher Quickness attribute typically (but not always ...) going
    first"; "those with a higher Quickness attribute may be allowed to perform additional
    actions towards the end of each round when slower characters ... have finished"."""
    table = Table()
    table.send(GM, "start_combat", combatants=[ann(quickness=3), bob(quickness=16)])
    assert table.person("c1")["ap"] == 7 and table.person("c2")["ap"] == 13
    assert table.state["combat"]["order"] == ["c2", "c1"]


def test_the_next_to_act_goes_around_quickest_first_then_whoever_has_ap_left() -> None:
    from games.shadows.state import next_to_act

    table = Table(stacked(ANN_HAND + ORC_HAND))
    table.send(GM, "set_weapons", weapons=[weapon()])
    table.fight(ann(quickness=1), orc(quickness=9))
    assert table.state["combat"]["order"] == ["c3", "c1"] and next_to_act(table.state) == "c3"
    table.send(GM, "attack", combatant="c3", target="c1", weapon="Blade", cards=[table.hand("c3")[1]])
    assert next_to_act(table.state) is None  # the defence comes first
    table.send(ANN, "defend", combatant="c1", cards=[])
    assert next_to_act(table.state) == "c1"
    table.send(GM, "adjust", combatant="c1", field="ap", value=0)
    assert next_to_act(table.state) == "c3"  # the slower is done: the quicker acts on


def test_a_deal_waits_for_every_focus_then_gathers_the_whole_deck_first() -> None:
    """Seed: "combat is handled by the GM shuffling the Minor Arcana and dealing out a number
    of cards to each player": any card still out (in a hand, on the discard pile) comes back
    through the table's own gather before the first hand of a round is dealt."""
    table = Table()
    table.send(GM, "start_combat", combatants=[ann(), orc()])
    table.send(ANN, "declare_focus", combatant="c1", focus="mental")
    with pytest.raises(WrongStep, match="Orc"):
        table.send(GM, "deal")
    table.send(GM, "declare_focus", combatant="c3", focus="physical")
    table.cards.draw(deck.MINOR, 2, to="hand", holder=ANN_MEMBER)  # two cards still out
    table.cards.draw(deck.MINOR, 1, to="discard")
    dealt = table.send(GM, "deal")
    assert ("Minor Arcana", "*", "gathered", None) in table.cards.placed
    assert dealt[0]["gathered"] and not dealt[1]["gathered"]
    held = table.cards.held(deck.MINOR, ANN_MEMBER)
    assert sorted(held) == sorted(table.hand("c1")) and len(held) == 5 + 3


def test_a_player_declares_the_focus_only_for_their_own_character() -> None:
    table = Table()
    table.send(GM, "start_combat", combatants=[ann(), bob()])
    with pytest.raises(NotYourMove):
        table.send(ANN, "declare_focus", combatant="c2", focus="physical")


def test_giving_up_the_first_ap_redeals_up_to_three_cards() -> None:
    """Seed: "forego their first AP of action and instead discard and be re-dealt up to three
    cards"."""
    table = fight(["C9", "C10"])
    [event] = table.send(ANN, "redeal", combatant="c1", cards=[t("W1"), t("P2")])
    assert event["drawn"] == [t("C9"), t("C10")]
    assert t("W1") not in table.hand("c1") and t("C9") in table.hand("c1")
    assert table.person("c1")["ap"] == 7
    with pytest.raises(WrongStep):
        table.send(ANN, "redeal", combatant="c1", cards=[t("C3")])


def test_a_redeal_is_at_most_three_cards_and_only_before_acting() -> None:
    table = fight()
    with pytest.raises(RuleError):
        table.send(ANN, "redeal", combatant="c1", cards=[t(c) for c in ("C3", "P10", "W1", "S5")])
    attack(table, "S5")
    defend(table)
    with pytest.raises(WrongStep):
        table.send(ANN, "redeal", combatant="c1", cards=[t("C3")])


def test_an_attack_plays_a_card_from_the_hand_and_spends_ap() -> None:
    table = fight()
    [declared] = attack(table, "S5")
    assert declared["value"] == 5 + 6
    assert t("S5") not in table.hand("c1") and table.person("c1")["ap"] == 7
    assert table.state["combat"]["pending"]["id"] == declared["id"]


def test_the_server_refuses_a_card_not_in_the_hand() -> None:
    table = fight()
    with pytest.raises(NotInHand):
        attack(table, "C12")  # the Orc's card
    with pytest.raises(NotInHand):
        attack(table, "S9")  # still in the deck


def test_the_server_refuses_an_action_without_the_ap() -> None:
    table = fight()
    table.send(GM, "adjust", combatant="c1", field="ap", value=0)
    with pytest.raises(NotEnoughAP):
        attack(table, "S5")


def test_the_server_refuses_acting_for_another_players_character() -> None:
    table = fight()
    with pytest.raises(NotYourMove):
        attack(table, "S5", actor=BOB)
    attack(table, "S5")
    with pytest.raises(NotYourMove):
        defend(table, actor=ANN)  # the Orc is the GM's


def test_extra_ap_adds_cards_and_extra_effort_cards_must_not_be_faces() -> None:
    """Seed: "Some actions can utilize additional AP's ... to add additional cards"; "it is
    also possible to use extra cards without any extra AP cost ... however when doing this
    only non-face-cards can be used for any of the cards used for that Action"."""
    table = fight(orc_sheet={"health": 80, "life": 80})  # the first blow (27) does not fell it
    [paid] = attack(table, "S12", "S14", ap=2)
    assert paid["value"] == 12 + 14 + 6 and not paid["extra_effort"]
    defend(table)
    with pytest.raises(RuleError, match="extra effort"):
        attack(table, "C11", "C3", ap=1)
    [effort] = attack(table, "S5", "C3", ap=1)
    assert effort["extra_effort"] and effort["value"] == 5 + 3 + 6 and table.person("c1")["ap"] == 5
    with pytest.raises(RuleError):
        table.send(GM, "defend", combatant="c3", cards=[t("W9"), t("S3")])  # one AP spent: one card


def test_spending_ap_that_pays_for_no_card_is_refused() -> None:
    with pytest.raises(RuleError, match="pays for 3 cards"):
        attack(fight(), "S5", ap=3)


def test_a_miss_does_no_damage() -> None:
    table = fight()
    attack(table, "C3")  # 3 + 6 = 9
    [_, resolved] = defend(table, "P6")  # 5 + 12 = 17
    assert not resolved["hit"] and resolved["damage"] == 0 and resolved["raw"] == 9 - 17


def test_damage_with_the_attacks_suit_is_the_full_value() -> None:
    """Seed: "Damage is determined by the attacker's attack value ... minus their opponents
    Defense value plus the attacker's attack skill value"."""
    table = fight()
    attack(table, "S5")  # 5 + 6 = 11 against Quickness 5
    [_, resolved] = defend(table)
    assert resolved["raw"] == 6 and resolved["base"] == 6 and resolved["damage"] == 6
    assert table.person("c3")["health"] == 20 - 6 and table.person("c3")["life"] == 20 - 6


def test_damage_with_another_suit_is_one_point_plus_the_modifier() -> None:
    table = fight(["C9"], table_weapon=weapon(modifier="D1"))
    attack(table, "P10")  # 10 + 6 = 16 against 5
    [_, resolved] = defend(table)
    assert resolved["base"] == 1 and resolved["modifier"]["value"] == 9 and resolved["damage"] == 10


@pytest.mark.parametrize("code, drawn, added", [
    ("D1", ["C9"], 9), ("D2", ["C9", "W4"], 13), ("L2", ["C9", "W4"], 4), ("H2", ["C9", "W4"], 9),
    ("L3", ["C9", "W4", "P12"], 13), ("H3", ["C9", "W4", "P12"], 21), ("M3", ["C9", "W4", "P12"], 9),
])
def test_each_damage_modifier_is_drawn_from_the_deck(code: str, drawn: list[str], added: int) -> None:
    """Seed: "D1 => Draw one card ... M3 => Draw three cards and use the middle of the three
    values as the added damage"."""
    table = fight(drawn, table_weapon=weapon(modifier=code))
    attack(table, "S5")
    [_, resolved] = defend(table)
    assert resolved["modifier"] == {"code": code, "cards": [t(c) for c in drawn], "value": added}
    assert resolved["damage"] == 6 + added


def test_a_face_attack_draws_a_minor_critical() -> None:
    """Seed: "further increased by an additional card drawn from the deck (not from the
    attacker's hand) if the attack card played was a face card and the defense card was not a
    face card. With the value of this drawn card also being added to the result as a minor
    critical"."""
    table = fight(["C5"])
    attack(table, "S12")  # 12 + 6 against 5 = 13
    [_, resolved] = defend(table, "W2")
    assert [s["card"] for s in resolved["chain"]] == [t("C5")]
    assert resolved["critical"] == "minor" and resolved["damage"] == 13 - 2 + 5


def test_a_face_card_in_the_defence_prevents_the_critical() -> None:
    """Seed: "If this defense card is a face card, then it will allow for the countering of
    (prevention of) one level of critical"."""
    table = fight(["C5"])
    attack(table, "S12")
    [_, resolved] = defend(table, "C12")
    assert resolved["chain"] == [] and resolved["critical_prevented"] and resolved["critical"] is None


def test_a_face_card_in_the_chain_goes_on_to_a_major_critical_of_the_weapons_suit() -> None:
    """Seed: "if this second extra damage card is also a face card, then a third ... card is
    drawn. This third card and any additional cards ... add effects indicating a Major
    Critical, as indicated by the following Major Critical Table for any cards that are drawn
    for the suit indicating the type of critical that the weapon or attack being used"."""
    table = fight(["W12", "C6"])
    attack(table, "S12")
    [_, resolved] = defend(table)
    assert [(s["kind"], s["value"]) for s in resolved["chain"]] == [("minor", 12), ("major", 6)]
    assert resolved["critical"] == "major"
    assert resolved["criticals"][0]["card"] == t("C6") and resolved["criticals"][0]["effect"]
    assert resolved["damage"] == 13 + 12 + 6


def test_a_major_critical_of_the_wrong_suit_adds_its_value_instead() -> None:
    """Seed: "If this major critical is of the wrong suit for the type of critical that they
    weapon or attack normally does, then the value of the card is added to the damage instead"."""
    table = fight(["W12", "S6"])
    attack(table, "S12")
    [_, resolved] = defend(table)
    assert [s["kind"] for s in resolved["chain"]] == ["minor", "added"]
    assert resolved["criticals"] == [] and resolved["critical"] == "minor"
    assert resolved["damage"] == 13 + 12 + 6


def test_each_face_card_drawn_continues_the_chain() -> None:
    """Seed: "This face card additional draw can happen an indefinite number of times (each
    time a face card is drawn, draw another card), possibly resulting in a catastrophic
    critical result"."""
    table = fight(["W12", "C13", "S11", "C11", "P3"])
    attack(table, "S14")  # 14 + 6 against 5 = 15
    [_, resolved] = defend(table)
    assert [s["kind"] for s in resolved["chain"]] == ["minor", "major", "added", "major", "added"]
    assert [c["card"] for c in resolved["criticals"]] == [t("C13"), t("C11")]
    assert resolved["damage"] == 15 + 12 + 13 + 11 + 11 + 3


def test_the_gm_announces_a_critical_when_ready() -> None:
    table = fight(["W12", "C6"])
    attack(table, "S12")
    defend(table)
    assert table.state["combat"]["criticals"][0]["announced"] is False
    with pytest.raises(NotYourMove):
        table.send(ANN, "announce_critical")
    [said] = table.send(GM, "announce_critical", text="Her blade opens an artery.")
    assert said["effect"] == "Her blade opens an artery."
    assert table.state["combat"]["criticals"][0]["announced"] is True


def test_a_dodge_card_adds_its_value_and_pentacles_count_double() -> None:
    table = fight()
    attack(table, "S14")  # 20
    [_, resolved] = defend(table, "P8")  # 5 + 16
    assert resolved["defence"]["card_total"] == 16 and resolved["raw"] == 20 - 21


def test_cover_is_the_gms_and_accuracy_offsets_it() -> None:
    table = fight()
    attack(table, "S14", accuracy=True)  # Ann's Accuracy 5
    with pytest.raises(NotYourMove):
        table.send(ANN, "set_cover", cover=15)
    table.send(GM, "set_cover", cover=15)
    [_, resolved] = defend(table)
    assert resolved["defence"]["bonus"] == 10 and resolved["raw"] == 20 - 15


def test_an_ace_attack_may_fumble_against_the_weapons_fumble_value() -> None:
    """Seed: "If this occurs in combat, then an additional Minor Arcana card is immediately
    drawn and compared to the Fumble value for the attack/weapon being used and if it is
    equal to or less than this value, a fumble occurs"."""
    table = fight(["C2"])
    [declared] = attack(table, "W1")
    assert declared["fumble"] == {"card": t("C2"), "fumble_value": 3, "fumbled": True}
    assert table.state["combat"]["pending"] is None
    table = fight(["C9"])
    [declared] = attack(table, "W1")
    assert declared["fumble"]["fumbled"] is False and table.state["combat"]["pending"]


def test_a_modern_weapon_takes_a_fifth_from_life() -> None:
    table = fight(table_weapon=weapon(modern=True))
    attack(table, "S5", "S14", ap=2)  # 5 + 14 + 6 - 5 = 20, no critical (the lead is a Five)
    [_, resolved] = defend(table)
    assert resolved["tracks"] == {"health": 20, "life": 4}


def test_armour_then_vulnerability() -> None:
    table = fight(orc_sheet={"armour": 2, "vulnerabilities": "steel"})
    attack(table, "S5")  # 6, armour 2, steel doubles
    [_, resolved] = defend(table)
    assert resolved["total"] == 6 and resolved["damage"] == 8


def test_an_attack_outside_the_focus_takes_minus_three() -> None:
    table = Table(stacked(ANN_HAND + ORC_HAND))
    table.send(GM, "set_weapons", weapons=[weapon()])
    table.send(GM, "start_combat", combatants=[ann(), orc()])
    table.send(ANN, "declare_focus", combatant="c1", focus="mental")
    table.send(GM, "declare_focus", combatant="c3", focus="physical")
    table.send(GM, "deal")
    assert len(table.hand("c1")) == 5 + 3  # Mind 5 + half Mental 5
    [declared] = attack(table, "S5")
    assert declared["off_focus"] == -3 and declared["value"] == 5 + 6 - 3


def test_one_attack_at_a_time_and_the_defence_comes_from_the_target() -> None:
    table = fight()
    attack(table, "S5")
    with pytest.raises(WrongStep):
        attack(table, "C3")
    with pytest.raises(RuleError):
        table.send(GM, "defend", combatant="c1", cards=[])
    with pytest.raises(WrongStep):
        table.send(GM, "new_round")


def test_a_check_in_a_round_costs_ap_and_may_play_from_the_hand() -> None:
    table = fight(["P4"])
    [made, *_] = table.send(ANN, "check", character=ann(), skill="stealth", attribute="quickness",
                            complexity="mundane", cards=1, from_hand=[t("S14")])
    assert made["cards"] == [t("S14")] and made["extra"] == t("P4")
    assert table.person("c1")["ap"] == 7 and t("S14") not in table.hand("c1")


def test_a_new_round_gathers_the_cards_and_restores_ap() -> None:
    table = fight()
    attack(table, "S5")
    defend(table, "P6")
    table.send(GM, "new_round")
    person = table.person("c1")
    assert person["hand"] == [] and person["ap"] == person["ap_max"] == 8 and person["focus"] is None
    assert table.state["combat"]["played"] == []


def test_the_end_of_combat_writes_the_tracks_back() -> None:
    from games.shadows.writeback import writeback

    table = fight()
    attack(table, "S5")
    defend(table)
    [ended] = table.send(GM, "end_combat")
    # what is whole is left blank ("Blank while unhurt"), as it was before the fight
    assert writeback(ended, table.state)["c3"] == {"health_now": 14, "life_now": 14, "aessence_now": None}
    assert writeback(ended, table.state)["c1"] == {"health_now": None, "life_now": None, "aessence_now": None}
    assert table.state["combat"] is None


def test_a_player_characters_tracks_go_back_after_each_hit_an_npcs_at_the_end() -> None:
    """Seed: a hit "does one point of damage" or "the full value" to Health and Life; the
    character card beside the table shows Health now of whole, so a player character's tracks
    go back to its sheet after every hit and every correction; an NPC's sheet is the GM's,
    and its tracks go back when the fight ends."""
    from games.shadows.writeback import writeback

    table = fight()  # the Orc (c3) played by someone: its card is everyone's
    [resolved] = [e for e in attack(table, "S5") + defend(table) if e["type"] == "attack_resolved"]
    assert writeback(resolved, table.state) == {"c3": {"health_now": 14, "life_now": 14, "aessence_now": None}}
    [fixed] = table.send(GM, "adjust", combatant="c1", field="health", value="7")
    assert writeback(fixed, table.state) == {"c1": {"health_now": 7, "life_now": None, "aessence_now": None}}
    npc = fight(orc_sheet={"npc": True})
    [resolved] = [e for e in attack(npc, "S5") + defend(npc) if e["type"] == "attack_resolved"]
    assert npc.person("c3")["health"] == 14 and writeback(resolved, npc.state) == {}
    [ended] = npc.send(GM, "end_combat")
    assert writeback(ended, npc.state)["c3"] == {"health_now": 14, "life_now": 14, "aessence_now": None}


def test_damage_goes_to_the_target_only() -> None:
    table = fight()
    attack(table, "S5")
    defend(table)
    assert table.person("c1")["health"] == 20
    assert of_type(table.log, "attack_resolved")[0]["tracks"] == {"health": 6, "life": 6}
