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
a refused move changes nothing; no accepted move names an out combatant as its target; a
target list starts on a standing enemy; the out never stand again within a fight (a final
result stays final), unless the seed lets them (Passages' Downed); once the fight is over every
seat reads so, only the GM's banner offers "End the fight" and no new round starts; the log
folds back to the stored state and every card is in one place. The fights are played in two
sessions of play: the GM opens one at the start and, halfway, closes it through the platform's
session close (with the fields the GM's page lays out for it) and opens the next.

Each system's test data is its ``Plan``: the move that starts a fight and the field naming who
is in it, the moves of a fight, and weak sheets so a fight ends in a bounded number of steps.
"""

from __future__ import annotations

import os
import random
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.urls import reverse

from games import registry
from games.core.fights import Fighter
from tabletop import services
from tabletop.feed import panels
from tests.support.frames import panel_as_sent
from tabletop.feed.seat import seat_of
from tabletop.models import Character
from tabletop.selectors import character_facts, procedure_state
from tests.support.kit import (
    Control, KitTable, Seat, conserved, controls_in, fill_as_offered, fold, make_table, samples, snapshot, stored_state,
)

pytestmark = pytest.mark.django_db

SYSTEMS = list(registry.SYSTEMS)
# the systems whose engines run a fight (issue 33: "all five systems" have edges; Report Card has no fight)
FIGHTING = ("demon_city", "shadows", "harsh_light", "passages")
FIGHTS = int(os.environ.get("KIT_FIGHTS", "4"))  # fights played at each table
STEPS = 240  # the most steps one fight may take to end
REFUSED_IN_A_ROW = 40  # more refusals in a row than this, and the table is stuck
TRACE = bool(os.environ.get("KIT_TRACE"))  # print every step
TARGETS = ("target", "targets")  # the fields of a move that name whom it is aimed at
ACTOR = "combatant"  # the field of a move that names who acts


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
    # what a fighter picks over the form's first offer, most of the time, when a move's form
    # offers it: {move: {field: value}} (Harsh Light: a pull with Strength + Brawl)
    fighting: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # the forms of a move a fighter seldom sends, by a hidden field's value or the start of the
    # form's label ("aria-label"): {move: {field: value}}
    rare: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # why one may be out for a while and stand again within the fight, as the seed says; any
    # other out is final until the fight ends
    recovers: frozenset[str] = frozenset()


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
        weights={"end_turn": 0.3, "redeal": 0.2}),
    "harsh_light": Plan(
        start="roll_initiative", who="characters",
        moves=frozenset({"set_up_pull", "pull", "answer", "dodge", "move", "end_turn", "put_away"}),
        procedure=frozenset(),
        rounds=lambda state: int(state.get("turn") or 0),
        pc={"stamina": 1, "size": 1}, npc={"stamina": 1, "size": 1},
        weights={"move": 0.2, "end_turn": 0.3, "put_away": 0.2, "dodge": 0.3},
        fighting={"set_up_pull": {"attribute": "strength", "skill": "brawl"}},
        rare={"set_up_pull": {"aria-label": "Set up a pull"}}),  # a fighter takes the attack form
    "passages": Plan(
        start="combat_start", who="characters",
        moves=frozenset({"declare", "combat_roll"}),
        procedure=frozenset({"timing", "resolve"}),
        rounds=_combat("turn"), pc={"wounds": 10, "fatigue": 20}, npc={"wounds": 10, "fatigue": 20},
        rare={"declare": {"stance": "out"}},
        # seed 001: one Downed "may only make a Resting Action in the next Turn", and one who did
        # no Combat Action "regains one Fatigue box (5%) at the Resolution Point"
        recovers=frozenset({"Downed"})),
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


@dataclass
class Look:
    """What one seat's page shows now: its banner and the controls of its panel."""

    view: dict[str, Any]
    banner: dict[str, Any]
    controls: list[Control]
    awaited: list[str]  # the combatants the step waits for that this seat plays (the GM: the NPCs)


def look(kt: KitTable, seat: Seat) -> Look:
    """The seat's panel as a live redraw sends it (the view drawn once, for banner and HTML)."""
    game = kt.game
    assert game.panel is not None
    view = panels.current(kt.table, seat.member)
    where = seat_of(seat.member)
    html = panel_as_sent(game.panel.template, view or {}, where, kt.table.pk)
    turn = (view or {}).get("turn") or {}
    controllers = (view or {}).get("controllers", {})
    waiting = [c for c in dict.fromkeys([turn.get("combatant"), *turn.get("waiting", ())]) if c]
    mine = [c for c in waiting if controllers.get(c) == (seat.member.pk if seat.role == "player" else None)]
    return Look(view or {}, panels.turn_view(view, where) or {}, controls_in(html, kt.table.pk), mine)


def page_controls(kt: KitTable, seat: Seat) -> list[Control]:
    """Every control on the seat's table page, as the browser loads it."""
    return controls_in(seat.client.get(reverse("table", args=[kt.table.pk])).content.decode(), kt.table.pk)


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


def fighters_for(kt: KitTable, plan: Plan, rnd: random.Random, count: int, fight: int,
                 spent: set[str]) -> list[Character]:
    """``count`` characters for one fight: at least one PC (played by Ann or Bob) and at least
    one NPC (the GM's). First those the kit made for earlier fights (their names end in "*")
    that never went out and whose card does not say they are out now; the rest made from the
    system's samples with the plan's weak sheets (by the GM, as a weak sheet holds tracks only
    the GM may set; a player claims each PC). The table stays small: a panel draws every
    character at it."""
    pcs = [s for s in samples(kt.game) if not s.npc]
    npcs = [s for s in samples(kt.game) if s.npc]
    n_pcs = rnd.randint(1, count - 1)
    kept = [c for c in kt.table.characters.order_by("pk") if c.name.endswith("*") and f"c{c.pk}" not in spent
            and not kt.game.glance(c.sheet).out]
    chosen = [c for c in kept if not c.is_npc][:n_pcs] + [c for c in kept if c.is_npc][:count - n_pcs]
    for i in range(count - len(chosen)):
        pc = sum(not c.is_npc for c in chosen) < n_pcs
        sample = rnd.choice(pcs if pc else npcs)
        character = services.character_create(
            table=kt.table, actor=kt.gm.member, name=f"{sample.name} {fight}.{i + 1}*",
            sheet={**sample.sheet, **(plan.pc if pc else plan.npc)}, npc=not pc, for_players=pc)
        if pc:
            character = services.character_claim(character=character, actor=kt.players[i % len(kt.players)].member)
        chosen.append(character)
    return chosen


def start_fight(kt: KitTable, plan: Plan, rnd: random.Random, fighters: list[Character]) -> None:
    """The GM ticks the fighters on the panel's start form and sends it."""
    [control] = [c for c in look(kt, kt.gm).controls if c.name == plan.start]
    data = fill_as_offered(control, rnd, kt.hands(), keep=1.0)
    offered = {f.value for f in control.fields if f.name == plan.who} | {
        o for f in control.fields if f.name == plan.who for o in f.options}
    chosen = [next(v for v in (str(c.pk), f"c{c.pk}") if v in offered) for c in fighters]
    data[plan.who] = chosen
    status = kt.post(kt.gm, control.url, data)
    assert status == 200, f"{kt.game.key}: the GM's {plan.start} with {data} -> {status}"
    started = roster(kt)
    assert started, f"{kt.game.key}: a fight started and the roster is empty"
    if TRACE:
        print(f"  a fight of {started}")


# Playing one


@dataclass
class Tally:
    ended: int = 0
    sizes: list[int] = field(default_factory=list)  # combatants in each fight
    rounds: list[int] = field(default_factory=list)
    steps: list[int] = field(default_factory=list)
    refused: int = 0
    accepted: int = 0
    # a move against one who is out accepted, one who was out standing again: every one found
    defects: list[str] = field(default_factory=list)
    # a wrong first target (told once per move) and one who stood again (once per fight)
    seen: set[tuple[Any, str]] = field(default_factory=set)
    spent: set[str] = field(default_factory=set)  # every combatant that went out in a fight


def first_target(control: Control, data: Mapping[str, Any], fighters: list[Fighter]) -> str | None:
    """What is wrong with the first target a form offers (issue 33: "A target list starts on a
    standing enemy, never an ally"), when its actor is in the fight and an enemy of it stands:
    an ally, or one who is out; None when it starts right (on an enemy, or on nobody: a form
    whose target may be left out, Harsh Light's pull resisted or not)."""
    actor = str(data.get(ACTOR) or "")
    actor = actor if actor.startswith("c") else f"c{actor}"
    me = next((f for f in fighters if f.cid == actor), None)
    if me is None or me.out:
        return None
    foes = {f.cid for f in fighters if f.side != me.side and not f.out}
    for f in control.fields:
        if f.name in TARGETS and f.kind == "select" and not f.multiple and foes:
            first = f.value if f.value in f.options else (f.options[0] if f.options else "")
            cid = first if first.startswith("c") or not first else f"c{first}"
            if cid in foes:
                return None
            who = next((x for x in fighters if x.cid == cid), None)
            return None if who is None else f"{who.name}, " + ("who is out" if who.out else "an ally")
    return None


def play_fight(kt: KitTable, plan: Plan, rnd: random.Random, tally: Tally, fight: int) -> None:
    key = kt.game.key
    fights = kt.game.fights
    assert fights is not None
    out: set[str] = set()
    rounds = 0
    in_a_row = 0
    refusals: dict[tuple[str, str, str | None], int] = {}  # since the table last changed: a person tries something else
    looks: dict[str, Look] = {}
    now: list[Fighter] = []
    last = "the start"  # the last move accepted, for a report
    why_out: dict[str, str] = {}
    for step in range(STEPS):
        if not looks:  # the table changed: read it again (a refusal changes nothing)
            now = roster(kt)
            rounds = max(rounds, plan.rounds(procedure_state(kt.table) or {}))
            fallen = {f.cid for f in now if f.out}
            out -= {f.cid for f in now if f.cid in out and not f.out and why_out.get(f.cid) in plan.recovers}
            why_out.update({f.cid: f.why for f in now if f.out})
            for f in now:
                if TRACE and f.out and f.cid not in out:
                    print(f"  {fight}.{step} {f.name} ({f.cid}) is out: {f.why}")
                if f.cid in out - fallen and (fight, f.cid) not in tally.seen:
                    tally.seen.add((fight, f.cid))
                    tally.defects.append(f"fight {fight} step {step}: {f.name} ({f.cid}) was out and stands "
                                         f"again after {last}")
            out |= fallen
            tally.spent |= fallen
            looks = {kt.gm.name: look(kt, kt.gm)}
            # a player's own panel is read when the step may wait for them (as the GM's view
            # says) and when the fight is over (every seat must say so)
            for seat in kt.players:
                told = panels.turn_view(looks[kt.gm.name].view, seat_of(seat.member)) or {}
                if told.get("mine") or told.get("over"):
                    looks[seat.name] = look(kt, seat)
        gm = looks[kt.gm.name].banner
        if gm.get("over"):
            no_new_round(kt, plan, rnd, looks[kt.gm.name], fight)
            end_the_fight(kt, rnd, looks)
            assert not roster(kt), f"{key}: the fight was ended and its roster stays"
            tally.ended += 1
            tally.rounds.append(rounds)
            tally.steps.append(step)
            return
        holders = [s for s in (kt.gm, *kt.players) if s.name in looks and looks[s.name].banner.get("mine")]
        seat = rnd.choice(holders) if holders else kt.gm
        allowed = plan.moves | (plan.procedure if seat is kt.gm else frozenset())
        controls = usable(kt, seat, [c for c in looks[seat.name].controls
                                     if c.name in allowed and "/commands/" in c.url])
        if seat in holders:
            assert controls, (f"{key} fight {fight} step {step}: the turn names {seat.name} "
                              f"({looks[seat.name].banner.get('prompt')!r}), whose panel offers nothing of "
                              f"{sorted(allowed)}")
        else:
            assert controls, (f"{key} fight {fight} step {step}: the banner names nobody "
                              f"({gm.get('says')!r}) and the GM's panel offers no step of the procedure")
        awaited = looks[seat.name].awaited
        if awaited:  # a person acts for the one the banner names
            controls = [c for c in controls if actor_of(c) in (None, *awaited)] or controls
        # the one the banner asks for first; the GM asked for a step of the procedure takes one
        weights = [plan.weights.get(c.name, 1.0) * (0.25 if rare(plan, c) else 1) * (5 if actor_of(c) in awaited or (
                       seat is kt.gm and not awaited and c.name in plan.procedure) else 1)
                   / (1 + 4 * refusals.get((seat.name, c.name, actor_of(c)), 0)) for c in controls]
        control = rnd.choices(controls, weights=weights, k=1)[0]
        data = fill_as_offered(control, rnd, kt.hands())
        acting_for(kt, seat, control, data, looks[seat.name].awaited, rnd)
        first = first_target(control, data, now)
        if first is not None and (control.name, first) not in tally.seen:
            tally.seen.add((control.name, first))
            tally.defects.append(f"fight {fight} step {step}: {seat.name}'s {control.name} for {data.get(ACTOR)} "
                                 f"offers first {first}, not a standing enemy")
        offered = {f.name for f in control.fields}
        if rnd.random() < 0.8:
            data.update({k: v for k, v in plan.fighting.get(control.name, {}).items() if k in offered})
        aimed = named(data, now) & {f.cid for f in now if f.out}
        before = snapshot(kt.table)
        answer = seat.client.post(control.url, data, HTTP_HX_REQUEST="true")
        status = answer.status_code
        assert status < 500, f"{key} fight {fight} step {step}: {seat.name} {control.name} {data} -> {status}"
        if TRACE:
            print(f"  {fight}.{step} [{looks[seat.name].banner.get('prompt', '')[:60]}] {seat.name} {control.name} "
                  f"{data} -> {status} {answer.content.decode()[:120] if status >= 400 else ''}")
        if status >= 400:
            assert snapshot(kt.table) == before, f"{key}: a refused {control.name} changed the table"
            tally.refused += 1
            in_a_row += 1
            tried = (seat.name, control.name, actor_of(control))
            refusals[tried] = refusals.get(tried, 0) + 1
            assert in_a_row <= REFUSED_IN_A_ROW, (
                f"{key} fight {fight} step {step}: {in_a_row} refusals in a row, the last {seat.name}'s "
                f"{control.name} {data}: {answer.content.decode()[:300]}")
            continue
        in_a_row = 0
        last = f"{seat.name}'s {control.name} {data}"
        refusals.clear()
        looks = {}
        tally.accepted += 1
        if aimed:
            tally.defects.append(f"fight {fight} step {step}: {seat.name}'s {control.name} against {sorted(aimed)}, "
                                 f"out of the fight, was accepted ({data})")
    pytest.fail(f"{key} fight {fight}: not over after {STEPS} steps (round {rounds}); roster {roster(kt)}; "
                f"the GM's banner {look(kt, kt.gm).banner}")


def rare(plan: Plan, control: Control) -> bool:
    """A control a fighter seldom takes (``Plan.rare``: Passages' declaring OUT of the combat)."""
    said = {**{f.name: f.value for f in control.fields if f.kind == "hidden"}, **control.vals}
    return any(said.get(k) == v or (k == "aria-label" and control.label.startswith(v))
               for k, v in plan.rare.get(control.name, {}).items())


def actor_of(control: Control) -> str | None:
    """The combatant a control acts for when it names one itself (a form of its own per
    combatant, its ``combatant`` hidden), as a combatant id."""
    raw = control.vals.get(ACTOR) or next((f.value for f in control.fields if f.name == ACTOR and f.kind == "hidden"), "")
    return (raw if raw.startswith("c") else f"c{raw}") if raw else None


def usable(kt: KitTable, seat: Seat, controls: list[Control]) -> list[Control]:
    """The controls a seat would use: the GM's for an NPC (or for nobody in particular), never
    for a player's character (the core lets the GM send a player's move; the kit's GM does not)."""
    if seat is not kt.gm:
        return controls
    npcs = {f"c{pk}" for pk in kt.table.characters.filter(is_npc=True).values_list("pk", flat=True)}
    return [c for c in controls if actor_of(c) in (None, *npcs)]


def acting_for(kt: KitTable, seat: Seat, control: Control, data: dict[str, Any], awaited: list[str],
               rnd: random.Random) -> None:
    """In a form that lists whom it acts for, a person picks the one the banner asks them for;
    the GM an NPC, never a player's character."""
    for f in control.fields:
        if f.name != ACTOR or f.kind != "select":
            continue
        as_cid = {o if o.startswith("c") else f"c{o}": o for o in f.options if o}
        asked = [as_cid[c] for c in awaited if c in as_cid]
        if seat is kt.gm:
            npcs = {f"c{pk}" for pk in kt.table.characters.filter(is_npc=True).values_list("pk", flat=True)}
            ours = [o for c, o in as_cid.items() if c in npcs]
        else:
            ours = list(as_cid.values())
        if asked:
            data[f.name] = rnd.choice(asked)
        elif ours and data.get(f.name) not in ours:
            data[f.name] = rnd.choice(ours)


def no_new_round(kt: KitTable, plan: Plan, rnd: random.Random, gm: Look, fight: int) -> None:
    """Issue 33: "no new round or Turn starts by itself" once the fight is over: a step of the
    procedure the GM's panel still offers is refused, or leaves the round where it was and the
    fight over."""
    steps = [c for c in gm.controls if c.name in plan.procedure]
    if not steps:
        return
    control = rnd.choice(steps)
    was = plan.rounds(procedure_state(kt.table) or {})
    before = snapshot(kt.table)
    status = kt.post(kt.gm, control.url, fill_as_offered(control, rnd, kt.hands(), keep=1.0))
    assert status < 500, f"{kt.game.key}: the GM's {control.name} once the fight is over -> {status}"
    if status >= 400:
        assert snapshot(kt.table) == before, f"{kt.game.key}: a refused {control.name} changed the table"
        return
    now = plan.rounds(procedure_state(kt.table) or {})
    assert now <= was and look(kt, kt.gm).banner.get("over"), (
        f"{kt.game.key} fight {fight}: the fight was over, and the GM's {control.name} went on to round {now}")


def end_the_fight(kt: KitTable, rnd: random.Random, looks: Mapping[str, Look]) -> None:
    """Every seat reads that the fight is over; the GM's banner, on the page as in a live
    redraw, carries "End the fight" (no other seat's does), and the GM sends it."""
    key = kt.game.key
    fights = kt.game.fights
    assert fights is not None
    for seat in (*kt.players, kt.watcher):
        told = looks[seat.name].banner if seat.name in looks else look(kt, seat).banner
        assert told.get("over") and told.get("says", "").startswith("The fight is over: "), (key, seat.name, told)
        assert fights.end not in {c.name for c in page_controls(kt, seat)}, f"{key}: {seat.name} may end the fight"
    assert fights.end in {c.name for c in looks[kt.gm.name].controls}, f"{key}: no {fights.end!r} in the GM's redraw"
    ends = [c for c in page_controls(kt, kt.gm) if c.name == fights.end]
    assert ends, f"{key}: the fight is over and the GM's page has no {fights.end!r}"
    control = ends[0]
    status = kt.post(kt.gm, control.url, fill_as_offered(control, rnd, kt.hands(), keep=1.0))
    assert status == 200, f"{key}: the GM's {fights.end} -> {status}"


def open_session(kt: KitTable) -> None:
    """The GM opens the table's next session (the platform's session box)."""
    status = kt.post(kt.gm, reverse("session_open", args=[kt.table.pk]), {})
    assert status == 200, f"{kt.game.key}: the GM's session open -> {status}"


def close_session(kt: KitTable) -> None:
    """The GM closes the session through the platform, with the fields the GM's page lays out
    for it (``form="session-close"``: the system's end-of-session rules, ``Clock.closing``)."""
    # imported here: that module imports this one's plans and fights
    from tests.integration.test_contract_kit_campaign import _CloseFields

    fields = _CloseFields()
    fields.feed(kt.gm.client.get(reverse("table", args=[kt.table.pk])).content.decode())
    status = kt.post(kt.gm, reverse("session_close", args=[kt.table.pk]), fields.data)
    assert status == 200, f"{kt.game.key}: the GM's session close with {fields.data} -> {status}"


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
        # the GM first brings out the decks the rules draw from, as the panel offers them
        for control in [c for c in look(kt, kt.gm).controls if c.url.endswith("/decks/new/")]:
            assert kt.post(kt.gm, control.url, fill_as_offered(control, rnd, kt.hands(), keep=1.0)) == 200
        open_session(kt)  # the evening's fights in sessions of play: half in one, half in the next
        for fight in range(1, FIGHTS + 1):
            size = rnd.randint(2, 6)
            tally.sizes.append(size)
            start_fight(kt, plan, rnd, fighters_for(kt, plan, rnd, size, fight, tally.spent))
            play_fight(kt, plan, rnd, tally, fight)
            assert conserved(kt.table) == [], f"{system} after fight {fight}"
            if fight == FIGHTS // 2:
                close_session(kt)
                open_session(kt)
                sessions += 1
    print(f"{system}: {tally.ended} fights ended over {sessions} session(s); combatants {tally.sizes}; "
          f"rounds per fight {tally.rounds}; "
          f"steps per fight {tally.steps}; {tally.accepted} moves accepted, {tally.refused} refused")
    assert not tally.defects, f"{system}: " + "; ".join(tally.defects[:8])
    assert tally.ended == FIGHTS
    assert fold(kt.table) == stored_state(kt.table), f"{system}: the log does not replay to the state"
    assert conserved(kt.table) == []
