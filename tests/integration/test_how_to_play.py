"""Issue 38, item 10: a short "How to play this here" page per system, public and the same for
everyone (it reads no table), linked from each system's panel (Freeform, which has none, from its
table page) and from the home page's list of systems."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games import registry
from tabletop import services
from tabletop.models import Role

TABLE_NAME = "The Quiet Lantern Table"
CHARACTER = "Ottoline Vask"


def _table(system: str) -> tuple[object, Client]:
    gm_user = get_user_model().objects.create_user(f"gm-{system}", password="a long gm password 1")
    table = services.table_create(gm=gm_user, name=TABLE_NAME, system=system)
    gm = table.members.get(role=Role.GM)
    sample = next(s for s in registry.get(system).samples if not s.npc)
    services.character_create(table=table, actor=gm, name=CHARACTER, sheet=dict(sample.sheet))
    client = Client()
    client.force_login(gm_user)
    return table, client


@pytest.mark.parametrize("system", list(registry.SYSTEMS))
def test_every_system_serves_its_page_to_anyone_without_a_table_in_it(db: None, system: str) -> None:
    _table(system)  # a table exists, with a character: nothing of it may reach the page
    game = registry.get(system)
    answer = Client().get(reverse("how_to_play", args=[system]))  # nobody signed in
    assert answer.status_code == 200
    page = answer.content.decode()
    assert f"<title>How to play {game.name} here · Tabletop</title>" in page
    assert f'<h1 id="how-h">How to play {game.name} here</h1>' in page
    for part in ("A turn at this table", "The buttons", "What is hidden from whom"):
        assert part in page
    assert TABLE_NAME not in page and CHARACTER not in page
    assert "seed" not in page.lower()  # players never read the word


def test_an_unknown_system_has_no_page_and_the_page_takes_no_post(db: None) -> None:
    assert Client().get(reverse("how_to_play", args=["chess"])).status_code == 404
    assert Client().post(reverse("how_to_play", args=["harsh_light"])).status_code == 405


@pytest.mark.parametrize("system", list(registry.SYSTEMS))
def test_every_table_page_links_its_systems_page(db: None, system: str) -> None:
    table, client = _table(system)
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    link = f'href="{reverse("how_to_play", args=[system])}"'
    assert link in page
    panel = registry.get(system).panel
    if panel is not None:  # inside the system's own panel, near its heading
        section = page[page.index(f'<section id="{"rounds" if system == "demon_city" else system}-panel"'):]
        assert link in section[:section.index("</section>")]


def test_the_home_page_links_each_systems_page_where_a_table_is_made(db: None) -> None:
    host = get_user_model().objects.create_user("host", password="a long host password 1")
    client = Client()
    client.force_login(host)
    page = client.get(reverse("home")).content.decode()
    assert 'action="/tables/new/"' in page
    for key in registry.SYSTEMS:
        assert f'href="{reverse("how_to_play", args=[key])}"' in page


def test_each_system_has_its_own_page_and_one_without_gets_the_general_page(db: None, monkeypatch) -> None:
    from django.template.loader import get_template

    from tabletop.views import how_to_play

    for key in registry.SYSTEMS:
        assert get_template(how_to_play.page_template(key))  # each of the six has its own words
    monkeypatch.setattr(how_to_play, "page_template", lambda key: f"tabletop/how_to_play/{key}-missing.html")
    answer = Client().get(reverse("how_to_play", args=["freeform"]))
    assert answer.status_code == 200
    assert "the game's box beside the map asks for a roll or a draw" in answer.content.decode()
