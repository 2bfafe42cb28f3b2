"""Every seat unfolds the log (issue 23, a working's public twin): a line whose event has a
GM's part (an NPC's check, declared attack or focus, an opposed action with an NPC side, a
Major Critical) unfolds ("How") for the players and the spectator too, built from what the event
shows them, the NPC's figures said as "the GM's figure"; the GM reads the whole working, its
private twin. Checked on each seat's page and the log's export, as the seat gets them.

Seeds README: an NPC's sheet is the GM's; "other seats see its name and what the rules make
public (a total, a track) and nothing more". Seed 000: "I will not be posting the Critical
Tables": a Major Critical's effect stays the GM's."""

from __future__ import annotations

from typing import Any

import pytest

from games.shadows import working as w
from tabletop import services
from tabletop.models import Character, Event
from tests.integration.test_shadows_story import HOW, read
from tests.integration.test_shadows_table import (  # noqa: F401 (sh is a fixture)
    ALMA, BLADE, cid, ok, sh, stack,
)

OTHERS = ("ann", "bob", "watcher")
# The Wight's sheet, the GM's: Rends 23, Body 6, Physical 5 (a hand of 9), Mind 4, Quickness 7,
# protection 3. Each as the log, a working or the export would write it.
# (How many cards its hand holds once dealt is not among them: the deal counts every hand aloud.)
WIGHT_FIGURES = ("Rends", "rends", "+ 23", "23 =", "Quickness 7", "Body 6", "Physical 5", "Mind 4", "Mind 27",
                 "protection 3", "9 cards for the round", '"base": 7', '"protection": 3', '"skill_value": 23',
                 '"size": 9', '"body": 6', '"physical": 5')
# Its hand of nine, dealt after Alma's four (the quicker first).
WIGHT_HAND = ["C4", "P8", "W2", "S7", "W3", "P4", "C6", "W7", "P3"]
ARTERY = "The blade opens an artery."


@pytest.fixture
def wight(sh: dict[str, Any]) -> Character:
    return services.character_create(
        table=sh["table"], actor=sh["gm"], name="Wight", npc=True,
        sheet={"body": 6, "physical": 5, "mind": 4, "mental": 2, "spirit": 3, "emotional": 2, "quickness": 7,
               "protection": 3, "health": 40, "life": 400, "skills": "Rends: 23"})


def last(sh: dict[str, Any], kind: str) -> Event:
    return Event.objects.filter(table=sh["table"], kind=f"shadows.{kind}").order_by("seq").last()


def unfolds(sh: dict[str, Any], event: Event, public: list[str], twin: list[str]) -> None:
    """The event's public working is ``public``, read by every seat; its private twin holds
    ``twin`` and reaches the GM alone; no other seat gets a figure of the Wight's sheet."""
    assert event.payload["working"]["steps"] == public
    assert [s for s in twin if s not in event.private["working"]["steps"]] == []
    shown = [f"<li>{s}</li>" for s in public]
    for who in OTHERS:
        text = read(sh, who)
        assert HOW in text and [s for s in shown if s not in text] == [], who
        assert event.payload["working"]["rule"] in text, who
        assert [f for f in WIGHT_FIGURES if f in text] == [], who
        assert [s for s in twin if s in text] == [], who
    gm = read(sh, "gm")
    assert [s for s in twin if f"<li>{s}</li>" not in gm] == []


def fight(sh: dict[str, Any], wight: Character, after: list[str]) -> None:
    ok(sh, "gm", "set_weapons", table=BLADE)
    ok(sh, "gm", "start_combat", characters=[sh["alma"].pk, wight.pk])
    ok(sh, "ann", "declare_focus", combatant=cid(sh["alma"]), focus="physical")
    ok(sh, "gm", "declare_focus", combatant=cid(wight), focus="physical")
    stack(sh, ALMA + WIGHT_HAND + after)
    ok(sh, "gm", "deal")


def test_an_npcs_check_unfolds_for_all_its_additions_the_gms(sh, wight) -> None:
    """Seed: "To the randomized value of the card draw is added the character’s skill value and
    for that action and the most appropriate Attribute value for that action": the Wight's Nine
    of Cups + Rends 23 + Quickness 7 = 39, a success; the others read the card, "the GM's
    figures" and the total."""
    stack(sh, ["C9"])
    ok(sh, "gm", "prepare_check", character=wight.pk, skill="rends", attribute="quickness", complexity="normal")
    ok(sh, "gm", "check", combatant=cid(wight), prepared="1", cards="1")
    made = last(sh, "check_made")
    assert made.payload["working"]["rule"] == w.ADDED
    unfolds(sh, made, ["Nine of Cups: 9",
                       "+ its skill and attribute, and any help or GM's modifier (the GM's figures)",
                       "= 39 on a Normal check (success 25+, critical success 40+): a success"],
            ["+ Rends 23", "+ Quickness 7"])


def test_an_opposed_action_with_an_npc_side_unfolds_for_all(sh, wight) -> None:
    """Seed: "each drawing a single card from the Minor Arcana deck and adding their
    appropriate skill and attribute ... with the higher result being successful": Alma's Nine of
    Cups + Melee and Body 9 = 18 against the Wight's Three of Swords + Rends and Mind 27 = 30."""
    stack(sh, ["C9", "S3"])
    ok(sh, "gm", "opposed", character_a=sh["alma"].pk, skill_a="melee", attribute_a="body",
       character_b=wight.pk, skill_b="rends", attribute_b="mind")
    made = last(sh, "opposed_resolved")
    assert made.payload["working"]["rule"] == w.OPPOSED
    unfolds(sh, made, ["Alma: Nine of Cups + Melee and Body 9 = 18",
                       "Wight: Three of Swords + its skill and attribute (the GM's figures) = 30",
                       "Wight is higher and wins"],
            ["Wight: Three of Swords + Rends and Mind 27 = 30"])


def test_an_npcs_focus_unfolds_to_its_formula_for_all_its_hand_the_gms(sh, wight) -> None:
    """Seed: "Physical (physical attacks, movement, physical skills, etc): Body + 1/2xPhysical":
    the Wight's Body 6 + half of Physical 5 (3) = 9 cards, for the GM; the others read the
    formula."""
    ok(sh, "gm", "set_weapons", table=BLADE)
    ok(sh, "gm", "start_combat", characters=[sh["alma"].pk, wight.pk])
    ok(sh, "gm", "declare_focus", combatant=cid(wight), focus="physical")
    focus = last(sh, "focus_declared")
    assert focus.payload["working"]["rule"] == w.HANDS["physical"]
    unfolds(sh, focus, ["Body + half of Physical, rounded up: the GM's figures",
                        "= its hand for the round (the GM's figure)"],
            ["Body 6", "+ half of Physical 5, rounded up: 3", "= 9 cards for the round"])


def test_an_npcs_declared_attack_unfolds_for_all_its_skill_the_gms(sh, wight) -> None:
    """Seed: the attack value is "an attack card played from the attacker’s hand ... plus the
    attacker’s attack skill value": the Wight's Four of Cups + Rends 23 = attack 27; the others
    read its skill as the GM's figure."""
    fight(sh, wight, [])
    ok(sh, "ann", "attack", combatant=cid(sh["alma"]), target=cid(wight), weapon="Blade", skill="melee",
       cards=["tarot:pentacles:10"])
    ok(sh, "gm", "defend", combatant=cid(wight), cards=[])
    ok(sh, "gm", "attack", combatant=cid(wight), target=cid(sh["alma"]), weapon="Blade", skill="rends",
       cards=["tarot:cups:4"])
    declared = last(sh, "attack_declared")
    assert declared.payload["working"]["rule"] == w.ATTACK
    unfolds(sh, declared, ["Four of Cups: 4 (the attack card)", "+ its skill (the GM's figure)", "= attack 27"],
            ["+ Rends 23"])


def test_a_major_critical_unfolds_for_all_its_effect_the_gms(sh, wight) -> None:
    """Seed: "This third card and any additional cards do more than just add additional damage;
    they also add effects indicating a Major Critical"; "I will not be posting the Critical
    Tables". Alma's Knight of Swords + Melee 6 = 18 against Defence 10 -> 8, a Queen of Swords
    (Minor) and Five of Cups (Major, the blade's critical suit): everyone unfolds the chain and
    the damage, the GM's twin the effect."""
    ok(sh, "gm", "set_criticals", table=f"cups 1-14 | {ARTERY}")
    fight(sh, wight, ["S13", "C5"])
    ok(sh, "ann", "attack", combatant=cid(sh["alma"]), target=cid(wight), weapon="Blade", skill="melee",
       cards=["tarot:swords:12"])
    ok(sh, "gm", "defend", combatant=cid(wight), cards=[])
    struck = last(sh, "attack_resolved")
    assert struck.private["criticals"][0]["effect"] == ARTERY and struck.payload["working"]["rule"] == w.CRITICAL
    public = struck.payload["working"]["steps"]
    assert public[:5] == ["Knight of Swords: 12 (the attack card)", "+ Melee 6", "= attack 18",
                          "Defence: Wight's own (the GM's figure) = 10", "18 - 10 = 8: a hit"]
    assert "+ Queen of Swords: 13 (a Minor Critical)" in public
    assert "+ Five of Cups: 5 (a Major Critical: its effect is on the GM's table)" in public
    unfolds(sh, struck, public, [f"The GM's table: Five of Cups: {ARTERY}"])
    for who in OTHERS:
        assert ARTERY not in read(sh, who), who
