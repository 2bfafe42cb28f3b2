"""Views: the happy paths a person takes, and every kind of bad input refused with nothing changed."""

from __future__ import annotations

from xml.etree import ElementTree

import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games import registry
from tabletop import services
from tabletop.models import Table, Character, Event, Membership, Role

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def events(table: Table) -> list[tuple]:
    return list(Event.objects.filter(table=table).values_list("seq", "kind", "summary"))


def test_signup_then_create_a_table_then_open_its_table() -> None:
    client = Client()
    response = client.post(
        reverse("signup"),
        {"username": "gail", "password1": "a long gm password 1", "password2": "a long gm password 1"},
    )
    assert response.status_code == 302
    response = client.post(reverse("table_create"), {"name": "Night Shift", "system": "freeform"})
    table = Table.objects.get(name="Night Shift")
    assert response["Location"] == reverse("table", args=[table.pk])
    page = client.get(response["Location"]).content.decode()
    assert table.player_token in page and table.spectator_token in page
    assert f'ws-connect="/ws/tables/{table.pk}/"' in page
    assert 'aria-live="polite"' in page


def test_home_lists_the_systems() -> None:
    user = get_user_model().objects.create_user("gail", password="a long gm password 1")
    client = Client()
    client.force_login(user)
    page = client.get(reverse("home")).content.decode()
    for game in registry.SYSTEMS.values():
        assert f"{game.name} — {game.blurb}" in page


@pytest.mark.parametrize(
    "data", [{"name": "", "system": "freeform"}, {"name": "X", "system": "nope"}, {"name": "X" * 101, "system": "freeform"}]
)
def test_bad_table_forms_are_refused(data, db) -> None:
    user = get_user_model().objects.create_user("gail", password="a long gm password 1")
    client = Client()
    client.force_login(user)
    response = client.post(reverse("table_create"), data)
    assert response.status_code == 400
    assert not Table.objects.exists()


def test_every_page_names_an_icon_that_is_served(client) -> None:
    """Issue 13, bug 9: "a favicon 404 on every page"."""
    page = client.get(reverse("home")).content.decode()
    href = re.search(r'<link rel="icon" href="([^"]+)"', page).group(1)
    assert client.get(href).status_code == 200


def test_a_guest_cannot_host(table) -> None:
    response = table.client(table.ann).post(reverse("table_create"), {"name": "Mine", "system": "freeform"})
    assert response.status_code == 403
    assert Table.objects.count() == 1


def test_joining_through_the_player_link_seats_a_guest_who_comes_back(table) -> None:
    client = Client()
    url = reverse("join", args=[table.row.player_token])
    assert "display_name" in client.get(url).content.decode()
    response = client.post(url, {"display_name": "Cara"})
    assert response.status_code == 302
    cara = Membership.objects.get(table=table.row, display_name="Cara")
    assert cara.role == Role.PLAYER
    # the same browser comes back to the same seat
    again = client.get(url)
    assert again.status_code == 302 and again["Location"] == reverse("table", args=[table.row.pk])
    assert Membership.objects.filter(table=table.row, display_name="Cara").count() == 1


def test_spectator_link_needs_no_name_and_is_read_only(table) -> None:
    client = Client()
    url = reverse("watch", args=[table.row.spectator_token])
    assert client.get(url).status_code == 200
    assert client.post(url).status_code == 302
    watcher = Membership.objects.filter(table=table.row, role=Role.SPECTATOR).latest("pk")
    before = events(table.row)
    assert client.post(reverse("roll", args=[table.row.pk]), {"notation": "1d6", "mode": "public"}).status_code == 403
    assert client.post(reverse("chat", args=[table.row.pk]), {"text": "hi"}).status_code == 403
    assert client.post(reverse("character_new", args=[table.row.pk]), {"name": "X"}).status_code == 403
    assert events(table.row) == before
    assert watcher.removed_at is None


@pytest.mark.parametrize("view", ["join", "watch"])
def test_unknown_or_revoked_links_are_404(table, view) -> None:
    assert Client().get(reverse(view, args=["not-a-token"])).status_code == 404
    which = "player" if view == "join" else "spectator"
    old = getattr(table.row, f"{which}_token")
    services.table_regenerate_link(table=table.row, actor=table.gm, which=which)
    response = Client().post(reverse(view, args=[old]), {"display_name": "Late"})
    assert response.status_code == 404
    assert "GM replaced it" in response.content.decode()
    assert not Membership.objects.filter(display_name="Late").exists()


def test_strangers_and_removed_members_cannot_open_the_table(table) -> None:
    stranger = get_user_model().objects.create_user("stranger", password="x" * 12)
    client = Client()
    client.force_login(stranger)
    url = reverse("table", args=[table.row.pk])
    assert client.get(url).status_code == 403
    # issue 13, bug 9: the printed "Table:" link, opened logged out, is the login page (it was 403)
    logged_out = Client().get(url)
    assert logged_out.status_code == 302 and logged_out["Location"] == f"{reverse('login')}?next={url}"
    assert client.get(reverse("table", args=[999])).status_code == 404
    services.membership_remove(target=table.ann, actor=table.gm)
    response = table.client(table.ann).get(url)
    assert response.status_code == 403 and "removed you" in response.content.decode()
    rejoin = table.client(table.ann).post(reverse("join", args=[table.row.player_token]), {"display_name": "Ann"})
    assert rejoin.status_code == 403


def test_roll_and_chat_through_htmx(table) -> None:
    client = table.client(table.ann)
    response = client.post(reverse("roll", args=[table.row.pk]), {"notation": "2d6+3", "mode": "public"}, **HTMX)
    assert response.status_code == 204 and response.content == b""  # the page keeps its form
    response = client.post(reverse("chat", args=[table.row.pk]), {"text": "<b>hi</b>"}, **HTMX)
    assert response.status_code == 204
    kinds = [k for _, k, _ in events(table.row)][-2:]
    assert kinds == ["dice.rolled", "chat.posted"]
    page = client.get(reverse("table", args=[table.row.pk])).content.decode()
    assert "&lt;b&gt;hi&lt;/b&gt;" in page and "<b>hi</b>" not in page


@pytest.mark.parametrize(
    ("url_name", "data", "message"),
    [
        ("roll", {"notation": "banana", "mode": "public"}, "is not dice notation"),
        ("roll", {"notation": "1d6", "mode": "sideways"}, "Select a valid choice"),
        ("roll", {"notation": "", "mode": "public"}, "This field is required"),
        ("roll", {"notation": "1d6" * 50, "mode": "public"}, "at most 100 characters"),
        ("chat", {"text": "x" * 2001}, "at most 2000 characters"),
        ("chat", {}, "This field is required"),
    ],
)
def test_malformed_forms_get_an_inline_message_and_change_nothing(table, url_name, data, message) -> None:
    before = events(table.row)
    response = table.client(table.ann).post(reverse(url_name, args=[table.row.pk]), data, **HTMX)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert 'role="alert"' in response.content.decode()
    assert events(table.row) == before


def test_without_htmx_a_roll_redirects_and_a_bad_one_shows_a_page(table) -> None:
    client = table.client(table.ann)
    ok = client.post(reverse("roll", args=[table.row.pk]), {"notation": "1d6", "mode": "public"})
    assert ok.status_code == 302
    bad = client.post(reverse("roll", args=[table.row.pk]), {"notation": "zz", "mode": "public"})
    assert bad.status_code == 400 and "<html" in bad.content.decode()


def test_get_on_an_action_is_refused(table) -> None:
    assert table.client(table.ann).get(reverse("roll", args=[table.row.pk])).status_code == 405


def test_a_player_cannot_edit_anothers_character(table) -> None:
    hero = services.character_create(table=table.row, actor=table.ann, name="Hero", sheet={})
    url = reverse("character_edit", args=[table.row.pk, hero.pk])
    bob = table.client(table.bob)
    assert bob.get(url).status_code == 403
    assert bob.post(url, {"name": "Stolen", "sheet_colour": "#000000"}).status_code == 403
    assert Character.objects.get(pk=hero.pk).name == "Hero"
    ann = table.client(table.ann)
    response = ann.post(url, {"name": "Hero II", "sheet_colour": "#112233", "sheet_notes": "n",
                              "sheet_stats": "Str: 4", "version": 1})
    assert response.status_code == 302
    hero.refresh_from_db()
    assert (hero.name, hero.sheet["stats"], hero.version) == ("Hero II", [["Str", "4"]], 2)


def test_a_stale_sheet_edit_is_refused_with_a_message(table) -> None:
    hero = services.character_create(table=table.row, actor=table.ann, name="Hero", sheet={})
    services.character_update(character=hero, actor=table.gm, name="Hero", sheet={"notes": "gm"})
    url = reverse("character_edit", args=[table.row.pk, hero.pk])
    response = table.client(table.ann).post(url, {"name": "Mine", "sheet_colour": "#112233", "version": 1})
    assert response.status_code == 409 and "changed by someone else" in response.content.decode()
    assert Character.objects.get(pk=hero.pk).name == "Hero"


def test_a_malformed_sheet_is_refused(table) -> None:
    url = reverse("character_new", args=[table.row.pk])
    response = table.client(table.ann).post(url, {"name": "Hero", "sheet_colour": "#112233", "sheet_stats": "nonsense"})
    assert response.status_code == 400 and "Name: value" in response.content.decode()
    assert not Character.objects.exists()


def test_a_second_character_of_one_name_is_refused_on_the_form(table) -> None:
    url = reverse("character_new", args=[table.row.pk])
    assert table.client(table.ann).post(url, {"name": "Hero", "sheet_colour": "#112233"}).status_code == 302
    response = table.client(table.bob).post(url, {"name": "HERO", "sheet_colour": "#112233"})
    page = response.content.decode()
    assert response.status_code == 400 and "already a character called HERO at this table" in page
    assert 'value="HERO"' in page  # the form keeps what was typed, to change it
    assert list(Character.objects.values_list("name", flat=True)) == ["Hero"]


def test_gm_makes_an_npc_and_a_claimable_character(table) -> None:
    gm = table.client(table.gm)
    url = reverse("character_new", args=[table.row.pk])
    gm.post(url, {"name": "Villain", "kind": "npc", "sheet_colour": "#000000"})
    gm.post(url, {"name": "Pregen", "kind": "pc", "sheet_colour": "#000000"})
    villain, pregen = Character.objects.get(name="Villain"), Character.objects.get(name="Pregen")
    assert villain.is_npc and villain.owner is None and not pregen.is_npc
    claim = reverse("character_claim", args=[table.row.pk, pregen.pk])
    assert table.client(table.ann).post(claim, **HTMX).status_code == 204
    assert table.client(table.bob).post(claim, **HTMX).status_code == 403
    assert table.client(table.bob).post(reverse("character_claim", args=[table.row.pk, villain.pk]), **HTMX).status_code == 403


def test_gm_renames_and_removes_members_players_cannot(table) -> None:
    rename = reverse("member_rename", args=[table.row.pk, table.bob.pk])
    remove = reverse("member_remove", args=[table.row.pk, table.bob.pk])
    before = events(table.row)
    assert table.client(table.ann).post(rename, {"display_name": "Rob"}, **HTMX).status_code == 403
    assert table.client(table.ann).post(remove, **HTMX).status_code == 403
    assert table.client(table.gm).post(rename, {"display_name": ""}, **HTMX).status_code == 400
    assert events(table.row) == before
    assert table.client(table.gm).post(rename, {"display_name": "Rob"}, **HTMX).status_code == 200
    assert table.client(table.gm).post(remove, **HTMX).status_code == 200
    bob = Membership.objects.get(pk=table.bob.pk)
    assert bob.display_name == "Rob" and bob.removed_at is not None
    other = get_user_model().objects.create_user("other", password="x" * 12)
    foreign = services.table_create(gm=other, name="Elsewhere", system="freeform")
    foreign_gm = foreign.members.get()
    url = reverse("member_remove", args=[table.row.pk, foreign_gm.pk])
    assert table.client(table.gm).post(url, **HTMX).status_code == 404


def test_links_show_a_qr_code_and_regenerate_for_the_gm_only(table) -> None:
    gm = table.client(table.gm)
    qr = gm.get(reverse("link_qr", args=[table.row.pk, "player"]))
    assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml" and b"<svg" in qr.content
    # issue 13, bug 2: "the SVG is served without its xmlns, so the browser shows a broken image"
    root = ElementTree.fromstring(qr.content)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert table.client(table.ann).get(reverse("link_qr", args=[table.row.pk, "player"])).status_code == 403
    old = table.row.player_token
    assert table.client(table.ann).post(reverse("link_regenerate", args=[table.row.pk, "player"])).status_code == 403
    assert Table.objects.get(pk=table.row.pk).player_token == old
    response = gm.post(reverse("link_regenerate", args=[table.row.pk, "player"]), **HTMX)
    new = Table.objects.get(pk=table.row.pk).player_token
    assert response.status_code == 200 and new != old and new in response.content.decode()
    assert gm.post(reverse("link_regenerate", args=[table.row.pk, "bogus"]), **HTMX).status_code == 404


def test_export_holds_only_what_the_viewer_may_see(table, rng) -> None:
    services.chat_post(table=table.row, actor=table.ann, text="*public* <b>note</b>")
    services.dice_roll(table=table.row, actor=table.gm, notation="1d20+777", mode="gm", rng=rng)
    services.dice_roll(table=table.row, actor=table.ann, notation="1d20+555", mode="blind", rng=rng)
    services.table_regenerate_link(table=table.row, actor=table.gm, which="player")

    def export(member, fmt):
        response = table.client(member).get(reverse("export", args=[table.row.pk, fmt]))
        assert response.status_code == 200
        return b"".join(response.streaming_content).decode()

    for fmt in ("md", "json"):
        gm, ann, watcher = export(table.gm, fmt), export(table.ann, fmt), export(table.watcher, fmt)
        assert "1d20+777" in gm and "1d20+777" not in ann and "1d20+777" not in watcher
        assert "1d20+555" in ann and "1d20+555" not in watcher
        assert "replaced the player link" in gm and "replaced the player link" not in ann
    blind = [e for e in json.loads(export(table.ann, "json"))["events"] if e["summary"].startswith("Ann rolls 1d20+555")]
    assert blind and "private" not in blind[0] and "only the GM sees" in blind[0]["summary"]
    gm_json = json.loads(export(table.gm, "json"))["events"]
    assert any("roll" in e.get("private", {}) for e in gm_json if "1d20+555" in e["summary"])
    md = export(table.ann, "md")
    assert r"\*public\* \<b\>note\</b\>" in md
    assert table.client(table.ann).get(reverse("export", args=[table.row.pk, "exe"])).status_code == 404
    assert Client().get(reverse("export", args=[table.row.pk, "md"])).status_code == 403


def test_the_markdown_export_escapes_the_table_and_viewer_names_too(table) -> None:
    """Found by tests/integration/test_fuzz_http.py: a name of markup had reached the .md raw."""
    services.membership_rename(target=table.ann, actor=table.gm, display_name="<img src=x onerror=alert(1)>")
    Table.objects.filter(pk=table.row.pk).update(name="*Night* <b>Shift</b>")
    md = b"".join(table.client(table.ann).get(reverse("export", args=[table.row.pk, "md"])).streaming_content).decode()
    assert md.startswith(r"# \*Night\* \<b\>Shift\</b\>" + "\n")
    assert r"Log as seen by \<img src=x onerror=alert(1)\>." in md
    assert not re.search(r"(?<!\\)<", md)  # every < escaped


def test_a_refused_join_leaves_no_guest_account_behind(table) -> None:
    users = get_user_model().objects.count()
    response = Client().post(reverse("join", args=[table.row.player_token]), {"display_name": "Ann"})
    assert response.status_code == 400 and "already called Ann" in response.content.decode()
    assert get_user_model().objects.count() == users


def test_an_ordinary_refusal_is_logged_as_a_line_without_a_traceback(table, caplog) -> None:
    """Issue 13, bug 9: "full tracebacks in the server log for ordinary 403s"."""
    stranger = get_user_model().objects.create_user("nosy", password="x" * 12)
    client = Client()
    client.force_login(stranger)
    with caplog.at_level("WARNING", logger="django.request"):
        assert client.get(reverse("table", args=[table.row.pk])).status_code == 403
    [record] = [r for r in caplog.records if r.name == "django.request"]
    assert record.status_code == 403 and record.exc_info is None and "Forbidden" in record.getMessage()


def test_no_page_shows_template_source(table) -> None:
    """A Django comment is one line: a `{# ... #}` over two lines printed itself at the top of
    every page. No page shows template syntax to anyone."""
    pages = [reverse("home"), reverse("table", args=[table.row.pk]), reverse("leave")]
    for path in pages:
        body = table.client(table.ann).get(path).content.decode()
        assert "{#" not in body and "{%" not in body and "{{" not in body, path


def test_the_log_holds_the_facts_of_a_roll_and_its_line_draws_the_dice(table, rng) -> None:
    """Issue 34, "A log of facts": "no drawing data in events or exports; a plain roll's JSON
    export line under 400 bytes". The roll's line still draws each die (a d20's hexagon)."""
    services.dice_roll(table=table.row, actor=table.ann, notation="4d10kh1", mode="public", rng=rng)
    services.dice_roll(table=table.row, actor=table.ann, notation="1d20", mode="public", rng=rng)
    [_, plain] = Event.objects.filter(table=table.row, kind="dice.rolled").order_by("seq")
    assert "outline" not in json.dumps(plain.payload) and "faces" not in json.dumps(plain.payload)
    answer = table.client(table.ann).get(reverse("export", args=[table.row.pk, "json"]))
    rows = json.loads(b"".join(answer.streaming_content))["events"]
    [row] = [r for r in rows if r["summary"].startswith("Ann rolls 1d20")]
    assert len(json.dumps(row, ensure_ascii=False).encode()) < 400
    page = table.client(table.ann).get(reverse("table", args=[table.row.pk])).content.decode()
    assert page.count('class="die d10') >= 4 and 'points="20,2 36,11 36,29 20,38 4,29 4,11"' in page
    assert page.count('class="die d10 dropped"') == 3


def test_a_freeform_card_shows_its_stats_and_no_stray_count(table) -> None:
    """Issue 38, 7: "A stray "Stats: 3" line on Freeform character cards."""
    from tabletop import services

    services.character_create(table=table.row, actor=table.ann, name="Wren",
                              sheet={"notes": "A courier.", "stats": "Wits: 3\nNerve: 2\nLuck: 1"})
    page = table.client(table.bob).get(f"/tables/{table.row.pk}/").content.decode()
    assert "<dt>Wits</dt><dd>3</dd>" in page and "<dt>Nerve</dt><dd>2</dd>" in page
    assert "Stats: 3" not in page and 'class="derived' not in page
