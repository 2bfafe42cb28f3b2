"""Fights that end (issue 22): whoever has no Health left is down, whoever has no Life left is
dead, and neither acts, is dealt a hand, is attacked or is named next; a track stops at nothing.

Seed 000 on Health and Life: damage to Health is how "to put someone down (for them to go
unconscious or become physically "incapacitated")"; weapons "deteriorate the enemy's life
force" (Life). Reading: a life force worn to nothing is death. The seed gives damage past
nothing no meaning, so a track stops at 0."""

from __future__ import annotations

import pytest

from games.contract import Character, Seat
from games.core.engine import RuleError
from games.shadows.errors import WrongStep
from games.shadows.panel import view
from games.shadows.sheet import clean_sheet, glance, npc_glance
from games.shadows.sheet import standing as character_standing
from games.shadows.state import standing
from games.shadows.writeback import writeback
from tests.unit.shadows.kit import ANN, GM, Table, ann, character, of_type, stacked, t

PLAYER = Seat("player", member=2, controls=frozenset({"c1"}), hidden=frozenset({"c3"}))
# Ann (Quickness 5: 8 AP, 8 cards) is dealt first, then the Ghoul (8 cards).
ANN_HAND = ["S10", "C3", "P10", "W1", "S5", "C2", "P2", "S9"]
GHOUL_HAND = ["C4", "P6", "W9", "S3", "C5", "P8", "W2", "S7"]


def ghoul(**sheet) -> dict:
    """The Ghoul: an NPC of Health 25 and Life 15 (the figures of the issue's fight)."""
    return character("c3", "Ghoul", None, npc=True, **{"health": 25, "life": 15, **sheet})


def blade(modifier: str = "0") -> dict:
    return {"name": "Blade", "type": "physical", "modifier": modifier, "fumble": 0, "critical": "cups",
            "modern": False, "ap": 1, "material": "steel"}


def wight() -> dict:
    """A second foe, slowest of all (dealt last), so that the fight goes on once the Ghoul falls
    (issue 33: a fight whose last foe falls is over, and starts no new round)."""
    return character("c4", "Wight", None, npc=True, quickness=1)


def fight(modifier: str = "0", more: tuple = (), **sheet) -> Table:
    table = Table(stacked(ANN_HAND + GHOUL_HAND))
    table.send(GM, "set_weapons", weapons=[blade(modifier)])
    table.fight(ann(), ghoul(**sheet), *more)
    return table


def hit(table: Table, card: str = "S10") -> dict:
    """Ann's blade on the Ghoul, which takes it: Swords 10 + Melee 6 - Defence 5 = 11, plus the
    blade's modifier."""
    table.send(ANN, "attack", combatant="c1", target="c3", weapon="Blade", cards=[t(card)], skill="melee")
    return table.send(GM, "defend", combatant="c3", cards=[])[-1]


def row(table: Table, seat: Seat, cid: str = "c3") -> dict:
    return next(r for r in view(table.state, seat)["combat"]["combatants"] if r["id"] == cid)


def test_the_issues_ghoul_stops_at_nothing_and_is_dead_not_minus_17_of_25() -> None:
    """A blow of 42 on Health 25 and Life 15 left "Health -17 of 25 and Life -27 of 15": each
    track stops at 0 (the seed gives damage past nothing no meaning), the blow's own figures
    stay whole (42 damage), and the Ghoul is dead, which everyone is told."""
    table = fight(modifier="31")
    resolved = hit(table)
    assert resolved["damage"] == 42 and resolved["tracks"] == {"health": 42, "life": 42}
    ghoul_now = table.person("c3")
    assert (ghoul_now["health"], ghoul_now["life"]) == (0, 0) and resolved["falls"] == "dead"
    for seat in (Seat("gm"), PLAYER, Seat("spectator")):
        shown = row(table, seat)
        assert shown["standing"] is False and shown["fallen"] == "dead"
    assert {"key": "health", "label": "Health", "value": 0, "of": 25} in row(table, Seat("gm"))["tracks"]
    # an NPC's tracks wait for the fight's end, but for the blow that fells it: its card says so now
    assert writeback(resolved, table.state) == {"c3": {"health_now": 0, "life_now": 0, "aessence_now": None}}
    [ended] = table.send(GM, "end_combat")
    back = writeback(ended, table.state)["c3"]
    assert back == {"health_now": 0, "life_now": 0, "aessence_now": None}
    card = glance(clean_sheet({**ghoul(), **back}))
    assert card.out and "Dead" in card.tags and ("Health", 0, 25) in card.tracks
    assert npc_glance(card).out and npc_glance(card).tags == ("Dead",)


def test_a_combatant_down_is_skipped_refused_every_action_and_offered_to_no_attack() -> None:
    """At 0 Health the Ghoul is down: the turn passes it by, it may not attack, end its turn,
    draw for an action or re-deal, and nobody may attack it; the blow's line says it fell."""
    table = fight(life=40, more=(wight(),))
    resolved = hit(table)  # 11 on Health 25: 14 left
    assert resolved["falls"] == "" and standing(table.person("c3")) and writeback(resolved, table.state) == {}
    table.send(GM, "adjust", combatant="c3", field="health", value="11")
    resolved = hit(table, "S9")  # 10 on 11: 1 left
    assert resolved["falls"] == "" and table.person("c3")["health"] == 1
    resolved = hit(table, "S5")  # 6 on 1: down, Life 40 - 27 = 13 left
    assert resolved["falls"] == "down" and table.person("c3")["health"] == 0
    assert table.person("c3")["life"] == 40 - 11 - 10 - 6
    assert row(table, PLAYER)["fallen"] == "down" and not row(table, PLAYER)["standing"]
    assert view(table.state, Seat("gm"))["turn"]["combatant"] == "c4"  # the Ghoul is never next; the Wight is
    with pytest.raises(RuleError, match="Ghoul is down: choose someone still in the fight"):
        table.send(ANN, "attack", combatant="c1", target="c3", weapon="Blade", cards=[t("C3")])
    with pytest.raises(RuleError, match="Ghoul is down"):
        table.send(ANN, "aim", combatant="c1", target="c3", weapon="Blade")
    for kind, extra in (("attack", {"target": "c1", "weapon": "Blade", "cards": [t("C4")]}),
                        ("end_turn", {}), ("redeal", {"cards": [t("C4")]})):
        with pytest.raises(WrongStep, match="Ghoul is down: no actions"):
            table.send(GM, kind, combatant="c3", **extra)
    with pytest.raises(WrongStep, match="Ghoul is down: no actions"):
        table.send(GM, "check", character=ghoul(), combatant="c3", skill="", attribute="body", cards=1)
    table.send(ANN, "end_turn", combatant="c1")
    table.send(GM, "end_turn", combatant="c4")
    assert view(table.state, Seat("gm"))["turn"]["says"] == "The GM starts the next round"


def test_the_next_round_deals_no_hand_to_whoever_is_down_and_asks_it_no_focus() -> None:
    """A downed combatant sits the next round out: no focus asked of it, no hand dealt to it."""
    table = fight(modifier="20", life=40, more=(wight(),))
    assert hit(table)["falls"] == "down"  # 31 on 25
    table.send(GM, "new_round")
    assert view(table.state, PLAYER)["turn"]["says"] == "Ann and Wight choose a focus"
    with pytest.raises(WrongStep, match="Ghoul is down: no actions"):
        table.send(GM, "declare_focus", combatant="c3", focus="physical")
    table.send(ANN, "declare_focus", combatant="c1", focus="physical")
    table.send(GM, "declare_focus", combatant="c4", focus="physical")
    assert view(table.state, Seat("gm"))["combat"]["to_deal"] == ["Ann", "Wight"]
    dealt = table.send(GM, "deal")
    assert [e["combatant"] for e in of_type(dealt, "hand_dealt")] == ["c1", "c4"]
    assert table.hand("c3") == [] and not table.person("c3")["dealt"]


def test_the_gm_corrects_a_track_within_its_range_and_the_fallen_come_back_next_round() -> None:
    """The GM may still correct a track (0 to the whole: never below nothing, never above the
    sheet's) and AP left (0 to the round's); set back above nothing, a fallen combatant comes
    back into the fight at the next round, not in the middle of this one."""
    table = fight(modifier="20", life=40)
    hit(table)
    for field, value, says in (("health", "-5", "Ghoul's Health is from 0 to 25"),
                               ("life", "41", "Ghoul's Life is from 0 to 40"),
                               ("ap", "9", "Ghoul's AP left is from 0 to 8")):
        with pytest.raises(RuleError, match=says):
            table.send(GM, "adjust", combatant="c3", field=field, value=value)
    table.send(GM, "adjust", combatant="c3", field="health", value="5")
    assert row(table, Seat("gm"))["fallen"] == "out until the next round" and not standing(table.person("c3"))
    # the GM's correction of an NPC's track is the GM's: the others still read it as they saw it fall
    assert row(table, PLAYER)["fallen"] == row(table, Seat("spectator", hidden=frozenset({"c3"})))["fallen"] == "down"
    with pytest.raises(RuleError, match="Ghoul is down: choose someone still in the fight"):
        table.send(ANN, "attack", combatant="c1", target="c3", weapon="Blade", cards=[t("C3")])
    with pytest.raises(WrongStep, match="Ghoul is out until the next round: no actions"):
        table.send(GM, "end_turn", combatant="c3")
    table.send(GM, "new_round")
    assert standing(table.person("c3")) and row(table, PLAYER)["fallen"] == ""
    table.send(GM, "declare_focus", combatant="c3", focus="physical")
    table.send(ANN, "declare_focus", combatant="c1", focus="physical")
    assert len(of_type(table.send(GM, "deal"), "hand_dealt")) == 2
    # set to nothing by the GM, it falls at once
    table.send(GM, "adjust", combatant="c1", field="life", value="0")
    assert row(table, PLAYER, "c1")["fallen"] == "dead"
    # and with Ann dead the Ghoul stands alone: the fight is over (issue 33), nobody is next
    assert view(table.state, Seat("gm"))["turn"] == {"combatant": None, "gm": True, "prompt": "end the fight",
                                                     "says": "The fight is over: the NPCs' side stands"}


def test_the_next_fights_form_leaves_the_fallen_unticked() -> None:
    """After a fight, whoever is down or dead is not ticked for the next one: the panel's view of
    each character says whether it has fallen, from its sheet."""
    def facts(**sheet) -> Character:
        return Character(3, "c3", "Ghoul", clean_sheet({"health": 25, "life": 15, **sheet}), owner=None, is_npc=True)

    assert character_standing(facts())["fallen"] == ""
    assert character_standing(facts(health_now=0))["fallen"] == "down"
    assert character_standing(facts(health_now=0, life_now=0))["fallen"] == "dead"
    # a sheet saved before tracks stopped at nothing reads as nothing, not as a refusal
    assert character_standing(Character(3, "c3", "Ghoul", {"health": 25, "health_now": -17, "life": 15,
                                                           "life_now": -27}, owner=None))["fallen"] == "dead"
