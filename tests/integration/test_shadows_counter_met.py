"""A counter the GM accepts in a round before its target has attacked meets that attack when it
comes, through the table's own forms (seed 000: a counter "can also be used in combat as an Active
Dodge"; "Performing such a "counter action" in a combat round results in a delay of one Action
Point"; decided reading, "Active Dodge": it "costs its AP, and lowers that attack's value; an unused
counter lapses at the end of the round")."""

from __future__ import annotations

import html

from django.urls import reverse

from tabletop.models import Event
from tests.integration.test_shadows_table import cid, dealt_fight, ok, sh, state, t  # noqa: F401


def test_a_counter_accepted_before_the_attack_lowers_it_and_the_log_says_so(sh) -> None:
    dealt_fight(sh, ["C10"])
    alma, ghoul = cid(sh["alma"]), cid(sh["ghoul"])
    ap = state(sh)["combat"]["combatants"][ghoul]["ap"]
    ok(sh, "gm", "counter", character=sh["ghoul"].pk, target=sh["alma"].pk, suits=["cups"], ap="1")
    assert state(sh)["combat"]["combatants"][ghoul]["ap"] == ap - 1
    ok(sh, "ann", "attack", combatant=alma, target=ghoul, weapon="Blade", skill="melee", cards=[t("S5")])
    pending = state(sh)["combat"]["pending"]
    assert pending["value"] == 5 + 6 - (10 - 5) and pending["countered"] == 5
    assert state(sh)["counters"] == []
    [met] = Event.objects.filter(table=sh["table"], kind="shadows.counter_applied")
    assert met.summary == "Ghoul's counter meets Alma's attack: Ten of Cups against the attack card's 5: -5 off the attack."
    page = sh["clients"]["ann"].get(reverse("table", args=[sh["table"].pk])).content.decode()
    shown = html.unescape(page)  # Ann's page: the log line, and the attack waiting lowered
    assert "Ghoul's counter meets Alma's attack: Ten of Cups" in shown
    assert "A counter (Active Dodge) took 5 off this attack." in shown
    ok(sh, "gm", "defend", combatant=ghoul)
    [resolved] = Event.objects.filter(table=sh["table"], kind="shadows.attack_resolved")
    assert resolved.payload["event"]["value"] == 6 and "- 5 countered" in resolved.summary
