"""Issue 23: "each line can unfold to show the arithmetic and the rule it applied (quoting the
rule text where the system has it)". A public event's working is everyone's, on the page and in
the export; an event that holds an NPC's figures keeps its whole working in the Director's
part, so a player and a spectator find no figure of the NPC's in any byte of theirs."""

from __future__ import annotations

import html
from typing import Any

from django.urls import reverse

from games.passages.working import ATTACK_RULE, BAND_RULES
from tests.integration.test_passages_no_leak import leaked, urgluch  # noqa: F401 (a fixture)
from tests.integration.test_passages_table import cid, last, post, table  # noqa: F401 (a fixture)

HOW = '<details class="working"><summary>How</summary>'


def page_and_export(t: dict[str, Any], who: str) -> str:
    client = t["clients"][who]
    text = client.get(reverse("table", args=[t["table"].pk])).content.decode()
    text += b"".join(client.get(reverse("export", args=[t["table"].pk, "json"])).streaming_content).decode()
    return html.unescape(text)


def test_a_public_check_s_working_is_everyone_s(table, monkeypatch) -> None:  # noqa: F811
    """Seed, CHECKS: "SKILLS SUCCESS: A roll equal to or less than Skill BASE and more than
    1/2(Skill BASE). The attempt succeeded as intended." Trayer's Campfire 33, rolled 20."""
    assert post(table, "ann", "check", {"character": table["trayer"].pk, "skill": "Campfire", "mode": "check"},
                check=True, rolls=(20,), monkeypatch=monkeypatch).status_code == 200
    rolled = last(table, "check_rolled")
    assert rolled.payload["working"]["rule"] == BAND_RULES["success"]
    for who in ("gm", "ann", "bob", "watcher"):
        text = page_and_export(table, who)
        assert HOW in text, who
        assert "20 is at most BASE 33 and above Double Down 16: a Success" in text, who
        assert "SKILLS SUCCESS: A roll equal to or less than Skill BASE" in text, who


def test_an_npc_s_whole_working_is_the_director_s_alone(urgluch, monkeypatch) -> None:  # noqa: F811
    """Seed, COMBAT: "Roll your Combat Roll and add your Selected Combat value. Compare the sum
    with the Selected Defense of the Opponent." The Urgluch's sum names its Selected Combat (a
    figure of a secret sheet): only the Director unfolds it; the others unfold its public twin
    (test_passages_twin.py), which names none of its figures."""
    t = urgluch
    trayer, npc = cid(t["trayer"]), cid(t["urgluch"])
    assert post(t, "gm", "check", {"character": t["urgluch"].pk, "skill": "Vexmire Lore", "mode": "check"},
                check=True, rolls=(30,), monkeypatch=monkeypatch).status_code == 200
    post(t, "gm", "combat_start", {"characters": [t["trayer"].pk, t["urgluch"].pk]})
    post(t, "ann", "declare", {"combatant": trayer, "stance": "in", "target": npc})
    post(t, "gm", "declare", {"combatant": npc, "stance": "in", "target": trayer})
    post(t, "ann", "combat_roll", {"combatant": trayer}, rolls=(60,), monkeypatch=monkeypatch)
    post(t, "gm", "combat_roll", {"combatant": npc}, rolls=(20,), monkeypatch=monkeypatch)
    rolled = last(t, "combat_rolled")
    assert "Zorblax" not in str(rolled.payload["working"]) and "87" not in str(rolled.payload["working"])
    assert rolled.private["working"]["steps"][1] == "+ Selected Combat (Zorblax Strike) 87 = 107"
    director = page_and_export(t, "gm")
    assert "+ Selected Combat (Zorblax Strike) 87 = 107" in director and ATTACK_RULE in director
    assert "Vexmire Lore BASE 44" in director
    for who in ("ann", "watcher"):
        text = page_and_export(t, who)
        assert leaked(text) == [], who
        assert "Selected Combat (Zorblax" not in text and "Vexmire Lore BASE" not in text, who
        assert "Urgluch rolls 20 against Trayer's Defense 18" in text, who


def test_a_combat_roll_is_drawn_as_two_d10s_for_every_seat(table, monkeypatch) -> None:  # noqa: F811
    """Issue 23, "Dice as dice" (a d100 as two d10s); seed, Turn One: "The Die roll is a 42".
    The die is labelled for a screen reader with the roll it makes."""
    trayer, garbo = cid(table["trayer"]), cid(table["garbo"])
    post(table, "gm", "combat_start", {"characters": [table["trayer"].pk, table["garbo"].pk]})
    post(table, "ann", "declare", {"combatant": trayer, "stance": "in", "target": garbo})
    post(table, "gm", "declare", {"combatant": garbo, "stance": "in", "target": trayer})
    post(table, "ann", "combat_roll", {"combatant": trayer}, rolls=(42,), monkeypatch=monkeypatch)
    for who in ("gm", "ann", "watcher"):
        text = table["clients"][who].get(reverse("table", args=[table["table"].pk])).content.decode()
        assert 'class="die d10" role="img" aria-label="42 on a d100' in text, who
        assert 'text-anchor="middle">40</text>' in text and 'text-anchor="middle">2</text>' in text, who
