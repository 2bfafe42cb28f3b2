"""Property tests: invariants of pools, announcement order, clashes and whole fights."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.demon_city import ENGINE, odds
from games.demon_city.actions import Action
from games.demon_city.clash import group
from games.core.engine import RuleError
from games.demon_city.combatant import Combatant
from games.demon_city.edges import over, why_out
from games.demon_city.pools import all_pools
from games.demon_city.state import current_pools, grouping, next_announcer
from tests.unit.demon_city.conftest import Fight

GM = {"is_gm": True}
KINDS = ("melee", "grab", "shoot", "exotic", "defend", "other")
rating = st.integers(min_value=0, max_value=9)


@st.composite
def people(draw: Any, min_size: int = 2, max_size: int = 7) -> list[dict[str, Any]]:
    count = draw(st.integers(min_value=min_size, max_value=max_size))
    return [{"id": f"c{i}", "agility": draw(rating), "toughness": draw(rating),
             "hand_to_hand": draw(rating), "firearms": draw(rating),
             "exotic_weapons": draw(rating), "side": draw(st.sampled_from(["pc", "npc", ""])),
             "injured": draw(st.booleans()), "unaware": draw(st.booleans()),
             "grabbed": draw(st.booleans()), "defended_last_round": draw(st.booleans())}
            for i in range(count)]


@st.composite
def announced(draw: Any, cast: list[dict[str, Any]]) -> list[Action]:
    ids = [p["id"] for p in cast]
    actions = []
    for cid in draw(st.permutations(ids)):
        kind = draw(st.sampled_from(KINDS))
        others = [i for i in ids if i != cid]
        needs = kind in ("melee", "grab", "shoot", "exotic")
        count = draw(st.integers(min_value=1 if needs else 0, max_value=1))
        targets = tuple(draw(st.lists(st.sampled_from(others), min_size=count, max_size=count,
                                      unique=True)))
        actions.append(Action(actor=cid, kind=kind, targets=targets))
    return actions


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_pool_sizes_stay_between_one_and_five(data):
    """Seed: "at least one die" ("down to a minimum of one die") and "the maximum dice
    anyone could roll would be 5"."""
    cast = data.draw(people())
    actions = data.draw(announced(cast))
    reasons = st.lists(st.text(min_size=1, max_size=5), max_size=2)
    situation = {p["id"]: data.draw(reasons)[: 1 if p["defended_last_round"] else 2]
                 for p in cast}
    lost = {p["id"]: data.draw(reasons) for p in cast}
    combatants = {p["id"]: Combatant.from_dict(p) for p in cast}
    for pool in all_pools(combatants, actions, situation, lost).values():
        assert 1 <= pool.size <= 5
        assert pool.count("situation") <= 2 and pool.count("lost_misc") <= 2
        assert pool.count("defense") + pool.count("distraction") <= 1


@settings(max_examples=100, deadline=None)
@given(people(min_size=1, max_size=9), st.integers(min_value=0, max_value=2**32))
def test_announcement_order_is_ascending_agility(cast, seed):
    """Seed: "write down player characters' names in ascending order of Agility"."""
    f = Fight(cast, random.Random(seed))
    agility = {p["id"]: p["agility"] for p in cast}
    assert sorted(f.state["order"]) == sorted(agility)
    assert [agility[c] for c in f.state["order"]] == sorted(agility.values())
    seen = []
    while (who := next_announcer(f.state)) is not None:
        seen.append(who)
        f.send({"type": "announce", "actor": GM, "combatant": who, "kind": "defend"}, random.Random(seed))
    assert seen == f.state["order"]


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_clashes_partition_everyone_targeted_or_acting(data):
    """Seed: multiple clashes only "so long as none of the personnel trying to interfere
    with each other overlap"."""
    cast = data.draw(people())
    ids = [p["id"] for p in cast]
    acting = data.draw(st.lists(st.sampled_from(ids), unique=True, min_size=1))
    actions = []
    for cid in acting:
        others = [i for i in ids if i != cid]
        targets = data.draw(st.lists(st.sampled_from(others), unique=True, max_size=2))
        actions.append(Action(actor=cid, kind="other" if not targets else "melee",
                              targets=tuple(targets)))
    got = group(actions, ids)
    groups = [set(c.members) for c in got.clashes]
    groups += [{cid, *next(a.targets for a in actions if a.actor == cid)}
               for cid in got.unresisted]
    involved = {a.actor for a in actions} | {t for a in actions for t in a.targets}
    assert set().union(*groups) == involved
    assert sum(len(g) for g in groups) == len(involved)  # no one in two groups
    for action in actions:  # every link stays inside one group
        home = [g for g in groups if action.actor in g]
        assert len(home) == 1 and set(action.targets) <= home[0]
    for clash in got.clashes:
        assert len(clash.actors) >= 2
    for cid in got.unresisted:  # truly unresisted: nobody else acting is linked to it
        assert not any(cid in a.targets for a in actions)


def auto_announce(f: Fight, rng: random.Random) -> None:
    """Announce a random legal action for whoever's turn it is, until everyone has."""
    while (who := next_announcer(f.state)) is not None:
        state = f.state
        # the out (out of the fight, dead, gone) are no one's target: their announcement is refused
        others = [c for c in state["order"] if c != who and not why_out(state["combatants"][c])]
        kind = rng.choice(KINDS if others else ("defend", "other"))
        command = {"type": "announce", "actor": GM, "combatant": who, "kind": kind}
        if kind in ("melee", "grab", "shoot", "exotic") or (others and rng.random() < .5):
            command["target"] = rng.choice(others)
        if kind in ("melee", "shoot") and rng.random() < 0.1:
            command["massive"] = True
        f.send(command, rng)


@settings(max_examples=40, deadline=None)
@given(people(min_size=2, max_size=6), st.integers(min_value=0, max_value=2**32))
def test_random_fights_replay_and_keep_the_rules(cast, seed):
    """Any fight, replayed from its log, rebuilds the same state; every die is a d10 and
    in each Clash only the winner's action has effects (seed, step 7)."""
    rng = random.Random(seed)
    f = Fight(cast, rng)
    for _ in range(4):
        if next_announcer(f.state) is None:
            break  # everyone is out of the fight
        auto_announce(f, rng)
        pools = current_pools(f.state)
        assert all(1 <= p.size <= 5 for p in pools.values())
        clashes = grouping(f.state).clashes
        events = f.send({"type": "roll"}, rng)
        for clash in (e for e in events if e["type"] == "clash_rolled"):
            for roll in clash["rolls"].values():
                assert len(roll["dice"]) == roll["pool"]["size"]
                assert all(1 <= d <= 10 for d in roll["dice"])
        attackers = [e["attacker"] for e in events if e["type"] == "damage_rolled"]
        winners = {e["winner"] for e in events if e["type"] == "clash_rolled"}
        in_clash = {c for clash in clashes for c in clash.actors}
        assert {a for a in attackers if a in in_clash} <= winners
        # seed, step 8: only a roll that "wasn't conclusive" is rolled again; a final one stays
        finals = [e["combatant"] for e in f.log if e["type"] == "injury_rolled" and e["entry"]["conclusive"]]
        assert len(finals) == len(set(finals))
        if over(f.state):
            with pytest.raises(RuleError, match="The fight is over"):
                f.send({"type": "next_round"}, rng)
            break
        f.send({"type": "next_round"}, rng)
    assert json.loads(json.dumps(f.state)) == f.state
    assert ENGINE.fold(f.log) == f.state


@settings(max_examples=30, deadline=None)
@given(people(min_size=2, max_size=5), st.integers(min_value=0, max_value=2**32))
def test_every_event_log_replays_to_the_same_state(cast, seed):
    """The project's rule: "a log can be replayed and audited" -- including announcements and undo."""
    rng = random.Random(seed)
    f = Fight(cast, rng)
    for round_no in range(3):
        auto_announce(f, rng)
        for kind in ("roll", "undo", "roll", "next_round")[: 4 if round_no < 2 else 3]:
            if kind == "next_round" and over(f.state):
                break  # the fight is over: the Host ends it rather than start a round
            f.send({"actor": GM, "type": kind}, rng)
        if f.state["phase"] != "announce":
            break
    assert ENGINE.fold(json.loads(json.dumps(f.log))) == f.state


def test_odds_always_add_up_and_more_dice_win_more_often():
    """Exact odds for every pool the rules allow (1-5 dice) and targets 0-11."""
    for a in range(1, 6):
        for b in range(1, 6):
            result = odds.clash_exact(a, b)
            assert result.win + result.lose + result.tie == 1
            assert 0 <= result.crit <= result.win and result.both_fumble <= result.tie
        for target in range(0, 12):
            result = odds.against_target_exact(a, target)
            assert result.win + result.lose + result.tie == 1
            if target < 11:
                assert odds.against_target_exact(a, target + 1).win <= result.win
