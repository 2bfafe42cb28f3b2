"""No figure of a Demon City NPC reaches a player or a spectator (issue 21), in any byte they
receive through the generic routes: the table page, a live frame, the log's export; and its
controls are the GM's in every byte.

Seed 003: "every die is public": the dice rolled, and what came of them, are everyone's (so is
how many dice an NPC rolled, once rolled); the decided reading: "an NPC's sheet is the GM's unless
the GM shows it ... Odds that depend on a secret figure are shown to the GM alone". Reading: an
NPC's pool before the roll (how many dice, and why each) is its sheet's figure, the GM's."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tabletop import services
from tabletop.models import Event, Role
from tabletop.feed.seat import GM, SPECTATOR, Seat
from tests.support.frames import logged, seat_frame

HTMX = {"HTTP_HX_REQUEST": "true"}
# The NPC's sheet, every figure distinctive (its Toughness is a track: everyone's).
DEMON = {"agility": 7, "toughness": 4, "hand_to_hand": 8, "armour": 2, "skills": "Gloomfang Bite: 6"}
# Its figures as a page, a frame, a log line or an export would spell them.
FIGURES = ("Gloomfang", "Agility 7", '"agility": 7', "Hand-to-Hand 8", '"hand_to_hand": 8', '"armour": 2',
           '"armour": 3', "Armour 3", "Shadowmeld", "Demon announces close combat at Alfie (")
ODDS = re.compile(r"wins \d+%")  # a Clash's chances, counted from the pools on both sides


def leaked(text: str) -> list[str]:
    text = html.unescape(text)
    return [f for f in FIGURES if f in text] + ODDS.findall(text)


@pytest.fixture
def dc(db) -> dict[str, Any]:
    gm_user = get_user_model().objects.create_user("host", password="a long host password")
    table = services.table_create(gm=gm_user, name="Demon City", system="demon_city")
    gm = table.members.select_related("user").get(role=Role.GM)
    ann = services.membership_join(table=table, user=services.guest_user_create(), role=Role.PLAYER,
                                   display_name="Ann")
    watcher = services.membership_join(table=table, user=services.guest_user_create(), role=Role.SPECTATOR)
    alfie = services.character_create(table=table, actor=ann, name="Alfie",
                                      sheet={"agility": 2, "toughness": 3, "hand_to_hand": 9})
    demon = services.character_create(table=table, actor=gm, name="Demon", npc=True, sheet=DEMON)
    clients = {}
    for name, member in (("gm", gm), ("ann", ann), ("watcher", watcher)):
        clients[name] = Client(raise_request_exception=False)
        clients[name].force_login(member.user)
    return {"table": table, "gm": gm, "ann": ann, "watcher": watcher, "alfie": alfie, "demon": demon,
            "clients": clients}


def post(dc: dict[str, Any], who: str, command: str, data: dict[str, Any]) -> None:
    answer = dc["clients"][who].post(reverse("table_command", args=[dc["table"].pk, command]), data, **HTMX)
    assert answer.status_code == 200, answer.content.decode()[:300]


def page(dc: dict[str, Any], who: str) -> str:
    return dc["clients"][who].get(reverse("table", args=[dc["table"].pk])).content.decode()


def export(dc: dict[str, Any], who: str, fmt: str) -> str:
    answer = dc["clients"][who].get(reverse("export", args=[dc["table"].pk, fmt]))
    assert answer.status_code == 200
    return b"".join(answer.streaming_content).decode()


def test_an_npc_s_figures_reach_the_gm_alone_through_a_fight_and_a_task(dc) -> None:
    alfie, demon = f"c{dc['alfie'].pk}", f"c{dc['demon'].pk}"
    players = (("ann", Seat("player", dc["ann"].pk)), ("watcher", SPECTATOR))
    with logged() as events:
        # a task before the fight, the Demon's Hand-to-Hand against Alfie's: the dice are everyone's
        task = dc["clients"]["gm"].post(reverse("table_check", args=[dc["table"].pk, "task"]), {
            "character": dc["demon"].pk, "stat": "hand_to_hand", "opponent": dc["alfie"].pk,
            "opponent_stat": "hand_to_hand"}, **HTMX)
        assert task.status_code == 200
        post(dc, "gm", "start", {"characters": [dc["alfie"].pk, dc["demon"].pk]})
        # Alfie announces first (Agility 2): the "anything else" choices name no skill of the Demon's
        assert leaked(page(dc, "ann")) == [] and 'aria-label="Announce for Alfie"' in page(dc, "ann")
        post(dc, "ann", "announce", {"combatant": alfie, "kind": "melee", "target": demon, "description": "punch"})
        # the Demon's turn: its controls are the GM's in every byte
        for who, _ in players:
            seen = page(dc, who)
            assert 'aria-label="Announce for Demon"' not in seen and f'"combatant": "{demon}"' not in seen, who
            assert f'name="combatant" value="{demon}"' not in seen, who
        assert 'aria-label="Announce for Demon"' in page(dc, "gm")
        post(dc, "gm", "announce", {"combatant": demon, "kind": "melee", "target": alfie, "description": "claws"})
        # the Host's Situation Die for the Demon: its pool's breakdown
        post(dc, "gm", "adjust_pool", {"combatant": demon, "die": "situation", "change": "grant",
                                       "reason": "Shadowmeld"})
        assert "Shadowmeld" in page(dc, "gm")
        # before the roll: the Demon's pool and the chances counted from it are the GM's
        for who, _ in players:
            seen = html.unescape(page(dc, who))
            assert leaked(seen) == [], who
            assert "Alfie (2d10) against Demon: the odds depend on the GM's figures" in seen
            assert "Demon against Alfie: the odds depend on the GM's figures" in seen
            assert "Its dice are the GM's until they are rolled." in seen
            assert "Alfie's Hand-to-Hand 9 > Demon's Hand-to-Hand<" in seen  # Alfie's own Skill Die
        gm_page = html.unescape(page(dc, "gm"))
        assert ODDS.search(gm_page) and "Agility 7" in gm_page and "Demon's Hand-to-Hand 8" in gm_page
        post(dc, "gm", "roll", {})
        post(dc, "gm", "set_condition", {"combatant": demon, "field": "armour", "value": "3"})  # its sheet
        post(dc, "gm", "end", {})
    clash = Event.objects.filter(table=dc["table"], kind="demon_city.clash_rolled").get()
    rolled = clash.payload["event"]["rolled"]
    for who, seat in players:
        seen = html.unescape(page(dc, who))
        assert leaked(seen) == [], who
        for fmt in ("json", "md"):
            assert leaked(export(dc, who, fmt)) == [], (who, fmt)
        for event in events:
            assert leaked(seat_frame(event, seat) or "") == [], (who, event.kind)
        # every die is public: each roll of the Clash, how many dice the Demon rolled, the task's dice
        said = export(dc, who, "md")
        for cid, roll in rolled.items():
            assert f"{'Demon' if cid == demon else 'Alfie'} rolls {', '.join(map(str, roll['dice']))} (best" in said
        assert "Demon (Hand-to-Hand) against Alfie (Hand-to-Hand 9):" in said
        assert "The Host corrects Demon's Armour." in said and "The Host adjusts Demon's pool." in said
    everything = json.dumps(json.loads(export(dc, "gm", "json")))
    assert all(f in everything for f in ('"hand_to_hand": 8', '"agility": 7', "Gloomfang", "Hand-to-Hand 8"))
    assert "Gloomfang" in "".join(seat_frame(e, GM) or "" for e in events)


def test_the_gm_may_show_the_npcs_sheets_and_the_odds_follow(dc) -> None:
    """When the table shows NPC sheets (``npc_sheets_secret`` off), its figures, its pool and
    the chances counted from it may be on everyone's panel; turned on again, they are gone."""
    alfie, demon = f"c{dc['alfie'].pk}", f"c{dc['demon'].pk}"
    post(dc, "gm", "start", {"characters": [dc["alfie"].pk, dc["demon"].pk]})
    post(dc, "ann", "announce", {"combatant": alfie, "kind": "melee", "target": demon})
    post(dc, "gm", "announce", {"combatant": demon, "kind": "melee", "target": alfie})
    assert leaked(page(dc, "ann")) == []
    services.table_npc_sheets(table=dc["table"], actor=dc["gm"], secret=False)
    for who in ("ann", "watcher"):
        shown = html.unescape(page(dc, who))
        assert "Agility 7" in shown and ODDS.search(shown) and "Demon's Hand-to-Hand 8" in shown, who
    services.table_npc_sheets(table=dc["table"], actor=dc["gm"], secret=True)
    assert leaked(page(dc, "ann")) == [] and leaked(page(dc, "watcher")) == []


def test_during_action_rounds_the_npc_s_controls_and_skills_are_in_no_player_s_bytes(dc) -> None:
    """Issue 21: Demon City's NPC controls (announce for an NPC, correct it, its pool) are the
    GM's in every byte; a player's own announce form offers no skill of an NPC's (its "against"
    choices named the Demon's Gloomfang Bite), nor can a player learn one by trying it: naming a
    skill the NPC has is refused as naming one it has not."""
    alfie, demon = f"c{dc['alfie'].pk}", f"c{dc['demon'].pk}"
    with logged() as events:
        post(dc, "gm", "start", {"characters": [dc["alfie"].pk, dc["demon"].pk]})
    own = page(dc, "ann")
    form = own[own.index('aria-label="Announce for Alfie"'):]
    form = form[:form.index("</form>")]
    assert 'name="against"' in form and "Gloomfang" not in own
    assert "Gloomfang" in page(dc, "gm")  # the GM's own form for the Demon's turn names it
    for answer in ("Gloomfang Bite", "Moonwing Howl"):  # one it has, one it has not: the same refusal
        refused = dc["clients"]["ann"].post(reverse("table_command", args=[dc["table"].pk, "announce"]), {
            "combatant": alfie, "kind": "other", "target": demon, "stat": "agility", "against": answer}, **HTMX)
        assert refused.status_code == 400 and f"No stat or skill called &#x27;{answer}&#x27;" in refused.content.decode()
    tried = dc["clients"]["ann"].post(reverse("table_check", args=[dc["table"].pk, "task"]), {
        "character": dc["alfie"].pk, "stat": "agility", "opponent": dc["demon"].pk,
        "opponent_stat": "Gloomfang Bite"}, **HTMX)
    assert tried.status_code == 400 and "its other skills are the GM" in html.unescape(tried.content.decode())
    with logged() as more:
        post(dc, "ann", "announce", {"combatant": alfie, "kind": "melee", "target": demon})
    # the Demon's turn: nothing that acts for it, or corrects it, reaches a player or a spectator
    for who, seat in (("ann", Seat("player", dc["ann"].pk)), ("watcher", SPECTATOR)):
        for seen in (page(dc, who), *(seat_frame(e, seat) or "" for e in [*events, *more])):
            assert 'aria-label="Announce for Demon"' not in seen and f'"combatant": "{demon}"' not in seen, who
            assert f'name="combatant" value="{demon}"' not in seen and "Gloomfang" not in seen, who
            assert "adjust_pool" not in seen and "set_condition" not in seen, who
    gm = page(dc, "gm")
    assert 'aria-label="Announce for Demon"' in gm and f'"combatant": "{demon}"' in gm
