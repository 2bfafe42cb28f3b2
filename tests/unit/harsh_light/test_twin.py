"""Issue 23: every seat unfolds the log. A line whose event holds an NPC's figures in the GM's part
(an NPC's pull, an attack on its Defence, its damage, Willpower, Dodge, move, initiative) had its
whole working stored with that part, so players and spectators got no "How" under it. Its working
is now declared public, built from the event's public part with the NPC's figures said as "the
GM's figure", and the whole working is its private twin, the GM's."""

from __future__ import annotations

from typing import Any

import pytest

from games.contract import Working
from games.harsh_light import SYSTEM, audiences
from games.harsh_light import working as w
from tests.unit.harsh_light.conftest import Table, player, sheet
from tests.unit.harsh_light.test_secrecy import FIGURES, GHOUL, numbers

ANN = player("c1", member=2)
# The kinds of event whose line may hold an NPC's figure (audiences.py).
WITH_FIGURES = {"willpower_spent", "pulled", "pull_set_up", "reaction_opened", "dodged", "moved", "order_set",
                "extended_pulled",
                "contest_pulled", "consciousness_pulled", "damaged"}
# The Ghoul with a weapon of its own, and no Blood Potency, so bashing can knock it out.
CLAWED = {**GHOUL, "weapon": "Claws", "weapon_damage": 1, "blood_potency": 0}


def fight() -> Table:
    """Every act of the Ghoul's whose event keeps a figure in the GM's part, and Ann's attack on
    its Defence."""
    t = Table(c1=sheet("Ann", strength=3, skills={"Brawl": 2}), c2=dict(CLAWED))
    t.send({"type": "roll_initiative", "characters": ["c1", "c2"]}, [3, 4])  # the Ghoul first
    t.send({"type": "willpower", "combatant": "c2", "use": "power", "note": "rage"})
    t.send({"type": "set_up_pull", "combatant": "c2", "attribute": "strength", "skill": "brawl", "target": "c1",
            "resist": "defence", "weapon": "sheet"})
    t.pull("c2", [1], set_up=True)  # 9 + 8 - Ann's Defence 2 = 15, + 1: 3 successes, + Claws 1
    t.send({"type": "move", "combatant": "c2"})
    t.send({"type": "end_turn"})
    t.send({"type": "set_up_pull", "combatant": "c1", "attribute": "strength", "skill": "brawl",
            "target": "c2", "resist": "defence"}, actor=ANN)
    t.pull("c1", [10, 9], actor=ANN, set_up=True)  # 5 - 13 = -8, + 19: 2 successes, 2 bashing
    t.send({"type": "end_turn"})
    t.send({"type": "dodge", "combatant": "c2"})
    t.send({"type": "end_combat"})
    t.send({"type": "harm", "combatant": "c2", "points": 5, "kind": "bashing"}, [6])  # the last box: Stamina
    t.send({"type": "contest_start", "sides": [
        {"combatant": "c1", "attribute": "resolve"}, {"combatant": "c2", "attribute": "composure"}]})
    t.send({"type": "contest_pull", "contest": "k1", "combatant": "c2"}, [2])
    t.send({"type": "extended_start", "combatant": "c2", "attribute": "strength", "skill": "brawl", "needed": 50})
    t.send({"type": "extended_pull", "extended": "x2"}, [1])
    return t


def twins(t: Table) -> dict[str, list[tuple[Working, dict[str, Any]]]]:
    """Each event kind with a GM's part: its working, and the event."""
    found: dict[str, list[tuple[Working, dict[str, Any]]]] = {}
    for event in t.log:
        if set(event.get("gm_figures") or ()) - {audiences.RECKONED_GM}:  # a figure of the line's own
            made = SYSTEM.engine.working(event, t.state)
            assert made is not None, event
            found.setdefault(event["type"], []).append((made, event))
    return found


@pytest.fixture(scope="module")
def played() -> tuple[Table, dict[str, list[tuple[Working, dict[str, Any]]]]]:
    t = fight()
    return t, twins(t)


def test_every_line_with_the_gm_s_figures_unfolds_for_everyone_and_names_none_of_them(played) -> None:
    """The decided reading: "an NPC's sheet is the GM's unless the GM shows it ... other seats see its name
    and what the rules make public". Every event kind that keeps a figure in the GM's part has a
    public working naming none of the Ghoul's figures (nor its weapon), and the whole working, the
    GM's, as its private twin."""
    t, found = played
    assert set(found) == WITH_FIGURES
    for kind, made_events in found.items():
        for made, event in made_events:
            assert made.private is not None and made.steps and made.rule, kind
            assert made.private == w.explain(event, t.state), kind  # the whole working
            assert numbers(made.data()) & FIGURES == set() and "Claws" not in str(made.data()), (kind, made)
            assert any("the GM's figure" in step for step in made.steps), (kind, made.steps)
            # built from the public part alone: whatever the GM's part holds, the same working
            scrambled = {**event, **{k: {"pool": {"size": 99, "parts": []}, "total": 99} for k in event["gm_figures"]}}
            assert w.public(scrambled, t.state) == w.public(event, t.state), kind


def public_and_private(found: dict[str, Any], kind: str, i: int = 0) -> tuple[tuple[str, ...], tuple[str, ...]]:
    made = found[kind][i][0]
    return made.steps, made.private.steps


def test_an_npc_s_attack_says_its_pool_and_total_are_the_gm_s_and_the_rest_as_it_fell(played) -> None:
    """Seed: "Resisted rolls are where you subtract an opponent's pool from your roll – generally
    either Defence or a Resistance trait". The Ghoul's pool (9 + 8 - Ann's Defence 2 = 15) and
    total are the GM's; the card, the successes and the hit are everyone's."""
    _, found = played
    shown, whole = public_and_private(found, "pulled")
    assert shown == ("pool: the GM's figure", "+ Ace of Spades: 1", "= total: the GM's figure; 3 successes",
                     "1 success needed: a hit")
    assert whole == ("Strength 9", "+ Brawl 8", "- Ann's Defence 2", "= pool 15", "+ Ace of Spades: 1",
                     "= total 16, which reaches 14: 3 successes", "1 success needed: a hit")
    assert found["pulled"][0][0].rule == w.RESISTED and found["pulled"][0][0].source == w.RESISTED_AT
    shown, whole = public_and_private(found, "damaged")
    assert shown == ("3 successes on the attack", "+ its weapon and any bonus the attack names: the GM's figure",
                     "= 4 lethal", "Health now X X X X · · · (7 boxes)")
    assert whole[1] == "+ Claws 1"


def test_an_attack_on_the_npc_s_defence_shows_the_attacker_s_own_pool(played) -> None:
    """Ann's pool is hers to see, the Ghoul's Defence in it is the GM's: so is the pool's size."""
    _, found = played
    shown, whole = public_and_private(found, "pulled", 1)
    assert shown == ("Strength 3 + Brawl 2 - Ghoul's Defence (the GM's figure)", "= pool: the GM's figure",
                     "+ Ten of Spades: 10 (ten-again: a second card)", "+ Nine of Spades: 9",
                     "= total: the GM's figure; 2 successes", "1 success needed: a hit")
    assert "- Ghoul's Defence 13" in whole and "= pool -8" in whole
    shown, whole = public_and_private(found, "pull_set_up", 1)
    assert shown == ("Strength 3 + Brawl 2 - Ghoul's Defence (the GM's figure)", "= pool: the GM's figure",
                     "1 success needed")
    assert found["pull_set_up"][1][0].rule == w.SUCCESSES


def test_initiative_willpower_a_dodge_and_a_move_keep_the_npc_s_figures_for_the_gm(played) -> None:
    """Seed: "Spending a point of Willpower adds 3 to your pool"; "give up your attack to double your
    Defence until your next turn (known as a Dodge move)"; "All characters may move their Speed in
    steps". Initiative is our reading: Dexterity + Composure plus one card."""
    _, found = played
    shown, whole = public_and_private(found, "order_set")
    assert shown == ("Ann: Dexterity + Composure 4 + Three of Spades 3 = 7",
                     "Ghoul: Dexterity + Composure (the GM's figure) + Four of Spades 4 = the GM's figure",
                     "highest first: Ghoul, Ann")
    assert whole[1] == "Ghoul: Dexterity + Composure 15 + Four of Spades 4 = 19"
    assert public_and_private(found, "willpower_spent") == (
        ("Ghoul spends 1 Willpower: a power", "points left: the GM's figure", "one a turn"),
        ("Ghoul spends 1 Willpower: a power", "16 points left", "one a turn"))
    assert public_and_private(found, "dodged") == (("Defence (the GM's figure) × 2", "until the next turn"),
                                                   ("Defence 13 × 2 = 26", "until the next turn"))
    assert public_and_private(found, "moved") == (("Speed now: the GM's figure",), ("Speed now: 44 steps",))
    assert found["dodged"][0][0].rule == w.DODGE and found["moved"][0][0].rule == w.MOVE


def test_the_npc_s_stamina_contest_and_extended_pulls_unfold_with_their_rules(played) -> None:
    """Seed: "Both pull a card, add their pools and compare successes"; "The player pulls cards
    until they have accumulated however many successes are needed". Our reading for the Stamina
    pull (the seed is silent)."""
    _, found = played
    conscious = found["consciousness_pulled"][0][0]
    assert conscious.steps[0] == "pool: the GM's figure" and conscious.rule == w.CONSCIOUS
    assert conscious.private is not None and conscious.private.steps[0] == "Stamina 2"
    shown, whole = public_and_private(found, "extended_pulled")
    assert shown[-1] == "0 gathered + 3 = 3 of 50" and "= total: the GM's figure; 3 successes" in shown
    assert found["extended_pulled"][0][0].rule.startswith(w.EXTENDED)
    shown, whole = public_and_private(found, "contest_pulled")
    assert shown == ("pool: the GM's figure", "+ Two of Spades: 2", "= total: the GM's figure; no successes")
    assert whole[:4] == ("Composure 7", "- wound penalty 3", "= pool 4", "+ Two of Spades: 2")  # the last box: -3


def test_an_npc_s_own_set_up_names_not_even_its_traits(played) -> None:
    """audiences.py: an NPC's own pool is the GM's, "not even which traits"."""
    _, found = played
    shown, whole = public_and_private(found, "pull_set_up")
    assert shown == ("pool: the GM's figure", "1 success needed")
    assert whole[:4] == ("Strength 9", "+ Brawl 8", "- Ann's Defence 2", "= pool 15")
