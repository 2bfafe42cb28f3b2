"""Issue 23, every seat unfolds the log: a Demon City line that involves a secret NPC (a Clash,
an announcement, an unresisted action's roll, a task) unfolds for the players and the spectators
to a public working, built from the event's public part: the dice rolled (seed 003, every die is
public), what came of them, the seed's rule, and "the GM's figure" where the NPC's figures enter.
The GM unfolds the whole working, the NPC's pool and ratings in it (its private twin)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games.demon_city.quotes import BEST_RULE, CLASH_RULES, POOL_RULE, STATIC_RULE, UNRESISTED_RULE
from tabletop.models import Event
from tests.integration.test_demon_city_no_leak import HTMX, dc, leaked, post  # noqa: F401 (a fixture)
from tests.integration.test_demon_city_working import HOW, page_and_export, rolls

SEATS = ("ann", "watcher")


def fight(dc: dict[str, Any]) -> tuple[str, str]:  # noqa: F811
    alfie, demon = f"c{dc['alfie'].pk}", f"c{dc['demon'].pk}"
    post(dc, "gm", "start", {"characters": [dc["alfie"].pk, dc["demon"].pk]})
    post(dc, "ann", "announce", {"combatant": alfie, "kind": "melee", "target": demon})
    return alfie, demon


def test_a_clash_with_an_npc_unfolds_for_everyone_its_pools_the_gm_s(dc, monkeypatch) -> None:  # noqa: F811
    """Seed: "Whoever rolls highest in a Clash takes their action" and "Their official roll ...
    is whichever of their rolls is highest": everyone reads the dice and who acts; how many dice
    each side rolled, and why, weighs the Demon's Hand-to-Hand 8, so it is the GM's figure."""
    alfie, demon = fight(dc)
    post(dc, "gm", "announce", {"combatant": demon, "kind": "melee", "target": alfie})
    rolls(monkeypatch, 9, 3, 4, 5, 6, 7, 8, 9, 10, 8)
    post(dc, "gm", "roll", {})
    clash = Event.objects.get(table=dc["table"], kind="demon_city.clash_rolled")
    assert clash.payload["working"]["rule"].endswith(CLASH_RULES["winner"])
    assert "Demon: the d10 everyone rolls = 1 die" in clash.private["working"]["steps"]
    for who in SEATS:
        text = page_and_export(dc, who)
        assert leaked(text) == [], who
        assert "Alfie rolls 9, 3: best 9" in text and "Demon rolls 4: best 4" in text, who
        assert "Alfie's 9 is the highest: Alfie acts" in text and CLASH_RULES["winner"] in text, who
        assert "How many dice each side rolled, and why: the GM's figure" in text, who
        assert "Demon: the d10 everyone rolls" not in text and "Skill Die (Alfie's" not in text, who
    gm = page_and_export(dc, "gm")
    assert "Demon: the d10 everyone rolls = 1 die" in gm and "Skill Die (Alfie's Hand-to-Hand 9 > Demon's Hand-to-Hand 8)" in gm


def test_an_npc_s_announcement_unfolds_for_everyone_to_step_two_its_pool_the_gm_s(dc) -> None:  # noqa: F811
    """Seed, Slow Motion Phase: "2-Figure out how many dice this character has for their action":
    everyone reads the step; the Demon's dice, and why (a Situation Die the GM gave it), are its
    pool before the roll, the GM's."""
    alfie, demon = fight(dc)
    post(dc, "gm", "adjust_pool", {"combatant": demon, "die": "situation", "change": "grant",
                                   "reason": "Shadowmeld"})
    post(dc, "gm", "announce", {"combatant": demon, "kind": "melee", "target": alfie})
    said = Event.objects.filter(table=dc["table"], kind="demon_city.announced").latest("seq")
    assert said.payload["working"]["rule"] == POOL_RULE and "Shadowmeld" not in str(said.payload)
    for who in SEATS:
        text = page_and_export(dc, who)
        assert leaked(text) == [], who
        assert "Demon: how many dice, and why: the GM's figure (an NPC's stats weigh in this pool)" in text, who
        assert POOL_RULE in text and HOW in text, who
    gm = page_and_export(dc, "gm")
    assert "Demon: the d10 everyone rolls + Situation Die (Shadowmeld) = 2 dice" in gm


def test_an_npc_s_unresisted_action_unfolds_its_dice_and_difficulty_for_everyone(dc, monkeypatch) -> None:  # noqa: F811
    """Seed: "Any action that couldn't interfere with anyone else's action ... is resolved, using
    the Task rules above if necessary": the Host's difficulty and the dice are everyone's; the
    Demon's pool for it (its Agility 7 against the difficulty) is the GM's figure."""
    post(dc, "gm", "start", {"characters": [dc["alfie"].pk, dc["demon"].pk]})
    alfie, demon = f"c{dc['alfie'].pk}", f"c{dc['demon'].pk}"
    post(dc, "ann", "announce", {"combatant": alfie, "kind": "other", "description": "runs"})
    post(dc, "gm", "announce", {"combatant": demon, "kind": "other", "description": "climbs"})
    post(dc, "gm", "set_difficulty", {"combatant": demon, "target_number": "5", "stat": "agility"})
    rolls(monkeypatch, 3, 8, 6, 6, 6, 6)
    post(dc, "gm", "roll", {})
    done = Event.objects.get(table=dc["table"], kind="demon_city.unresisted_resolved", payload__event__combatant=demon)
    assert done.payload["working"]["rule"].startswith(UNRESISTED_RULE)
    for who in SEATS:
        text = page_and_export(dc, who)
        assert leaked(text) == [], who
        assert "Demon: how many dice, and why: the GM's figure" in text, who
        assert "rolls 3, 8: best 8" in text and "8 against difficulty 5: must roll over it: a success" in text, who
        assert "Agility 7 > difficulty 5" not in text, who
    gm = page_and_export(dc, "gm")
    assert "Demon: the d10 everyone rolls + Skill Die (Agility 7 > difficulty 5) = 2 dice" in gm


def test_a_task_against_an_npc_unfolds_for_everyone_its_rating_the_gm_s(dc, monkeypatch) -> None:  # noqa: F811
    """Seed, Task Resolution: "whichever has the higher stat gets to roll an extra die. This
    extra d10 is called the Skill Die": Alfie's Hand-to-Hand 9 is his sheet's, everyone's; the
    Demon's 8 is the GM's figure, and so are the pools it decides."""
    rolls(monkeypatch, 2, 7, 5)
    answer = dc["clients"]["ann"].post(reverse("table_check", args=[dc["table"].pk, "task"]), {
        "character": dc["alfie"].pk, "stat": "hand_to_hand", "opponent": dc["demon"].pk,
        "opponent_stat": "hand_to_hand"}, **HTMX)
    assert answer.status_code == 200
    task = Event.objects.get(table=dc["table"], kind="demon_city.task_rolled")
    assert "other_rating" not in str(task.payload) and task.private["other_rating"] == 8
    for who in SEATS:
        text = page_and_export(dc, who)
        assert leaked(text) == [], who
        assert "Alfie rolls 2, 7: best 7" in text and "Demon rolls 5: best 5" in text, who
        assert ("Alfie (Hand-to-Hand 9) 7 against Demon (Hand-to-Hand, the GM's figure) 5: a success for Alfie"
                in text), who
        assert BEST_RULE in text and "This extra d10 is called the Skill Die" in text, who
    gm = page_and_export(dc, "gm")
    assert "Alfie (Hand-to-Hand 9) 7 against Demon (Hand-to-Hand 8) 5: a success for Alfie" in gm
    assert "Alfie: the d10 everyone rolls + Skill Die (Hand-to-Hand 9 > 8) = 2 dice" in gm


def test_an_npc_s_static_task_unfolds_for_everyone(dc, monkeypatch) -> None:  # noqa: F811
    """Seed: "the Host can just assign a static difficulty number to be rolled over": the Demon's
    Agility 7, which earns it the Skill Die against 3, is the GM's figure."""
    rolls(monkeypatch, 1, 4)
    answer = dc["clients"]["gm"].post(reverse("table_check", args=[dc["table"].pk, "task"]), {
        "character": dc["demon"].pk, "stat": "agility", "target_number": "3"}, **HTMX)
    assert answer.status_code == 200
    for who in SEATS:
        text = page_and_export(dc, who)
        assert leaked(text) == [], who
        assert "Demon (Agility, the GM's figure): how many dice, and why: the GM's figure" in text, who
        assert "rolls 1, 4: best 4" in text and "4 against difficulty 3: must roll over it: a success" in text
        assert STATIC_RULE in text, who
    assert "Skill Die (Agility 7 > difficulty 3)" in page_and_export(dc, "gm")
