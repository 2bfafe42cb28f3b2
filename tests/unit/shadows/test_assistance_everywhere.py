"""Assistance adds to every attempt, not only to checks (seed 000): "All types of actions use the
same basic mechanic"; "Assistance can be provided by a second or even a third character (subject
to GM approval, from a logistics standpoint). With one-half the second characters' skill being
added to the value of the attempt by the primary character and one-quarter of the third
characters' skill value being added if allowed by the GM." The GM's approval counts on the
character's next attempt (a check, a side of an opposed or multi-draw action, an attack) and is
used up by it."""

from __future__ import annotations

import json

from games.shadows.audiences import audience
from games.shadows.narrate import summary
from games.shadows.working import working
from tests.unit.shadows.kit import GM, Table, ann, bob, of_type, orc, stacked
from tests.unit.shadows.test_combat_procedure import attack, defend, fight

# Every sheet of the kit has Melee 6 and Chess 3; Bob (c2) helps Ann (c1), the Orc (c3) too.
HALF_BOB, QUARTER_ORC = 6 // 2, 6 // 4


def _sides(skill: str = "melee") -> list[dict]:
    return [{"character": ann(body=4), "skill": skill, "attribute": "body"},
            {"character": bob(body=4), "skill": skill, "attribute": "body"}]


def test_help_adds_to_an_opposed_sides_value_and_is_used_up() -> None:
    table = Table(stacked(["C9", "C9", "S3", "W5"]))  # the first draw for Ann, then Bob's
    table.send(GM, "approve_help", combatant="c1", helpers=["c3"])  # the Orc (no NPC here) helps Ann
    [made] = of_type(table.send(GM, "opposed", sides=_sides()), "opposed_resolved")
    ann_side = made["sides"][0]
    assert ann_side["assistance"] == 6 // 2 and ann_side["modifier"] == 6 + 4 + 3
    assert made["totals"][0] == 9 + 6 + 4 + 3
    assert table.state["help"] == {}  # used up by this attempt
    assert "+ 3 help (Orc)" in working(made, table.state).steps[0]
    [again] = of_type(table.send(GM, "opposed", sides=_sides()), "opposed_resolved")
    assert "assistance" not in again["sides"][0]  # the next attempt has no help unless approved again


def test_help_adds_to_each_draw_of_a_multi_draw_action() -> None:
    table = Table(stacked(["C5", "C5", "S2", "S2"]))
    table.send(GM, "approve_help", combatant="c1", helpers=["c2", "c3"])
    [started] = table.send(GM, "contest_start", sides=_sides("chess")[:1] + [
        {"character": orc(body=4), "skill": "chess", "attribute": "body"}], mode="draws", draws=2, scoring="points")
    # Bob's Chess 3 halves to 1, the Orc's quarters to 0 (rounded down)
    assert started["sides"][0]["assistance"] == 3 // 2 + 3 // 4
    assert table.state["help"] == {}
    contest = str(started["id"])
    [drawn] = table.send(GM, "contest_draw", contest=contest)
    assert drawn["totals"][0] == 5 + 3 + 4 + 1


def test_help_adds_to_an_attacks_value_and_shows_in_its_line() -> None:
    table = fight()
    table.send(GM, "approve_help", combatant="c1", helpers=["c2"])
    [declared] = attack(table, "S5")
    assert declared["assistance"] == HALF_BOB and declared["value"] == 5 + 6 + HALF_BOB
    assert table.state["help"] == {}
    assert "Five of Swords + Melee 6 + help 3 = attack 14" in summary(declared, table.state)
    assert "+ 3 help (Bob)" in working(declared, table.state).steps
    _, resolved = defend(table)
    assert resolved["value"] == 14 and "+ 3 help (Bob)" in working(resolved, table.state).steps
    [plain] = attack(table, "C3")  # the next attack: no help left
    assert plain["value"] == 3 + 6 and "assistance" not in plain


def test_an_npcs_help_is_a_figure_of_its_sheet_and_the_gms() -> None:
    """An NPC's sheet is the GM's (decided reading): half its skill would give it away."""
    table = fight()
    table.seat(bob(npc=True, skills={"melee": 10}))
    table.send(GM, "approve_help", combatant="c1", helpers=["c2"])
    [declared] = attack(table, "S5")
    assert declared["value"] == 5 + 6 + 5 and declared.get("npc")
    seen = audience(declared)
    public = {k: v for k, v in declared.items() if k not in seen.private}
    assert "assistance" in seen.private and "assistance" not in public
    assert "help 5" not in summary(declared, table.state) + json.dumps(public)


def test_an_aims_odds_count_the_help_the_attack_will_carry() -> None:
    """The chance each card gets the damage through counts "one-half the second characters' skill"
    as the attack will: the odds follow the value the rules will compute."""
    from games.contract import Seat
    from games.shadows import deck, odds
    from games.shadows.faces import chance
    from games.shadows.panel import view
    from tests.unit.shadows.kit import ANN

    table = fight()
    table.send(GM, "approve_help", combatant="c1", helpers=["c2"])
    table.send(ANN, "aim", combatant="c1", target="c3", weapon="Blade", skill="melee")
    [aim] = view(table.state, Seat("player", member=2, controls=frozenset({"c1"})))["combat"]["aims"]
    unseen = [c for c in deck.minor_tokens() if c not in set(table.person("c1")["hand"])]
    for row in aim["odds"]:
        exact = odds.attack_through(f"tarot:swords:{row['value']}", 6 + HALF_BOB, 5, defender_hand=8,
                                    defence_cards=1, unseen=unseen).hit
        assert row["chance"] == chance(exact), row


def test_an_npcs_help_stays_off_the_waiting_attacks_panel_for_the_players() -> None:
    from games.contract import Seat
    from games.shadows.panel import view

    table = fight()
    table.seat(bob(npc=True, skills={"melee": 10}))
    table.send(GM, "approve_help", combatant="c1", helpers=["c2"])
    attack(table, "S5")
    player = view(table.state, Seat("player", member=2, controls=frozenset({"c1"}), hidden=frozenset({"c2", "c3"})))
    assert "assistance" not in player["combat"]["pending"] and "helpers" not in player["combat"]["pending"]
    assert view(table.state, Seat("gm"))["combat"]["pending"]["assistance"] == 5
