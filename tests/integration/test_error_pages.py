"""Issue 13: errors have proper 404/403 pages in production settings and never print the URL
list (Django's DEBUG pages do)."""

from __future__ import annotations

from django.test import Client, override_settings
from django.urls import reverse


@override_settings(DEBUG=False)
def test_an_unknown_address_is_the_site_s_404_without_the_url_list(table) -> None:
    answer = table.client(table.ann).get("/no/such/page/")
    body = answer.content.decode()
    assert answer.status_code == 404
    assert "Nothing here" in body and "Go to your tables" in body
    assert "URLconf" not in body and "tables/&lt;id" not in body and "tables/<id" not in body


@override_settings(DEBUG=False)
def test_a_dead_link_says_why_on_the_404_page(db: None) -> None:
    body = Client().get("/join/not-a-token/").content.decode()
    assert "This link does not work" in body and "Nothing here" in body


@override_settings(DEBUG=False)
def test_a_refusal_is_the_site_s_403_with_its_reason(table) -> None:
    answer = table.client(table.bob).get(reverse("seat_link", args=[table.row.pk, table.ann.pk]))
    body = answer.content.decode()
    assert answer.status_code == 403
    assert "You cannot open this" in body and "only to its member and the GM" in body


def test_a_buttons_address_opened_in_the_browser_is_a_page_with_a_way_back(table) -> None:
    """Issue 38, 1: "A POST-only URL opened in the browser (/tables/new/, /tables/1/npc-sheets/)
    answers an empty 405, so Chromium shows "HTTP ERROR 405": give it the site's own page with a
    way back." """
    gm = table.client(table.gm)
    answer = gm.get(reverse("table_create"))
    body = answer.content.decode()
    assert answer.status_code == 405 and answer["Allow"] == "POST"
    assert "This address is a button's" in body and 'href="/"' in body and "Go to your tables" in body
    answer = gm.get(reverse("npc_sheets", args=[table.row.pk]))
    body = answer.content.decode()
    assert answer.status_code == 405 and "POST" in answer["Allow"]
    assert f'href="{reverse("table", args=[table.row.pk])}"' in body and "Back to the table" in body
    # htmx and other methods keep the plain answer
    assert gm.get(reverse("table_create"), HTTP_HX_REQUEST="true").content == b""
    assert gm.put(reverse("table_create")).content == b""


def test_the_500_page_stands_alone() -> None:
    """A server error renders without the database or the request's context."""
    from django.template.loader import render_to_string

    page = render_to_string("500.html")
    assert "Something went wrong on our side" in page and "{%" not in page
