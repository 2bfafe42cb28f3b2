"""Issue 23: "each line can unfold to show the arithmetic and the rule it applied (quoting the
rule text where the system has it)". A public event's working is everyone's, on the page and in
the export; an event that holds an NPC's figures (its pool before the roll, its rating) keeps
its whole working in the GM's part, so a player and a spectator find no figure of the NPC's in
it (they unfold its public twin)."""

from __future__ import annotations

import html
from typing import Any

from django.urls import reverse

from games.demon_city.quotes import CLASH_RULES, DAMAGE_RULE
from tabletop.models import Event
from tests.integration.test_demon_city_no_leak import HTMX, dc, leaked, post  # noqa: F401 (a fixture)
from tests.unit.demon_city.conftest import ScriptedRng

HOW = '<details class="working"><summary>How</summary>'


def page_and_export(dc: dict[str, Any], who: str) -> str:  # noqa: F811
    client = dc["clients"][who]
    text = client.get(reverse("table", args=[dc["table"].pk])).content.decode()
    text += b"".join(client.get(reverse("export", args=[dc["table"].pk, "json"])).streaming_content).decode()
    return html.unescape(text)


def rolls(monkeypatch, *dice: int) -> None:
    monkeypatch.setattr("tabletop.actions.system_rng", lambda: ScriptedRng(dice))


def test_a_player_s_task_unfolds_for_everyone(dc, monkeypatch) -> None:  # noqa: F811
    """Seed, Task Resolution: "If the stat number is higher than the Target number, the player
    gets to roll an extra die and use the better of their two rolls (the "Skill Die")." """
    rolls(monkeypatch, 2, 7)
    answer = dc["clients"]["ann"].post(reverse("table_check", args=[dc["table"].pk, "task"]), {
        "character": dc["alfie"].pk, "stat": "hand_to_hand", "target_number": "3"}, **HTMX)
    assert answer.status_code == 200
    rolled = Event.objects.filter(table=dc["table"], kind="demon_city.task_rolled").latest("seq")
    assert rolled.payload["working"]["steps"][0] == \
        "Alfie: the d10 everyone rolls + Skill Die (Hand-to-Hand 9 > difficulty 3) = 2 dice"
    for who in ("gm", "ann", "watcher"):
        text = page_and_export(dc, who)
        assert HOW in text, who
        assert "7 against difficulty 3 (Hand-to-Hand 9): must roll over it: a success" in text, who
        assert "use the better of their two rolls" in text, who


def test_a_clash_with_an_npc_unfolds_its_pools_for_the_gm_alone_and_its_damage_for_all(dc, monkeypatch) -> None:  # noqa: F811
    """Seed: "Whoever rolls highest in a Clash takes their action": the pools behind the dice
    name the Demon's figures, so the Clash's whole working is the GM's (everyone else unfolds
    its public twin: test_demon_city_twin.py). The hit on it, "a number of
    d10s equal to the target's Base Toughness, roll and take the lowest", is everyone's: it counts
    the dice rolled in the open and names neither its Toughness nor its armour."""
    alfie, demon = f"c{dc['alfie'].pk}", f"c{dc['demon'].pk}"
    post(dc, "gm", "start", {"characters": [dc["alfie"].pk, dc["demon"].pk]})
    post(dc, "ann", "announce", {"combatant": alfie, "kind": "melee", "target": demon})
    post(dc, "gm", "announce", {"combatant": demon, "kind": "melee", "target": alfie})
    # Alfie 9, 3 (Hand-to-Hand 9 > 8: the Skill Die), the Demon 4; six damage dice; an injury
    rolls(monkeypatch, 9, 3, 4, 5, 6, 7, 8, 9, 10, 8)
    post(dc, "gm", "roll", {})
    clash = Event.objects.get(table=dc["table"], kind="demon_city.clash_rolled")
    assert clash.private["working"]["rule"].endswith(CLASH_RULES["winner"])
    assert "Demon: the d10 everyone rolls = 1 die" not in str(clash.payload["working"])
    hit = Event.objects.get(table=dc["table"], kind="demon_city.damage_rolled")
    assert hit.payload["working"]["rule"] == DAMAGE_RULE
    gm = page_and_export(dc, "gm")
    assert "Demon: the d10 everyone rolls = 1 die" in gm and "Alfie's 9 is the highest: Alfie acts" in gm
    for who in ("ann", "watcher"):
        text = page_and_export(dc, who)
        assert leaked(text) == [], who
        assert "Demon: the d10 everyone rolls" not in text, who
        assert "Alfie's 9 is the highest: Alfie acts" in text, who  # the twin: the dice are everyone's
        assert "6 d10s: Demon's Base Toughness, with any armour (at least one)" in text, who
        assert "Current Toughness 4 - 5 = -1" in text and DAMAGE_RULE in text, who


def test_the_panel_draws_every_die_rolled_the_counted_one_marked(dc, monkeypatch) -> None:  # noqa: F811
    """Issue 23, "Dice as dice": the Clash's dice with the best marked and the rest not counted
    ("whichever of their rolls is highest"), the hit's dice with the lowest counted ("roll and
    take the lowest"), an NPC's dice too (every die is public), each labelled for a screen
    reader."""
    alfie, demon = f"c{dc['alfie'].pk}", f"c{dc['demon'].pk}"
    post(dc, "gm", "start", {"characters": [dc["alfie"].pk, dc["demon"].pk]})
    post(dc, "ann", "announce", {"combatant": alfie, "kind": "melee", "target": demon})
    post(dc, "gm", "announce", {"combatant": demon, "kind": "melee", "target": alfie})
    rolls(monkeypatch, 9, 3, 4, 5, 6, 7, 8, 9, 10, 8)
    post(dc, "gm", "roll", {})
    for who in ("gm", "ann", "watcher"):
        text = dc["clients"][who].get(reverse("table", args=[dc["table"].pk])).content.decode()
        assert 'class="die d10 best" role="img" aria-label="9 on a d10, the best"' in text, who
        assert 'class="die d10 dropped" role="img" aria-label="3 on a d10, not counted"' in text, who
        assert 'class="die d10 best" role="img" aria-label="4 on a d10, the best"' in text, who  # the Demon's one die
        assert 'class="die d10" role="img" aria-label="5 on a d10"' in text, who  # the lowest: the damage
        assert 'class="die d10 dropped" role="img" aria-label="10 on a d10, not counted"' in text, who
