"""Shadows on the one engine (issue 24): its move table and folds are the core's to run; the
state keeps no copy of the platform's data (who the GM is, a sheet), a rule reads them from the
``Turn`` under the table's lock; a form's value is judged once, by its parser."""

from __future__ import annotations

import pytest

from games.core.engine import RuleError
from games.shadows import SYSTEM, moves
from games.shadows.audiences import AUDIENCES
from games.shadows.campaign import closing_parse
from games.shadows.state import new_state
from games.shadows.system import ENGINE
from tests.unit.shadows.kit import (
    ANN, ANN_MEMBER, BOB, BOB_MEMBER, GM, Table, ann, bob, character, of_type, orc, stacked, t,
)
from tests.unit.shadows.test_sheet_and_web import seat


def test_the_system_runs_on_the_one_engine_with_an_audience_for_every_fold() -> None:
    assert SYSTEM.engine is ENGINE and ENGINE.moves == moves.MOVES
    # with its clock (campaign.py), the core adds the GM's moves of time, conditions and options
    assert SYSTEM.commands == ENGINE.all_moves and set(moves.MOVES) <= set(SYSTEM.commands)
    assert ENGINE.events == frozenset(SYSTEM.audience_rules)


def test_no_state_keeps_the_gms_member_id_nor_does_any_event() -> None:
    """Issue 24: "Shadows smuggles gm_member through its first event". The GM's moves leave no
    member id in the state or in their events but a hand's holder, the rules' own record."""
    table = Table(stacked(["C1"], majors=["M16"]))
    assert "gm_member" not in new_state()
    table.send(GM, "approve_help", combatant="c1", helpers=["c2"])
    table.send(GM, "check", character=ann(), skill="", attribute="mind", complexity="normal", cards=1)
    table.fight(ann(), orc())
    assert "gm_member" not in table.state
    assert all("gm_member" not in event for event in table.log)


def test_whose_hand_a_deal_fills_is_read_from_the_table_at_the_deal() -> None:
    """Hands are dealt to member ids: to whoever plays the character at the table when the GM
    deals (a character handed to another player before the deal goes to their hand)."""
    table = Table(stacked(["S12", "C3", "P10", "W1", "S5", "C11", "P2", "S14"]))
    table.send(GM, "start_combat", combatants=[ann(), bob()])
    for cid in ("c1", "c2"):
        table.send(GM, "declare_focus", combatant=cid, focus="physical")
    table.seat(character("c2", "Bob", ANN_MEMBER))  # Bob's player hands Bob to Ann
    dealt = {e["combatant"]: e["holder"] for e in of_type(table.send(GM, "deal"), "hand_dealt")}
    assert dealt == {"c1": ANN_MEMBER, "c2": ANN_MEMBER}
    assert sorted(table.cards.held("Minor Arcana", ANN_MEMBER)) == sorted(table.hand("c1") + table.hand("c2"))
    assert table.cards.held("Minor Arcana", BOB_MEMBER) == []


def test_a_check_reads_the_sheet_as_the_table_has_it_when_it_is_drawn() -> None:
    """The parser sends the character's id, not its sheet: the handler reads the sheet under the
    table's lock, as it is then."""
    table = Table(stacked(["C9", "C9"]))
    table.seat(ann(quickness=7))
    args = moves.check({"character": ["1"], "skill": ["stealth"], "attribute": ["quickness"],
                        "complexity": ["mundane"]}, seat())
    table.seat(ann(quickness=12))  # the sheet changes between the form and the draw
    [made] = table.play.send("check", args, ANN, cards=table.cards, table=table.characters)
    assert made["attribute_value"] == 12 and made["total"] == 9 + 4 + 12


def test_a_player_sends_only_the_moves_of_the_character_they_play_and_the_core_says_so() -> None:
    """The sender is checked once, by the core, against the character the move names: Bob may
    not aim with Ann's character, and no handler repeats it."""
    from games.core.engine import NotYourMove

    table = Table(stacked(["S12", "C3", "P10", "W1", "S5", "C11", "P2", "S14"]))
    table.fight(ann(), bob())
    with pytest.raises(NotYourMove, match="You act only for the characters you control."):
        table.send(BOB, "aim", combatant="c1", target="c2", weapon="Sword")
    table.send(ANN, "aim", combatant="c1", target="c2", weapon="Sword")


def test_a_card_kept_past_forty_characters_is_refused_not_cut_short() -> None:
    """One policy for a submitted value: what is malformed is refused with a clear message."""
    with pytest.raises(RuleError, match="A card kept is named by its card id"):
        closing_parse({"keep_1": ["tarot:major:" + "1" * 40]}, seat())
    assert closing_parse({"keep_1": [t("M3")]}, seat()) == {"keep": {"c1": t("M3")}}
