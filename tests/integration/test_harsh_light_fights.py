"""Harsh Light's fights that end (issue 22), through the routes as the page posts them: what a pull
is headed with, Health on the character card and the panel for every seat, harm and healing by the
Storyteller, and an NPC's track everyone watches while its other figures stay the GM's.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.harsh_light import DECK
from tabletop import panels, services
from tabletop.models import Character, Event, ProcedureState, Role
from tabletop.selectors import combatant_id

HTMX = {"HTTP_HX_REQUEST": "true"}
NOTICE = 'id="harsh_light-notice"'
# Every field the page's pull form sends, as it sends them untouched: the attack kind's select
# holds "melee" whether or not the pull is an attack.
FORM = {"modifier": "0", "reason": "", "needed": "1", "action": "instant", "label": "", "target": "",
        "resist": "defence", "attack": "melee", "again": "", "skill": ""}


@pytest.fixture
def hl(db) -> dict[str, Any]:
    users = get_user_model()
    table = services.table_create(gm=users.objects.create_user("st22", password="a long gm password 1"),
                                  name="Harsh Light", system="harsh_light")
    gm = table.members.select_related("user").get(role=Role.GM)
    ann, bob = (services.membership_join(table=table, user=services.guest_user_create(), role=Role.PLAYER,
                                         display_name=name) for name in ("Ann", "Bob"))
    watcher = services.membership_join(table=table, user=services.guest_user_create(), role=Role.SPECTATOR)
    alfie = services.character_create(table=table, actor=ann, name="Alfie", sheet={
        "strength": 4, "dexterity": 3, "wits": 2, "stamina": 2, "composure": 2, "skills": "Brawl: 3"})
    betty = services.character_create(table=table, actor=bob, name="Betty", sheet={
        "strength": 3, "dexterity": 3, "wits": 3, "composure": 2, "skills": "Brawl: 2"})
    ghoul = services.character_create(table=table, actor=gm, name="Ghoul", npc=True, sheet={
        "strength": 3, "dexterity": 3, "wits": 3, "stamina": 3, "skills": "Brawl: 2"})
    clients = {}
    for who, member in (("gm", gm), ("ann", ann), ("bob", bob), ("watcher", watcher)):
        clients[who] = Client()
        clients[who].force_login(member.user)
    answer = clients["gm"].post(reverse("deck_create", args=[table.pk]), {"kind": "ten_value", "name": DECK}, **HTMX)
    assert answer.status_code == 200
    return {"table": table, "gm": gm, "ann": ann, "bob": bob, "watcher": watcher, "alfie": alfie,
            "betty": betty, "ghoul": ghoul, "clients": clients}


def post(hl, who: str, command: str, **data: Any):
    return hl["clients"][who].post(reverse("table_command", args=[hl["table"].pk, command]), data, **HTMX)


def ok(hl, who: str, command: str, **data: Any) -> None:
    answer = post(hl, who, command, **data)
    assert answer.status_code == 200, answer.content.decode()
    assert answer.content.decode() == f'<p {NOTICE} class="form-error" role="alert"></p>'


def page(hl, who: str) -> str:
    return html.unescape(hl["clients"][who].get(reverse("table", args=[hl["table"].pk])).content.decode())


def last(kind: str) -> Event:
    return Event.objects.filter(kind=f"harsh_light.{kind}").order_by("-seq").first()


def state(hl) -> dict[str, Any]:
    return ProcedureState.objects.get(table=hl["table"]).state


def cid(character: Character) -> str:
    return combatant_id(character)


def heading(text: str) -> str:
    found = re.search(r'<h3 id="prepared-c\d+-h">(.*?)</h3>', text, re.S)
    assert found, text
    return re.sub(r"<[^>]+>", "", found.group(1))


# 3. Only an attack says its attack kind.


def test_a_pull_that_is_no_attack_is_not_headed_in_melee(hl) -> None:
    """The page's form always sends the attack kind's select ("melee"); a plain pull, or one
    resisted by Composure, is no attack (seed: "Nearly all attack rolls will be resisted by
    Defence"): its heading, its log lines and the pull made say nothing of melee."""
    ok(hl, "ann", "set_up_pull", **FORM, combatant=hl["alfie"].pk, attribute="wits")
    for who in ("gm", "ann", "watcher"):
        assert heading(page(hl, who)) == "Alfie is about to pull: a pull"
    assert last("pull_set_up").summary.startswith("Alfie sets up a pull: pool 2 (Wits 2)")
    ok(hl, "ann", "pull", combatant=cid(hl["alfie"]), set_up="1")
    assert "melee" not in last("pulled").summary and last("pulled").summary.startswith("Alfie: a pull;")

    ok(hl, "ann", "set_up_pull", **{**FORM, "target": str(hl["betty"].pk), "resist": "composure"},
       combatant=hl["alfie"].pk, attribute="presence")
    for who in ("gm", "ann", "bob", "watcher"):
        assert heading(page(hl, who)) == "Alfie is about to pull: a pull against Betty"
    assert "melee" not in last("pull_set_up").summary and "an attack" not in last("pull_set_up").summary
    ok(hl, "ann", "pull", combatant=cid(hl["alfie"]), set_up="1")
    assert "melee" not in last("pulled").summary

    # An attack still says so.
    ok(hl, "ann", "set_up_pull", **{**FORM, "target": str(hl["betty"].pk), "skill": "brawl"},
       combatant=hl["alfie"].pk, attribute="strength")
    assert heading(page(hl, "bob")) == "Alfie is about to pull: an attack against Betty, in melee"
    assert "sets up an attack against Betty" in last("pull_set_up").summary
