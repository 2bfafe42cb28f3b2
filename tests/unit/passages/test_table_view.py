"""What the table shows of Passages: whose move it is, the character cards at a glance, each
Persona's skills with their odds outside any scene, and the Director's undo."""

from __future__ import annotations

import json

import pytest

from games.contract import Character
from games.core.engine import NotYourMove, RuleError
from games.passages.panel import character_view, panel
from games.passages.sheet import glance
from games.passages.state import new_state
from games.passages.system import ENGINE
from tests.unit.passages.helpers import GARBO, TRAYER, Scene, persona, player

ANN = persona("c1", "Ann")
BOB = persona("c2", "Bob")


def test_whose_move_it_is_through_a_contest(scene: Scene) -> None:
    """Seed: "both actors ... make their independent Checks as directed": each party still to
    roll is awaited, in any order; the banner names the first and says whom it waits for."""
    assert panel(new_state())["turn"] is None
    scene.contest(ANN, BOB)
    turn = panel(scene.state)["turn"]
    assert turn == {"combatant": "c1", "gm": False, "says": "Contest, round 1: waiting for Ann and Bob to roll",
                    "prompt": "roll for Ann in the contest", "waiting": ["c1", "c2"],
                    "prompts": {"c1": "roll for Ann in the contest", "c2": "roll for Bob in the contest"}}
    scene.contest_roll("c1", "Stealth", 30)
    assert panel(scene.state)["turn"]["combatant"] == "c2"
    assert panel(scene.state)["turn"]["says"] == "Contest, round 1: waiting for Bob to roll"


def test_whose_move_it_is_through_a_combat_turn(scene: Scene) -> None:
    """Seed, the COMBAT SEQUENCE: "DECLARATION - Each Persona in the Scene declares to be IN, or
    OUT", then "TIMING - Each conflict pairing resolves in order, with a roll-off", then "After
    all Combat Rolls have been made for the Round, the Resolution Point occurs"."""
    scene.fight(TRAYER, GARBO)
    turn = panel(scene.state)["turn"]
    assert turn["combatant"] == "c1" and turn["says"] == "Turn 1: waiting for the Declaration of Trayer and Garbo"
    assert turn["prompt"] == "declare Trayer IN or OUT of the combat"
    scene.attack("c1", "c2")
    scene.attack("c2", "c1")
    turn = panel(scene.state)["turn"]
    assert turn["combatant"] == "c1" and turn["prompt"] == "make Trayer's Combat Roll"
    scene.roll("c1", 42)
    scene.roll("c2", 80)
    assert panel(scene.state)["turn"] == {"combatant": None, "gm": True,
                                          "says": "Turn 1: the Director calls the Resolution Point",
                                          "prompt": "call the Resolution Point"}
    scene.resolve()
    view = panel(scene.state)
    assert view["turn"]["says"].startswith("Turn 2: waiting for the Declaration")
    assert view["title"] == "A fight, Turn 2: Declaration"
    [trayer, garbo] = view["combat"]["last_resolution"]["rows"]
    # the worked example's Turn One: "Trayer is at 99 Wounds and 94 Fatigue remaining. Garbo is
    # slightly worse, at 98 Wounds and 93 Fatigue."
    assert (trayer["wounds"], trayer["fatigue"]) == ("100 → 99", "100 → 94")
    assert (garbo["wounds"], garbo["fatigue"]) == ("100 → 98", "100 → 93")
    assert garbo["why"] == "damage 2, combat action 5"


def test_the_panel_says_everything_in_plain_words(scene: Scene) -> None:
    """No internal codes reach the table: the rows, rolls and roll-offs are sentences."""
    scene.fight(TRAYER, GARBO)
    scene.attack("c1", "c2")
    scene.attack("c2", "c1")
    scene.roll("c1", 42)
    scene.roll("c2", 80)
    view = panel(scene.state)
    assert json.loads(json.dumps(view)) == view
    rows = view["combat"]["rows"]
    assert rows[0]["declared"] == ("IN: to wound against Garbo, with Soldiery (Sword and Shield) 18 "
                                   "(defends at 18; damage 3)")
    assert rows[0]["roll"].startswith("Trayer rolls 42 + Soldiery (Sword and Shield) 18 = 60")
    [pairing] = view["combat"]["pairings"]
    assert pairing["resolved"] and pairing["line"].startswith("Roll-off, Trayer and Garbo: both succeed equally")
    for text in (rows[0]["declared"], rows[0]["roll"], pairing["line"]):
        assert "c1" not in text and "c2" not in text and "_" not in text


def test_the_character_card_at_a_glance() -> None:
    """Issue 17: the tracks are "two 100-point tracks"; seed: "Persona whose Fatigue reduces ...
    to zero is 'Downed'", and at Wounds zero "'Downed' and 'Unconscious.'"."""
    seen = glance({**TRAYER, "fatigue": 40, "untended": 1, "wounds": 99})
    assert seen.stats[0] == ("Soldiery (Sword and Shield)", "18")
    assert [k for k, _ in seen.stats] == ["Soldiery (Sword and Shield)", "Campfire", "Intimidation"]
    assert seen.tracks == (("Wounds", 99, 100), ("Fatigue", 40, 100))
    assert seen.tags == ("Untended Wounds 1",) and not seen.out
    downed = glance({**TRAYER, "fatigue": 0})
    assert downed.tags == ("Downed",) and downed.out
    out = glance({**TRAYER, "wounds": 0, "fatigue": 0})
    assert out.tags == ("Unconscious",) and out.out
    assert glance({"skills": "not a skill line"}).tracks == ()


def test_every_persona_shows_its_skills_odds_outside_any_scene() -> None:
    """Seed: "Calculate the DU and DD values for the intended skill"; the example's BASE 26:
    13 or below DD, 14-26 Success, 27-52 DU, 53-99 Blown, 100 Critical Fail."""
    shown = character_view(Character(id=1, cid="c1", name="Ann", sheet={"skills": "Tracking: 26"}, owner=7))
    [row] = shown["skills"]
    assert (row["base"], row["du"], row["dd"], row["core"]) == (26, 52, 13, 6)
    assert row["check"] == {"bands": [13, 13, 26, 47, 1], "success": 52}
    assert row["challenge"]["bands"] == [3, 3, 6, 87, 1]
    assert shown["wounds"]["boxes"] == "5" * 20 and shown["state"] == ""
    tired = character_view(Character(id=1, cid="c1", name="Ann", sheet={"fatigue": 94}, owner=7))
    assert tired["fatigue"]["boxes"] == "5" * 18 + "40"


def test_the_director_takes_back_the_last_step(scene: Scene) -> None:
    """Not in the seed: a table's undo for a slip of the hand. The state is as before the step,
    the undo is an event of its own, and only the Director may."""
    scene.fight(TRAYER, GARBO)
    before = scene.state
    scene.attack("c1", "c2")
    with pytest.raises(NotYourMove, match="Only the GM can take back the last step"):
        scene.send({"type": "undo"}, actor=player("c1"))
    [undone] = scene.send({"type": "undo"})
    assert undone["what"].startswith("Trayer is IN")
    assert {k: v for k, v in scene.state.items() if k not in ("step", "undo")} == \
        {k: v for k, v in before.items() if k not in ("step", "undo")}
    assert scene.state["step"] > before["step"]
    scene.send({"type": "undo"})
    assert scene.state["mode"] == "idle"
    with pytest.raises(RuleError, match="There is nothing to take back"):
        scene.send({"type": "undo"})
    replayed = ENGINE.fold(scene.log)  # the log alone rebuilds the table, the undos taken back
    assert replayed == scene.state


def test_the_undo_keeps_ten_steps(scene: Scene) -> None:
    scene.fight(TRAYER, GARBO)
    for _ in range(12):
        scene.send({"type": "set_conditions", "conditions": "rain"})
    assert len(scene.state["undo"]) == 10
    assert panel(scene.state)["undo"] == "Conditions: rain."


def test_the_sheets_keep_the_tracks_at_each_resolution_point(scene: Scene) -> None:
    """Seed: "Health and Fatigue are the current values of the Persona at the Resolution Point":
    the character cards follow the fight turn by turn, not only when it ends."""
    from games.passages.writeback import writeback
    scene.fight(TRAYER, GARBO)
    [started, turn] = scene.log
    assert writeback(started, scene.state) == {} and writeback(turn, scene.state) == {}
    scene.attack("c1", "c2")
    scene.attack("c2", "c1")
    scene.roll("c1", 42)
    scene.roll("c2", 80)
    [point, _] = scene.resolve()
    assert writeback(point, scene.state) == {
        "c1": {"wounds": 99, "fatigue": 94, "untended": 1, "magic": 100},
        "c2": {"wounds": 98, "fatigue": 93, "untended": 2, "magic": 100}}
    [undone] = scene.send({"type": "undo"})
    assert writeback(undone, scene.state)["c1"]["fatigue"] == 100  # the cards step back too
    scene.send({"type": "undo"})
    scene.send({"type": "undo"})
    scene.send({"type": "undo"})
    scene.send({"type": "undo"})
    [before_the_fight] = scene.send({"type": "undo"})
    assert scene.state["mode"] == "idle" and writeback(before_the_fight, scene.state) == {}
