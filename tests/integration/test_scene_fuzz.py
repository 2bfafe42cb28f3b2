"""Hostile input to every scene endpoint by each seat (the GM, a player, a spectator, a
stranger, nobody logged in): never a 500, and a refusal (4xx) changes nothing, neither the
rows nor a stored file. The values are tests/integration/test_fuzz_http.py's, put in one field
at a time of an otherwise good request, plus ids of another table's scene, token, character."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tabletop import services
from tabletop.services import drawings, fog
from tabletop.ids import MAX_ID
from tabletop.models import Role
from tests.integration.test_fuzz_http import HOSTILE, NOT_UTF8, SCRIPT, request_errors  # noqa: F401 (a fixture)
from tests.integration.test_scenes import fingerprint
from tests.support.pictures import NOT_AN_IMAGE, picture

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings: Any, tmp_path: Path) -> Path:
    settings.MEDIA_ROOT = str(tmp_path / "media")
    return tmp_path / "media"


def client_for(user: Any) -> Client:
    client = Client(raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    return client


def test_no_hostile_scene_request_is_a_500_and_a_refusal_changes_nothing(table, media, request_errors) -> None:
    pk = table.row.pk
    alma = services.character_create(table=table.row, actor=table.ann, name="Alma", sheet={})
    scene = services.scene_create(table=table.row, actor=table.gm, name="Harbour", colour="#123456")
    services.scene_show(scene=scene, actor=table.gm)
    token = services.token_place(scene=scene, character=alma, actor=table.gm)
    # the map: a grid, a fog with a revealed corner, a drawing of Ann's (each route below then reaches deep)
    services.grid_set(scene=scene, actor=table.gm, kind="square", size=70)
    fog.fog_cover_all(scene=scene, actor=table.gm)
    fog.fog_shape(scene=scene, actor=table.gm, op="reveal", shape="rect", x=0, y=0, w=600, h=500)
    drawing = drawings.drawing_add(scene=scene, actor=table.ann, shape="line", points=[[10, 10], [60, 60]],
                                   colour="#e63946", width=4)
    users = get_user_model()
    other = services.table_create(gm=users.objects.create_user("olga", password="a long gm password 2"),
                                  name="Other", system="freeform")
    other_gm = other.members.get(role=Role.GM)
    other_scene = services.scene_create(table=other, actor=other_gm, name="Theirs", colour="#000000")
    stranger = users.objects.create_user("stranger", password="a long stranger password")
    foreign = str(other_scene.pk)

    posts = [
        (reverse("scene_create", args=[pk]), {"kind": "board", "name": "Crypt", "colour": "#222222", "shape": "wide"}),
        (reverse("token_place", args=[pk]), {"scene": str(scene.pk), "character": str(alma.pk), "hidden": "1"}),
        (reverse("token_move", args=[pk, token.pk]), {"x": "10", "y": "10"}),
        (reverse("token_visibility", args=[pk, token.pk, "hide"]), {}),
        (reverse("scene_action", args=[pk, scene.pk, "show"]), {}),
        (reverse("character_portrait", args=[pk, alma.pk]), {}),
        (reverse("scene_grid", args=[pk, scene.pk]), {"kind": "hex", "size": "60", "x": "0", "y": "0", "shown": "1",
                                                      "snap": "1", "distance": "1.5", "unit": "m"}),
        (reverse("token_style", args=[pk, token.pk]), {"size": "2", "colour": "#123456", "label": "Captain"}),
        (reverse("drawing_add", args=[pk, scene.pk]), {"shape": "line", "points": "[[20, 20], [80, 40]]",
                                                       "colour": "#00ff00", "width": "3", "layer": "table"}),
        (reverse("fog_action", args=[pk, "reveal"]), {"scene": str(scene.pk), "shape": "rect", "x": "100",
                                                      "y": "100", "w": "50", "h": "50"}),
        (reverse("fog_action", args=[pk, "cover"]), {"scene": str(scene.pk), "shape": "poly",
                                                     "points": "10,10 90,10 50,80"}),
        (reverse("fog_action", args=[pk, "undo"]), {"scene": str(scene.pk)}),
        (reverse("drawing_erase", args=[pk, drawing.pk]), {}),
        (reverse("token_remove", args=[pk, token.pk]), {}),
    ]
    seats = [client_for(m.user) for m in (table.gm, table.ann, table.watcher)] + [client_for(stranger), client_for(None)]
    before = fingerprint(table, media)
    sent = 0

    def send(client: Client, url: str, data: Any = None, raw: bytes | None = None, htmx: bool = True) -> None:
        nonlocal before, sent
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        if raw is not None:
            response = client.post(url, raw, content_type="application/x-www-form-urlencoded", **headers)
        else:
            response = client.post(url, data or {}, **headers)
        sent += 1
        assert response.status_code < 500 and not request_errors, (url, data, response.status_code, request_errors)
        after = fingerprint(table, media)
        if response.status_code >= 400:
            assert after == before, f"a refusal ({response.status_code}) changed something: {url} {str(data)[:200]}"
        before = after

    for url, good in posts:
        for client in seats[:2]:  # the GM and a player reach as deep as a field lets them
            for name in good:
                for value in [*HOSTILE, foreign, ["1", SCRIPT]]:
                    send(client, url, {**good, name: value}, htmx=sent % 2 == 0)
            send(client, url, raw=NOT_UTF8)
            send(client, url, {})
        for client in seats[2:]:  # the others are refused before a field is read
            send(client, url, good)
            send(client, url, {name: SCRIPT for name in good}, htmx=False)
        for client in seats:  # uploads: not a picture, a name that climbs, a field sent twice
            send(client, reverse("scene_create", args=[pk]), {"kind": "picture", "name": "Trap",
                 "image": SimpleUploadedFile("../../x.png", NOT_AN_IMAGE)})
            send(client, reverse("character_portrait", args=[pk, alma.pk]),
                 {"portrait": [SimpleUploadedFile("a.png", picture()), SimpleUploadedFile("b.png", NOT_AN_IMAGE)]})
    segments = [quote(v, safe="") for v in ("0", str(MAX_ID + 1), "9" * 5000, SCRIPT, "..", "%00")] + [foreign]
    for segment in segments:
        for path in ("/tables/{pk}/scenes/{a}/show/", "/tables/{pk}/scenes/1/{a}/", "/tables/{pk}/tokens/{a}/move/",
                     "/tables/{pk}/tokens/{t}/{a}/", "/tables/{pk}/characters/{a}/portrait/",
                     "/tables/{pk}/scenes/{a}/grid/", "/tables/{pk}/scenes/{a}/drawings/new/",
                     "/tables/{pk}/drawings/{a}/erase/", "/tables/{pk}/fog/{a}/"):
            send(seats[sent % len(seats)], path.format(pk=pk, a=segment, t=token.pk), {"x": "1", "y": "1"})
        for client in seats:
            for path in (f"/tables/{pk}/images/scene/{segment}/", f"/tables/{pk}/images/{segment}/1/",
                         f"/tables/{pk}/images/portrait/{segment}/"):
                assert client.get(path).status_code in (302, 403, 404), path
    assert sent > 250
