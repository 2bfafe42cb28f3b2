"""The contract kit's fights (issue 33, "Done means"): every system with fights plays them, two
to six combatants, seeded, to their end from each seat's own panel, with no GM step but the
procedure's own (the NPCs' moves, a new round, a roll) and "End the fight" once one side
stands.

Each step, the seats the banner names ("Your turn") act with what their panel offers, filled as
a person in a hurry fills it (what the form offers first, most of the time: a target list
starts on a standing enemy); the GM runs the procedure when the banner names nobody. Never a
correction, an undo, a sheet edited, a status set, nor a fight ended early: the fight ends by
the rules or not at all. Counted and printed: fights ended, and rounds per fight. Asserted at
each step: no 500; no dead end (the banner names a seat whose panel offers nothing it may do);
a refused move changes nothing; no accepted move names an out combatant as its target; the out
never stand again within a fight (a final result stays final); the log folds back to the
stored state and every card is in one place.

Each system's test data is its ``Plan``: the move that starts a fight and the field naming who
is in it, the moves of a fight, and weak sheets so a fight ends in a bounded number of steps.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from games import registry
from games.core.fights import Fighter
from tabletop import panels, services
from tabletop.models import Character
from tabletop.selectors import character_facts, procedure_state
from tests.support.kit import (
    Control, KitTable, Seat, conserved, controls_in, fill_as_offered, fold, make_table, snapshot, stored_state,
)

pytestmark = pytest.mark.django_db

SYSTEMS = [s.key for s in registry.available()]
# the systems whose engines run a fight (issue 33: "all five systems" have edges; Report Card has no fight)
FIGHTING = ("demon_city", "shadows", "harsh_light", "passages")
FIGHTS = 4  # fights played at each table
STEPS = 240  # the most steps one fight may take to end
REFUSED_IN_A_ROW = 40  # more refusals in a row than this, and the table is stuck
TARGETS = ("target", "targets")  # the fields of a move that name whom it is aimed at


@dataclass(frozen=True)
class Plan:
    """One system's fights as the kit plays them (test data)."""

    start: str  # the GM's move that starts a fight
    who: str  # the start form's field naming the combatants
    moves: frozenset[str]  # what a seat the banner names may do in a fight (the GM's NPCs' too)
    procedure: frozenset[str]  # the GM's steps of the procedure: no correction, no undo
    rounds: Callable[[Mapping[str, Any]], int]  # the round (or Turn) the fight is in
    pc: Mapping[str, Any] = field(default_factory=dict)  # laid over a sample PC's sheet
    npc: Mapping[str, Any] = field(default_factory=dict)  # laid over a sample NPC's sheet
    weights: Mapping[str, float] = field(default_factory=dict)  # how often a move is taken (1 unless said)
    session: str | None = None  # the GM's move that closes a session, where the system has sessions


def _combat(key: str) -> Callable[[Mapping[str, Any]], int]:
    def read(state: Mapping[str, Any]) -> int:
        combat = state.get("combat")
        return int(combat.get(key) or 0) if isinstance(combat, dict) else 0
    return read


PLANS: dict[str, Plan] = {
    "demon_city": Plan(
        start="start", who="characters", moves=frozenset({"announce"}),
        procedure=frozenset({"roll", "next_round", "set_difficulty"}),
        rounds=lambda state: int(state.get("round") or 0),
        pc={"toughness": 1, "current_toughness": ""}, npc={"toughness": 1, "current_toughness": ""}),
    "shadows": Plan(
        start="start_combat", who="characters",
        moves=frozenset({"declare_focus", "aim", "attack", "defend", "end_turn", "redeal"}),
        procedure=frozenset({"deal", "new_round"}),
        rounds=_combat("round"), pc={"health": 4, "health_now": ""}, npc={"health": 4, "health_now": ""},
        weights={"end_turn": 0.3, "redeal": 0.2}, session="end_session"),
    "harsh_light": Plan(
        start="roll_initiative", who="characters",
        moves=frozenset({"set_up_pull", "pull", "answer", "dodge", "move", "end_turn", "put_away"}),
        procedure=frozenset(),
        rounds=lambda state: int(state.get("turn") or 0),
        pc={"stamina": 1, "size": 1}, npc={"stamina": 1, "size": 1},
        weights={"move": 0.2, "end_turn": 0.3, "put_away": 0.2, "dodge": 0.3}),
    "passages": Plan(
        start="combat_start", who="characters",
        moves=frozenset({"declare", "combat_roll"}),
        procedure=frozenset({"timing", "resolve"}),
        rounds=_combat("turn"), pc={"wounds": 10, "fatigue": 20}, npc={"wounds": 10, "fatigue": 20}),
}


def test_every_system_whose_engine_fights_declares_its_fights() -> None:
    """Issue 33: "each system declares from its own rules who is out" (Demon City, Shadows,
    Harsh Light, Passages): a system with fights names its roster and the move that ends one."""
    missing = [key for key in FIGHTING if key in SYSTEMS and registry.get(key).fights is None]
    assert not missing, f"no fights declared by {missing}"
    assert set(PLANS) >= {key for key in SYSTEMS if registry.get(key).fights}


# Reading the table


def roster(kt: KitTable) -> list[Fighter]:
    """The fight under way as the system declares it (empty when none is)."""
    fights = kt.game.fights
    assert fights is not None
    characters = {c.cid: c for c in map(character_facts, kt.table.characters.order_by("pk"))}
    return list(fights.roster(procedure_state(kt.table) or {}, characters))


def banner(kt: KitTable, seat: Seat) -> dict[str, Any]:
    return panels.turn_view(panels.current(kt.table, seat.member), panels.page_seat(seat.member)) or {}


def controls_of(kt: KitTable, seat: Seat) -> list[Control]:
    return controls_in(kt.panel_html(seat), kt.table.pk)


def named(data: Mapping[str, Any], fighters: list[Fighter]) -> set[str]:
    """The combatant ids the posted targets name (a character's id or its combatant id)."""
    raws = [v for key in TARGETS for v in (data.get(key) if isinstance(data.get(key), list) else [data.get(key)])]
    cids = {f.cid for f in fighters}
    found = set()
    for raw in filter(None, map(str, raws)):
        cid = raw if raw in cids else f"c{raw}"
        if cid in cids:
            found.add(cid)
    return found


# Setting a fight up


def fresh_fighters(kt: KitTable, plan: Plan, rnd: random.Random, count: int, fight: int) -> list[Character]:
    """``count`` new characters for one fight, made from the system's samples with the plan's
    weak sheets: at least one PC (played by Ann or Bob) and at least one NPC (the GM's)."""
    pcs = [s for s in kt.game.samples if not s.npc]
    npcs = [s for s in kt.game.samples if s.npc]
    n_pcs = rnd.randint(1, count - 1)
    made = []
    for i in range(count):
        pc = i < n_pcs
        sample = rnd.choice(pcs if pc else npcs)
        actor = kt.players[i % len(kt.players)].member if pc else kt.gm.member
        made.append(services.character_create(
            table=kt.table, actor=actor, name=f"{sample.name} {fight}.{i + 1}",
            sheet={**sample.sheet, **(plan.pc if pc else plan.npc)}, npc=not pc))
    return made


def start_fight(kt: KitTable, plan: Plan, rnd: random.Random, fighters: list[Character]) -> None:
    """The GM ticks the fighters on the panel's start form and sends it."""
    [control] = [c for c in controls_of(kt, kt.gm) if c.name == plan.start]
    data = fill_as_offered(control, rnd, kt.hands(), keep=1.0)
    offered = {f.value for f in control.fields if f.name == plan.who} | {
        o for f in control.fields if f.name == plan.who for o in f.options}
    chosen = [next(v for v in (str(c.pk), f"c{c.pk}") if v in offered) for c in fighters]
    data[plan.who] = chosen
    status = kt.post(kt.gm, control.url, data)
    assert status == 200, f"{kt.game.key}: the GM's {plan.start} with {data} -> {status}"
    assert roster(kt), f"{kt.game.key}: a fight started and the roster is empty"


# Playing one


@dataclass
class Tally:
    ended: int = 0
    rounds: list[int] = field(default_factory=list)
    steps: list[int] = field(default_factory=list)
    refused: int = 0
    accepted: int = 0


def play_fight(kt: KitTable, plan: Plan, rnd: random.Random, tally: Tally, fight: int) -> None:
    key = kt.game.key
    fights = kt.game.fights
    assert fights is not None
    out: set[str] = set()
    rounds = 0
    in_a_row = 0
    for step in range(STEPS):
        now = roster(kt)
        rounds = max(rounds, plan.rounds(procedure_state(kt.table) or {}))
        fallen = {f.cid for f in now if f.out}
        assert fallen >= out, f"{key} fight {fight} step {step}: {sorted(out - fallen)} stood again"
        out = fallen
        gm = banner(kt, kt.gm)
        if gm.get("over"):
            for seat in kt.seats:
                assert banner(kt, seat).get("over"), f"{key}: {seat.name}'s banner does not say the fight is over"
            ends = [c for c in controls_of(kt, kt.gm) if c.name == fights.end]
            assert ends, f"{key}: the fight is over and the GM's panel has no {fights.end!r}"
            for seat in kt.players:
                assert fights.end not in {c.name for c in controls_of(kt, seat)}
            control = ends[0]
            status = kt.post(kt.gm, control.url, fill_as_offered(control, rnd, kt.hands(), keep=1.0))
            assert status == 200, f"{key}: the GM's {fights.end} -> {status}"
            assert not roster(kt), f"{key}: the fight was ended and its roster stays"
            tally.ended += 1
            tally.rounds.append(rounds)
            tally.steps.append(step)
            return
        holders = [s for s in (kt.gm, *kt.players) if banner(kt, s).get("mine")]
        seat = rnd.choice(holders) if holders else kt.gm
        allowed = plan.moves | (plan.procedure if seat is kt.gm else frozenset())
        controls = [c for c in controls_of(kt, seat) if c.name in allowed and "/commands/" in c.url]
        if seat in holders:
            assert controls, (f"{key} fight {fight} step {step}: the turn names {seat.name} "
                              f"({banner(kt, seat).get('prompt')!r}), whose panel offers nothing of {sorted(allowed)}")
        else:
            assert controls, (f"{key} fight {fight} step {step}: the banner names nobody "
                              f"({gm.get('says')!r}) and the GM's panel offers no step of the procedure")
        control = rnd.choices(controls, weights=[plan.weights.get(c.name, 1.0) for c in controls], k=1)[0]
        data = fill_as_offered(control, rnd, kt.hands())
        aimed = named(data, now)
        before = snapshot(kt.table)
        answer = seat.client.post(control.url, data, HTTP_HX_REQUEST="true")
        status = answer.status_code
        assert status < 500, f"{key} fight {fight} step {step}: {seat.name} {control.name} {data} -> {status}"
        if status >= 400:
            assert snapshot(kt.table) == before, f"{key}: a refused {control.name} changed the table"
            tally.refused += 1
            in_a_row += 1
            assert in_a_row <= REFUSED_IN_A_ROW, (
                f"{key} fight {fight} step {step}: {in_a_row} refusals in a row, the last {seat.name}'s "
                f"{control.name} {data}: {answer.content.decode()[:300]}")
            continue
        in_a_row = 0
        tally.accepted += 1
        hit_out = aimed & out
        assert not hit_out, (f"{key} fight {fight} step {step}: {seat.name}'s {control.name} against "
                             f"{sorted(hit_out)}, out of the fight, was accepted ({data})")
    pytest.fail(f"{key} fight {fight}: not over after {STEPS} steps (round {rounds}); "
                f"roster {roster(kt)}; the GM's banner {banner(kt, kt.gm)}")


@pytest.mark.parametrize("system", [s for s in SYSTEMS if registry.get(s).fights])
def test_fights_played_from_each_seat_s_panel_run_to_their_end(system: str) -> None:
    plan = PLANS[system]
    kt = make_table(system, f"fights-{system}")
    seed = sum(map(ord, system))
    rnd = random.Random(seed)
    tally = Tally()
    sessions = 1
    table_rng = random.Random(seed + 1)  # the table's dice and shuffles: a failing run plays again
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(secrets, "SystemRandom", lambda: table_rng)
        for fight in range(1, FIGHTS + 1):
            start_fight(kt, plan, rnd, fresh_fighters(kt, plan, rnd, rnd.randint(2, 6), fight))
            play_fight(kt, plan, rnd, tally, fight)
            assert conserved(kt.table) == [], f"{system} after fight {fight}"
            if plan.session and fight == FIGHTS // 2:
                [close] = [c for c in controls_of(kt, kt.gm) if c.name == plan.session]
                assert kt.post(kt.gm, close.url, fill_as_offered(close, rnd, kt.hands(), keep=1.0)) == 200
                sessions += 1
    print(f"{system}: {tally.ended} fights ended over {sessions} session(s); rounds per fight {tally.rounds}; "
          f"steps per fight {tally.steps}; {tally.accepted} moves accepted, {tally.refused} refused")
    assert tally.ended == FIGHTS
    assert fold(kt.table) == stored_state(kt.table), f"{system}: the log does not replay to the state"
    assert conserved(kt.table) == []
