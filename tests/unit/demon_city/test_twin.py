"""Issue 23: every seat unfolds a Demon City line behind the GM's screen to a public working
built from the event's public part alone; the whole working is its private twin (the GM's)."""

from __future__ import annotations

from games.contract import screened
from games.demon_city.state import new_state
from games.demon_city.working import working
from tests.unit.demon_city.conftest import ScriptedRng, run
from tests.unit.demon_city.test_npc_screen import ALFIE, DEMON


def public_text(event: dict) -> str:
    seen = screened(event)
    return str({k: v for k, v in event.items() if k not in seen.private})


def test_an_npc_s_own_skill_action_with_no_difficulty_unfolds_for_everyone_without_its_skill() -> None:
    """Seed: "Any action that couldn't interfere with anyone else's action ... is resolved, using
    the Task rules above if necessary": with no difficulty, it happens; the Demon's own skill
    (the action's stat, the GM's) is in no public working."""
    state, _ = run(new_state(), {"type": "start", "combatants": [ALFIE, DEMON], "npcs": ["demon"]})
    state, _ = run(state, {"type": "announce", "combatant": "alfie", "kind": "other", "stat": "agility"})
    state, _ = run(state, {"type": "announce", "combatant": "demon", "kind": "other",
                           "stat": "Gloomfang Bite", "against": "agility"})
    state, events = run(state, {"type": "roll"}, ScriptedRng(rolls=[5] * 6))
    done = next(e for e in events if e["type"] == "unresisted_resolved" and e["combatant"] == "demon")
    assert "action" in screened(done).private and done["task"] is None
    told = working(done, state)
    assert told is not None and told.private is not None
    assert told.steps == ("Nobody's action touches Demon's, and no difficulty is set: it happens",)
    assert "Gloomfang" not in str(told.data()) and "Gloomfang" not in public_text(done)


def test_every_public_working_of_a_fight_with_an_npc_names_no_figure_of_its() -> None:
    """The Demon's Agility 7, Hand-to-Hand 8 and its own skill are in no public working of the
    fight, each line behind the screen has one, and its twin (the GM's) names the Demon's pool."""
    state, log = run(new_state(), {"type": "start", "combatants": [ALFIE, DEMON], "npcs": ["demon"]})
    for command in ({"type": "announce", "combatant": "alfie", "kind": "melee", "target": "demon"},
                    {"type": "announce", "combatant": "demon", "kind": "melee", "target": "alfie"}):
        state, more = run(state, command)
        log += more
    state, more = run(state, {"type": "roll"}, ScriptedRng(rolls=[3, 9, 5] + [1] * 8 + [5]))
    twins = []
    for event in log + more:
        told = working(event, state)
        if told is not None and told.private is not None:
            twins.append(event["type"])
            public = str(told.data())
            assert told.steps and "Agility 7" not in public and "Hand-to-Hand 8" not in public, event["type"]
            assert "Gloomfang" not in public, event["type"]
    assert twins == ["announced", "announced", "clash_rolled"]
    clash = next(e for e in more if e["type"] == "clash_rolled")
    assert "Demon: the d10 everyone rolls = 1 die" in working(clash, state).private.steps
