"""An NPC's figures are the Director's (issue 21; the decided reading: "an NPC's sheet is the GM's
unless the GM shows it ... Odds that depend on a secret figure are shown to the GM alone"),
while seed 001's Game State lists "each Persona's Health, Fatigue, Combat Eligibility and
Combat Status" and every roll is made in the open: the panel for each seat, and the Director's
part of each event."""

from __future__ import annotations

from games.contract import GM_PART, Seat
from games.passages.panel import view
from games.passages.system import SYSTEM
from tests.unit.passages.helpers import GARBO, TRAYER, Scene

PLAYER = Seat("player", member=2, controls=frozenset({"c1"}), hidden=frozenset({"c2"}))
FIGURES = ("Two-Hander", "25", "flail", "Naturally Armored", "-1")


def declared() -> Scene:
    """The worked example's duel as the table plays it, Garbo the Director's NPC: each move
    settled by the registration (its Director's part given)."""
    t = Scene()
    t.send({"type": "combat_start", "combatants": [TRAYER, {**GARBO, "npc": True}]})
    t.send({"type": "declare", "combatant": "c1", "stance": "in", "target": "c2"})
    t.send({"type": "declare", "combatant": "c2", "stance": "in", "target": "c1"})
    return t


def test_a_player_s_panel_holds_the_tracks_and_none_of_the_npc_s_figures() -> None:
    t = declared()
    mine = view(t.state, PLAYER)
    garbo = mine["scene"]["c2"]
    assert garbo["secret"] and garbo["wounds"]["value"] == 100 and garbo["fatigue"]["value"] == 100
    assert not {"skills", "combat", "defense", "weapon_damage", "armour_effect", "armour"} & set(garbo)
    (pairing,) = mine["combat"]["pairings"]
    assert pairing["odds"] == {"secret": "The odds depend on the Director's figures."}
    rows = {r["id"]: r["declared"] for r in mine["combat"]["rows"]}
    assert rows["c2"] == "IN: to wound against Trayer" and "Soldiery (Sword and Shield) 18" in rows["c1"]
    gm = view(t.state, Seat("gm"))
    assert gm["scene"]["c2"]["defense"] == 25 and gm["combat"]["pairings"][0]["odds"]["a_lands"] == 93


def test_the_worked_example_s_turn_one_keeps_garbo_s_figures_in_the_director_s_part() -> None:
    """Seed: "Adding his Combat of 25 Garbo, even when reduced by Trayer's Selected Defense of 18
    (105-18 is 87), the monstrous Attack gets through" - everyone reads the roll, 80, and that it
    gets through; Garbo's 25 is the Director's."""
    t = declared()
    t.send({"type": "combat_roll", "combatant": "c1"}, 42)
    rolled, paired = t.send({"type": "combat_roll", "combatant": "c2"}, 80)
    public = SYSTEM.engine.summary(rolled, t.state)
    assert public == "Garbo rolls 80 against Trayer's Defense 18: a Potential Wound beating double the Defense."
    assert rolled[GM_PART]["line"].startswith("Garbo rolls 80 + Two-Hander 25 = 105")
    seen = SYSTEM.visibility(rolled)
    assert seen.private_audience == "gm" and {"combat", "total", "margin", "combat_skill"} <= set(seen.private)
    said = SYSTEM.engine.summary(paired, t.state)
    assert "Trayer takes 1" in said and "Garbo takes 2" in said and not any(f in said for f in FIGURES)
    assert "Garbo takes 2 (Long Blade 3, armour -1)" in paired[GM_PART]["line"]
    assert "Trayer takes 1 (flail 3, halved by armour)" in paired[GM_PART]["line"]
    t.send({"type": "resolve"})
    assert t.state["personae"]["c2"]["wounds"] == 98  # the worked example, unchanged by the screen
    for event in t.log:
        public_part = {k: v for k, v in event.items() if k not in SYSTEM.visibility(event).private}
        assert "'Two-Hander'" not in repr(public_part) and "flail" not in repr(public_part), event["type"]
    # the undo button and "undone" line are everyone's: the public line of the step
    assert t.state["undo"][-1]["what"].startswith("Resolution Point, Turn 1")
