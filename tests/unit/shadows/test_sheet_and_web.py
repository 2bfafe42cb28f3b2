"""The sheet, the form parsers (moves.py), the odds page and the registration."""

from __future__ import annotations

import pytest

from games.contract import Character, Table as Seat
from games.core.engine import RuleError
from games.registry import check_registration
from games.shadows import SYSTEM, moves, odds_page
from games.shadows.errors import WrongStep
from games.shadows.profile import profile
from games.shadows.sheet import clean_sheet, derived
from games.sheets import SheetError
from tests.unit.shadows.kit import ANN, GM, Table, ann, orc, stacked, t


def read_id(raw: object) -> int | None:
    try:
        return int(str(raw))
    except ValueError:
        return None


def seat() -> Seat:
    """The table as a parser reads it: its characters, and no state (a parser never reads it)."""
    people = (
        Character(1, "c1", "Ann", clean_sheet({"quickness": 7, "skills": "Melee: 6\nStealth: 4"}), owner=2),
        Character(2, "c2", "Bob", clean_sheet({}), owner=3),
        Character(3, "c3", "Orc", clean_sheet({"armour": 2}), owner=None, is_npc=True),
    )
    return Seat(characters=people, read_id=read_id)


def test_the_sheet_cleans_numbers_skills_and_held_cards() -> None:
    sheet = clean_sheet({"quickness": "9", "skills": "Melee: 6\nFirst aid: 3", "held_major_arcana": [t("M3"), "junk"]})
    assert sheet["quickness"] == 9 and sheet["skills"] == {"melee": 6, "first_aid": 3}
    assert sheet["held_major_arcana"] == [t("M3")]
    with pytest.raises(SheetError) as caught:
        clean_sheet({"quickness": "fast"})
    assert caught.value.field == "quickness"
    with pytest.raises(SheetError):
        clean_sheet({"body": 99})


def test_the_sheet_derives_ap_and_hand_sizes() -> None:
    rows = dict(derived(clean_sheet({"quickness": 16, "body": 6, "physical": 5})))
    assert rows["Action Points"] == "13" and rows["Hand, Physical focus"] == "9"
    assert "Major Arcana held" in dict(derived({**clean_sheet({}), "held_major_arcana": [t("M0")]}))


def test_a_profile_refuses_what_it_cannot_read() -> None:
    with pytest.raises(RuleError):
        profile({"name": "No id"})
    with pytest.raises(RuleError):
        profile({"id": "c1", "owner": "Ann"})


def test_the_registration_passes_the_registrys_checks() -> None:
    assert check_registration(SYSTEM) is SYSTEM
    assert SYSTEM.key == "shadows" and SYSTEM.engine is not None
    assert SYSTEM.panel is not None and SYSTEM.panel.template == "games/shadows/panel.html#panel"
    assert [p.slug for p in SYSTEM.pages] == ["odds"]


def test_every_move_is_registered_and_a_players_names_its_character() -> None:
    """The move table is the one list of moves (the engine's, the platform's); a player's move
    names the character it is for in ``combatant``, which the core checks the sender plays."""
    # the system's moves, then the core's of time and conditions (it has a clock: campaign.py) and
    # the GM's award of experience (it has awards: games/core/growth.py)
    assert SYSTEM.commands[: len(moves.MOVES)] == moves.MOVES
    assert {m.name for m in SYSTEM.commands[len(moves.MOVES):]} == {"pass_time", "add_condition", "end_condition",
                                                                     "set_option", "award"}
    controller = {m.name for m in moves.MOVES if m.sender == "controller"}
    assert controller == {"prepare_check", "cancel_check", "check", "ask_help", "spend_arcana", "declare_focus", "redeal",
                          "aim", "attack", "end_turn", "defend"}
    assert {m.subject for m in moves.MOVES if m.sender == "controller"} == {"combatant"}


def test_a_check_form_names_the_character_and_its_helpers_by_their_combatant_ids() -> None:
    """No sheet rides in the arguments: the handler reads the sheets under the table's lock."""
    args = moves.check({"character": ["1"], "skill": ["stealth"], "attribute": ["quickness"],
                        "complexity": ["hard"], "cards": ["3"], "helpers": ["2", "1"]}, seat())
    assert args["combatant"] == "c1" and "character" not in args and args["cards"] == 3
    assert args["helpers"] == ["c2"]
    with pytest.raises(RuleError):
        moves.check({"character": ["99"]}, seat())
    with pytest.raises(RuleError):
        moves.check({"character": ["1"], "cards": ["three"]}, seat())


def test_the_combat_forms() -> None:
    table = seat()
    assert moves.start_combat({"characters": ["1", "3"]}, table)["combatants"] == ["c1", "c3"]
    assert moves.declare_focus({"character": ["1"], "focus": ["mental"]}, table) == {"combatant": "c1", "focus": "mental"}
    with pytest.raises(RuleError):
        moves.declare_focus({"character": ["1"], "focus": ["emotional"]}, table)
    attack = moves.attack({"character": ["1"], "target": ["3"], "weapon": ["Sword"], "cards": [t("S12"), t("C3")],
                           "ap": ["2"], "accuracy": ["on"]}, table)
    assert attack["cards"] == [t("S12"), t("C3")] and attack["ap"] == 2 and attack["accuracy"] is True
    # a defence that names nobody is the waiting attack's target's: the handler reads it under the lock
    assert moves.defend({"cards": [t("P6")]}, table) == {"cards": [t("P6")]}
    assert moves.defend({"combatant": ["c3"], "cards": []}, table) == {"combatant": "c3", "cards": []}
    with pytest.raises(WrongStep, match="No combat is under way"):
        Table().send(GM, "defend", cards=[])
    idle = Table(stacked())
    idle.fight(ann(), orc())
    with pytest.raises(WrongStep, match="No attack is waiting for a defence"):
        idle.send(GM, "defend", cards=[])


def test_the_gms_tables_parse_from_text() -> None:
    weapons = moves.set_weapons({"table": ["Axe | physical | H3 | 3 | pentacles | muscle | 2 | steel"]}, seat())
    assert weapons["weapons"][0]["ap"] == 2 and weapons["weapons"][0]["modifier"] == "H3"
    with pytest.raises(RuleError, match="line 1"):
        moves.set_weapons({"table": ["Axe | physical | X9 | 3 | pentacles | muscle"]}, seat())
    tables = moves.set_criticals({"table": ["swords 11-14 | Knocked senseless."]}, seat())["tables"]
    assert tables["swords"]["12"] == "Knocked senseless." and tables["cups"] == {}


def test_the_odds_page_never_refuses() -> None:
    page = odds_page.odds_context({"modifier": ["lots"], "card": ["nonsense"]})
    assert page["modifier"] == 15 and page["attack"]["card"] == "tarot:swords:10"
    assert len(page["rows"]) == 16 and set(page["rows"][0]) >= {"fumble", "failure", "success", "critical_success"}
    attack = odds_page.odds_context({"card": ["swords:12"], "skill": ["5"], "defence": ["8"]})["attack"]
    assert attack["value"] == 17 and attack["hit"] == "100 %"


def test_hand_odds_rate_each_card_of_a_hand() -> None:
    table = Table(stacked(["S12", "C3", "P10", "W1", "S5", "C11", "P2", "S14"]))
    table.fight(ann(), orc())
    rows = odds_page.hand_odds(table.state, "c1", "c3", "Sword", skill=6)
    assert [r["token"] for r in rows] == table.hand("c1")
    king, three = rows[-1], rows[1]
    assert float(king["hit"]) > float(three["hit"])


def test_the_engine_runs_a_parsed_move_with_the_sheet_the_table_has() -> None:
    table = Table(stacked(["C9"]))
    table.seat(ann(quickness=7, skills={"stealth": 4}))
    args = moves.check({"character": ["1"], "skill": ["stealth"], "attribute": ["quickness"],
                        "complexity": ["mundane"]}, seat())
    [made] = table.play.send("check", args, ANN, cards=table.cards, table=table.characters)
    assert made["total"] == 9 + 4 + 7
    weapons = moves.set_weapons({"table": ["Axe | physical | 2 | 3 | cups | muscle"]}, seat())
    table.play.send("set_weapons", weapons, GM, cards=table.cards, table=table.characters)
    assert table.state["weapons"][0]["modifier"] == "2"
