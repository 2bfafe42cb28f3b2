"""Issue 22, Demon City ("Fights that end"): a character's own skills in a task, and character
cards that follow Action Rounds live.

Seed 003: "All character stats are ranked from 0-9"; a task is won by "the higher stat" and its
Skill Die; in Action Rounds "the target subtracts that number from their Current Toughness. At
Current Toughness -1 they are out of the fight".
"""

from __future__ import annotations

import html

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tabletop import panels, services
from tabletop.models import Event, Role
from tabletop.seats import PageSeat

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def table(db):
    users = get_user_model()
    gm_user = users.objects.create_user("host", password="a long host password")
    made = services.table_create(gm=gm_user, name="Demon City", system="demon_city")
    gm = made.members.select_related("user").get(role=Role.GM)
    ann = services.membership_join(table=made, user=services.guest_user_create(), role=Role.PLAYER, display_name="Ann")
    bob = services.membership_join(table=made, user=services.guest_user_create(), role=Role.PLAYER, display_name="Bob")
    agnes = services.character_create(table=made, actor=ann, name="Agnes", sheet={
        "agility": 2, "toughness": 3, "skills": "Exorcism: 6", "side": "players"})
    betty = services.character_create(table=made, actor=bob, name="Betty", sheet={
        "agility": 5, "toughness": 2, "firearms": 5, "skills": "Lockpicking: 4", "side": "players"})
    demon = services.character_create(table=made, actor=gm, name="Demon", npc=True, sheet={
        "agility": 3, "toughness": 1, "hand_to_hand": 6, "skills": "Gloomfang Bite: 7", "side": "demons"})
    clients = {}
    for key, member in (("gm", gm), ("ann", ann), ("bob", bob)):
        clients[key] = Client()
        clients[key].force_login(member.user)
    return {"table": made, "gm": gm, "ann": ann, "bob": bob, "agnes": agnes, "betty": betty, "demon": demon,
            "clients": clients}


def cid(character) -> str:
    return f"c{character.pk}"


def select(page: str, name: str) -> str:
    at = page.index(f'id="{name}"')
    return html.unescape(page[at: page.index("</select>", at)])


def page_of(t, who: str) -> str:
    return t["clients"][who].get(reverse("table", args=[t["table"].pk])).content.decode()


def test_a_task_offers_and_rolls_the_character_s_own_skills(table) -> None:
    """Issue 22: "a character with "Other skills: Exorcism: 6" cannot use it in a task: the task
    form's "Using" offers only the five built-in stats". Seed: "If the stat number is higher than
    the Target number, the player gets to roll an extra die ... (the "Skill Die")". An NPC's skills
    reach the GM's seat alone (issue 21)."""
    ann, gm = page_of(table, "ann"), page_of(table, "gm")
    using = select(ann, "task-stat")
    assert '<optgroup label="Agnes\'s own skills"><option value="Exorcism">Exorcism</option></optgroup>' in using
    assert "Lockpicking" not in using  # Betty is Bob's to roll for
    assert "Exorcism" in select(page_of(table, "bob"), "task-opponent-stat")  # Agnes's sheet is no secret
    for page in (ann, page_of(table, "bob")):
        assert "Gloomfang" not in page
    assert all(s in select(gm, "task-stat") for s in ("Exorcism", "Lockpicking", "Gloomfang Bite"))
    assert "Gloomfang Bite" in select(gm, "task-opponent-stat")
    # a live redraw of the panel, drawn for Ann's seat, offers the same and nothing of the GM's
    seat = PageSeat("player", table["ann"].pk)
    redrawn = panels.render("games/demon_city/panel.html#panel", panels.current(table["table"], table["ann"]),
                            seat, table["table"].pk)
    assert 'value="Exorcism"' in redrawn and "Gloomfang" not in redrawn

    url = reverse("table_check", args=[table["table"].pk, "task"])
    done = table["clients"]["ann"].post(url, {"character": table["agnes"].pk, "stat": "Exorcism",
                                              "target_number": "3"}, **HTMX)
    assert done.status_code == 200, done.content.decode()
    event = Event.objects.filter(kind="demon_city.task_rolled").latest("seq")
    assert event.summary.startswith("Agnes tries Exorcism 6 against difficulty 3:")
    assert [d["kind"] for d in event.payload["task"]["roll"]["pool"]["dice"]] == ["base", "skill"]
    before = Event.objects.count()
    long_name = table["clients"]["ann"].post(url, {"character": table["agnes"].pk, "stat": "E" * 201,
                                                   "target_number": "3"}, **HTMX)
    assert long_name.status_code == 400 and "at most 200" in long_name.content.decode()
    assert Event.objects.count() == before
