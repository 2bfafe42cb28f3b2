"""Passages over a campaign (issue 35): the table's clock and the tracks, the rest once per span of
time, tended Wounds healing by night and week, the untended drain, lasting Status, and the marks of
skills used in a session with their rise when it closes.

The decided readings quoted: "001, outside combat: Fatigue recovers when the Persona rests or leaves
the Scene, at most once per span of time passed; untended wounds keep draining as the seed says until
tended." and "001, advancement: a skill used "practically, in pursuit of the story" (a Check,
Challenge or Contest that counted, never practice) is marked in the session; when the session closes
the Director approves a rise of each marked skill's BASE (default +1, a table option), never past 95."
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.contract import CheckRun, Member, Table
from games.core import clock
from games.core.engine import RuleError, Turn
from games.passages import campaign
from games.passages.moves import CHECK_ROLL
from games.passages.narrate import public_line
from games.passages.system import ENGINE
from tests.unit.passages.helpers import GARBO, TRAYER, Scene, character, form, of_type, persona, player, read_id

GM = Member(id=1, name="Dee", is_gm=True)


def close(scene: Scene, fields: dict[str, list[str]] | None = None) -> list[dict[str, Any]]:
    """The platform's session close: the close form read by ``closing_parse``, the engine's
    ``close_session``, each event folded, logged and written back on the sheets."""
    assert ENGINE.clock is not None
    table = Table(characters=tuple(scene.characters.values()), read_id=read_id)
    args = ENGINE.clock.closing_parse(fields or {}, table)
    events = ENGINE.close_session(scene.state, args, Turn(member=GM, characters=scene.characters))
    for event in events:
        scene.play.state = ENGINE.apply(scene.state, event)
        scene.play.log.append(event)
        for cid, fields_ in (ENGINE.writeback(event, scene.state) if ENGINE.writeback else {}).items():
            known = scene.characters[cid]
            scene.characters[cid] = type(known)(**{**known.__dict__, "sheet": {**known.sheet, **fields_}})
    return events


def passes(scene: Scene, span: str) -> list[dict[str, Any]]:
    return scene.send({"type": "pass_time", "span": span})


def tracks(scene: Scene, cid: str) -> tuple[int, int, int]:
    sheet = scene.sheet(cid)
    return sheet["wounds"], sheet["fatigue"], sheet["untended"]


# ------------------------------------------------------------------------------- the rest


def test_a_rest_outside_a_fight_is_once_per_span_of_time(scene: Scene) -> None:
    """The fault found in long play: "rest" gave +5 Wounds a click with no limit (12 clicks took a
    Persona from 40 to 100). The decided reading: "Fatigue recovers when the Persona rests or leaves
    the Scene, at most once per span of time passed"; a rest heals no Wound."""
    scene.seat(persona("c1", "Ana", wounds=40, fatigue=20), owner=2)
    ana = player("c1")
    [rested] = scene.send({"type": "rest", "combatant": "c1"}, actor=ana)
    assert rested["at"] == {"day": 0, "scene": 0}
    assert tracks(scene, "c1") == (40, 100, 0)
    scene.send({"type": "correct", "combatant": "c1", "track": "fatigue", "value": 50})
    before = (dict(scene.state), len(scene.log))
    for _ in range(11):
        with pytest.raises(RuleError, match="Ana has rested since time last passed"):
            scene.send({"type": "rest", "combatant": "c1"}, actor=ana)
    assert (scene.state, len(scene.log)) == before and tracks(scene, "c1") == (40, 50, 0)
    passes(scene, "scene")
    scene.send({"type": "correct", "combatant": "c1", "track": "fatigue", "value": 50})
    [again] = scene.send({"type": "rest", "combatant": "c1"}, actor=ana)
    assert again["after"]["fatigue"] == 100 and again["after"]["wounds"] == 40
    assert ENGINE.fold(scene.log) == scene.state


def test_a_rest_with_nothing_to_recover_is_refused(scene: Scene) -> None:
    """Seed: Fatigue recovers to "available Fatigue levels": one already there has nothing to
    rest for, and the span's rest is not spent on nothing."""
    scene.seat(persona("c1", "Ana", wounds=80, untended=10, fatigue=90))
    with pytest.raises(RuleError, match="already at its eligible level \\(90\\)"):
        scene.send({"type": "rest", "combatant": "c1"})
    assert scene.log == []


# ------------------------------------------------------------------------------- time passes


def test_the_scene_ends_fatigue_recovers_and_untended_wounds_drain(scene: Scene) -> None:
    """Seed: "Recovery of Fatigue occurs when the Persona rests, exits the Scene"; "Each Untended
    Wound Point costs an additional point of Fatigue". The decided reading: "untended wounds keep
    draining as the seed says until tended": Fatigue to its eligible level (100 less untended),
    then a point a point drained. A scene's end heals no Wound."""
    scene.seat(persona("c1", "Ana", wounds=70, untended=10, fatigue=20))
    scene.seat(persona("c2", "Bob", wounds=100, fatigue=100))
    [passed, recovered] = passes(scene, "scene")
    assert passed["type"] == "time_passed"
    assert [r["combatant"] for r in recovered["rows"]] == ["c1"], "Bob had nothing to recover"
    assert tracks(scene, "c1") == (70, 80, 10)
    assert public_line(recovered, scene.state) == "The scene ends: Ana: Fatigue 20 → 80."
    passes(scene, "scene")
    assert tracks(scene, "c1") == (70, 80, 10), "the drain is off the recovered level, once a span"
    assert ENGINE.fold(scene.log) == scene.state


def test_tended_wounds_heal_a_tick_a_night_and_all_in_a_week(scene: Scene) -> None:
    """Seed: "Wounds must be tended for the individual to regain so Fatigue and Wound Ticks": only
    tended Wounds heal, at table options the seed does not give (one tick a night, all of them a
    week, by default)."""
    scene.seat(persona("c1", "Ana", wounds=40, untended=20, fatigue=50))
    passes(scene, "night")
    assert tracks(scene, "c1") == (45, 60, 20)  # 40 tended lost: 5 back; Fatigue 80 less 20 drained
    passes(scene, "week")
    assert tracks(scene, "c1") == (80, 60, 20), "every tended point back; the untended 20 never heal"
    passes(scene, "week")
    assert tracks(scene, "c1") == (80, 60, 20)


def test_the_gm_sets_how_much_a_night_heals(scene: Scene) -> None:
    """Amounts a seed does not give are table options with documented defaults."""
    assert ENGINE.clock is not None
    assert {o.key: o.default for o in ENGINE.clock.options} == {"skill_rise": 1, "wounds_night": 5, "wounds_week": 100}
    assert all(o.why for o in ENGINE.clock.options)
    scene.seat(persona("c1", "Ana", wounds=40))
    scene.send({"type": "set_option", "option": "wounds_night", "value": 20})
    passes(scene, "night")
    assert tracks(scene, "c1")[0] == 60


def test_the_unconscious_recover_nothing_but_heal(scene: Scene) -> None:
    """Seed: "Such personae cannot perform any Actions until revived": carried, they recover no
    Fatigue; a tended Wound still heals with the night."""
    scene.seat(persona("c1", "Ana", wounds=0, untended=0, fatigue=0))
    scene.seat(persona("c2", "Cal", wounds=0, untended=100, fatigue=0))
    [_, recovered] = passes(scene, "night")
    assert tracks(scene, "c1") == (5, 0, 0) and tracks(scene, "c2") == (0, 0, 100)
    assert [r["combatant"] for r in recovered["rows"]] == ["c1"]


def test_time_does_not_pass_in_a_fight_or_a_contest(scene: Scene) -> None:
    """The Director ends the fight (or the contest) first: time passing in the middle of one would
    restore the sheets the fight still holds."""
    scene.fight(persona("c1", "Ana", fatigue=50), persona("c2", "Bob"))
    before = (dict(scene.state), len(scene.log))
    with pytest.raises(RuleError, match="A fight is under way: end it before time passes"):
        passes(scene, "night")
    assert (scene.state, len(scene.log)) == before
    scene.send({"type": "end"})
    scene.contest(persona("c1", "Ana"), persona("c2", "Bob"))
    with pytest.raises(RuleError, match="A contest is under way"):
        passes(scene, "scene")


def test_the_clock_writes_the_sheets_and_an_undo_takes_it_back(scene: Scene) -> None:
    """Nothing a rule restores is restored by editing a sheet: the clock writes the sheets, and
    the Director's undo puts them back."""
    scene.seat(persona("c1", "Ana", wounds=40, fatigue=10))
    passes(scene, "night")
    assert tracks(scene, "c1") == (45, 100, 0)
    [undone] = scene.send({"type": "undo"})
    assert undone["restore"] == {"c1": {"wounds": 40, "fatigue": 10, "untended": 0, "magic": 100}}
    assert clock.now(scene.state) == {"day": 0, "scene": 0}


def test_the_clock_says_what_each_span_does() -> None:
    assert ENGINE.clock is not None
    says = ENGINE.clock.says
    assert set(says) == {"scene", "night", "week", "session"}
    assert "never past 95" in says["session"]
    assert "Fatigue recovers to its eligible level" in says["scene"] and "drains" in says["scene"]
    assert "tended Wounds heal" in says["night"] and "tended Wounds heal" in says["week"]


# ------------------------------------------------------------------------------- lasting Status


def test_a_fights_round_is_its_turn_and_a_condition_lasting_a_round_ends_by_itself(scene: Scene) -> None:
    """The core's ``Clock.round``: the Turn of the fight under way, 0 outside one."""
    assert campaign.fight_round(scene.state) == 0
    scene.fight(persona("c1", "Ana"), persona("c2", "Bob"))
    assert campaign.fight_round(scene.state) == 1
    scene.send({"type": "add_condition", "character": "1", "name": "Dazzled", "effect": "timing", "amount": -10,
                "lasts": "rounds", "rounds": 1})
    scene.out("c1")
    scene.out("c2")
    events = scene.resolve()
    assert [e["why"] for e in of_type(events, "condition_ended")] == ["rounds"]
    assert campaign.fight_round(scene.state) == 2 and not clock.conditions(scene.state)


def test_a_lasting_status_modifies_the_combat_roll(scene: Scene) -> None:
    """Seed: "Combat Status is a reminder of current Conditions each Persona is dealing with ...
    (This includes terrain effects, injuries, etc.)"; "Timing is a result of Combat Status, and
    modifies the Combat roll". A lasting condition whose effect is ``timing`` adds its amount."""
    scene.seat(TRAYER)
    scene.seat(GARBO)
    scene.send({"type": "add_condition", "character": "1", "name": "Sprained wrist", "effect": "timing",
                "amount": -20, "lasts": "week"})
    scene.fight(TRAYER, GARBO)
    scene.attack("c1", "c2")
    scene.out("c2")
    [rolled, _] = scene.roll("c1", 42)
    assert rolled["timing"] == -20 and rolled["total"] == 42 + 18 - 20


def test_a_hindering_status_makes_every_check_a_challenge(scene: Scene) -> None:
    """Seed: "CHALLENGES are Actions hindered by certain circumstances, or specific Conditions
    decided on by the Director. Challenges use the Skill's Core Value." A lasting condition whose
    effect is ``hindered`` makes the Persona's checks Challenges: in a contest, a one-off check,
    a tending, until it ends."""
    ana, bob = persona("c1", "Ana", untended=10, wounds=90, skills={"Stealth": 40, "First Aid": 40}), persona("c2", "Bob")
    scene.seat(ana)
    scene.seat(bob)
    scene.send({"type": "add_condition", "character": "1", "name": "Fevered", "effect": "hindered", "lasts": "night"})
    people = {c.id: c for c in (character(ana), character(bob))}
    run = CheckRun(member=GM, characters=people, args={"character": 1, "skill": "Stealth", "mode": "check"},
                   rng=random.Random(1), cards=None, state=scene.state)  # type: ignore[arg-type]
    data, _ = CHECK_ROLL.run(run)
    assert data["challenge"] and data["value"] == 8
    [tended] = scene.send({"type": "tend", "combatant": "c1", "skill": "First Aid"}, 5)
    assert tended["check"]["challenge"]
    scene.contest(ana, bob)
    [rolled] = scene.contest_roll("c1", "Stealth", 50)
    assert rolled["check"]["challenge"]
    scene.send({"type": "end"})
    passes(scene, "night")
    data, _ = CHECK_ROLL.run(CheckRun(member=GM, characters=people, args=run.args, rng=random.Random(1),
                                      cards=None, state=scene.state))  # type: ignore[arg-type]
    assert not data["challenge"], "the condition ended with the night"


def test_the_rules_read_two_effects() -> None:
    assert ENGINE.clock is not None
    assert set(ENGINE.clock.effects) == {"timing", "hindered"}


# ------------------------------------------------------------------------------- advancement


def test_skills_used_in_earnest_are_marked_and_practice_is_not(scene: Scene) -> None:
    """Seed: "Note that such practice does not improve a skill; the skill must be used practically,
    in pursuit of the story, to be able to be advanced." The decided reading: "a Check, Challenge or
    Contest that counted, never practice". A Combat Roll marks nothing (the reading names none)."""
    ana = persona("c1", "Ana", untended=10, wounds=90, skills={"Stealth": 40, "Brawl": 30, "First Aid": 20,
                                                               "Tracking": 26}, weapon_damage=1)
    bob = persona("c2", "Bob", weapon_damage=1)
    scene.contest(ana, bob)
    scene.contest_roll("c1", "Stealth", 90)
    scene.contest_roll("c2", "Stealth", 10)
    scene.fight(ana, bob)
    scene.attack("c2", "c1")
    scene.out("c1")
    scene.send({"type": "practice", "combatant": "c1", "skill": "Tracking"})
    scene.roll("c2", 1)
    scene.resolve()
    scene.attack("c1", "c2")
    scene.out("c2")
    scene.roll("c1", 1)
    scene.resolve()
    scene.send({"type": "end"})
    scene.send({"type": "tend", "combatant": "c1", "skill": "First Aid"}, 5)
    assert scene.state["marks"] == {"c1": ["Stealth", "First Aid"], "c2": ["Stealth"]}


def test_closing_the_session_raises_each_marked_skill_never_past_95(scene: Scene) -> None:
    """The decided reading: "when the session closes the Director approves a rise of each marked
    skill's BASE (default +1, a table option), never past 95"; the marks are spent."""
    ana = persona("c1", "Ana", skills={"Stealth": 40, "Brawl": 95, "Tracking": 26})
    scene.seat(ana, owner=2)
    scene.seat({**persona("c3", "Garbo"), "npc": True})
    scene.contest(ana, {**persona("c3", "Garbo"), "npc": True})
    scene.contest_roll("c1", "Stealth", 50)
    scene.contest_roll("c3", "Stealth", 50)
    scene.contest_roll("c1", "Brawl", 50)
    scene.contest_roll("c3", "Brawl", 50)
    scene.send({"type": "end"})
    [advanced] = close(scene)
    assert advanced["rows"] == [{"combatant": "c1", "name": "Ana", "skill": "Stealth", "before": 40, "after": 41}]
    assert scene.sheet("c1")["skills"] == {"Stealth": 41, "Brawl": 95, "Tracking": 26}
    assert scene.sheet("c3")["skills"]["Stealth"] == 40, "an NPC's sheet is the Director's to set"
    assert scene.state["marks"] == {} and scene.state["personae"]["c1"]["skills"]["Stealth"] == 41
    assert public_line(advanced, scene.state) == \
        "The session closes; skills used in earnest rise: Ana's Stealth 40 → 41."
    assert close(scene) == [], "no marks: nothing to close"
    assert ENGINE.fold(scene.log) == scene.state


def test_the_director_approves_which_marked_skills_rise(scene: Scene) -> None:
    """The close form lists the marks (``approving``) with a box for each (``approve``,
    "<combatant>:<skill>"): only those ticked rise; a form without the list approves them all.
    The rise is the table option."""
    ana = persona("c1", "Ana")
    scene.seat(ana)
    scene.contest(ana, persona("c2", "Bob"))
    scene.contest_roll("c1", "Stealth", 90)
    scene.contest_roll("c2", "Brawl", 10)
    scene.send({"type": "set_option", "option": "skill_rise", "value": 3})
    assert ENGINE.clock is not None
    table = Table(characters=tuple(scene.characters.values()), read_id=read_id)
    assert ENGINE.clock.closing_parse({}, table) == {}
    assert ENGINE.clock.closing_parse(form({"approving": "1"}), table) == {"approve": []}
    [advanced] = close(scene, {"approving": ["1"], "approve": ["c2:Brawl"]})
    assert [(r["name"], r["skill"], r["before"], r["after"]) for r in advanced["rows"]] == [("Bob", "Brawl", 30, 33)]
    assert scene.sheet("c1")["skills"]["Stealth"] == 40 and scene.state["marks"] == {}
