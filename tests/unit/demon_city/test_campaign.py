"""Issue 35, Demon City on the table's clock (games/demon_city/healing.py). The decided reading
"003, damage belongs to the fight": "when a fight ends, Current Toughness returns to Base for
everyone not out of it; "out of the fight" ends with the fight for the living. Who went out keeps
the Injury result they rolled until it heals: each row of the Injury table (the GM's to edit)
says how long it takes to heal (a scene, a night, a week, never); the Lost Die for Injury lasts
while an injury does. Step 8 rolls again only for one whose last result "wasn't conclusive"; a
conclusive result is never replaced by a later roll."
"""

from __future__ import annotations

from typing import Any

import pytest

from games.contract import GM_PART, Character, Member
from games.core import clock as time
from games.core.engine import RuleError, Turn
from games.demon_city import ENGINE
from games.demon_city.healing import CLOCK, heals
from games.demon_city.injury import DEFAULT_INJURY_TABLE, validate_table
from games.demon_city.injury_text import format_injury_table, parse_injury_table
from games.demon_city.narrate import line
from games.demon_city.pools import condition_lost
from games.demon_city.state import current_pools, new_state
from tests.unit.demon_city.conftest import Fight, ScriptedRng

GM = Member(id=1, name="GM", is_gm=True)
ALFIE = {"id": "alfie", "name": "Alfie", "agility": 2, "toughness": 1, "hand_to_hand": 1, "side": "players"}
BETTY = {"id": "betty", "name": "Betty", "agility": 4, "toughness": 3, "side": "players"}
DEMON = {"id": "demon", "name": "Demon", "agility": 3, "toughness": 3, "hand_to_hand": 5, "side": "opponents"}


def rows(**heals: str) -> dict[str, str]:
    return {r["result"]: r["heals"] for r in DEFAULT_INJURY_TABLE} | heals


def test_each_row_says_how_long_it_takes_to_heal_from_its_own_words() -> None:
    """"Unconscious for a few minutes" (a scene), "hurt and shaken" (a night), "A broken bone or
    torn muscle" (a week); the dead never heal."""
    assert rows() == {"Killed": "never", "Bleeding out": "night", "Broken": "week", "Knocked out": "scene",
                      "Battered": "night"}


def test_the_gm_edits_how_long_a_row_heals_in_the_table_s_text() -> None:
    text = format_injury_table(DEFAULT_INJURY_TABLE)
    assert "6-7 | Knocked out | alive | final | a scene | Unconscious" in text
    assert parse_injury_table(text) == validate_table(DEFAULT_INJURY_TABLE)
    edited = parse_injury_table(text.replace("| a scene |", "| a week |"))
    assert {r["result"]: r["heals"] for r in edited}["Knocked out"] == "week"
    # a line of five parts, as the table was written before, heals as its default row does
    old = parse_injury_table("1-10 | Knocked out | alive | final | Down.")
    assert old[0]["heals"] == "scene"
    for bad, says in (("1-10 | Out | alive | final | a month | Down.", "a scene, a night, a week or never"),
                      ("1-10 | Out | dead | final | a night | Gone.", "the dead never heal")):
        with pytest.raises(RuleError, match=says):
            parse_injury_table(bad)


def knocked_out(injury_die: int) -> Fight:
    """The Demon hits Alfie (Toughness 1): his one damage die of 9 takes him to -8, out of the
    fight, and he rolls ``injury_die`` on the Injury table; Betty only defends."""
    fight = Fight([ALFIE, BETTY, DEMON])
    fight.announce("alfie", "defend")
    fight.announce("demon", "melee", "alfie")
    fight.announce("betty", "defend")
    fight.roll(ScriptedRng([3, 1, 8, 9, 9, injury_die]))
    assert fight.person("alfie")["out_of_fight"]
    return fight


def test_the_end_rolls_the_injuries_still_open_so_nobody_is_left_bleeding_out() -> None:
    """Step 8: "Anyone who is present, out of the fight, still alive, and who needs to roll on the
    Injury table because their last roll wasn't conclusive does": the end rolls it until it is
    (Bleeding out 2, again 3, then Knocked out 6), and Alfie is no longer out of the fight."""
    fight = knocked_out(2)
    assert fight.person("alfie")["injury"] == "Bleeding out"
    events = fight.send({"type": "end"}, ScriptedRng([3, 6]))
    assert [e["type"] for e in events] == ["injury_rolled", "injury_rolled", "action_rounds_ended"]
    alfie = fight.person("alfie")
    assert (alfie["injury"], alfie["out_of_fight"], alfie["injury_pending"]) == ("Knocked out", False, False)
    assert "Bleeding out" not in line(events[-1], fight.state)
    # Betty, never out, is whole again; Alfie keeps his Toughness and his Injury until it heals
    assert fight.person("betty")["current_toughness"] == 3 and alfie["current_toughness"] == -8
    assert ENGINE.fold(fight.log) == fight.state


def test_time_does_not_pass_during_action_rounds() -> None:
    fight = knocked_out(6)
    with pytest.raises(RuleError, match="Time does not pass during Action Rounds"):
        fight.send({"type": "pass_time", "span": "night"})
    assert CLOCK.round is not None and CLOCK.round(fight.state) == 1
    fight.send({"type": "end"})
    assert CLOCK.round(fight.state) == 0


def sheets(**injuries: tuple[str, bool]) -> dict[str, Character]:
    return {cid: Character(i, cid, cid.title(), {"toughness": 3, "current_toughness": -2, "injured": True,
                                                 "injury": injury, "out_of_fight": out}, owner=None)
            for i, (cid, (injury, out)) in enumerate(injuries.items(), start=1)}


@pytest.mark.parametrize("span, healed", [
    ("scene", ["knocked"]),
    ("night", ["knocked", "battered"]),
    ("week", ["knocked", "battered", "broken"]),
])
def test_a_span_heals_the_rows_that_heal_within_it_and_never_the_dead(span: str, healed: list[str]) -> None:
    """"a scene, a night, a week, never": a night heals what a scene does, a week all but never."""
    people = sheets(knocked=("Knocked out", False), battered=("Battered", False), broken=("Broken", False),
                    killed=("Killed", True), none=("", False))
    made = heals(new_state(), span, Turn(member=GM, characters=people))
    assert sorted(e["combatant"] for e in made) == sorted(healed)
    assert all(e["sheet"] == {"current_toughness": None, "injured": False, "out_of_fight": False, "injury": ""}
               for e in made)


def test_an_npc_s_healing_tells_the_table_its_toughness_and_the_gm_its_injury() -> None:
    people = {"c1": Character(1, "c1", "Ghoul", {"toughness": 2, "current_toughness": -3, "injury": "Battered"},
                              owner=None, is_npc=True)}
    [event] = heals(new_state(), "night", Turn(member=GM, characters=people))
    assert set(event[GM_PART]["keys"]) == {"injury", "heals", "was"}
    assert line(event, new_state()) == "Ghoul heals: Current Toughness back to Base."
    assert "Battered" in event[GM_PART]["line"]


def test_a_kept_conclusive_result_is_never_replaced_in_a_later_fight() -> None:
    """Alfie, still Broken from an earlier fight, enters the next with the Lost Die for Injury
    and, knocked out of it again, rolls no new Injury: "a conclusive result is never replaced
    by a later roll"."""
    fight = Fight([{**ALFIE, "current_toughness": -2, "injured": True, "injury": "Broken"}, BETTY, DEMON])
    assert fight.person("alfie")["injured"] is True
    first = fight.announce("alfie", "defend")
    assert [d["kind"] for d in first["pool"]["dice"]] == ["base", "defense", "lost_injury"]
    assert first["pool"]["dice"][-1]["reason"] == "Broken, not yet healed"
    fight.announce("demon", "melee", "alfie")
    fight.announce("betty", "defend")
    events = fight.roll(ScriptedRng([3, 8, 9, 9]))  # his one die, the Demon's two, its damage: no Injury roll
    [hit] = [e for e in events if e["type"] == "damage_rolled"]
    assert hit["keeps"] == "Broken" and not [e for e in events if e["type"] == "injury_rolled"]
    assert "keeps the Injury result Broken" in line(hit, fight.state)
    assert fight.person("alfie")["injury"] == "Broken" and not fight.person("alfie")["injury_pending"]


def test_a_lasting_condition_with_the_lost_die_effect_costs_a_die_in_the_fight() -> None:
    """Seed: "Other external difficulties ... can be accounted for by Miscellaneous Lost Dice",
    "no more than 2": a condition's die joins the Host's, at most two in all."""
    fight = Fight([ALFIE, BETTY, DEMON])
    fight.send({"type": "add_condition", "combatant": "betty", "name": "Blinded", "effect": "lost_die", "amount": 1,
                "note": "", "lasts": "rounds", "rounds": 1, "seen": "everyone"})
    assert time.has(fight.state, "betty", "lost_die")
    fight.announce("alfie", "defend")
    fight.announce("demon", "melee", "alfie")
    fight.announce("betty", "defend")
    dice = current_pools(fight.state)["betty"].dice
    assert [d.reason for d in dice if d.kind == "lost_misc"] == ["Blinded (a lasting condition)"]
    assert condition_lost(fight.state, "betty", ("dark", "smoke")) == ["dark", "smoke"]
    # it lasts one round: the next round begins without it
    fight.roll(ScriptedRng([3, 1, 8, 9, 9, 6]))
    fight.send({"type": "next_round"})
    assert not time.conditions(fight.state, "betty")
    assert ENGINE.fold(fight.log) == fight.state


def test_the_clock_says_what_each_span_does_and_the_effect_it_reads() -> None:
    assert set(CLOCK.says) == {"scene", "night", "week", "session"} and "Knocked out" in CLOCK.says["scene"]
    assert CLOCK.says["session"] == "The GM awards experience to the player characters, with a reason."
    assert set(CLOCK.effects) == {"lost_die"}
    assert ENGINE.clock is CLOCK


def test_a_healing_folds_into_the_last_fight_s_record() -> None:
    fight = knocked_out(6)
    fight.send({"type": "end"})
    table: dict[str, Any] = fight.table
    table["alfie"] = Character(1, "alfie", "Alfie", {**table["alfie"].sheet, "current_toughness": -8,
                                                     "injured": True, "injury": "Knocked out"}, owner=None)
    events = fight.send({"type": "pass_time", "span": "scene"})
    assert [e["type"] for e in events] == ["time_passed", "injury_healed"]
    alfie = fight.person("alfie")
    assert (alfie["current_toughness"], alfie["injury"], alfie["injured"]) == (1, "", False)
    assert ENGINE.fold(fight.log) == fight.state
