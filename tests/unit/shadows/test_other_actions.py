"""Opposed, multi-draw and counter actions, and the Major Arcana a character holds."""

from __future__ import annotations

from games.contract import Seat

import pytest

from games.core.engine import NotYourMove, RuleError
from games.shadows.audiences import audience
from games.shadows.errors import NotInHand
from games.shadows.panel import view
from tabletop.permissions import Standing, Verb, can
from tests.unit.shadows.kit import ANN, BOB, GM, Table, ann, bob, of_type, stacked, t


def sides(skill_a: int = 3, skill_b: int = 3) -> list[dict]:
    return [{"character": ann(skills={"chess": skill_a}, mind=5), "skill": "chess", "attribute": "mind"},
            {"character": bob(skills={"chess": skill_b}, mind=5), "skill": "chess", "attribute": "mind"}]


def test_opposed_the_higher_total_wins() -> None:
    """Seed: "each drawing a single card from the Minor Arcana deck and adding their
    appropriate skill and attribute for the task or action and then comparing the results,
    with the higher result being successful"."""
    table = Table(stacked(["C9", "W4"]))
    [done] = table.send(GM, "opposed", sides=sides())
    assert done["totals"] == [9 + 8, 4 + 8] and done["winner"] == "c1"


def test_an_opposed_tie_draws_again_until_one_side_wins() -> None:
    """Seed: "If this results in a tie, then both sides draw an additional card, continuing to
    do so until one side succeeds". The additional cards add to each total."""
    table = Table(stacked(["C9", "W9", "C5", "W5", "C2", "P7"]))
    [done] = table.send(GM, "opposed", sides=sides())
    assert done["ties"] == 2 and done["draws"] == [[[t("C9")], [t("C5")], [t("C2")]],
                                                   [[t("W9")], [t("W5")], [t("P7")]]]
    assert done["winner"] == "c2" and done["totals"] == [17 + 5 + 2, 17 + 5 + 7]


def test_an_opposed_king_adds_a_card_and_a_queen_earns_a_major_arcana() -> None:
    table = Table(stacked(["C14", "C3", "W13"], majors=["M7"]))
    done, kept = table.send(GM, "opposed", sides=sides())
    assert done["totals"] == [14 + 3 + 8, 13 + 8]
    assert kept["combatant"] == "c2" and kept["card"] == t("M7")


def test_only_the_gm_runs_an_opposed_action() -> None:
    with pytest.raises(NotYourMove, match="Only the GM can draw for an opposed action."):
        Table().send(ANN, "opposed", sides=sides())


def test_a_multi_draw_of_a_fixed_number_counts_draws_won() -> None:
    """Seed: "how many draws are made and keeping track of either the number of "draws" won
    by each player or the total points accumulated"."""
    table = Table(stacked(["C9", "W4", "C2", "W8", "C10", "W3"]))
    [started] = table.send(GM, "contest_start", sides=sides(), mode="draws", draws=3, scoring="wins")
    for _ in range(3):
        [drawn] = table.send(GM, "contest_draw", contest=started["id"])
    assert drawn["score"] == [2, 1] and drawn["winner"] == "c1"
    with pytest.raises(RuleError):
        table.send(GM, "contest_draw", contest=started["id"])


def test_a_multi_draw_counting_points_that_ends_level_goes_on() -> None:
    table = Table(stacked(["C9", "W4", "C2", "W7", "C5", "W3"]))
    [started] = table.send(GM, "contest_start", sides=sides(), mode="draws", draws=2, scoring="points")
    table.send(GM, "contest_draw", contest=started["id"])
    [second] = table.send(GM, "contest_draw", contest=started["id"])
    assert second["score"] == [11 + 16, 11 + 16] and second["winner"] is None
    [third] = table.send(GM, "contest_draw", contest=started["id"])
    assert third["winner"] == "c1"


def test_a_multi_draw_margin_is_the_gms_secret() -> None:
    """Seed: "until that difference is reached by one player or the other (it is best of the
    GM does not let either party know what this difference value is"."""
    table = Table(stacked(["C9", "W2", "C8", "W2"]))
    [started] = table.send(GM, "contest_start", sides=sides(), mode="margin", margin=12)
    seen = audience(started)
    assert seen.private == {"margin": 12} and seen.private_audience == "gm"
    assert "margin" not in view(table.state, Seat("player"))["contests"][0]
    assert view(table.state, Seat("gm"))["contests"][0]["margin"] == 12
    [first] = table.send(GM, "contest_draw", contest=started["id"])
    assert first["winner"] is None  # 7 ahead
    [second] = table.send(GM, "contest_draw", contest=started["id"])
    assert second["winner"] == "c1"  # 13 ahead


def test_a_counter_in_a_round_costs_an_ap() -> None:
    """Seed: "Performing such a "counter action" in a combat round results in a delay of one
    Action Point (or more, if the GM deems it appropriate"."""
    table = Table()
    table.fight(ann(), bob())
    table.send(GM, "counter", character="c2", target="c1", suits=["cups"])
    assert table.person("c2")["ap"] == table.person("c2")["ap_max"] - 1
    table.send(GM, "counter", character="c2", target="c1", suits=["cups"], ap=2)
    assert table.person("c2")["ap"] == table.person("c2")["ap_max"] - 3


def test_a_counter_needs_a_suit_the_gm_accepts() -> None:
    with pytest.raises(RuleError, match="Name the suits"):
        Table().send(GM, "counter", character="c2", target="c1", suits=[])
    with pytest.raises(NotYourMove):
        Table().send(BOB, "counter", character="c2", target="c1", suits=["cups"])


def test_a_held_major_arcana_is_spent_upright_or_reversed_with_its_meaning() -> None:
    """Seed: "Such fate influences can be based off of the standard or inverted (players
    choice) meaning of the Major Arcana that they have gained"."""
    table = Table(stacked(["C13"], majors=["M17"]))
    table.send(ANN, "check", character=ann(), skill="stealth", attribute="mind", complexity="normal", cards=1)
    with pytest.raises(NotYourMove):
        table.send(BOB, "spend_arcana", combatant="c1", card=t("M17"))
    [spent] = table.send(ANN, "spend_arcana", combatant="c1", card=t("M17"), reversed=True)
    assert spent["meaning"] == "Lack of faith, despair, discouragement"
    table.send(GM, "judge_spend", spend=spent["id"], verdict="approve")
    assert table.state["held"]["c1"] == []
    with pytest.raises(NotInHand):
        table.send(ANN, "spend_arcana", combatant="c1", card=t("M17"))


def test_the_tower_reads_with_its_traditional_meaning() -> None:
    """Seed README: the seed's Tower copies the Devil's; the traditional meanings are used."""
    table = Table(stacked(["C13"], majors=["M16"]))
    table.send(ANN, "check", character=ann(), skill="", attribute="mind", complexity="normal", cards=1)
    [spent] = table.send(ANN, "spend_arcana", combatant="c1", card=t("M16"))
    assert spent["meaning"] == "Sudden upheaval, revelation, chaos, awakening"


def test_at_most_one_major_arcana_carries_over_to_the_next_session() -> None:
    """Seed: "The GM may allow for up to one Major Arcana to be carried over into the next
    session, but it is up to the GM to decide"."""
    table = Table(stacked(["C13", "W13"], majors=["M1", "M2"]))
    for _ in range(2):
        table.send(ANN, "check", character=ann(), skill="", attribute="mind", complexity="normal", cards=1)
    assert table.state["held"]["c1"] == [t("M1"), t("M2")]
    # the GM's to close: the platform's verb for it is the GM's alone (a player's close is a 403)
    assert can(Standing.GM, Verb.SESSION_MANAGE) and not can(Standing.PLAYER, Verb.SESSION_MANAGE)
    [ended] = table.close_session(keep={"c1": t("M2")})
    assert table.state["held"] == {"c1": [t("M2")]} and ended["dropped"] == {"c1": [t("M1")]}


def test_the_sheet_shows_the_cards_held() -> None:
    from games.shadows.writeback import writeback

    table = Table(stacked(["C13"], majors=["M9"]))
    events = table.send(ANN, "check", character=ann(), skill="", attribute="mind", complexity="normal", cards=1)
    [kept] = of_type(events, "major_arcana_kept")
    assert writeback(kept, table.state) == {"c1": {"held_major_arcana": [t("M9")]}}
    shown = view(table.state, Seat("spectator"))["held"]["c1"]["cards"][0]
    assert shown["name"] == "The Hermit" and shown["reversed_meaning"] == "Isolation, loneliness, withdrawal"
