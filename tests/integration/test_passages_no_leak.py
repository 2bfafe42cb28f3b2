"""No figure of a Passages NPC reaches a player or a spectator (issue 21), in any byte they
receive through the generic routes: the table page, a live frame, the log's export.

Seed 001: "The Game State is an overview or reminder of every General Conditions of the Scene,
each Persona's Health, Fatigue, Combat Eligibility and Combat Status", so the tracks are
everyone's, and every roll is made in the open; the decided reading: "an NPC's sheet is the GM's
unless the GM shows it ... Odds that depend on a secret figure are shown to the GM alone"."""

from __future__ import annotations

import html
import json
from typing import Any

import pytest
from django.urls import reverse

from tabletop import services
from tabletop.feed.seat import GM, SPECTATOR, Seat
from tests.integration.test_passages_table import cid, last, page, post, table  # noqa: F401 (a fixture)
from tests.support.frames import logged, seat_frame

# The NPC's sheet, every figure distinctive: what only the Director may read while it is secret.
URGLUCH = {"skills": "Zorblax Strike: 87\nQuorvish Parry: 61\nVexmire Lore: 44",
           "combat_skill": "Zorblax Strike", "defense_skill": "Quorvish Parry", "weapon": "Glaivequill",
           "weapon_damage": 9, "armour": "Thornhide", "armour_effect": "-2"}
# Its figures as a page, a frame, a log line or an export would spell them.
FIGURES = ("Zorblax", "Quorvish", "Glaivequill", "Thornhide", "BASE 44", "BASE 87", "BASE 61", '"base": 44',
           "Defense 61", "defends at 61", '"defense": 61', '"combat": 87', '"weapon": 9', '"armour": "-2"',
           "weapon 9", "armour -2")
ODDS = "Chance of a Potential Wound"  # counted from its Combat and Defense


def leaked(text: str) -> list[str]:
    text = html.unescape(text)
    return [f for f in FIGURES + (ODDS,) if f in text]


def export(t: dict[str, Any], who: str, fmt: str) -> str:
    answer = t["clients"][who].get(reverse("export", args=[t["table"].pk, fmt]))
    assert answer.status_code == 200
    return b"".join(answer.streaming_content).decode()


@pytest.fixture
def urgluch(table) -> dict[str, Any]:  # noqa: F811
    table["urgluch"] = services.character_create(table=table["table"], actor=table["gm"], name="Urgluch",
                                                 npc=True, sheet=URGLUCH)
    return table


def test_an_npc_s_figures_reach_the_director_alone_through_a_check_a_fight_and_a_contest(urgluch, monkeypatch) -> None:
    t = urgluch
    trayer, npc = cid(t["trayer"]), cid(t["urgluch"])
    with logged() as events:
        # a check in the open: its roll and band are everyone's, its BASE the Director's
        assert post(t, "gm", "check", {"character": t["urgluch"].pk, "skill": "Vexmire Lore", "mode": "check"},
                    check=True, rolls=(30,), monkeypatch=monkeypatch).status_code == 200
        assert post(t, "gm", "combat_start", {"characters": [t["trayer"].pk, t["urgluch"].pk]}).status_code == 200
        assert post(t, "ann", "declare", {"combatant": trayer, "stance": "in", "target": npc,
                                          "intent": "to wound"}).status_code == 200
        assert post(t, "gm", "declare", {"combatant": npc, "stance": "in", "target": trayer,
                                         "intent": "to crush"}).status_code == 200
        # before the roll-off: the odds are counted from the Urgluch's Combat and Defense
        for who in ("ann", "watcher"):
            seen = page(t, who)
            assert leaked(seen) == [], who
            assert "The odds depend on the Director&#x27;s figures." in seen
            # its Intent is said in the open, in the Game State and the log
            assert "IN: to crush against Trayer" in seen and "Urgluch is IN: to crush against Trayer." in seen
        director = html.unescape(page(t, "gm"))
        assert ODDS in director and "with Zorblax Strike 87 (defends at 61; damage 9)" in director
        # the torch example's Timing, so that both blows land equally and both are wounded
        assert post(t, "gm", "timing", {"combatant": npc, "modifier": "-80", "reason": "fears the torch"}
                    ).status_code == 200
        post(t, "ann", "combat_roll", {"combatant": trayer}, rolls=(60,), monkeypatch=monkeypatch)
        post(t, "gm", "combat_roll", {"combatant": npc}, rolls=(20,), monkeypatch=monkeypatch)
        assert post(t, "gm", "resolve").status_code == 200
        assert post(t, "gm", "end").status_code == 200
        assert post(t, "gm", "contest_start", {"characters": [t["trayer"].pk, t["urgluch"].pk]}).status_code == 200
        post(t, "gm", "contest_roll", {"combatant": npc, "skill": "Vexmire Lore"}, rolls=(12,),
             monkeypatch=monkeypatch)
    rolled = last(t, "combat_rolled")
    assert rolled.summary == "Urgluch rolls 20 with Timing -80 against Trayer's Defense 18: a Potential Wound."
    assert rolled.private_summary.startswith("Urgluch rolls 20 with Timing -80 + Zorblax Strike 87 = 27")
    # the tracks are everyone's: the points each blow dealt, the Game State after it
    assert "Urgluch takes 1" in last(t, "pairing_resolved").summary
    assert "Trayer takes 4" in last(t, "pairing_resolved").summary
    assert "Urgluch 99 Wounds" in last(t, "resolution_point").summary
    for who, seat in (("ann", Seat("player", t["ann"].pk)), ("watcher", SPECTATOR)):
        assert leaked(page(t, who)) == [], who
        for fmt in ("json", "md"):
            assert leaked(export(t, who, fmt)) == [], (who, fmt)
        for event in events:
            assert leaked(seat_frame(event, seat) or "") == [], (who, event.kind)
        # the rolls made in the open, and the skill rolled, as the Director says it at the table
        said = export(t, who, "md")
        assert "Urgluch checks Vexmire Lore: rolls 30" in said and "Urgluch checks Vexmire Lore: rolls 12" in said
    everything = json.dumps(json.loads(export(t, "gm", "json")))
    assert all(f in everything for f in ('"defense": 61', '"combat": 87', "Zorblax", "Thornhide", "BASE 44"))
    assert "Zorblax" in "".join(seat_frame(e, GM) or "" for e in events)


def test_the_director_may_show_the_npcs_sheets_and_the_odds_follow(urgluch) -> None:
    """When the table shows NPC sheets (``npc_sheets_secret`` off), the figures and the odds
    counted from them may be on everyone's panel; turned on again, they are gone."""
    t = urgluch
    trayer, npc = cid(t["trayer"]), cid(t["urgluch"])
    post(t, "gm", "combat_start", {"characters": [t["trayer"].pk, t["urgluch"].pk]})
    post(t, "ann", "declare", {"combatant": trayer, "stance": "in", "target": npc})
    post(t, "gm", "declare", {"combatant": npc, "stance": "in", "target": trayer})
    assert leaked(page(t, "ann")) == []
    services.table_npc_sheets(table=t["table"], actor=t["gm"], secret=False)
    for who in ("ann", "watcher"):
        shown = html.unescape(page(t, who))
        assert ODDS in shown and "with Zorblax Strike 87 (defends at 61; damage 9)" in shown, who
    services.table_npc_sheets(table=t["table"], actor=t["gm"], secret=True)
    assert leaked(page(t, "ann")) == [] and leaked(page(t, "watcher")) == []
