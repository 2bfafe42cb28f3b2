"""Contests (seed 001, CONTESTS): independent checks, Fatigue ticks, and how a contest ends."""

from __future__ import annotations

import pytest

from games.passages import contest
from games.core.engine import NotYourMove
from games.passages.errors import CannotAct, NotNow
from tests.unit.passages.helpers import GM, Scene, of_type, persona, player

HUNTER = persona("c1", "Hunter")  # Tracking 26: DD 1-13, success 14-26, DU 27-52
QUARRY = persona("c2", "Quarry")  # Stealth 40: DD 1-20, success 21-40, DU 41-80


def start(scene: Scene, **extra: object) -> None:
    scene.contest(HUNTER, QUARRY, **extra)


def test_all_parties_fail_and_each_suffers_a_tick() -> None:
    """Seed: "IF ALL PARTIES FAIL, the engagement continues, but all actors in the Engagement
    suffer one Tick of Fatigue.\""""
    assert contest.judge({"a": "blown", "b": "critical_fail"}).to_dict() == {
        "outcome": "continues", "ticks": {"a": 1, "b": 1}, "winners": []}


@pytest.mark.parametrize("level", ["double_up", "success", "double_down"])
def test_the_same_level_of_success_costs_nothing(level: str) -> None:
    """Seed: "IF ALL PARTIES have the same level of SUCCESS, the Engagement continues, but no
    Fatigue is Suffered.\""""
    assert contest.judge({"a": level, "b": level}).to_dict() == {
        "outcome": "continues", "ticks": {"a": 0, "b": 0}, "winners": []}


@pytest.mark.parametrize(("a", "b", "ticks"), [
    ("double_down", "success", {"a": 0, "b": 1}), ("success", "double_up", {"a": 0, "b": 1}),
    ("double_down", "double_up", {"a": 0, "b": 2}), ("double_up", "double_down", {"a": 2, "b": 0})])
def test_a_lower_level_of_success_costs_a_tick_and_two_for_dd_over_du(a: str, b: str, ticks: dict) -> None:
    """Seed: "IF ANY PARTY in the Contest rolls a lower level of success (DD over Success over
    DU), they suffer one Tick of Fatigue. (2 if DD over DU) but the Engagement continues.\""""
    judged = contest.judge({"a": a, "b": b})
    assert judged.outcome == "continues" and judged.ticks == ticks


@pytest.mark.parametrize(("a", "b", "winner"), [("double_up", "blown", "a"), ("critical_fail", "success", "b")])
def test_one_succeeds_and_the_other_fails_ends_it(a: str, b: str, winner: str) -> None:
    """Seed: "Once one succeeds and the other fails, the Engagement is over.\""""
    judged = contest.judge({"a": a, "b": b})
    assert judged.outcome == "won" and judged.winners == (winner,)


def test_the_seeds_pursuit_costs_the_evader_two_ticks(scene: Scene) -> None:
    """Seed: "If the Pursuer succeeds wildly, but the Evader only succeeds partially, the Contest
    continues, but the Evader suffers two Fatigue Ticks.\""""
    start(scene)
    scene.contest_roll("c1", "Tracking", 10)  # DD
    events = scene.contest_roll("c2", "Stealth", 60)  # DU
    [round_] = of_type(events, "contest_round")
    assert round_["ticks"] == {"c1": 0, "c2": 2} and round_["costs"] == {"c1": 0, "c2": 10}
    assert scene.track("c2") == (100, 90) and scene.track("c1") == (100, 100)
    assert scene.state["mode"] == "contest" and scene.state["contest"]["round"] == 2


def test_both_fail_then_one_wins(scene: Scene) -> None:
    """Seed: "IF they both fail, they bot tire from the effort but are still engaged." Then a
    success against a failure ends the contest."""
    start(scene)
    scene.contest_roll("c1", "Tracking", 90)
    scene.contest_roll("c2", "Stealth", 99)
    assert scene.track("c1") == (100, 95) and scene.track("c2") == (100, 95)
    scene.contest_roll("c1", "Tracking", 20)
    events = scene.contest_roll("c2", "Stealth", 100)
    [ended] = of_type(events, "contest_ended")
    assert ended["reason"] == "won" and ended["winners"] == ["c1"]
    assert scene.state["mode"] == "idle"
    assert scene.track("c1") == (100, 95), "the round that ends it costs no Fatigue"


def test_a_round_waits_for_every_party(scene: Scene) -> None:
    """"both actors ... make their independent Checks": nothing is judged until both roll."""
    start(scene)
    events = scene.contest_roll("c1", "Tracking", 90)
    assert [e["type"] for e in events] == ["contest_rolled"]
    with pytest.raises(NotNow, match="already rolled"):
        scene.contest_roll("c1", "Tracking", 90)


def test_collapsing_from_fatigue_ends_it(scene: Scene) -> None:
    """Seed: "Contests continue until ... one or both collapse from fatigue"."""
    scene.contest(persona("c1", "Hunter", fatigue=5), QUARRY)
    scene.contest_roll("c1", "Tracking", 99)
    events = scene.contest_roll("c2", "Stealth", 99)
    [round_] = of_type(events, "contest_round")
    assert round_["collapsed"] == ["c1"]
    [ended] = of_type(events, "contest_ended")
    assert ended["reason"] == "collapsed" and ended["winners"] == ["c2"]
    assert scene.track("c1") == (100, 0) and scene.person("c1")["downed"]


def test_breaking_off_ends_it_before_the_next_roll(scene: Scene) -> None:
    """Seed: "... or one breaks off the engagement by changing their Action to a non-contested
    one in a successive Turn." Not after rolling in the round."""
    start(scene)
    scene.contest_roll("c1", "Tracking", 20)
    with pytest.raises(NotNow, match="break off before"):
        scene.send({"type": "contest_break_off", "combatant": "c1"}, actor=player("c1"))
    events = scene.send({"type": "contest_break_off", "combatant": "c2"}, actor=player("c2"))
    assert [e["type"] for e in events] == ["contest_broken_off", "contest_ended"]
    assert events[1]["reason"] == "broke_off" and scene.state["mode"] == "idle"


def test_the_director_modifies_the_cost(scene: Scene) -> None:
    """Seed: "the Director can modify up or down the cost in Fatigue as he or she determines"."""
    start(scene, cost=10)
    scene.contest_roll("c1", "Tracking", 90)
    scene.contest_roll("c2", "Stealth", 90)
    assert scene.track("c1") == (100, 90)
    scene.send({"type": "contest_cost", "cost": 2})
    scene.contest_roll("c1", "Tracking", 90)
    scene.contest_roll("c2", "Stealth", 90)
    assert scene.track("c1") == (100, 88)
    with pytest.raises(NotYourMove):
        scene.send({"type": "contest_cost", "cost": 0}, actor=player("c1"))


def test_a_magic_duel_spends_magical_resources(scene: Scene) -> None:
    """Seed: "Magic Duels use Magical Resources rather than Fatigue if other than Natural Magics
    are employed"."""
    start(scene, magic=True)
    scene.contest_roll("c1", "Tracking", 90)
    events = scene.contest_roll("c2", "Stealth", 90)
    assert of_type(events, "contest_round")[0]["resource"] == "magic"
    assert scene.person("c1")["magic"] == 95 and scene.track("c1") == (100, 100)


def test_the_director_makes_a_party_roll_a_challenge(scene: Scene) -> None:
    """Seed: "Each Action is itself an exertion of skill, and each can be a Check OR a Challenge
    by choice of the Director." Tracking 26 as a challenge: Core 6, so 10 is a DU."""
    start(scene, challenge=["c1"])
    [rolled] = scene.contest_roll("c1", "Tracking", 10)
    assert rolled["check"]["challenge"] and rolled["check"]["value"] == 6 and rolled["check"]["band"] == "double_up"


def test_nobody_rolls_for_anothers_persona(scene: Scene) -> None:
    """Issue 17: "enforced by the server (nobody rolls for another's Persona ...)"; seed: "The
    Director determines what is or is not a Contest", so only the Director starts one."""
    start(scene)
    with pytest.raises(NotYourMove, match="You act only for the characters you control"):
        scene.send({"type": "contest_roll", "combatant": "c2", "skill": "Stealth"}, 50, actor=player("c1"))
    scene.send({"type": "contest_roll", "combatant": "c1", "skill": "Tracking"}, 50, actor=player("c1"))
    with pytest.raises(NotYourMove):
        scene.send({"type": "contest_start", "combatants": [HUNTER, QUARRY]}, actor=player("c1"))


def test_a_downed_persona_cannot_enter_a_contest(scene: Scene) -> None:
    """Seed: "When your Fatigue reaches zero, you cannot continue to take Actions other than rest.\""""
    with pytest.raises(CannotAct, match="Downed"):
        scene.contest(persona("c1", "Hunter", fatigue=0), QUARRY)


def test_more_than_two_parties(scene: Scene) -> None:
    """Seed: "both actors (or more than two, if the opposing actions are different enough to
    justify it)". Below the best level, a tick a level; the ending round takes the best."""
    judged = contest.judge({"a": "double_down", "b": "success", "c": "double_up"})
    assert judged.ticks == {"a": 0, "b": 1, "c": 2}
    ended = contest.judge({"a": "success", "b": "double_down", "c": "blown"})
    assert ended.outcome == "won" and ended.winners == ("b",)
    scene.contest(HUNTER, QUARRY, persona("c3", "Hound"))
    scene.send({"type": "contest_break_off", "combatant": "c3"}, actor=GM)
    assert scene.state["contest"]["active"] == ["c1", "c2"] and scene.state["mode"] == "contest"


def test_a_party_the_director_downs_collapses_and_a_contest_of_one_is_over() -> None:
    """Seed: "Contests continue until one party succeeds and the other fails, one or both
    collapse from fatigue, or one breaks off the engagement". The Director's correction that
    leaves a party at 0 Fatigue ends a contest of two at once, the other left standing: no
    round waits for a roll the Downed cannot make."""
    scene = Scene()
    start(scene)
    events = scene.send({"type": "correct", "combatant": "c2", "track": "fatigue", "value": 0})
    [ended] = of_type(events, "contest_ended")
    assert (ended["reason"], ended["winners"]) == ("collapsed", ["c1"])
    assert scene.state["mode"] == "idle"
