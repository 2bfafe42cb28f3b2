"""Issue 22, point 3: "Demon City's log says "(1 die)" while the panel shows 2d10". An
announcement's line counts the pool as it stands then; a faster entity's announcement, the
Host's Situation Die or the Host's difficulty may change it afterwards. Each event that changes
a pool already announced now says so ("Pools now: Alfie 3 dice."), so the last count the log
gives of each pool is the panel's; and an unresisted action with a difficulty shows, before the
roll, the pool the roll rolls.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from games.contract import GM_PART, Seat, screened
from games.demon_city.narrate import names_of, summary
from games.demon_city.panel import view
from games.demon_city.state import new_state, npcs
from tests.unit.demon_city.conftest import ScriptedRng, run

# Seed 003's note: "Alfie (Firearms: 9) is trying to shoot Betty (Agility: 5, Firearms: 5), who
# is trying to shoot CeCe (Alfie's friend, trying to flee with Agility 1)".
ALFIE = {"id": "alfie", "name": "Alfie", "agility": 3, "firearms": 9, "side": "friends"}
BETTY = {"id": "betty", "name": "Betty", "agility": 5, "firearms": 5, "side": "foes"}
CECE = {"id": "cece", "name": "CeCe", "agility": 1, "side": "friends"}


def fight(*people: dict[str, Any], hidden: Sequence[str] = ()) -> tuple[dict[str, Any], list[str]]:
    state, _ = run(new_state(), {"type": "start", "combatants": list(people), "npcs": list(hidden)})
    return state, []


def said(state: Mapping[str, Any], events: list, lines: list[str], *, gm: bool = False) -> None:
    """Each event's line as the table reads it (the GM's line for the GM)."""
    for event in events:
        whole = event.get(GM_PART, {}).get("line") if gm else None
        lines.append(whole or summary(event, names_of(state), npcs(state)))


def last_counts(lines: list[str]) -> dict[str, int]:
    """The last number of dice the log gives of each pool."""
    counts: dict[str, int] = {}
    for line in lines:
        announced = re.match(r"(\w+) announces .*\((\d+) dic?e\)\.", line)
        if announced:
            counts[announced[1]] = int(announced[2])
        now = re.search(r"Pools now: (.*)\.$", line)
        for name, n in re.findall(r"(\w+) (\d+) dic?e", now[1] if now else ""):
            counts[name] = int(n)
    return counts


def panel_counts(state: Mapping[str, Any], seat: Seat) -> dict[str, int]:
    return {e["name"]: e["pool"]["size"] for e in view(state, seat)["order"] if e["pool"]}


def test_a_faster_announcement_that_changes_a_pool_says_so_in_the_log() -> None:
    """Seed: "If Betty targets CeCe, both Alfie and Betty get a Skill Die but Alfie gets a
    Distraction Die too". Alfie announces first (2 dice: his Skill Die); Betty's announcement
    gives him the Distraction Die, and the panel then shows 3d10: the log says so."""
    state, lines = fight(ALFIE, BETTY, CECE)
    for who, kind, target in (("cece", "defend", None), ("alfie", "shoot", "betty"), ("betty", "shoot", "cece")):
        state, events = run(state, {"type": "announce", "combatant": who, "kind": kind,
                                    **({"target": target} if target else {})})
        said(state, events, lines)
    assert lines[1] == "Alfie announces a shot at Betty (2 dice)."
    assert lines[2] == "Betty announces a shot at CeCe (2 dice). Pools now: Alfie 3 dice."
    assert panel_counts(state, Seat("gm")) == {"CeCe": 2, "Alfie": 3, "Betty": 2}
    assert last_counts(lines) == panel_counts(state, Seat("gm"))
    state, events = run(state, {"type": "adjust_pool", "combatant": "alfie", "die": "situation",
                                "change": "grant", "reason": "the high ground"})
    said(state, events, lines)
    assert lines[-1] == "The Host grants Alfie a Situation Die (the high ground). Pools now: Alfie 4 dice."
    assert last_counts(lines) == panel_counts(state, Seat("gm"))
    # what the roll rolls is what the log last said (all 5s: a tie between sides, nobody acts)
    state, events = run(state, {"type": "roll"}, ScriptedRng([5] * 8))
    [clash] = [e for e in events if e["type"] == "clash_rolled"]
    assert {names_of(state)[c]: len(r["dice"]) for c, r in clash["rolls"].items()} == last_counts(lines)


def test_the_hosts_difficulty_shows_the_pool_the_roll_rolls() -> None:
    """Seed, step 4: an unresisted action is rolled "vs a difficulty number decided by the
    Host"; the Skill Die is earned when "the stat number is higher than the Target number". The
    panel had shown Marty's pool as announced (1d10) and the roll rolled 2 dice."""
    marty = {"id": "marty", "name": "Marty", "agility": 2, "skills": {"Lockpicking": 6}, "side": "x"}
    state, lines = fight(marty)
    state, events = run(state, {"type": "announce", "combatant": "marty", "kind": "other",
                                "stat": "Lockpicking", "description": "pick the lock"})
    said(state, events, lines)
    assert lines[-1] == "Marty announces another action (1 die)."
    state, events = run(state, {"type": "set_difficulty", "combatant": "marty", "target_number": 3,
                                "stat": "Lockpicking"})
    said(state, events, lines)
    assert lines[-1] == "Marty must roll over 3. Pools now: Marty 2 dice."
    pool = view(state, Seat("gm"))["order"][0]["pool"]
    assert pool["size"] == 2 and [d["reason"] for d in pool["dice"]][1] == "Lockpicking 6 > difficulty 3"
    state, events = run(state, {"type": "roll"}, ScriptedRng([2, 7]))
    [done] = [e for e in events if e["type"] == "unresisted_resolved"]
    assert done["task"]["dice"] == [2, 7] and done["task"]["pool"]["size"] == 2 == last_counts(lines)["Marty"]


def test_a_hidden_npc_s_changed_pool_is_the_gm_s_line_alone() -> None:
    """Issue 21 kept: an NPC's pool before the roll is the GM's, so a line saying it changed
    names its count to the GM alone; a player's changed pool is everyone's, as on the panel."""
    demon = {**BETTY, "id": "demon", "name": "Demon"}
    state, lines = fight(ALFIE, demon, CECE, hidden=["demon"])
    gm_lines: list[str] = []
    for who, kind, target in (("cece", "defend", None), ("alfie", "shoot", "demon"), ("demon", "shoot", "cece")):
        state, events = run(state, {"type": "announce", "combatant": who, "kind": kind,
                                    **({"target": target} if target else {})})
        said(state, events, lines)
        said(state, events, gm_lines, gm=True)
    assert lines[2] == "Demon announces a shot at CeCe. Pools now: Alfie 3 dice."
    assert gm_lines[2] == "Demon announces a shot at CeCe (2 dice). Pools now: Alfie 3 dice."
    state, events = run(state, {"type": "adjust_pool", "combatant": "demon", "die": "situation",
                                "change": "grant", "reason": "in the dark"})
    [adjusted] = events
    public = {k: v for k, v in adjusted.items() if k not in screened(adjusted).private}
    assert "pools_now" not in public and adjusted["pools_now"] == [["demon", 3]]
    assert summary(adjusted, names_of(state), npcs(state)) == "The Host adjusts Demon's pool."
    assert screened(adjusted).private_summary == \
        "The Host grants Demon a Situation Die (in the dark). Pools now: Demon 3 dice."
