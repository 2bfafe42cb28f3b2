"""An NPC's figures reach the GM alone while the table keeps NPC sheets behind the screen
(``Seat.hidden``): its skills, attributes, AP, hand sizes, tracks and protection, and any odds
counted from them. What the rules make public stays public: its name, its focus, how many cards
it holds, the cards it plays, and a resolved attack's own figures.

Seeds README, decided readings: "an NPC's sheet is the GM's unless the GM shows it ... other
seats see its name and what the rules make public (a total, a track) and nothing more. Odds
that depend on a secret figure are shown to the GM alone."""

from __future__ import annotations

import json
from typing import Any

from games.contract import Seat
from games.shadows.audiences import audience
from games.shadows.narrate import summary
from games.shadows.panel import view
from tests.unit.shadows.kit import ANN, GM, Table, ann, character, of_type, stacked, t

# The Wraith: Rends 7, Quickness 8 (9 AP, Defence 8 + 2 protection), Body 6 + half Physical 6 = 9 cards.
WRAITH = character("c3", "Wraith", None, npc=True, skills={"rends": 7}, quickness=8, body=6, physical=6,
                   protection=2, health=37)
# Dealt quickest first: the Wraith's nine, then Ann's eight.
HANDS = ["W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "W10", "S12", "S3", "C4", "C5", "C6", "C7", "C8", "C9"]
PLAYER = Seat("player", member=2, controls=frozenset({"c1"}), hidden=frozenset({"c3"}))
SPECTATOR = Seat("spectator", hidden=frozenset({"c3"}))
FIGURES = ("ap", "ap_max", "skills", "hand_sizes", "tracks", "can_redeal", "npc_cards")


def _fight() -> Table:
    table = Table(stacked(HANDS))
    table.fight(ann(), WRAITH)
    return table


def _wraith(panel: dict[str, Any]) -> dict[str, Any]:
    return next(r for r in panel["combat"]["combatants"] if r["id"] == "c3")


def _no_figures(panel: dict[str, Any]) -> None:
    row = _wraith(panel)
    assert [k for k in FIGURES if k in row] == [] and row["sheet_shown"] is False
    # its focus is declared aloud; its hand size ("Body + 1/2xPhysical") is a figure of its sheet
    assert "hand_count" not in row and row["focus"] == "physical"
    assert "rends" not in json.dumps(panel).lower()


def test_a_player_and_a_spectator_get_none_of_an_npcs_figures_nor_odds_counted_from_them() -> None:
    table = _fight()
    table.send(ANN, "aim", combatant="c1", target="c3", weapon="Sword", skill="melee")
    for seat in (PLAYER, SPECTATOR):
        panel = view(table.state, seat)
        _no_figures(panel)
        if seat is PLAYER:
            # Ann's aim at the Wraith: a plain line, the odds are the GM's
            [aim] = panel["combat"]["aims"]
            assert aim["hidden"] is True and "odds" not in aim and "defence" not in aim
    gm = view(table.state, Seat("gm"))
    row = _wraith(gm)
    assert row["ap"] == row["ap_max"] == 9 and {"key": "rends", "label": "Rends", "value": 7} in row["skills"]
    assert {"key": "physical", "label": "Physical", "size": 9} in row["hand_sizes"]
    assert row["hand_count"] == 9
    [aim] = gm["combat"]["aims"]
    assert aim["defence"] == 10 and len(aim["odds"]) == 14
    # when the table shows NPC sheets (nothing hidden), a player sees them too
    shown = view(table.state, Seat("player", member=2, controls=frozenset({"c1"})))
    assert "skills" in _wraith(shown) and "odds" in shown["combat"]["aims"][0]


def test_the_turn_banner_names_an_npcs_ap_to_the_gm_alone() -> None:
    table = _fight()
    assert view(table.state, Seat("gm"))["turn"]["says"] == "Wraith acts (9 AP left)"
    for seat in (PLAYER, SPECTATOR):
        assert view(table.state, seat)["turn"]["says"] == "Wraith acts"


def test_an_attack_on_an_npc_waits_with_its_defence_the_gms_and_resolves_in_public() -> None:
    """A waiting attack on the Wraith: its Defence, what a dodge must add and how many cards it
    may dodge with are the GM's; once resolved, the Defence it met is everyone's."""
    table = _fight()
    table.send(ANN, "attack", combatant="c1", target="c3", weapon="Sword", cards=[t("S3")], skill="melee")
    for seat in (PLAYER, SPECTATOR):
        pending = view(table.state, seat)["combat"]["pending"]
        assert pending["defence_hidden"] is True and pending["value"] == 3 + 6
        assert not {"defence_now", "need", "max_cards", "defence_attribute"} & set(pending)
    pending = view(table.state, Seat("gm"))["combat"]["pending"]
    assert pending["defence_now"] == 10 and pending["need"] == 0 and pending["max_cards"] == 1
    table.send(GM, "defend", combatant="c3", cards=[])
    [met] = view(table.state, PLAYER)["combat"]["attacks"]
    assert met["defence"]["total"] == 10 and met["hit"] is False  # a resolution's own figures


def test_an_npcs_attack_shows_its_value_not_the_skill_behind_it() -> None:
    table = _fight()
    table.send(GM, "aim", combatant="c3", target="c1", weapon="Sword", skill="rends")
    events = table.send(GM, "attack", combatant="c3", target="c1", weapon="Sword", cards=[t("W9")], skill="rends")
    for seat in (PLAYER, SPECTATOR):
        panel = view(table.state, seat)
        pending = panel["combat"]["pending"]
        assert pending["value"] == 16 and pending["attack_hidden"] is True
        assert not {"skill", "skill_value", "accuracy"} & set(pending)
        assert panel["combat"]["aims"] == []  # the GM's aim for the Wraith
        assert "rends" not in json.dumps(panel).lower()
    assert view(table.state, Seat("gm"))["combat"]["pending"]["skill_value"] == 7
    aimed = of_type(table.log, "attack_aimed")[-1]
    assert audience(aimed).audience == "owner"  # an aim goes to its player and the GM alone (issue 25)
    for event in events:
        seen = audience(event)
        public = {k: v for k, v in event.items() if k not in seen.private}
        assert "rends" not in json.dumps(public).lower() and "skill_value" not in public
        assert seen.private_audience == "gm" and seen.private.get("skill") == "rends"


def test_an_npcs_events_keep_its_ap_hand_size_and_check_figures_in_the_gms_part() -> None:
    table = Table(stacked(HANDS))
    table.send(GM, "start_combat", combatants=[ann(), WRAITH])
    [focus] = table.send(GM, "declare_focus", combatant="c3", focus="physical")
    assert audience(focus).private == {"size": 9, "hand_from": {"body": 6, "physical": 6}}  # what it is counted from
    table.send(GM, "declare_focus", combatant="c1", focus="physical")
    table.send(GM, "deal")
    [done] = table.send(GM, "end_turn", combatant="c3")
    seen = audience(done)
    assert seen.private == {"ap": 9} and summary(done, table.state) == "Wraith is done acting for now."
    assert seen.private_note == "9 AP left for defence."
    [fixed] = table.send(GM, "adjust", combatant="c3", field="health", value="30")
    assert audience(fixed).audience == "gm"
    [out] = table.send(GM, "adjust", combatant="c3", field="in_fight", value="")
    assert audience(out).audience == "everyone"
    [ready] = table.send(GM, "prepare_check", character=WRAITH, skill="rends", attribute="body")
    seen = audience(ready)
    line = summary(ready, table.state)
    assert line == "Wraith gets ready to draw on a Normal check: one card or three?"
    assert "Rends 7" in seen.private_summary and seen.private["total"] == 7 + 6
    public = {k: v for k, v in ready.items() if k not in seen.private}
    assert "rends" not in json.dumps(public).lower() and "total" not in public
    prepared = view(table.state, PLAYER)["prepared"][0]
    assert prepared == {"combatant": "c3", "name": "Wraith", "complexity_label": "Normal", "hidden": True}
    assert view(table.state, Seat("gm"))["prepared"][0]["total"] == 13
    # a player character's check set up shows everyone its figures and odds, as before
    [mine] = table.send(ANN, "prepare_check", character=ann(), skill="melee", attribute="body")
    assert "Melee 6" in summary(mine, table.state) and "odds" in view(table.state, PLAYER)["prepared"][-1]


def test_an_npcs_hand_size_is_the_gms_in_the_deal_event_and_its_line() -> None:
    """Seed: the cards dealt are "based on that player's appropriate combat Attributes for their
    stated focus ... Physical ...: Body + 1/2xPhysical"; with NPC sheets secret (decided reading:
    other seats "see its name and what the rules make public ... and nothing more") how many cards
    the Wraith holds would give its Body and Physical away: the count is the GM's part."""
    from games.shadows.working import working

    table = Table(stacked(HANDS))
    table.send(GM, "start_combat", combatants=[ann(), WRAITH])
    for p in (ann(), WRAITH):
        table.send(GM, "declare_focus", combatant=p["id"], focus="physical")
    wraith, anns = table.send(GM, "deal")
    seen = audience(wraith)
    public = {k: v for k, v in wraith.items() if k not in seen.private}
    line = summary(wraith, table.state)
    assert seen.private["count"] == 9 and "count" not in public and "cards" not in public
    assert line == "Wraith is dealt a hand (Physical focus; how many cards is the GM's)."
    assert "9" not in json.dumps(public) + line and working(wraith, table.state) is None
    assert seen.private_summary.startswith("Wraith is dealt Two of Wands, ") and seen.private_summary.endswith("and Ten of Wands.")
    # a player's hand size is on a sheet everyone sees: counted aloud
    assert summary(anns, table.state) == "Ann is dealt 8 cards (Physical focus)." and "count" not in audience(anns).private
