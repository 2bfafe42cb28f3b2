"""Health as the World of Darkness keeps it (issue 22): the seed converts "the mechanics found in
Vampire: The Requiem and World of Darkness" to a card pull and is silent on harm, so Harsh Light
takes the rulebook's track. Each test quotes the rulebook's words it checks."""

from __future__ import annotations

import pytest

from games.harsh_light import health
from games.harsh_light.health import AGGRAVATED, BASHING, LETHAL, Track
from tests.unit.harsh_light.conftest import sheet


def test_health_is_stamina_plus_size() -> None:
    """"Health ... is determined by adding Stamina and Size ... The average person is 5 Size and
    has 2 Stamina, for a total of 7 Health.\""""
    assert health.of(sheet("Ann")).size == 7
    assert health.of(sheet("Cat", stamina=1, size=1)).size == 2
    assert health.of(sheet("Ogre", stamina=4, size=8)).size == 12


def test_the_most_severe_wound_is_marked_left_and_pushes_the_lesser_right() -> None:
    """"mark the most severe damage at the left in his Health chart; it pushes any lesser damage
    right ... if ... bashing damage in the leftmost box, and she then takes a point of lethal
    damage, mark the leftmost box with an X ... and move the bashing damage right one square\""""
    track = Track(7).hurt(BASHING).hurt(LETHAL)
    assert track.boxes() == [LETHAL, BASHING, None, None, None, None, None]
    assert health.marks(track.hurt(AGGRAVATED)) == "✱ X / · · · ·"
    assert health.words(track) == "1 lethal, 1 bashing of 7"


def test_a_full_track_upgrades_the_least_severe_wound() -> None:
    """"All boxes of your Health chart are filled with slashes. When they're full, you go back and
    upgrade each to an "X" from left to right as your character continues to take a beating ...
    Suffering even more harm upgrades each lethal wound to an aggravated one ... it's possible to
    be beaten to death — even by suffering repeated bashing damage alone.\""""
    full = Track(7).hurt(BASHING, 7)
    assert full.last() == BASHING
    assert full.hurt(BASHING).counts() == {AGGRAVATED: 0, LETHAL: 1, BASHING: 6}
    assert full.hurt(BASHING, 7).counts() == {AGGRAVATED: 0, LETHAL: 7, BASHING: 0}
    assert full.hurt(BASHING, 8).counts() == {AGGRAVATED: 1, LETHAL: 6, BASHING: 0}
    assert full.hurt(BASHING, 14).grave() == health.DEAD
    # lethal on a full track takes a bashing box; aggravated the least severe one
    assert full.hurt(LETHAL, 2).counts() == {AGGRAVATED: 0, LETHAL: 2, BASHING: 5}
    assert full.hurt(AGGRAVATED).counts() == {AGGRAVATED: 1, LETHAL: 0, BASHING: 6}
    assert Track(7, lethal=7).hurt(AGGRAVATED).counts() == {AGGRAVATED: 1, LETHAL: 6, BASHING: 0}
    # "Remember that before any wounds are upgraded in severity, all of your character's Health
    # boxes must be filled"
    assert Track(7, bashing=5).hurt(BASHING, 2).counts() == {AGGRAVATED: 0, LETHAL: 0, BASHING: 7}


@pytest.mark.parametrize(("filled", "penalty"), [(0, 0), (4, 0), (5, -1), (6, -2), (7, -3)])
def test_wound_penalties_as_the_last_three_boxes_fill(filled: int, penalty: int) -> None:
    """"-1 -2 -3" under the last three boxes: "Should your character take more damage, he suffers
    a -2 and then a -3 penalty as the second-to-last and the last of his boxes are checked off.\""""
    assert Track(7, lethal=filled).penalty() == penalty


def test_a_small_track_has_the_penalties_it_has_boxes_for() -> None:
    assert [Track(2, bashing=n).penalty() for n in (0, 1, 2)] == [0, -2, -3]
    assert [Track(1, bashing=n).penalty() for n in (0, 1)] == [0, -3]


def test_healing_takes_the_least_severe_wound_first() -> None:
    """"Lost Health is recovered ... from right to left ... Your character's least severe injury
    (that in the rightmost box) is recovered first.\""""
    track = Track(12, aggravated=3, lethal=6, bashing=1)
    assert track.heal(1).counts() == {AGGRAVATED: 3, LETHAL: 6, BASHING: 0}
    assert track.heal(3).counts() == {AGGRAVATED: 3, LETHAL: 4, BASHING: 0}
    assert track.heal(30).filled == 0
    # a power (Vitae, say) may heal one kind: the Storyteller's ruling
    assert track.heal(2, AGGRAVATED).counts() == {AGGRAVATED: 1, LETHAL: 6, BASHING: 1}


def test_a_lost_box_upgrades_the_wound_it_held() -> None:
    """A lowered Stamina leaves wounds without a box: "it upgrades the least severe wound that he
    has remaining"."""
    wounded = sheet("Ann", stamina=2, lethal=2, bashing=5)
    assert health.of(wounded).counts() == {AGGRAVATED: 0, LETHAL: 2, BASHING: 5}
    assert health.of({**wounded, "stamina": 1}).counts() == {AGGRAVATED: 0, LETHAL: 3, BASHING: 3}


def test_the_last_box_says_what_befalls_a_mortal_and_a_vampire() -> None:
    """The rulebook: the rightmost box a slash, "begin making Stamina rolls to see if he remains
    conscious"; "filled with X's, he's on death's door ... in a coma"; "Once all boxes are filled
    with asterisks, your character is dead". The Requiem (Mind's Eye Theatre): "vampires are never
    knocked unconscious by bashing damage"; a vampire full of lethal sleeps in torpor; aggravated
    in every box is Final Death."""
    mortal, vampire = sheet("Ann"), sheet("Vlad", blood_potency=1)
    assert not health.is_vampire(mortal) and health.is_vampire(vampire)
    assert health.is_vampire(sheet("Eve", vampire=True))
    bashed = {BASHING: 7}
    assert health.must_keep_conscious({**mortal, **bashed}) and not health.out({**mortal, **bashed})
    assert not health.must_keep_conscious({**vampire, **bashed})
    assert health.state_words({**mortal, **bashed, "unconscious": True}) == "unconscious"
    assert not health.must_keep_conscious({**mortal, **bashed, "unconscious": True})
    cut = {LETHAL: 6, BASHING: 0, AGGRAVATED: 1}
    assert health.state_words({**mortal, **cut}) == "bleeding out" and health.out({**mortal, **cut})
    assert health.state_words({**vampire, **cut}) == "in torpor"
    burnt = {AGGRAVATED: 7}
    assert health.state_words({**mortal, **burnt}) == "dead"
    assert health.state_words({**vampire, **burnt}) == "Final Death"
    assert health.state_words(mortal) == "" and not health.out({**mortal, BASHING: 6})
