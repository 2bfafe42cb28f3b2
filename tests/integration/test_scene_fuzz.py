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
                     "/tables/{pk}/tokens/{t}/{a}/", "/tables/{pk}/characters/{a}/portrait/"):
            send(seats[sent % len(seats)], path.format(pk=pk, a=segment, t=token.pk), {"x": "1", "y": "1"})
        for client in seats:
            for path in (f"/tables/{pk}/images/scene/{segment}/", f"/tables/{pk}/images/{segment}/1/",
                         f"/tables/{pk}/images/portrait/{segment}/"):
                assert client.get(path).status_code in (302, 403, 404), path
    assert sent > 250
