"""An id from a request that the database cannot hold is refused like any unknown id: the
form's field error, or a URL that does not match (404); never a 500 (tabletop/ids.py)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tabletop import services
from tabletop.ids import MAX_ID, parse_id
from tabletop.models import CardPlacement, Event, Role

HUGE = str(10**25)


def log_of(table) -> list[tuple[int, str]]:
    return list(Event.objects.filter(table=table).values_list("seq", "kind"))


def placements() -> list[tuple]:
    return list(CardPlacement.objects.order_by("pk").values_list("pk", "pile_id", "position", "reversed"))


def client_of(member) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(member.user)
    return client


@pytest.mark.parametrize(
    "value, expected",
    [("1", 1), (str(MAX_ID), MAX_ID), (7, 7), (str(MAX_ID + 1), None), (HUGE, None), ("0", None),
     ("-3", None), ("", None), (None, None), ("²", None), ("1.5", None), ("9" * 5000, None),
     (["1"], None), (True, None), ("x", None)],
)
def test_an_id_is_a_whole_number_the_database_can_hold(value, expected) -> None:
    assert parse_id(value) == expected


@pytest.mark.django_db
@pytest.mark.parametrize("action", ["play", "discard", "return_top", "return_bottom", "pass"])
def test_a_card_action_with_a_deck_id_too_large_is_refused_not_a_500(table, rng, action) -> None:
    deck = services.deck_create(table=table.row, actor=table.gm, kind="standard",
                                players_may_use=True, rng=rng)
    services.pile_draw(deck=deck, actor=table.ann, count=1, to="hand")
    before = (log_of(table.row), placements())
    response = client_of(table.ann).post(
        reverse("card_action", args=[table.row.pk, action]),
        {"deck": HUGE, "card": "std:S:12", "to_name": "Bob"},
    )
    assert response.status_code == 400
    assert (log_of(table.row), placements()) == before


@pytest.mark.django_db
@pytest.mark.parametrize("action", ["draw", "shuffle", "peek", "configure"])
def test_a_deck_action_with_a_deck_id_too_large_is_refused(table, action) -> None:
    before = log_of(table.row)
    response = client_of(table.gm).post(
        reverse("deck_action", args=[table.row.pk, action]), {"deck": HUGE, "count": "1"}
    )
    assert response.status_code == 400
    assert log_of(table.row) == before


@pytest.mark.django_db
def test_a_personal_deck_for_an_owner_id_too_large_is_refused(table) -> None:
    before = log_of(table.row)
    response = client_of(table.gm).post(
        reverse("deck_create", args=[table.row.pk]), {"kind": "standard", "owner": HUGE}
    )
    assert response.status_code == 400
    assert log_of(table.row) == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path, method",
    [("/tables/{big}/", "get"), ("/tables/{big}/roll/", "post"), ("/tables/{big}/export.json", "get"),
     ("/tables/{pk}/members/{big}/rename/", "post"), ("/tables/{pk}/members/{big}/remove/", "post"),
     ("/tables/{pk}/characters/{big}/edit/", "get"), ("/tables/{pk}/characters/{big}/claim/", "post"),
     ("/tables/{max_plus_one}/", "get"), ("/tables/0/", "get")],
)
def test_an_id_too_large_in_a_url_is_not_found(table, path, method) -> None:
    url = path.format(big=HUGE, pk=table.row.pk, max_plus_one=MAX_ID + 1)
    before = log_of(table.row)
    response = getattr(client_of(table.gm), method)(url, {"notation": "1d6", "mode": "public"})
    assert response.status_code == 404
    assert log_of(table.row) == before


@pytest.mark.django_db
def test_the_largest_id_in_a_url_is_an_unknown_table_not_an_error(table) -> None:
    assert client_of(table.gm).get(f"/tables/{MAX_ID}/").status_code == 404


@pytest.fixture
def demon_city(db):
    users = get_user_model()
    gm_user = users.objects.create_user("host", password="a long host password")
    table = services.table_create(gm=gm_user, name="Demon City", system="demon_city")
    gm = table.members.select_related("user").get(role=Role.GM)
    ann = services.membership_join(table=table, user=services.guest_user_create(), role=Role.PLAYER,
                                   display_name="Ann")
    alfie = services.character_create(table=table, actor=ann, name="Alfie",
                                      sheet={"agility": 2, "toughness": 3, "side": "players"})
    return table, gm, ann, alfie


@pytest.mark.parametrize("characters", [[HUGE], ["²"], ["-1"], ["0"], ["1e3"]])
def test_round_start_with_character_ids_that_are_not_ids_is_refused(demon_city, characters) -> None:
    table, gm, _, _ = demon_city
    before = log_of(table)
    response = client_of(gm).post(reverse("table_command", args=[table.pk, "start"]),
                                  {"characters": characters}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "Choose at least one character" in response.content.decode()
    assert log_of(table) == before


@pytest.mark.parametrize("field", ["character", "opponent"])
def test_a_task_naming_a_character_id_too_large_is_refused(demon_city, field) -> None:
    table, _, ann, alfie = demon_city
    before = log_of(table)
    data = {"character": str(alfie.pk), "stat": "agility", field: HUGE}
    if field == "character":
        data["target_number"] = "3"
    response = client_of(ann).post(reverse("table_check", args=[table.pk, "task"]), data)
    assert response.status_code == 400
    assert log_of(table) == before


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("table_id", [HUGE, str(MAX_ID + 1)])
async def test_a_socket_to_a_table_id_too_large_is_refused_like_an_unknown_table(table, table_id) -> None:
    from tabletop.asgi import application

    def cookie() -> str:
        client = Client()
        client.force_login(table.gm.user)
        return client.cookies["sessionid"].value

    session = await database_sync_to_async(cookie)()
    comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=[
        (b"cookie", f"sessionid={session}".encode()), (b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")])
    connected, code = await comm.connect()
    assert not connected and code == 4403
    await comm.disconnect()
