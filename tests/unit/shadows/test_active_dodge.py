"""A counter in combat as an Active Dodge (seed 000, Counter Actions; the decided
reading: "a counter in combat is declared against an attack before it resolves, costs its AP,
and lowers that attack's value; an unused counter lapses at the end of the round")."""

from __future__ import annotations

from games.shadows.narrate import summary
from tests.unit.shadows.kit import GM, Table, ann, of_type, orc, stacked, t
from tests.unit.shadows.test_combat_procedure import ANN_HAND, ORC_HAND, attack, defend, weapon


def _fight(after: list[str]) -> Table:
    table = Table(stacked(ANN_HAND + ORC_HAND + after))
    table.send(GM, "set_weapons", weapons=[weapon()])
    table.fight(ann(), orc())
    return table


def test_a_counter_against_a_waiting_attack_lowers_that_attack() -> None:
    """Seed: a counter "can also be used in combat as an Active Dodge"; "If their draw is of the
    appropriate suit and the result is higher than the draw of their opponent, then the value of
    the card drawn as the counter action minus the value of the card draw for the action being
    performed by the target of the counter action is subtracted from the value of the target's
    total draw value"; it "results in a delay of one Action Point"."""
    table = _fight(["C9"])
    [declared] = attack(table, "S5")  # Five of Swords + Melee 6 = 11
    assert declared["value"] == 11
    before = table.person("c3")["ap"]
    [countered] = table.send(GM, "counter", character="c3", target="c1", suits=["cups"])
    assert countered["attack"] == declared["id"]
    assert countered["card"] == t("C9") and countered["reduction"] == 9 - 5
    assert table.person("c3")["ap"] == before - 1
    assert table.state["combat"]["pending"]["value"] == 7
    assert table.state["counters"] == []  # spent on this attack, not waiting for another
    _, resolved = defend(table)
    assert resolved["value"] == 7 and resolved["countered"] == 4


def test_a_counter_of_a_suit_not_accepted_leaves_the_attack_as_it_was() -> None:
    """Seed: "If their draw is of the appropriate suit ..." (else nothing is taken off)."""
    table = _fight(["S9"])
    attack(table, "S5")
    [countered] = table.send(GM, "counter", character="c3", target="c1", suits=["cups"])
    assert countered["reduction"] == 0
    assert table.state["combat"]["pending"]["value"] == 11


def test_a_counter_in_a_round_that_is_not_used_lapses_at_the_rounds_end() -> None:
    """Decided reading: "an unused counter lapses at the end of the round"; it never takes
    points off a check after the fight."""
    table = _fight(["C14"])
    table.send(GM, "counter", character="c3", target="c1", suits=["cups"])
    assert len(table.state["counters"]) == 1  # waits for Ann's next action this round
    table.send(GM, "new_round")
    assert table.state["counters"] == []
    table.send(GM, "counter", character="c3", target="c1", suits=["cups"])
    table.send(GM, "end_combat")
    assert table.state["counters"] == []
    made = of_type(table.send(GM, "check", character=ann(), skill="melee", attribute="body", cards=1),
                   "check_made")[0]
    assert made["counters"] == [] and made["reduction"] == 0



def test_the_log_says_what_an_active_dodge_took_off() -> None:
    table = _fight(["C9"])
    attack(table, "S5")
    table.send(GM, "counter", character="c3", target="c1", suits=["cups"])
    _, resolved = defend(table)
    said = [summary(e, table.state) for e in table.log]
    assert any("an Active Dodge: Nine of Cups against the attack card's 5: -4 off the attack" in s for s in said)
    assert "- 4 countered" in summary(resolved, table.state)


def test_a_counter_declared_before_its_target_attacks_lowers_that_attack_when_it_comes() -> None:
    """Seed: "Counter Actions are when one person is trying to counter an action being performed
    by someone else ... and can also be used in combat as an Active Dodge"; "Performing such a
    "counter action" in a combat round results in a delay of one Action Point"; "the value of the
    card drawn as the counter action minus the value of the card draw for the action being
    performed by the target of the counter action is subtracted from the value of the target's
    total draw value". Decided reading: it "lowers that attack's value"."""
    table = _fight(["C9"])
    before = table.person("c3")["ap"]
    [declared_counter] = table.send(GM, "counter", character="c3", target="c1", suits=["cups"])
    assert "attack" not in declared_counter and table.person("c3")["ap"] == before - 1
    events = attack(table, "S5")  # Five of Swords + Melee 6 = 11, then the counter meets it
    declared, met = of_type(events, "attack_declared")[0], of_type(events, "counter_applied")[0]
    assert declared["value"] == 11
    assert met["attack"] == declared["id"] and met["card"] == t("C9") and met["reduction"] == 9 - 5
    assert table.state["combat"]["pending"]["value"] == 7
    assert table.state["counters"] == []  # spent on this attack
    assert table.person("c3")["ap"] == before - 1  # its AP was paid when declared, once
    assert summary(met, table.state) == ("Orc's counter meets Ann's attack: Nine of Cups against the attack "
                                         "card's 5: -4 off the attack.")
    _, resolved = defend(table)
    assert resolved["value"] == 7 and resolved["countered"] == 4
    assert "- 4 countered" in summary(resolved, table.state)


def test_a_counter_met_by_an_attack_counts_only_a_suit_that_counts() -> None:
    """Seed: "If their draw is of the appropriate suit and the result is higher than the draw of
    their opponent" (else nothing is taken off); it is spent all the same."""
    table = _fight(["S9"])
    table.send(GM, "counter", character="c3", target="c1", suits=["cups"])
    met = of_type(attack(table, "S5"), "counter_applied")[0]
    assert met["reduction"] == 0 and table.state["combat"]["pending"]["value"] == 11
    assert table.state["counters"] == []
