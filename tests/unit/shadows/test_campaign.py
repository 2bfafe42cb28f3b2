"""Shadows of Humanity over a campaign (issue 35): the table's clock restores Health, Life and
Æssence as the decided reading says, the GM raises the fallen and corrects a track outside a
fight with a logged diff, lasting conditions count in the draws, and a session's close carries
each character's one Major Arcana.

The decided reading, quoted: "000, recovery (the seed gives none): Æssence returns in full when a
scene ends; Health returns by the character's Body each night and in full after a week; Life by
1 a week. A fallen character stays fallen until the GM raises them (a rule move, logged).\""""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from games.contract import Table as Facts
from games.core import clock
from games.core.engine import RuleError
from games.shadows.audiences import audience
from games.shadows.campaign import CLOCK
from games.shadows.narrate import summary
from games.shadows.sheet import standing
from games.shadows.system import ENGINE
from tests.unit.shadows.kit import ANN, GM, Table, ann, character, of_type, read_id, stacked, t


class Campaign(Table):
    """A table whose sheets take what the rules write back, as the platform's do."""

    def send(self, actor: Mapping[str, Any], kind: str, **command: Any) -> list[dict[str, Any]]:
        events = super().send(actor, kind, **command)
        for event in events:
            for cid, fields in (ENGINE.writeback(event, self.state) if ENGINE.writeback else {}).items():
                if cid in self.characters:
                    found = self.characters[cid]
                    self.characters[cid] = replace(found, sheet={**found.sheet, **fields})
        return events

    def sheet(self, cid: str) -> dict[str, Any]:
        return dict(self.characters[cid].sheet)

    def hurt(self, cid: str, **now: Any) -> None:
        """Sets tracks now on a sheet (a test's start, as an earlier fight would leave it)."""
        found = self.characters[cid]
        self.characters[cid] = replace(found, sheet={**found.sheet, **now})

    def facts(self) -> Facts:
        return Facts(characters=tuple(self.characters.values()), read_id=read_id)


def campaign(**ann_sheet: Any) -> Campaign:
    table = Campaign()
    table.seat(ann(body=4, health=20, life=12, aessence=10, **ann_sheet))
    return table


def test_the_scene_ends_and_aessence_returns_in_full() -> None:
    """The decided reading: "Æssence returns in full when a scene ends"."""
    table = campaign(health_now=9, life_now=7, aessence_now=2)
    events = table.send(GM, "pass_time", span="scene")
    [back] = of_type(events, "recovered")
    assert back["was"] == {"health": 9, "life": 7, "aessence": 2}
    assert back["now"] == {"health": 9, "life": 7, "aessence": 10}
    # written back: blank while whole, as "Health now" always is
    assert table.sheet("c1").items() >= {"health_now": 9, "life_now": 7, "aessence_now": None}.items()
    assert summary(back, table.state) == "The scene's end: Ann recovers (Æssence 2 → 10)."


def test_a_night_passes_and_health_returns_by_the_characters_body() -> None:
    """The decided reading: "Health returns by the character's Body each night"; a night ends
    the scene too, so Æssence returns in full."""
    table = campaign(health_now=9, aessence_now=2)
    [back] = of_type(table.send(GM, "pass_time", span="night"), "recovered")
    assert back["now"] == {"health": 13, "life": 12, "aessence": 10}
    table.send(GM, "pass_time", span="night")
    table.send(GM, "pass_time", span="night")
    assert table.sheet("c1")["health_now"] is None  # 17, then whole at 20 (never past it)
    assert clock.now(table.state) == {"day": 3, "scene": 3}


def test_a_week_passes_health_returns_in_full_and_life_by_one() -> None:
    """The decided reading: Health returns "in full after a week; Life by 1 a week"."""
    table = campaign(health_now=3, life_now=7, aessence_now=0)
    [back] = of_type(table.send(GM, "pass_time", span="week"), "recovered")
    assert back["now"] == {"health": 20, "life": 8, "aessence": 10}
    assert table.sheet("c1").items() >= {"health_now": None, "life_now": 8, "aessence_now": None}.items()


def test_life_a_week_is_a_table_option_with_the_readings_default() -> None:
    """Amounts a seed does not give are table options with documented defaults: Life by 1."""
    table = campaign(life_now=5)
    assert CLOCK.option(table.state, "life_a_week") == 1
    table.send(GM, "set_option", option="life_a_week", value="3")
    [back] = of_type(table.send(GM, "pass_time", span="week"), "recovered")
    assert back["now"]["life"] == 8


def test_whole_characters_recover_nothing_and_no_line_says_so() -> None:
    table = campaign()
    events = table.send(GM, "pass_time", span="week")
    assert [e["type"] for e in events] == ["time_passed"]


@pytest.mark.parametrize("now, fell", [({"health_now": 0}, "down"), ({"health_now": 0, "life_now": 0}, "dead"),
                                       ({"life_now": 0, "health_now": 6}, "dead")])
def test_the_fallen_stay_fallen_until_the_gm_raises_them(now: dict[str, int], fell: str) -> None:
    """The decided reading: "A fallen character stays fallen until the GM raises them (a rule
    move, logged)": no night nor week stands them up."""
    table = campaign(aessence_now=1, **now)
    for span in ("scene", "night", "week", "week"):
        [stays] = of_type(table.send(GM, "pass_time", span=span), "recovered")
        assert stays["now"] == stays["was"] and stays["fallen"] == fell
    assert table.sheet("c1").items() >= {**now, "aessence_now": 1}.items()
    assert summary(stays, table.state) == f"Ann is {fell}: nothing returns until the GM raises them."
    [raised] = table.send(GM, "raise", character="c1")
    assert raised["fell"] == fell and raised["now"]["health"] >= 1 and raised["now"]["life"] >= 1
    assert summary(raised, table.state).startswith(f"The GM raises Ann, who was {fell}: they stand again")
    assert audience(raised).private == {}  # logged for everyone
    [back] = of_type(table.send(GM, "pass_time", span="night"), "recovered")
    assert not back["fallen"] and back["now"]["health"] == raised["now"]["health"] + 4


def test_raising_stands_the_fallen_with_health_1_and_a_dead_one_with_life_1() -> None:
    """What raising restores (the reading written down): Health 1 (a table option), Life 1 for
    one dead; Æssence as it was."""
    table = campaign(health_now=0, life_now=0, aessence_now=3)
    [raised] = table.send(GM, "raise", character="c1")
    assert raised["now"] == {"health": 1, "life": 1, "aessence": 3}
    assert table.sheet("c1").items() >= {"health_now": 1, "life_now": 1, "aessence_now": 3}.items()
    assert standing(table.characters["c1"])["fallen"] == ""  # the next fight's form ticks them
    table.hurt("c1", health_now=0, life_now=None)
    table.send(GM, "set_option", option="raised_health", value="30")
    [raised] = table.send(GM, "raise", character="c1")
    assert raised["now"]["health"] == 20  # never past the whole


def test_only_the_fallen_are_raised_and_only_by_the_gm() -> None:
    table = campaign(health_now=5)
    with pytest.raises(RuleError, match="has not fallen"):
        table.send(GM, "raise", character="c1")
    table.hurt("c1", health_now=0)
    with pytest.raises(RuleError, match="Only the GM"):
        table.send(ANN, "raise", character="c1")
    assert table.log == [] and table.sheet("c1")["health_now"] == 0


def test_time_does_not_pass_during_a_fight() -> None:
    """Time passes outside a fight: the GM ends it first, and nothing changes."""
    table = campaign(aessence_now=2)
    table.send(GM, "start_combat", combatants=[table.sheet("c1") | {"id": "c1", "name": "Ann", "owner": 2},
                                                character("c2", "Bob", 3)])
    before, log = table.state, list(table.log)
    with pytest.raises(RuleError, match="End the fight before time passes"):
        table.send(GM, "pass_time", span="scene")
    assert table.state == before and table.log == log


def test_an_npcs_recovery_and_raise_keep_its_figures_behind_the_screen() -> None:
    """An NPC's sheet is the GM's: everyone reads that it recovered, the GM what."""
    table = campaign()
    table.seat(character("c3", "Orc", None, npc=True, body=6, health=30, health_now=10))
    [back] = of_type(table.send(GM, "pass_time", span="night"), "recovered")
    assert back["npc"] and back["now"]["health"] == 16
    assert summary(back, table.state) == "A night: Orc recovers (the GM's figures)."
    seen = audience(back)
    assert seen.private_audience == "gm" and set(seen.private) == {"was", "now", "whole"}
    assert "Health 10 → 16" in seen.private_summary
    assert table.sheet("c3")["health_now"] == 16  # onto its sheet, which the GM keeps
    table.hurt("c3", health_now=0)
    [raised] = table.send(GM, "raise", character="c3")
    assert summary(raised, table.state) == "The GM raises Orc, who was down: they stand again."
    assert "was" in audience(raised).private


def test_the_gms_correction_outside_a_fight_is_logged_with_a_diff() -> None:
    """Issue 35: "the GM's corrections stay, logged with a diff"; the correction in a fight
    works outside one too, on Health, Life and Æssence."""
    table = campaign(health_now=12)
    [fixed] = table.send(GM, "adjust", character="c1", field="health", value="7")
    assert fixed["type"] == "track_corrected" and (fixed["was"], fixed["value"]) == (12, 7)
    assert summary(fixed, table.state) == "The GM corrects Ann's Health: 12 → 7 (of 20)."
    assert table.sheet("c1")["health_now"] == 7
    table.send(GM, "adjust", character="c1", field="health", value="20")
    assert table.sheet("c1")["health_now"] is None  # whole again: blank
    for field, raw, says in (("health", "21", "from 0 to 20"), ("health", "20", "already"),
                             ("ap", "3", "during a fight")):
        with pytest.raises(RuleError, match=says):
            table.send(GM, "adjust", character="c1", field=field, value=raw)
    with pytest.raises(RuleError):
        table.send(ANN, "adjust", character="c1", field="life", value="3")


def test_a_correction_never_stands_the_fallen_up() -> None:
    table = campaign(health_now=0)
    with pytest.raises(RuleError, match="only the GM's raise"):
        table.send(GM, "adjust", character="c1", field="health", value="5")
    table.send(GM, "adjust", character="c1", field="aessence", value="4")  # the rest may be corrected


def test_an_npcs_correction_is_the_gms() -> None:
    table = campaign()
    table.seat(character("c3", "Orc", None, npc=True, health=30))
    [fixed] = table.send(GM, "adjust", character="c3", field="life", value="4")
    assert audience(fixed).audience == "gm"


def test_the_correction_in_a_fight_says_what_it_was() -> None:
    table = campaign()
    table.fight(ann(), character("c2", "Bob", 3))
    [fixed] = table.send(GM, "adjust", combatant="c1", field="health", value="5")
    assert fixed["type"] == "adjusted" and fixed["was"] == 20
    assert summary(fixed, table.state) == "The GM corrects Ann's Health: 20 → 5."


def test_a_condition_to_draws_counts_in_a_check() -> None:
    """A lasting condition the rules read (``Clock.effects``): its amount is added to every draw."""
    table = campaign()
    move = ENGINE.move("add_condition")
    assert move is not None and set(CLOCK.effects) >= {"draw", "wound_cups", "wound_pentacles", "wound_swords",
                                                       "wound_wands"}
    args = move.parse({"character": ["1"], "name": ["Bleeding"], "effect": ["wound_cups"], "amount": ["-3"],
                       "lasts": ["night"]}, table.facts())
    table.play.send("add_condition", args, GM, cards=table.cards, table=dict(table.characters))
    table.cards = stacked(["C5"])
    [made] = of_type(table.send(GM, "check", character="c1", skill="stealth", attribute="mind",
                                complexity="normal", cards=1), "check_made")
    assert made["condition"] == -3 and made["total"] == 5 + 4 + 5 - 3  # the card, Stealth 4, Mind 5, the wound
    assert "conditions -3" in summary(made, table.state)
    table.send(GM, "pass_time", span="night")  # it lasted until a night passed
    assert clock.conditions(table.state) == []


def test_a_condition_counts_in_an_attack_and_ends_with_its_rounds() -> None:
    """``Clock.round`` is the fight's round: a condition lasting one round ends at the next."""
    table = campaign()
    table.fight(ann(), character("c2", "Bob", 3), cards=stacked(["S5", "S6", "S7", "S8", "S9", "S10", "S2"]))
    assert CLOCK.round is not None and CLOCK.round(table.state) == 1
    args = ENGINE.move("add_condition").parse(  # type: ignore[union-attr]
        {"character": ["1"], "name": ["Stunned"], "effect": ["wound_swords"], "amount": ["-2"], "lasts": ["rounds"],
         "rounds": ["1"]}, table.facts())
    table.play.send("add_condition", args, GM, cards=table.cards, table=dict(table.characters))
    card = table.hand("c1")[0]
    [declared] = of_type(table.send(ANN, "attack", combatant="c1", target="c2", weapon="Knife", skill="melee",
                                    cards=[card]), "attack_declared")
    assert declared["condition"] == -2 and declared["value"] == int(card.split(":")[-1]) + 6 - 2
    table.send(GM, "defend", combatant="c2")
    events = table.send(GM, "new_round")
    assert [e["why"] for e in of_type(events, "condition_ended")] == ["rounds"]


def test_a_check_set_up_in_a_fight_is_called_off_when_the_fight_ends() -> None:
    """Issue 33's leftover: a check set up during a fight does not outlive it."""
    table = campaign()
    table.fight(ann(), character("c2", "Bob", 3))
    table.send(ANN, "prepare_check", character="c1", skill="stealth", attribute="mind", complexity="normal")
    events = table.send(GM, "end_combat")
    assert [e["type"] for e in events] == ["check_cancelled", "combat_ended"]
    assert events[0]["why"] == "fight" and table.state["prepared"] == {}
    assert summary(events[0], table.state) == ("Ann will not draw for that action after all: the fight it was set "
                                               "up in is over.")
    # one set up outside a fight stays until time passes
    table.send(ANN, "prepare_check", character="c1", skill="stealth", attribute="mind", complexity="normal")
    assert "c1" in table.state["prepared"]
    [off] = of_type(table.send(GM, "pass_time", span="scene"), "check_cancelled")
    assert off["why"] == "time" and table.state["prepared"] == {}


def test_closing_a_session_carries_one_major_arcana_each() -> None:
    """Seed: "The GM may allow for up to one Major Arcana to be carried over into the next
    session": the platform's close runs it (``Clock.closing``), from the fields ``keep_<id>``."""
    table = campaign()
    table.cards = stacked(["C13", "C13"], majors=["M2", "M3"])
    table.send(GM, "check", character="c1", skill="", attribute="mind", complexity="normal", cards=1)
    table.cards.draw("Minor Arcana", 1)
    assert table.state["held"]["c1"] == [t("M2")]
    args = CLOCK.closing_parse({"keep_1": [t("M2")]}, table.facts())
    assert args == {"keep": {"c1": t("M2")}}
    events = table.close_session(keep={"c1": t("M2")})  # Engine.close_session, each event folded
    assert [e["type"] for e in events] == ["session_ended"]
    assert table.state["held"] == {"c1": [t("M2")]}
    assert ENGINE.writeback(events[0], table.state) == {"c1": {"held_major_arcana": [t("M2")]}}
    with pytest.raises(RuleError):
        table.close_session(keep={"c1": t("M5")})


def test_the_log_of_a_campaign_folds_back_to_the_same_state() -> None:
    table = campaign(health_now=2, aessence_now=1)
    table.send(GM, "pass_time", span="night")
    table.fight(ann(health_now=6), character("c2", "Bob", 3))
    table.send(GM, "adjust", combatant="c1", field="health", value="0")
    table.send(GM, "raise", character="c1")
    table.send(GM, "end_combat")
    table.send(GM, "adjust", character="c1", field="life", value="3")
    table.send(GM, "pass_time", span="week")
    assert ENGINE.fold(table.log) == table.state
