"""All or Nothing Actions (seed 000), judged on fixed card values and through the engine."""

from __future__ import annotations

import pytest

from games.core.engine import NotYourMove, RuleError
from games.shadows import resolution as r
from games.shadows.errors import GMOnly
from tests.unit.shadows.kit import ANN, ANN_MEMBER, GM, GM_MEMBER, Table, ann, bob, of_type, orc, stacked, t

NORMAL = r.complexity("normal")


@pytest.mark.parametrize("key, fumble_top, success, critical", [
    ("mundane", 1, 15, 30), ("simple", 1, 20, 35), ("normal", 1, 25, 40), ("difficult", 2, 30, 45),
    ("hard", 2, 35, 50), ("very_hard", 3, 40, 60), ("extremely_hard", 3, 45, 65), ("absurd", 4, 50, 70),
])
def test_the_complexity_table_row_by_row(key: str, fumble_top: int, success: int, critical: int) -> None:
    """Seed: "Mundane draw value of 1 <15 15+ 30+" ... "Absurd draw value of 1-4 <50 50+ 70+"."""
    level = r.complexity(key)
    assert (level.fumble_top, level.success, level.critical) == (fumble_top, success, critical)
    assert r.band(success - 1, level) == r.FAILURE
    assert r.band(success, level) == r.SUCCESS
    assert r.band(critical - 1, level) == r.SUCCESS
    assert r.band(critical, level) == r.CRITICAL_SUCCESS
    assert r.is_fumble(fumble_top, level) and not r.is_fumble(fumble_top + 1, level)


def test_a_single_card_counts_its_value_and_three_count_the_middle() -> None:
    """Seed: "If three cards are drawn, then the middle value of the three cards is used,
    otherwise the value of the single card drawn is used"."""
    assert r.judge([9], None, 10, NORMAL).total == 19
    assert r.judge([2, 13, 7], None, 10, NORMAL).drawn == 7
    assert r.judge([2, 13, 7], None, 10, NORMAL).total == 17


def test_a_single_king_draws_another_card_and_adds_it() -> None:
    """Seed: "If a single card was used and it is a King, then an additional card is drawn
    and its value added"."""
    assert r.earns_extra_card([14])
    assert not r.earns_extra_card([13])
    assert r.judge([14], 5, 10, NORMAL).total == 29


def test_three_face_cards_draw_another_card_and_add_it() -> None:
    """Seed: "if three cards were drawn and all three cards are face cards (they can be any
    face cards), then an additional card is drawn and added to the result"."""
    assert r.earns_extra_card([11, 12, 11])
    assert not r.earns_extra_card([10, 14, 14])  # a King in the middle of three is not enough
    assert r.judge([11, 14, 12], 9, 3, NORMAL).total == 12 + 9 + 3


def test_the_extra_card_goes_only_with_a_king_or_three_faces() -> None:
    with pytest.raises(ValueError):
        r.judge([9], 4, 0, NORMAL)
    with pytest.raises(ValueError):
        r.judge([14], None, 0, NORMAL)


def test_a_queen_single_or_in_the_middle_earns_a_major_arcana() -> None:
    """Seed: "If the card drawn on a single card draw or the middle value card for a three
    card draw is a Queen, then the character can also draw a card from the Major Arcana"."""
    assert r.earns_major_arcana([13])
    assert r.earns_major_arcana([2, 13, 14])
    assert not r.earns_major_arcana([13, 13 - 12, 2])  # the Queen is the highest, not the middle


@pytest.mark.parametrize("key, values", [
    ("mundane", [1]), ("simple", [1]), ("normal", [1]), ("difficult", [1, 2]), ("hard", [1, 2]),
    ("very_hard", [1, 2, 3]), ("extremely_hard", [1, 2, 3]), ("absurd", [1, 2, 3, 4]),
])
def test_the_fumble_band_grows_with_complexity(key: str, values: list[int]) -> None:
    """Seed: "if the complexity and/or risk of the action is difficult or worse, then a fumble
    may occur on a card draw of higher than a 1 (see table below)"."""
    level = r.complexity(key)
    assert [v for v in range(1, 15) if r.is_fumble(v, level)] == values


def test_a_fumble_fails_at_once_whatever_the_total() -> None:
    """Seed: "If this occurs when performing a skill check, the skill check automatically
    fails"; two aces put one in the middle of three."""
    assert r.judge([1], None, 60, r.complexity("mundane")).band == r.FUMBLE
    assert r.judge([1, 1, 14], None, 60, r.complexity("mundane")).band == r.FUMBLE
    assert r.judge([1, 5, 14], None, 60, r.complexity("mundane")).band == r.CRITICAL_SUCCESS


def test_assistance_adds_half_the_second_and_a_quarter_of_the_third() -> None:
    """Seed: "one-half the second characters' skill being added ... and one-quarter of the
    third characters' skill value". Halves and quarters round down."""
    assert r.assistance([8]) == 4
    assert r.assistance([8, 8]) == 6
    assert r.assistance([7, 7]) == 3 + 1
    with pytest.raises(RuleError):
        r.assistance([1, 2, 3])


def test_a_counter_of_an_accepted_suit_and_higher_takes_off_the_difference() -> None:
    """Seed: "If their draw is of the appropriate suit and the result is higher than the draw
    of their opponent, then the value of the card drawn as the counter action minus the value
    of the card draw for the action ... is subtracted"."""
    assert r.counter_effect(t("C12"), 7, ["cups"]) == 5
    assert r.counter_effect(t("S12"), 7, ["cups"]) == 0  # not a suit the GM accepts
    assert r.counter_effect(t("C7"), 7, ["cups"]) == 0  # not higher


# --- through the engine -----------------------------------------------------------------


def check(table: Table, actor: dict, who: dict, **args) -> list[dict]:
    base = {"character": who, "skill": "stealth", "attribute": "quickness", "complexity": "normal", "cards": 1}
    return table.send(actor, "check", **{**base, **args})


def test_a_check_draws_face_up_and_totals_draw_skill_and_attribute() -> None:
    """Seed: "To the randomized value of the card draw is added the character's skill value
    and for that action and the most appropriate Attribute value"."""
    table = Table(stacked(["C9"]))
    [made] = check(table, ANN, ann(quickness=7), complexity="mundane")
    assert made["cards"] == [t("C9")] and made["total"] == 9 + 4 + 7 and made["band"] == r.SUCCESS
    assert table.cards.placed[0] == ("Minor Arcana", t("C9"), "discard", None)


def test_three_cards_are_declared_and_the_middle_counts() -> None:
    table = Table(stacked(["C2", "W13", "S8"]))
    [made] = check(table, ANN, ann(), cards=3)
    assert made["drawn"] == 8 and made["count"] == 3


def test_a_single_king_draws_the_extra_card_in_the_engine() -> None:
    table = Table(stacked(["C14", "S6"]))
    [made] = check(table, ANN, ann(quickness=5))
    assert made["extra"] == t("S6") and made["total"] == 14 + 6 + 4 + 5


def test_a_queen_puts_a_major_arcana_in_the_players_hand_and_on_the_sheet() -> None:
    """Seed: the Major Arcana "can be used from a story perspective by the player"."""
    table = Table(stacked(["P13"], majors=["M17"]))
    events = check(table, ANN, ann())
    [kept] = of_type(events, "major_arcana_kept")
    assert kept["card"] == t("M17") and kept["holder"] == ANN_MEMBER
    assert ("Major Arcana", t("M17"), "hand", ANN_MEMBER) in table.cards.placed
    assert table.state["held"]["c1"] == [t("M17")]


def test_an_npcs_queen_goes_to_the_gms_hand() -> None:
    table = Table(stacked(["P13"], majors=["M3"]))
    [_, kept] = check(table, GM, orc())
    assert kept["holder"] == GM_MEMBER


def test_a_fumble_fails_and_the_gm_draws_a_major_arcana_as_the_guide() -> None:
    """Seed: "the skill check automatically fails and the GM draws a Major Arcana card, which
    is then used as a guide as to what the failing results of the attempt are"."""
    table = Table(stacked(["C1"], majors=["M16"]))
    made, guide = check(table, GM, ann(quickness=20), helpers=[bob()])  # the GM draws for Ann
    assert made["band"] == r.FUMBLE
    assert guide["type"] == "guide_drawn" and guide["holder"] == GM_MEMBER
    assert ("Major Arcana", t("M16"), "hand", GM_MEMBER) in table.cards.placed


def test_a_players_fumble_leaves_its_guide_for_the_gm_to_draw() -> None:
    """Seed: on a fumble "the GM draws a Major Arcana card". The table hands a rule who sends
    the move, not who the GM is: on a player's fumble the guide waits for the GM, who draws it
    into their own hand."""
    table = Table(stacked(["C2"], majors=["M0"]))
    made, pending = check(table, ANN, ann(), complexity="hard")
    assert made["band"] == r.FUMBLE and pending["type"] == "guide_pending"
    [drawn] = table.send(GM, "draw_guide")
    assert drawn["card"] == t("M0") and drawn["holder"] == GM_MEMBER
    assert ("Major Arcana", t("M0"), "hand", GM_MEMBER) in table.cards.placed
    [shown] = table.send(GM, "show_guide")
    assert shown["meaning"].startswith("Beginnings")
    with pytest.raises(RuleError):
        table.send(ANN, "show_guide")


def test_a_player_checks_only_for_their_own_character() -> None:
    table = Table()
    with pytest.raises(NotYourMove):
        check(table, ANN, bob())


def test_only_the_gm_adds_a_modifier() -> None:
    table = Table()
    with pytest.raises(GMOnly):
        check(table, ANN, ann(), modifier=5)
    check(table, GM, ann(), modifier=5)


def test_assistance_needs_the_gms_approval() -> None:
    """Seed: "Assistance can be provided by a second or even a third character (subject to
    GM approval, from a logistics standpoint)"."""
    table = Table(stacked(["C5", "C6"]))
    with pytest.raises(GMOnly):
        check(table, ANN, ann(), helpers=[bob(skills={"stealth": 8})])
    table.send(GM, "approve_help", combatant="c1", helpers=["c2", "c3"])
    [made] = check(table, ANN, ann(quickness=5), helpers=[bob(skills={"stealth": 8}), orc(skills={"stealth": 8})])
    assert made["assistance"] == 4 + 2 and made["total"] == 5 + 4 + 5 + 6
    with pytest.raises(GMOnly):  # the approval was for that check
        check(table, ANN, ann(), helpers=[bob(skills={"stealth": 8})])


def test_an_unknown_skill_is_refused_rather_than_taken_as_untrained() -> None:
    with pytest.raises(RuleError, match="no skill called"):
        check(Table(), ANN, ann(), skill="stelth")


def test_a_declared_counter_works_on_the_targets_next_check() -> None:
    """Seed: "Counter Actions are when one person is trying to counter an action being
    performed by someone else without direct contact"."""
    table = Table(stacked(["C9", "S13"]))
    table.send(GM, "counter", combatant="c2", target="c1", suits=["swords"])
    [made] = check(table, ANN, ann(quickness=10))
    assert made["counters"][0]["reduction"] == 13 - 9
    assert made["total"] == 9 + 4 + 10 - 4
    assert table.state["counters"] == []


def test_three_cards_cannot_be_asked_as_two() -> None:
    with pytest.raises(RuleError):
        check(Table(), ANN, ann(), cards=2)
