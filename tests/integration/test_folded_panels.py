"""Issue 38, item 10: "each panel shows first the one thing the viewer does now, the rest
folded". At Harsh Light, the longest panel, the seat whose character acts in the fight finds
that character's attack first among the panel's controls and open; its other moves (a pull set
up by hand) are folded under "Other moves"; a seat with nothing to do reads whose turn it is.
The same holds on the page and in the live redraw each seat is sent."""

from __future__ import annotations

from typing import Any

import lxml.html
import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tabletop import services
from tabletop.feed import panels
from tabletop.models import Role
from tests.integration.test_seat_views import seated_table, under_way

HTMX = {"HTTP_HX_REQUEST": "true"}
CONTROLS = ".//button | .//select | .//textarea | .//input[not(@type='hidden')] | .//summary"


@pytest.fixture
def fight(db: None) -> dict[str, Any]:
    gm_user = get_user_model().objects.create_user("storyteller", password="a long gm password 1")
    table = services.table_create(gm=gm_user, name="Harsh Light", system="harsh_light")
    gm = table.members.select_related("user").get(role=Role.GM)
    ann, bob = (services.membership_join(table=table, user=services.guest_user_create(), role=Role.PLAYER,
                                         display_name=name) for name in ("Ann", "Bob"))
    sheet = {"strength": 3, "dexterity": 3, "wits": 3, "resolve": 2, "composure": 2, "skills": "Brawl: 2"}
    alfie = services.character_create(table=table, actor=ann, name="Alfie", sheet=sheet)
    betty = services.character_create(table=table, actor=bob, name="Betty", sheet=sheet)
    ghoul = services.character_create(table=table, actor=gm, name="Ghoul", npc=True, sheet=sheet)
    clients = {}
    for who, member in (("gm", gm), ("ann", ann), ("bob", bob)):
        clients[who] = Client()
        clients[who].force_login(member.user)
    answer = clients["gm"].post(reverse("table_command", args=[table.pk, "set_order"]),
                                {"order": [alfie.pk, betty.pk, ghoul.pk]}, **HTMX)
    assert answer.status_code == 200 and 'role="alert"></p>' in answer.content.decode()
    return {"table": table, "members": {"gm": gm, "ann": ann, "bob": bob}, "clients": clients}


def panel_of(html: str) -> Any:
    return lxml.html.fromstring(html).get_element_by_id("harsh_light-panel")


def page_panel(fight: dict[str, Any], who: str) -> Any:
    answer = fight["clients"][who].get(reverse("table", args=[fight["table"].pk]))
    assert answer.status_code == 200
    return panel_of(answer.content.decode())


def redraw_panel(fight: dict[str, Any], who: str) -> Any:
    return panel_of(f"<div>{panels.current_frame(fight['table'], fight['members'][who])}</div>")


def closed_details_around(element: Any) -> list[Any]:
    return [d for d in element.iterancestors("details") if d.get("open") is None]


def first_form(panel: Any) -> Any:
    return panel.xpath(".//form")[0]


@pytest.mark.parametrize("drawn", [page_panel, redraw_panel], ids=["page", "live redraw"])
def test_the_seat_whose_character_acts_finds_its_attack_first_and_open(fight: dict[str, Any], drawn: Any) -> None:
    panel = drawn(fight, "ann")
    form = first_form(panel)
    assert form.get("aria-label") == "Attack with Alfie"
    assert closed_details_around(form) == []
    first = panel.xpath(CONTROLS)[0]
    # the first control is the attack's own: its open summary, or a field of its form
    assert first.getparent() is form.getparent() or form in first.iterancestors()
    now = panel.get_element_by_id("harsh_light-now").xpath("./p[@class='now-line']")[0].text_content()
    assert now == "Your turn: act for Alfie: set up a pull, Dodge, or end the action."


@pytest.mark.parametrize("drawn", [page_panel, redraw_panel], ids=["page", "live redraw"])
def test_the_rest_of_the_acting_seats_moves_is_folded(fight: dict[str, Any], drawn: Any) -> None:
    panel = drawn(fight, "ann")
    setup = panel.xpath(".//form[@aria-label='Set up a pull for Alfie']")[0]
    folds = closed_details_around(setup)
    assert folds and folds[-1].get("id") == "harsh_light-other-moves"
    assert folds[-1].xpath("./summary")[0].text_content().startswith("Other moves")
    # the attack is drawn once for its seat, first: not a second time among the folded moves
    assert len(panel.xpath(".//form[@aria-label='Attack with Alfie']")) == 1


def test_a_seat_with_nothing_to_do_now_reads_whose_turn_it_is(fight: dict[str, Any]) -> None:
    panel = page_panel(fight, "bob")
    now = panel.get_element_by_id("harsh_light-now")
    assert now.xpath("./p[@class='now-line']")[0].text_content() == "Now: Alfie acts."
    assert now.xpath(".//form") == []  # Alfie's attack is Ann's (and the GM's), never Bob's
    # Bob's own attack is there, folded among his other moves
    betty = panel.xpath(".//form[@aria-label='Attack with Betty']")[0]
    assert [d.get("id") for d in closed_details_around(betty)][-1] == "harsh_light-other-moves"


def test_the_gm_finds_the_npcs_attack_first_when_the_npc_acts(fight: dict[str, Any]) -> None:
    table = fight["table"]
    for who, name in (("ann", "Alfie"), ("bob", "Betty")):
        cid = f"c{table.characters.get(name=name).pk}"
        answer = fight["clients"][who].post(reverse("table_command", args=[table.pk, "end_turn"]),
                                            {"combatant": cid}, **HTMX)
        assert answer.status_code == 200, answer.content.decode()
    panel = page_panel(fight, "gm")
    form = first_form(panel)
    assert form.get("aria-label") == "Attack with Ghoul"
    assert closed_details_around(form) == []
    assert "Now: Ghoul acts." in panel.text_content()


def test_with_no_fight_nothing_is_open_but_the_line_that_says_what_the_table_waits_for(db: None) -> None:
    gm_user = get_user_model().objects.create_user("st", password="a long gm password 1")
    table = services.table_create(gm=gm_user, name="Calm", system="harsh_light")
    ann = services.membership_join(table=table, user=services.guest_user_create(), role=Role.PLAYER,
                                   display_name="Ann")
    services.character_create(table=table, actor=ann, name="Alfie", sheet={"strength": 3, "skills": "Brawl: 2"})
    client = Client()
    client.force_login(ann.user)
    panel = panel_of(client.get(reverse("table", args=[table.pk])).content.decode())
    assert panel.get_element_by_id("harsh_light-now").text_content().strip().startswith("Nothing waits on anyone now")
    for form in panel.xpath(".//form"):
        assert closed_details_around(form), form.get("aria-label")


# Every system: the seat a step waits for reads "Your turn" at the head of its panel, and the
# first control of its panel (a field or a button) is open, in no closed fold.

PANEL_IDS = {"demon_city": "rounds-panel"}


# (Harsh Light's order there is pulled for, so whose turn it is varies: the tests above play it)
@pytest.mark.parametrize("system", ["demon_city", "report_card", "shadows", "passages"])
def test_in_every_system_the_awaited_seat_finds_its_move_first_and_open(db: None, system: str) -> None:
    seated = seated_table(system)
    under_way(seated, system)
    awaited = 0
    for who in ("ann", "bob"):
        page = seated.client(who).get(reverse("table", args=[seated.table.pk])).content.decode()
        panel = lxml.html.fromstring(page).get_element_by_id(PANEL_IDS.get(system, f"{system}-panel"))
        line = panel.xpath(".//p[@class='now-line']")[0].text_content()
        if not line.startswith("Your turn:"):
            assert line.startswith(("Now: ", "Nothing waits on anyone now")), line
            continue
        awaited += 1
        first = panel.xpath(".//button | .//select | .//textarea | .//input[not(@type='hidden')]")[0]
        assert closed_details_around(first) == [], (who, lxml.html.tostring(first)[:200])
    assert awaited, f"nobody's turn at {system} under way: the test would check nothing"


def test_a_player_with_no_character_gets_no_empty_fold(fight: dict[str, Any]) -> None:
    table = fight["table"]
    cleo = services.membership_join(table=table, user=services.guest_user_create(), role=Role.PLAYER,
                                    display_name="Cleo")
    client = Client()
    client.force_login(cleo.user)
    panel = panel_of(client.get(reverse("table", args=[table.pk])).content.decode())
    assert panel.xpath(".//details[@id='harsh_light-other-moves']") == []
    assert page_panel(fight, "bob").xpath(".//details[@id='harsh_light-other-moves']")  # Bob plays Betty
