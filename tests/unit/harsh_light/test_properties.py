"""Property tests: Willpower once a turn, pulls add up, the log replays, decide changes nothing."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.engine import RuleError, Turn
from games.harsh_light import ENGINE, rules
from games.harsh_light.errors import WillpowerRefused
from tests.support.engine import member
from tests.unit.harsh_light.conftest import Table, player, sheet, stacked

PEOPLE = ("c1", "c2", "c3")
USES = st.sampled_from(["pool", "resist", "power"])


def cast() -> Table:
    return Table(**{cid: sheet(f"P{cid}", resolve=5, composure=5) for cid in PEOPLE})


def spend(t: Table, cid: str, use: str, card: int = 5) -> None:
    if use == "pool":
        t.pull(cid, [card], attribute="wits", willpower=True, action="reflexive")
    else:
        t.send({"type": "willpower", "combatant": cid, "use": use})


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(PEOPLE), USES, USES), min_size=1, max_size=6),
       st.booleans())
def test_a_willpower_point_is_refused_the_second_time_in_a_turn(spends: list, in_combat: bool) -> None:
    """Seed: "You may only spend one Willpower per turn (including Willpower spent to activate
    powers)". Whatever the first use and the second, in a fight or out of one (outside a fight
    the Storyteller calls the next turn: no pull ends it)."""
    t = cast()
    if in_combat:
        t.send({"type": "set_order", "order": list(PEOPLE)})
    for cid, first, second in spends:
        points = t.sheets[cid].get("willpower_points")
        spend(t, cid, first)
        with pytest.raises(WillpowerRefused):
            spend(t, cid, second)
        assert t.sheets[cid]["willpower_points"] == (10 if points is None else points) - 1
        t.send({"type": "end_turn"} if not in_combat else {"type": "set_order", "order": list(PEOPLE)})


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=1, max_value=5), st.integers(min_value=0, max_value=5),
       st.integers(min_value=-5, max_value=5), st.sampled_from([10, 9, 8]),
       st.lists(st.integers(min_value=1, max_value=10), min_size=2, max_size=2))
def test_a_pull_is_the_pool_plus_its_cards_judged_by_the_rules(attr: int, dots: int, modifier: int,
                                                               again: int, cards: list[int]) -> None:
    t = Table(c1=sheet("Ann", wits=attr, again=again, skills={"Investigation": dots} if dots else {}))
    record = t.pull("c1", cards, attribute="wits", skill="investigation", modifier=modifier)
    values = cards[:2] if cards[0] >= again else cards[:1]
    if cards[0] >= again and cards[1] == cards[0]:
        values = cards  # the second card of the same value (a different suit)
    assert record["values"] == values
    pool = attr + dots + modifier  # the untrained penalty is a table option, off by default
    assert record["pool"]["size"] == pool and record["total"] == pool + sum(values)
    assert record["successes"] == rules.successes(pool + sum(values))
    assert record["dramatic"] == (pool <= 0 and values[0] == 1)
    assert record["exceptional"] == (record["successes"] >= 5)


COMMANDS = st.sampled_from(["attack", "dodge", "end", "willpower", "move", "extended", "shoot"])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(COMMANDS, st.sampled_from(PEOPLE), st.sampled_from(PEOPLE),
                          st.integers(min_value=1, max_value=10)), max_size=25))
def test_the_log_replays_to_the_same_state_and_refusals_change_nothing(steps: list) -> None:
    """A fold never draws: folding the events again rebuilds the state exactly; a refused move
    leaves the state as it was; and Defence never drops below 0 (as each move left it)."""
    t = cast()
    t.send({"type": "set_order", "order": list(PEOPLE)})
    t.send({"type": "extended_start", "combatant": "c2", "attribute": "wits", "needed": 30})
    for kind, who, other, card in steps:
        actor = player(who)
        command: dict[str, Any] = {
            "attack": {"type": "pull", "combatant": who, "attribute": "strength", "target": other,
                       "resist": "defence"},
            "shoot": {"type": "pull", "combatant": who, "attribute": "dexterity", "target": other,
                      "resist": "defence", "attack": "ranged"},
            "dodge": {"type": "dodge", "combatant": who},
            "end": {"type": "end_turn", "combatant": who},
            "willpower": {"type": "willpower", "combatant": who, "use": "resist"},
            "move": {"type": "move", "combatant": who},
            "extended": {"type": "extended_pull", "extended": "x1", "combatant": who},
        }[kind]
        before = copy.deepcopy(t.state)
        try:
            t.send(command, [card, 5], actor=actor)
        except RuleError:
            assert t.state == before
        for cid in PEOPLE:
            assert t.state["people"][cid]["defence"] >= 0
    assert ENGINE.fold(json.loads(json.dumps(t.log))) == t.state


def test_decide_never_changes_the_state_it_is_given() -> None:
    t = cast()
    t.send({"type": "set_order", "order": list(PEOPLE)})
    frozen = copy.deepcopy(t.state)
    turn = Turn(member=member(player("c1")), characters=t.characters(player("c1")), rng=random.Random(1),
                cards=stacked(4))
    ENGINE.decide(t.state, "pull", {"combatant": "c1", "attribute": "wits", "willpower": True, "target": "c2",
                                    "resist": "defence"}, turn)
    assert t.state == frozen
