"""Properties: the bands partition 1-100 for every BASE, the tracks stay within 0-100 through
any fight or contest, and odds sum to 1."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.engine import RuleError
from games.passages import odds, tracks
from games.passages.rules import BANDS, band
from games.passages.state import waiting_to_declare, waiting_to_roll
from tests.unit.passages.helpers import Scene
ORDER = {name: i for i, name in enumerate(("double_down", "success", "double_up", "blown", "critical_fail"))}


@pytest.mark.parametrize("challenge", [False, True])
@pytest.mark.parametrize("base", range(1, 96))
def test_bands_partition_1_to_100_in_order(base: int, challenge: bool) -> None:
    """Every roll 1-100 falls in exactly one band, and the bands run DD, success, DU, Blown,
    Critical Fail as the roll rises (each a run of consecutive rolls, some possibly empty)."""
    seen = [band(base, r, challenge=challenge) for r in range(1, 101)]
    assert all(b in BANDS for b in seen)
    assert seen[-1] == "critical_fail" and seen.count("critical_fail") == 1
    assert [ORDER[b] for b in seen] == sorted(ORDER[b] for b in seen)


@given(st.integers(0, 95), st.integers(0, 95), st.integers(0, 95), st.integers(0, 95),
       st.integers(-100, 100), st.integers(-100, 100))
def test_pairing_cases_sum_to_one(ac: int, ad: int, bc: int, bd: int, at: int, bt: int) -> None:
    exact = odds.pairing_exact(ac, ad, bc, bd, a_timing=at, b_timing=bt)
    assert sum(exact[k] for k in ("both_miss", "only_a", "only_b", "equal", "a_greater", "b_greater")) == 1
    assert 0 <= exact["a_lands"] <= 1 and exact["a_lands"] == Fraction(round(exact["a_lands"] * 100), 100)


@given(st.integers(-50, 150), st.integers(-50, 150), st.integers(0, 100), st.integers(0, 6))
def test_track_arithmetic_stays_within_0_and_100(value: int, points: int, untended: int, quiet: int) -> None:
    for result in (tracks.clamp(value), tracks.lose(tracks.clamp(value), points),
                   tracks.gain(tracks.clamp(value), points),
                   tracks.recovered(tracks.clamp(value), untended, quiet)):
        assert 0 <= result <= tracks.FULL
    # resting never costs Fatigue, nor lifts it above the eligible level it was under
    rested = tracks.recovered(tracks.clamp(value), untended, quiet)
    assert rested >= tracks.clamp(value)
    assert rested <= max(tracks.clamp(value), tracks.eligible_fatigue(untended))


SKILLS = {"Brawl": 30, "Blade": 60, "Stealth": 45}


@st.composite
def personae(draw: Any) -> list[dict[str, Any]]:
    people = []
    for i in range(draw(st.integers(2, 4))):
        wounds = draw(st.integers(1, 100))
        people.append({
            "id": f"c{i}", "name": f"P{i}", "skills": {k: draw(st.integers(1, 95)) for k in SKILLS},
            "wounds": wounds, "fatigue": draw(st.integers(1, 100)), "untended": draw(st.integers(0, 100 - wounds)),
            "magic": draw(st.integers(1, 100)), "weapon_damage": draw(st.integers(0, 95)),
            "ranged": draw(st.booleans()),
            "armour_effect": draw(st.sampled_from(["none", "halve", "double", "+3", "-2"]))})
    return people


def within_bounds(state: dict[str, Any]) -> None:
    for person in state["personae"].values():
        for key in ("wounds", "fatigue", "untended", "magic"):
            assert 0 <= person[key] <= tracks.FULL, (key, person[key])
        assert person["untended"] <= tracks.FULL - person["wounds"]
        if person["wounds"] == 0:
            assert person["fatigue"] == 0 and person["unconscious"]


def send(scene: Scene, command: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The Director's move, played as the table plays it; a refusal changes nothing. Each
    state along the way (after each event) keeps its tracks within bounds."""
    state, before = scene.state, len(scene.log)
    try:
        scene.send(command, rng=rng)
    except RuleError:
        return scene.state
    for event in scene.log[before:]:
        state = scene.play.engine.apply(state, event)
        within_bounds(state)
    return scene.state


@settings(max_examples=60, deadline=None)
@given(personae(), st.integers(0, 10**6), st.integers(1, 8))
def test_tracks_never_leave_0_to_100_through_a_fight(people: list[dict[str, Any]], seed: int, turns: int) -> None:
    rng = random.Random(seed)
    scene = Scene()
    state = send(scene, {"type": "combat_start", "combatants": people}, rng)
    ids = [p["id"] for p in people]
    for _ in range(turns):
        for cid in waiting_to_declare(state):
            choice = rng.choice(["in", "in", "rest", "tend", "out"])
            if choice == "in":
                target = rng.choice([c for c in ids if c != cid])
                state = send(scene, {"type": "declare", "combatant": cid, "stance": "in", "target": target,
                                     "combat": rng.choice(list(SKILLS))}, rng)
            elif choice == "tend":
                state = send(scene, {"type": "tend", "combatant": cid, "patient": rng.choice(ids)}, rng)
            state = send(scene, {"type": "rest", "combatant": cid}, rng) if cid in waiting_to_declare(state) \
                else state
        for cid in waiting_to_roll(state):
            if rng.random() < 0.3:
                state = send(scene, {"type": "timing", "combatant": cid, "modifier": rng.randint(-100, 100)}, rng)
            state = send(scene, {"type": "combat_roll", "combatant": cid}, rng)
        state = send(scene, {"type": "resolve"}, rng)
    assert state["combat"]["turn"] == turns + 1, "every Resolution Point was called"
    within_bounds(send(scene, {"type": "end"}, rng))


@settings(max_examples=60, deadline=None)
@given(personae(), st.integers(0, 10**6), st.booleans(), st.integers(0, 100))
def test_tracks_never_leave_0_to_100_through_a_contest(people: list[dict[str, Any]], seed: int, magic: bool,
                                                      cost: int) -> None:
    rng = random.Random(seed)
    scene = Scene()
    state = send(scene, {"type": "contest_start", "combatants": people, "magic": magic, "cost": cost}, rng)
    assert state["mode"] == "contest"
    for _ in range(40):
        if state["mode"] != "contest":
            break
        for cid in list(state["contest"]["active"]):
            if state["mode"] == "contest" and cid not in state["contest"]["rolls"]:
                state = send(scene, {"type": "contest_roll", "combatant": cid,
                                     "skill": rng.choice(list(SKILLS))}, rng)
    history = state["contest"]["history"]
    assert history, "at least one round was judged"
    if state["mode"] == "idle":
        assert state["contest"]["result"]["reason"] in ("won", "collapsed")
