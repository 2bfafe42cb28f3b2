"""Step 4-7 building blocks: grouping actions into Clashes and picking who acts."""

from __future__ import annotations

import random

from games.demon_city.actions import Action
from games.demon_city.clash import (
    BOTH_FUMBLE,
    OPPOSING_TIE,
    SAME_SIDE_TIE,
    WINNER,
    group,
    pick_winner,
)


def act(actor: str, kind: str = "melee", *targets: str) -> Action:
    return Action(actor=actor, kind=kind, targets=tuple(targets))


def test_hyder_gets_away_unresisted_while_pfister_and_foreman_punch():
    """Seed: "Agents Pfister and Foreman are on a two-story roof trying to punch each
    other, and Lieutenant Hyder announces he is trying to get away. Since nobody named him
    as a target and he has no target, nothing Hyder is doing will affect who punches who
    first or hardest, so Hyder gets away."."""
    order = ["hyder", "pfister", "foreman"]
    got = group([act("hyder", "defend"), act("pfister", "melee", "foreman"),
                 act("foreman", "melee", "pfister")], order)
    assert got.unresisted == ("hyder",)
    assert [c.actors for c in got.clashes] == [("pfister", "foreman")]


def test_separate_fights_make_separate_clashes():
    """Seed: "So Alfred and Bebe could be fight Ceelo and Didi and Eve could be fighting
    Fifi and that would be two clashes."."""
    order = ["alfred", "bebe", "ceelo", "didi", "eve", "fifi"]
    actions = [act("alfred", "melee", "ceelo"), act("bebe", "melee", "ceelo"),
               act("ceelo", "melee", "bebe"), act("didi", "melee", "alfred"),
               act("eve", "melee", "fifi"), act("fifi", "melee", "eve")]
    got = group(actions, order)
    assert got.unresisted == ()
    assert [set(c.members) for c in got.clashes] == [{"alfred", "bebe", "ceelo", "didi"},
                                                     {"eve", "fifi"}]


def test_one_overlapping_action_merges_the_clashes():
    """Seed: "If, however, Fifi was trying to pickpocket Alfred it would all be one
    Clash."."""
    order = ["alfred", "bebe", "ceelo", "didi", "eve", "fifi"]
    actions = [act("alfred", "melee", "ceelo"), act("bebe", "melee", "ceelo"),
               act("ceelo", "melee", "bebe"), act("didi", "melee", "alfred"),
               act("eve", "melee", "fifi"), act("fifi", "other", "alfred")]
    got = group(actions, order)
    assert len(got.clashes) == 1
    assert set(got.clashes[0].actors) == set(order)


def test_an_action_on_someone_who_cannot_act_is_unresisted():
    """Seed, step 4: "Any action that couldn't interfere with anyone else's action (ie the
    order in which it happens doesn't matter) is resolved". Finishing off a fallen foe
    interferes with nobody's action: the fallen foe has none."""
    got = group([act("a", "melee", "fallen"), act("b", "melee", "c"),
                 act("c", "melee", "b")], ["fallen", "a", "b", "c"])
    assert got.unresisted == ("a",)
    assert [c.actors for c in got.clashes] == [("b", "c")]


def test_highest_roller_acts():
    """Seed: "6-Whoever rolls highest in a Clash takes their action"."""
    outcome = pick_winner({"a": 8, "b": 6, "c": 5}, {"a": "p", "b": "h", "c": "p"},
                          random.Random(0))
    assert (outcome.kind, outcome.winner, outcome.critical) == (WINNER, "a", False)


def test_a_lone_ten_that_wins_is_a_critical():
    """Seed: "If a character rolls a 10 and wins (ie not a tie), they have a critical
    success"."""
    assert pick_winner({"a": 10, "b": 9}, {"a": "p", "b": "h"}, random.Random(0)).critical


def test_tie_on_the_same_side_is_decided_randomly(scripted):
    """Seed: "If it's a tie between two characters on the same side (ie, two PCs who are
    getting along or two hostile NPCs with the same goal locally) then the winner is
    decided randomly--flipping a coin or rolling lone d10s will do it."."""
    bests, sides = {"a": 9, "b": 9, "c": 4}, {"a": "p", "b": "p", "c": "h"}
    outcome = pick_winner(bests, sides, scripted(choices=["b"]))
    assert (outcome.kind, outcome.winner, outcome.tied) == (SAME_SIDE_TIE, "b", ("a", "b"))
    winners = {pick_winner(bests, sides, random.Random(seed)).winner for seed in range(40)}
    assert winners == {"a", "b"}  # both can win, and the loser on 4 never does


def test_a_same_side_tie_at_ten_is_no_critical(scripted):
    """Seed: "If a character rolls a 10 and wins (ie not a tie)"."""
    outcome = pick_winner({"a": 10, "b": 10}, {"a": "p", "b": "p"}, scripted(choices=["a"]))
    assert outcome.winner == "a" and not outcome.critical


def test_tie_between_opposing_sides_means_nobody_acts_and_the_host_changes_things():
    """Seed: "If it's a tie between characters on opposing sides the situation stays mostly
    the same as it was before the Clash and nobody's action takes, but the Host changes
    something in the situation that affects everyone in the Clash"."""
    outcome = pick_winner({"a": 7, "b": 7, "c": 7}, {"a": "p", "b": "p", "c": "h"},
                          random.Random(0))
    assert outcome.kind == OPPOSING_TIE and outcome.winner is None
    assert outcome.prompt is not None and "Host" in outcome.prompt


def test_everybody_fumbling_against_each_other_makes_it_worse_for_both_sides():
    """Seed: "If both sides' best roll is a 1 when two characters are competing, the
    situation gets worse for both sides."."""
    outcome = pick_winner({"a": 1, "b": 1}, {"a": "p", "b": "h"}, random.Random(0))
    assert outcome.kind == BOTH_FUMBLE and outcome.winner is None
    assert outcome.fumbles == ("a", "b")
    assert "worse for both sides" in (outcome.prompt or "")


def test_a_blank_side_is_nobodys_ally():
    """Sides decide ties; an entity with no side is on its own, so its tie is opposed."""
    assert pick_winner({"a": 5, "b": 5}, {"a": "", "b": ""}, random.Random(0)).kind == OPPOSING_TIE
