"""A campaign at a Harsh Light table (campaign.py): the passing of time heals Health and gives
Willpower back, a session's close and a Dramatic Failure give Beats, and a condition's dice count
in every pool. The decided readings quoted: "002, Willpower: one point back after a night's rest;
all of it at a session's close when the table option says so (off by default). Health heals on
the clock as the World of Darkness model already coded reads it (bashing, lethal, aggravated),
not by clicks." and "002, advancement: Beats as the World of Darkness games count them (a
Dramatic Failure, a session's end, a Storyteller's award); five Beats make an Experience"."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.contract import GM_ONLY, PUBLIC
from games.contract import Table as Facts
from games.core import clock as time
from games.core.engine import RuleError, Turn
from games.harsh_light import ENGINE, SYSTEM, campaign
from games.harsh_light.health import AGGRAVATED, BASHING, LETHAL, Track
from games.harsh_light.sheet import read
from tests.support.engine import member
from tests.unit.harsh_light.conftest import GM, Table, form_of, read_id, sheet



def wounds(t: Table, cid: str = "c1") -> dict[str, int]:
    return {k: t.sheets[cid].get(k, 0) for k in (AGGRAVATED, LETHAL, BASHING)}


def passes(t: Table, span: str) -> list[dict[str, Any]]:
    return t.send({"type": "pass_time", "span": span})


def close(t: Table, **fields: Any) -> list[dict[str, Any]]:
    """The GM closes the session, as the platform does: the close form read by the clock's
    ``closing_parse``, the engine's ``close_session``, each event folded and written back."""
    characters = t.characters()
    args = campaign.CLOCK.closing_parse(form_of(fields), Facts(tuple(characters.values()), read_id))
    events = ENGINE.close_session(t.state, args, Turn(member=member(GM), characters=characters,
                                                      rng=random.Random(0), history=lambda: tuple(t.log)))
    for event in events:
        t.state = ENGINE.apply(t.state, event)
        t.lines.append(ENGINE.line(event, t.state))
        for cid, changed in ENGINE.writeback(event, t.state).items():  # type: ignore[misc]
            t.sheets[cid].update(changed)
    t.log += events
    return events


def option(t: Table, key: str, value: int) -> None:
    t.send({"type": "set_option", "option": key, "value": value})


# Willpower


def test_a_night_gives_one_willpower_point_back_and_no_more_than_the_dots() -> None:
    """"Willpower: one point back after a night's rest"."""
    t = Table(c1=sheet("Ann", willpower_points=1), c2=sheet("Bob", willpower_points=3))  # 4 dots each
    passes(t, "night")
    assert t.sheets["c1"]["willpower_points"] == 2 and t.sheets["c2"]["willpower_points"] == 4
    assert t.lines[1] == "Ann rests through the night: Willpower +1 (2 points left)."
    passes(t, "night")
    assert t.sheets["c2"]["willpower_points"] == 4 and not any(l.startswith("Bob") for l in t.lines[3:])


def test_a_scene_gives_no_willpower_and_a_week_seven_nights_worth() -> None:
    t = Table(c1=sheet("Ann", resolve=4, composure=4, willpower_points=0))  # 8 dots
    passes(t, "scene")
    assert t.sheets["c1"]["willpower_points"] == 0 and t.lines == ["The scene ends."]
    passes(t, "week")
    assert t.sheets["c1"]["willpower_points"] == 7


def test_the_willpower_a_night_gives_is_a_table_option() -> None:
    t = Table(c1=sheet("Ann", willpower_points=0))
    assert campaign.CLOCK.option(t.state, "willpower_night") == 1
    option(t, "willpower_night", 2)
    passes(t, "night")
    assert t.sheets["c1"]["willpower_points"] == 2


def test_all_willpower_at_a_sessions_close_only_when_the_table_option_says_so() -> None:
    """"all of it at a session's close when the table option says so (off by default)"."""
    t = Table(c1=sheet("Ann", willpower_points=0), c2=sheet("Ghoul", npc=True, willpower_points=1))
    close(t)
    assert t.sheets["c1"]["willpower_points"] == 0
    option(t, "willpower_close", 1)
    close(t)
    assert t.sheets["c1"]["willpower_points"] == 4 and t.sheets["c2"]["willpower_points"] == 4
    assert "Ann rests at the session's close: Willpower +4 (4 points left)." in t.lines


def test_an_npcs_willpower_is_the_gms_figure() -> None:
    t = Table(c2=sheet("Ghoul", npc=True, willpower_points=1))
    [_, rested] = passes(t, "night")
    assert t.lines[-1] == "Ghoul rests through the night: Willpower comes back."
    seen = SYSTEM.visibility(rested)
    assert "willpower" in seen.private and seen.private_audience == "gm"
    assert "Willpower +1, 2 points left" in seen.private_note


# Health


def test_a_scenes_end_heals_bashing_one_box_by_default() -> None:
    """The World of Darkness heals a bashing box in fifteen minutes: a scene is at least that."""
    t = Table(c1=sheet("Ann", bashing=3, lethal=1))
    passes(t, "scene")
    assert wounds(t) == {AGGRAVATED: 0, LETHAL: 1, BASHING: 2}
    assert t.lines[-1] == "Ann rests as the scene ends: heals 1 bashing. Health X / / · · · · (1 lethal, 2 bashing of 7)."
    option(t, "scene_bashing", 5)
    passes(t, "scene")
    assert wounds(t) == {AGGRAVATED: 0, LETHAL: 1, BASHING: 0}


def test_a_night_heals_all_bashing_and_two_nights_a_lethal_box() -> None:
    """Lethal heals "two days" a box in the World of Darkness: a night counts one toward it."""
    t = Table(c1=sheet("Ann", bashing=2, lethal=2))
    passes(t, "night")
    assert wounds(t) == {AGGRAVATED: 0, LETHAL: 2, BASHING: 0} and t.state["rest"] == {"c1": 1}
    assert "heals 2 bashing; 1 of 2 nights toward the next lethal box" in t.lines[-1]
    passes(t, "night")
    assert wounds(t) == {AGGRAVATED: 0, LETHAL: 1, BASHING: 0} and t.state["rest"] == {}
    passes(t, "scene")  # a scene counts no night
    assert t.state["rest"] == {}
    passes(t, "night")
    passes(t, "night")
    assert wounds(t) == {AGGRAVATED: 0, LETHAL: 0, BASHING: 0}


def test_a_week_heals_seven_nights_worth_least_severe_first_and_the_rest_carries_on() -> None:
    """Aggravated heals "a week" a box; lethal first, the least severe wound first (health.py)."""
    t = Table(c1=sheet("Ann", lethal=2, aggravated=2))
    passes(t, "week")  # 2 + 2 nights: two lethal boxes; 3 nights toward the aggravated
    assert wounds(t) == {AGGRAVATED: 2, LETHAL: 0, BASHING: 0} and t.state["rest"] == {"c1": 3}
    passes(t, "week")  # 10 nights: one aggravated box, 3 over
    assert wounds(t) == {AGGRAVATED: 1, LETHAL: 0, BASHING: 0} and t.state["rest"] == {"c1": 3}
    passes(t, "night")
    passes(t, "night")
    passes(t, "night")
    passes(t, "night")
    assert wounds(t) == {AGGRAVATED: 0, LETHAL: 0, BASHING: 0} and t.state["rest"] == {}


def test_the_healing_rates_are_table_options() -> None:
    t = Table(c1=sheet("Ann", lethal=1, aggravated=1))
    option(t, "lethal_nights", 1)
    option(t, "aggravated_nights", 3)
    passes(t, "night")
    assert wounds(t) == {AGGRAVATED: 1, LETHAL: 0, BASHING: 0}
    passes(t, "week")
    assert wounds(t) == {AGGRAVATED: 0, LETHAL: 0, BASHING: 0}


def test_rest_is_plain_arithmetic() -> None:
    assert campaign.rest(Track(7, lethal=1, bashing=3), 1, 0, 2, 7) == (Track(7, lethal=1), 1)
    assert campaign.rest(Track(7, lethal=1), 1, 1, 2, 7) == (Track(7), 0)
    assert campaign.rest(Track(7, aggravated=1), 0, 5, 2, 7) == (Track(7, aggravated=1), 5)


def test_an_unconscious_character_comes_to_when_time_heals_the_last_box() -> None:
    """Incapacitated characters: time heals them per the rules (bashing in the last box)."""
    t = Table(c1=sheet("Ann", bashing=7, unconscious=True))
    passes(t, "scene")
    assert t.sheets["c1"]["unconscious"] is False and wounds(t)[BASHING] == 6
    assert t.lines[-1].endswith("Ann comes to.")


def test_a_vampire_in_torpor_heals_on_the_clock_and_the_dead_do_not() -> None:
    t = Table(c1=sheet("Ann", vampire=True, lethal=7), c2=sheet("Cal", aggravated=7))
    passes(t, "night")
    passes(t, "night")
    assert wounds(t) == {AGGRAVATED: 0, LETHAL: 6, BASHING: 0}  # out of torpor
    assert wounds(t, "c2") == {AGGRAVATED: 7, LETHAL: 0, BASHING: 0}
    assert not any(l.startswith("Cal") for l in t.lines)


def test_time_does_not_pass_over_a_mortal_bleeding_out() -> None:
    """"Each minute thereafter in which your character receives no medical attention ..." is the
    Storyteller's to mark (harm.py): time waits until it tends them, or marks their minutes."""
    t = Table(c1=sheet("Ann", lethal=7), c2=sheet("Bob"))
    with pytest.raises(RuleError, match="Ann is bleeding out: the Storyteller tends them"):
        passes(t, "night")
    assert t.log == [] and time.now(t.state) == {"day": 0, "scene": 0}
    t.send({"type": "heal", "combatant": "c1"})
    passes(t, "night")
    assert time.now(t.state)["day"] == 1


# Fights


def fight() -> Table:
    t = Table(c1=sheet("Ann", bashing=2, willpower_points=1), c2=sheet("Bob"))
    t.send({"type": "set_order", "order": ["c1", "c2"]})
    return t


def test_time_does_not_pass_in_a_fight() -> None:
    t = fight()
    before, sheets = dict(t.state), {c: dict(s) for c, s in t.sheets.items()}
    for span in ("scene", "night", "week"):
        with pytest.raises(RuleError, match="^End the fight before time passes.$"):
            passes(t, span)
    assert t.state == before and t.sheets == sheets
    close(t)  # a session may close in the middle of a fight, and it goes on next time
    assert t.state["combat"] and t.sheets["c1"]["beats"] == 1


def test_the_clocks_round_is_the_fights_turn_and_a_condition_lasting_rounds_ends_with_them() -> None:
    t = fight()
    assert campaign.fight_round(t.state) == 1
    t.send({"type": "add_condition", "character": "2", "name": "Dazed", "effect": "dice", "amount": -2,
            "lasts": "rounds", "rounds": 1})
    assert time.modifier(t.state, "c2", "dice") == -2
    t.send({"type": "end_turn"})
    t.send({"type": "end_turn"})  # turn 2 begins
    assert campaign.fight_round(t.state) == 2 and time.conditions(t.state) == []
    assert "Bob is no longer Dazed: its rounds are over." in t.lines
    t.send({"type": "end_combat"})
    assert campaign.fight_round(t.state) == 0


def test_the_storytellers_heal_stays_in_a_fight() -> None:
    t = fight()
    t.send({"type": "heal", "combatant": "c1"})
    assert wounds(t)[BASHING] == 1


# Conditions


def test_a_conditions_dice_count_in_every_pool_as_a_wound_penalty_does() -> None:
    t = Table(c1=sheet("Ann", skills={"Larceny": 2}), c2=sheet("Bob"))
    t.send({"type": "add_condition", "character": "1", "name": "Splinted leg", "effect": "dice", "amount": -2})
    record = t.pull("c1", [8], attribute="dexterity", skill="larceny")
    assert record["pool"]["parts"] == [["Dexterity", 2], ["Larceny", 2], ["Splinted leg", -2]]
    t.send({"type": "extended_start", "combatant": "c1", "attribute": "dexterity", "skill": "larceny", "needed": 3})
    t.send({"type": "extended_pull", "extended": "x1"}, [8])
    assert t.state["extended"]["x1"]["pulls"][-1]["pool"]["size"] == 2
    t.send({"type": "contest_start", "sides": [{"combatant": "c1", "attribute": "wits"},
                                               {"combatant": "c2", "attribute": "wits"}]})
    t.send({"type": "contest_pull", "contest": "k2", "combatant": "c1"}, [8])
    assert t.state["contests"]["k2"]["pulled"]["c1"]["pool"]["size"] == 0
    assert campaign.EFFECTS == {"dice": "dice added to or taken from every pool it builds, as a wound penalty is"}


def test_a_pull_set_up_is_reckoned_anew_when_a_condition_ends() -> None:
    t = Table(c1=sheet("Ann"))
    t.send({"type": "add_condition", "character": "1", "name": "Blessed", "effect": "dice", "amount": 2,
            "lasts": "scene"})
    t.send({"type": "set_up_pull", "combatant": "c1", "attribute": "wits"})
    assert t.state["prepared"]["c1"]["now"]["pool"]["size"] == 4
    passes(t, "scene")
    assert t.state["prepared"]["c1"]["now"]["pool"]["size"] == 2


def test_a_condition_the_gm_keeps_is_not_named_in_a_players_pool_and_an_npcs_is_the_gms() -> None:
    t = Table(c1=sheet("Ann"), c2=sheet("Ghoul", npc=True))
    t.send({"type": "add_condition", "character": "1", "name": "Poisoned", "effect": "dice", "amount": -1,
            "seen": "gm"})
    assert t.pull("c1", [8], attribute="wits")["pool"]["parts"][-1] == ["a condition", -1]
    [added] = t.send({"type": "add_condition", "character": "2", "name": "Frenzied", "effect": "dice", "amount": 1})
    assert SYSTEM.visibility(added) == GM_ONLY
    [passed] = passes(t, "scene")[:1]
    assert SYSTEM.visibility(passed) == PUBLIC


# Beats


def test_a_sessions_close_gives_each_player_character_present_a_beat() -> None:
    """"a session's end" gives a Beat; NPCs keep none, the dead none, the absent none."""
    t = Table(c1=sheet("Ann"), c2=sheet("Bob"), c3=sheet("Ghoul", npc=True), c4=sheet("Cal", aggravated=7))
    close(t, absent=["2"])
    assert t.sheets["c1"]["beats"] == 1 and "beats" not in t.sheets["c2"]
    assert "beats" not in t.sheets["c3"] and "beats" not in t.sheets["c4"]
    assert t.lines == ["Ann gains a Beat (the session's end): 1 of 5 toward an Experience; 0 Experiences."]


def test_a_close_that_changes_nothing_makes_no_event() -> None:
    t = Table(c1=sheet("Ghoul", npc=True))
    assert close(t) == []


def test_five_beats_make_an_experience_and_the_storyteller_awards_beats_at_the_close() -> None:
    """"five Beats make an Experience"; "a Storyteller's award"."""
    t = Table(c1=sheet("Ann", beats=3, experiences=1))
    close(t, award=["1"])
    assert (t.sheets["c1"]["beats"], t.sheets["c1"]["experiences"]) == (0, 2)
    assert t.lines[-1] == ("Ann gains 2 Beats (the session's end, the Storyteller's award): Five Beats make an "
                           "Experience. 0 of 5 toward an Experience; 2 Experiences.")
    with pytest.raises(RuleError, match="characters at this table"):
        campaign.closing_parse({"award": ["99"]}, Facts((), read_id))


def test_a_player_characters_dramatic_failure_gives_a_beat_and_an_npcs_none() -> None:
    """"a Dramatic Failure" gives a Beat: seed, "If you pull a 1 while using a pool of 0 or less,
    you have Dramatically Failed!"."""
    t = Table(c1=sheet("Ann", beats=4), c2=sheet("Ghoul", npc=True))
    events = t.send({"type": "pull", "combatant": "c1", "attribute": "wits", "modifier": -2}, [1])
    assert [e["type"] for e in events] == ["pulled", "beats_gained"]
    assert (t.sheets["c1"]["beats"], t.sheets["c1"]["experiences"]) == (0, 1)
    assert t.lines[-1].startswith("Ann gains a Beat (a Dramatic Failure): Five Beats make an Experience.")
    events = t.send({"type": "pull", "combatant": "c2", "attribute": "wits", "modifier": -2}, [1])
    assert [e["type"] for e in events] == ["pulled"]
    t.pull("c1", [2], attribute="wits", modifier=-2)  # no Dramatic Failure: no Beat
    assert t.sheets["c1"]["beats"] == 0


def test_beats_and_experiences_are_kept_on_the_sheet() -> None:
    assert read({"beats": 4, "experiences": 12})["beats"] == 4
    with pytest.raises(RuleError, match="Beats must be from 0 to 4"):
        read({"beats": 5})


# The log


def test_a_campaign_folds_back_from_its_log() -> None:
    t = Table(c1=sheet("Ann", lethal=2, bashing=3, willpower_points=0), c2=sheet("Ghoul", npc=True, bashing=2))
    t.send({"type": "add_condition", "character": "1", "name": "Shaken", "effect": "dice", "amount": -1,
            "lasts": "night"})
    passes(t, "scene")
    passes(t, "night")
    option(t, "willpower_close", 1)
    close(t, award=["1"])
    passes(t, "week")
    assert ENGINE.fold(t.log) == t.state
    assert time.now(t.state) == {"day": 8, "scene": 3} and time.conditions(t.state) == []
    assert t.state["people"]["c1"]["track"]["words"] == "unharmed, 7 boxes"


def test_the_clock_says_what_each_span_does() -> None:
    assert set(campaign.SAYS) == {"scene", "night", "week", "session"}
    assert {o.key: o.default for o in campaign.OPTIONS} == {
        "willpower_night": 1, "willpower_close": 0, "scene_bashing": 1, "lethal_nights": 2, "aggravated_nights": 7,
        # what Experiences buy (growth.py): "Attribute 4 a dot, Skill 2, Specialty 1: table options"
        "attribute_experiences": 4, "skill_experiences": 2, "specialty_experiences": 1}
    assert all(o.why for o in campaign.OPTIONS)


def test_the_card_shows_beats_and_experiences_once_there_are_any() -> None:
    from games.harsh_light.sheet import glance

    assert not any(label == "Beats" for label, _ in glance(sheet("Ann")).stats)
    stats = dict(glance({**sheet("Ann"), "beats": 2, "experiences": 3}).stats)
    assert (stats["Beats"], stats["Experiences"]) == ("2 of 5", "3")
