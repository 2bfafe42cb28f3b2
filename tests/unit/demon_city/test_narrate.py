"""Event summaries for the table's log."""

from __future__ import annotations

import random

from games.demon_city import ENGINE
from games.demon_city.edges import over, why_out
from games.demon_city.narrate import names_of, summary
from games.demon_city.state import next_announcer
from tests.unit.demon_city.conftest import Fight

GM = {"is_gm": True}


def test_alfie_round_reads_like_the_table_would_say_it(fight, scripted, pick):
    """The log names who rolled what and who acted, as the seed's comment tells it:
    "Alfie rolls 8 and Betty rolls 6 and CeCe rolls 5. So, Alfie definitely shoots Betty."."""
    f = fight([{"id": "alfie", "name": "Alfie", "agility": 6, "firearms": 9},
               {"id": "betty", "name": "Betty", "agility": 5, "firearms": 5, "side": "x"},
               {"id": "cece", "name": "CeCe", "agility": 1}])
    f.announce("cece", "defend")
    f.announce("betty", "shoot", "cece")
    f.announce("alfie", "shoot", "betty")
    events = f.roll(scripted([5, 2, 6, 3, 8, 1, 4, 4, 6, 2]))
    names = names_of(f.state)
    (clash,) = pick(events, "clash_rolled")
    text = summary(clash, names)
    assert "Alfie rolls 8, 1, 4 (best 8)" in text and text.endswith("Alfie rolls highest and acts.")
    (hit,) = pick(events, "damage_rolled")
    assert summary(hit, names) == ("Alfie hits Betty: rolls 4, 6, 2 and takes the lowest, 2. "
                                   "Toughness 3 falls to 1.")
    start = summary(f.log[0], names)
    assert start.index("CeCe") < start.index("Betty") < start.index("Alfie")


def test_every_event_of_random_fights_has_a_summary():
    """Whatever the engine logs, the log can say it in words."""
    seen = set()
    for seed in range(12):
        rng = random.Random(seed)
        cast = [{"id": f"c{i}", "agility": rng.randint(0, 9), "toughness": rng.randint(0, 4),
                 "side": rng.choice(["a", "b"])} for i in range(4)]
        f = Fight(cast, rng)
        for _ in range(3):
            while (who := next_announcer(f.state)) is not None:
                kind = rng.choice(["melee", "grab", "defend", "shoot"])
                target = rng.choice([c for c in f.state["order"] if c != who
                                     and not why_out(f.state["combatants"][c])] or [None])
                command = {"type": "announce", "actor": GM, "combatant": who,
                           "kind": "defend" if target is None else kind, "target": target}
                f.send(command, rng)
            for kind in ("roll", "undo", "roll", "next_round"):
                if kind == "next_round" and over(f.state):
                    break  # the fight is over: no new round starts
                f.send({"type": kind, "actor": GM}, rng)
            if f.state["phase"] != "announce":
                break
        f.send({"type": "end", "actor": GM}, rng)
        for event in f.log:
            text = summary(event, names_of(f.state))
            assert text.strip() and "{" not in text
            seen.add(event["type"])
    assert {"clash_rolled", "damage_rolled", "undone", "announced"} <= seen <= ENGINE.events
