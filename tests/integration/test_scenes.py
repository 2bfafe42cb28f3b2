"""Scenes and tokens through the services and the views (issue 23): "The GM sets the scene: an
image they upload (validated as an image with Pillow, size-limited, stored through Django's
storage API ...), or a plain coloured board. Tokens ... that the GM places and each player
moves for their own character, live for everyone, with the move in the log."

Every refusal is a 4xx with its words at its field, never a 500, and changes nothing: not the
log, not a scene or token, not a file in storage (``fingerprint``)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from tabletop import services
from tabletop.models import Character, Drawing, Event, Scene, Token
from tabletop.services import NotAllowed, NotFound, ServiceError
from tests.support.frames import logged
from tests.support.pictures import NOT_AN_IMAGE, huge_png_header, noisy_png, picture

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def media(settings: Any, tmp_path: Path) -> Path:
    settings.MEDIA_ROOT = str(tmp_path / "media")
    return tmp_path / "media"


def upload(data: bytes, name: str = "map.png") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="image/png")


def fingerprint(table: Any, media: Path) -> tuple:
    """Everything a refusal must leave as it was."""
    files = sorted(str(p.relative_to(media)) for p in media.rglob("*") if p.is_file()) if media.exists() else []
    return (
        list(Event.objects.filter(table=table.row).values_list("seq", "kind")),
        list(Scene.objects.filter(table=table.row).values_list(
            "pk", "name", "shown", "image", "width", "height", "grid_kind", "grid_size", "grid_x", "grid_y",
            "grid_shown", "grid_snap", "cell_distance", "cell_unit", "fog_on", "fog", "fog_rev")),
        list(Token.objects.filter(scene__table=table.row).values_list("pk", "x", "y", "hidden", "size", "label",
                                                                     "colour")),
        list(Drawing.objects.filter(scene__table=table.row).values_list("pk", "layer", "shape", "points", "colour")),
        list(Character.objects.filter(table=table.row).values_list("pk", "portrait")),
        files,
    )


@pytest.fixture
def harbour(table: Any) -> dict[str, Any]:
    """A shown picture scene with Ann's Alma in sight and the GM's Vampire hidden on it."""
    alma = services.character_create(table=table.row, actor=table.ann, name="Alma Vey", sheet={})
    vampire = services.character_create(table=table.row, actor=table.gm, name="Vampire", sheet={}, npc=True)
    scene = services.scene_create(table=table.row, actor=table.gm, name="Harbour",
                                  image=upload(picture(size=(900, 600))))
    services.scene_show(scene=scene, actor=table.gm)
    return {"scene": scene, "alma": alma, "vampire": vampire,
            "alma_token": services.token_place(scene=scene, character=alma, actor=table.gm),
            "vampire_token": services.token_place(scene=scene, character=vampire, actor=table.gm, hidden=True)}


# Pictures


def test_an_uploaded_picture_is_stored_through_the_storage_api_under_a_name_of_our_own(table, media) -> None:
    scene = services.scene_create(table=table.row, actor=table.gm, name="Harbour",
                                  image=upload(picture("JPEG", (640, 480)), name="../../etc/passwd.png"))
    assert default_storage.exists(scene.image.name)
    assert "passwd" not in scene.image.name and ".." not in scene.image.name
    assert (media / scene.image.name).is_file()
    with Image.open(default_storage.open(scene.image.name)) as stored:
        assert (stored.format, stored.size) == ("JPEG", (640, 480))
    assert (scene.width, scene.height, scene.image_type, scene.shown) == (640, 480, "jpeg", False)
    [event] = Event.objects.filter(table=table.row, kind="scene.created")
    assert event.audience == "gm"  # prepared, not shown: the GM's alone


def test_a_board_is_a_colour_and_a_shape(table) -> None:
    scene = services.scene_create(table=table.row, actor=table.gm, name="Arena", colour="#224466", shape="tall")
    assert (scene.width, scene.height, scene.colour, bool(scene.image)) == (1000, 1600, "#224466", False)


@pytest.mark.parametrize("data, words", [
    (NOT_AN_IMAGE, "not an image"),
    (picture("BMP"), "not an image"),  # a real picture, but not one of the four formats
    (picture("PNG")[:60], "not an image"),  # cut short
    (huge_png_header(), "far too many pixels"),  # more than Pillow itself will open
    (huge_png_header(9000, 100), "9000 × 100 pixels"),  # wider than a table takes
    (b"", "empty"),
])
def test_what_is_not_a_picture_the_table_shows_is_refused_at_its_field(table, media, data, words) -> None:
    before = fingerprint(table, media)
    client = table.client(table.gm)
    response = client.post(reverse("scene_create", args=[table.row.pk]),
                           {"kind": "picture", "name": "Trap", "image": upload(data)}, **HTMX)
    assert response.status_code == 400
    page = response.content.decode()
    assert 'id="scene-image-error"' in page and words in page
    assert fingerprint(table, media) == before


def test_a_file_over_the_size_limit_is_refused_by_size_and_by_the_requests_length(table, media, settings) -> None:
    settings.TABLETOP_MAX_IMAGE_BYTES = 20_000
    data = noisy_png()
    assert len(data) > 20_000
    before = fingerprint(table, media)
    with pytest.raises(ServiceError, match=r"That file is \d+ KB; a picture may be at most 20 KB"):
        services.scene_create(table=table.row, actor=table.gm, name="Big", image=upload(data))
    client = table.client(table.gm)
    big = data * 4  # over the limit and its slack: refused before the body is parsed
    for payload in (data, big):
        response = client.post(reverse("scene_create", args=[table.row.pk]),
                               {"kind": "picture", "name": "Big", "image": upload(payload)}, **HTMX)
        assert response.status_code == 400
        assert 'id="scene-image-error"' in response.content.decode()
    assert fingerprint(table, media) == before


def test_a_picture_re_encoded_keeps_no_metadata(table) -> None:
    source = Image.new("RGB", (50, 40), "red")
    exif = source.getexif()
    exif[0x010E] = "taken at home, 12 Secret Lane"  # ImageDescription
    out = io.BytesIO()
    source.save(out, "JPEG", exif=exif)
    assert b"Secret Lane" in out.getvalue()
    scene = services.scene_create(table=table.row, actor=table.gm, name="Lane", image=upload(out.getvalue()))
    assert b"Secret Lane" not in default_storage.open(scene.image.name).read()


# Showing scenes


def test_one_scene_is_shown_at_a_time_and_showing_it_is_everyones(table) -> None:
    first = services.scene_create(table=table.row, actor=table.gm, name="Harbour", colour="#336699")
    second = services.scene_create(table=table.row, actor=table.gm, name="Crypt", colour="#222222", shape="square")
    services.scene_show(scene=first, actor=table.gm)
    with logged() as events:
        services.scene_show(scene=second, actor=table.gm)
    assert list(Scene.objects.filter(table=table.row, shown=True)) == [second]
    [event] = events
    assert (event.kind, event.audience, event.summary) == ("scene.shown", "everyone", "gail shows the scene: Crypt.")
    with pytest.raises(ServiceError, match="already"):
        services.scene_show(scene=second, actor=table.gm)


def test_putting_away_the_shown_scene_empties_every_stage_and_removes_its_file(table, media,
                                                                               django_capture_on_commit_callbacks) -> None:
    scene = services.scene_create(table=table.row, actor=table.gm, name="Harbour", image=upload(picture()))
    services.scene_show(scene=scene, actor=table.gm)
    name = scene.image.name
    with django_capture_on_commit_callbacks(execute=True), logged() as events:
        services.scene_delete(scene=scene, actor=table.gm)
    assert not Scene.objects.filter(pk=scene.pk).exists()
    assert not default_storage.exists(name)
    assert [(e.kind, e.audience) for e in events] == [("scene.deleted", "everyone")]


# Tokens


def test_a_player_moves_her_own_token_and_the_log_says_where_to(table, harbour) -> None:
    client = table.client(table.ann)
    token = harbour["alma_token"]
    with logged() as events:
        response = client.post(reverse("token_move", args=[table.row.pk, token.pk]), {"x": "850", "y": "40"}, **HTMX)
    assert response.status_code == 204
    token.refresh_from_db()
    assert (token.x, token.y) == (850, 40)
    [event] = events
    assert (event.kind, event.audience) == ("token.moved", "everyone")
    assert event.summary == "Ann moves Alma Vey toward the top right."
    assert event.payload["token"]["x"] == 850


def test_the_gm_moves_any_token_and_a_hidden_ones_move_is_the_gms(table, harbour) -> None:
    with logged() as events:
        services.token_move(token=harbour["alma_token"], actor=table.gm, x=450, y=300)
        services.token_move(token=harbour["vampire_token"], actor=table.gm, x=10, y=590)
    assert [(e.audience, e.summary) for e in events] == [
        ("everyone", "gail moves Alma Vey toward the middle."),
        ("gm", "gail moves Vampire toward the bottom left."),
    ]


@pytest.mark.parametrize("who, x, y, status, words", [
    ("bob", "100", "100", 403, "not yours to move"),  # another player's character
    ("ann", "-1", "100", 400, "off the scene"),
    ("ann", "901", "100", 400, "off the scene"),
    ("ann", "100", "601", 400, "off the scene"),
    ("ann", "1e3", "100", 400, "whole numbers"),
    ("ann", "", "100", 400, "whole numbers"),
    ("ann", str(10**30), "1", 400, "whole numbers"),
])
def test_a_move_that_is_not_allowed_or_off_the_scene_is_refused_and_changes_nothing(
        table, harbour, media, who, x, y, status, words) -> None:
    before = fingerprint(table, media)
    client = table.client(getattr(table, who))
    url = reverse("token_move", args=[table.row.pk, harbour["alma_token"].pk])
    response = client.post(url, {"x": x, "y": y}, **HTMX)
    assert response.status_code == status
    assert words in response.content.decode() and 'id="scene-notice"' in response.content.decode()
    assert fingerprint(table, media) == before


def test_a_hidden_token_is_no_such_token_to_a_player_even_her_own(table, harbour, media) -> None:
    services.token_visibility(token=harbour["alma_token"], actor=table.gm, hidden=True)
    before = fingerprint(table, media)
    client = table.client(table.ann)
    answers = [client.post(reverse("token_move", args=[table.row.pk, pk]), {"x": "1", "y": "1"}, **HTMX)
               for pk in (harbour["alma_token"].pk, harbour["vampire_token"].pk, 10**9)]
    assert {r.status_code for r in answers} == {404}
    assert len({r.content for r in answers}) == 1  # the same words: a hidden token tells nothing
    assert fingerprint(table, media) == before


def test_hiding_a_seen_token_takes_it_from_everyone_and_revealing_it_brings_it_back(table, harbour) -> None:
    with logged() as events:
        services.token_visibility(token=harbour["alma_token"], actor=table.gm, hidden=True)
        services.token_visibility(token=harbour["vampire_token"], actor=table.gm, hidden=False)
    hidden, shown = events
    assert (hidden.kind, hidden.audience, hidden.summary) == ("token.hidden", "everyone", "gail takes Alma Vey off the scene.")
    assert hidden.payload == {"token": {"id": harbour["alma_token"].pk, "scene": harbour["scene"].pk}, "shown": True}
    assert (shown.kind, shown.audience, shown.payload["token"]["name"]) == ("token.shown", "everyone", "Vampire")
    with pytest.raises(ServiceError, match="already"):
        services.token_visibility(token=harbour["alma_token"], actor=table.gm, hidden=True)


def test_placing_a_character_twice_on_one_scene_is_refused(table, harbour) -> None:
    with pytest.raises(ServiceError, match="already"):
        services.token_place(scene=harbour["scene"], character=harbour["alma"], actor=table.gm)


def test_a_token_on_a_scene_not_shown_is_the_gms_alone(table, harbour) -> None:
    crypt = services.scene_create(table=table.row, actor=table.gm, name="Crypt", colour="#222222")
    with logged() as events:
        services.token_place(scene=crypt, character=harbour["alma"], actor=table.gm)
    assert [e.audience for e in events] == ["gm"]
    token = Token.objects.get(scene=crypt)
    with pytest.raises(NotFound):
        services.token_move(token=token, actor=table.ann, x=1, y=1)


# Who may


def test_a_spectator_and_a_player_may_not_set_scenes_and_a_spectator_moves_nothing(table, harbour, media) -> None:
    pk, scene, token = table.row.pk, harbour["scene"], harbour["alma_token"]
    posts = [
        (reverse("scene_create", args=[pk]), {"kind": "board", "name": "Mine", "colour": "#000000", "shape": "wide"}),
        (reverse("scene_action", args=[pk, scene.pk, "delete"]), {}),
        (reverse("token_place", args=[pk]), {"scene": str(scene.pk), "character": str(harbour["vampire"].pk)}),
        (reverse("token_visibility", args=[pk, harbour["vampire_token"].pk, "show"]), {}),
        (reverse("token_visibility", args=[pk, token.pk, "hide"]), {}),
    ]
    before = fingerprint(table, media)
    for member in (table.ann, table.watcher):
        client = table.client(member)
        for url, data in posts:
            assert client.post(url, data, **HTMX).status_code == 403, (member, url)
        assert client.get(reverse("scene_tools", args=[pk])).status_code == 403
    watcher = table.client(table.watcher)
    assert watcher.post(reverse("token_move", args=[pk, token.pk]), {"x": "5", "y": "5"}, **HTMX).status_code == 403
    with pytest.raises(NotAllowed):
        services.token_move(token=token, actor=table.watcher, x=5, y=5)
    assert fingerprint(table, media) == before


def test_images_reach_only_who_may_see_them_with_the_type_pillow_read(table, harbour) -> None:
    pk = table.row.pk
    crypt = services.scene_create(table=table.row, actor=table.gm, name="Crypt",
                                  image=upload(picture("WEBP", (100, 80)), name="crypt.png"))
    shown_url = reverse("table_image", args=[pk, "scene", harbour["scene"].pk])
    crypt_url = reverse("table_image", args=[pk, "scene", crypt.pk])
    gm, ann, watcher = (table.client(m) for m in (table.gm, table.ann, table.watcher))
    answer = gm.get(crypt_url)
    assert answer.status_code == 200 and answer["Content-Type"] == "image/webp"
    assert answer["X-Content-Type-Options"] == "nosniff"
    for client in (ann, watcher):
        assert client.get(crypt_url).status_code == 404  # prepared: the GM's
        shown = client.get(shown_url)
        assert shown.status_code == 200 and shown["Content-Type"] == "image/png"
        assert b"".join(shown.streaming_content).startswith(b"\x89PNG")
    from django.test import Client
    assert Client().get(shown_url).status_code in (302, 403)
    assert gm.get(reverse("table_image", args=[pk, "secrets", 1])).status_code == 404


def test_a_portrait_is_its_owners_to_give_and_its_tokens_show_it(table, harbour, media) -> None:
    pk, alma = table.row.pk, harbour["alma"]
    url = reverse("character_portrait", args=[pk, alma.pk])
    before = fingerprint(table, media)
    bob = table.client(table.bob)
    assert bob.post(url, {"portrait": upload(picture("JPEG", (64, 64)))}).status_code == 403
    ann = table.client(table.ann)
    refused = ann.post(url, {"portrait": upload(NOT_AN_IMAGE)})
    assert refused.status_code == 400 and 'id="id_portrait_error"' in refused.content.decode()
    assert fingerprint(table, media) == before
    with logged() as events:
        assert ann.post(url, {"portrait": upload(picture("JPEG", (64, 64)))}).status_code == 302
    alma.refresh_from_db()
    assert alma.portrait_type == "jpeg" and default_storage.exists(alma.portrait.name)
    [event] = events
    assert (event.kind, event.audience, event.summary) == ("character.portrait", "everyone", "Ann gives Alma Vey a portrait.")
    [token] = event.payload["tokens"]
    assert token["portrait"].startswith(reverse("table_image", args=[pk, "portrait", alma.pk]))
    watcher = table.client(table.watcher)
    assert watcher.get(token["portrait"]).status_code == 200  # a portrait is the table's


def test_the_gms_tools_answer_with_the_tools_drawn_afresh(table, harbour) -> None:
    gm = table.client(table.gm)
    pk = table.row.pk
    response = gm.post(reverse("scene_create", args=[pk]),
                       {"kind": "board", "name": "Crypt", "colour": "#222222", "shape": "square"}, **HTMX)
    assert response.status_code == 200
    assert 'id="scene-tools"' in response.content.decode() and "Crypt" in response.content.decode()
    taken = gm.post(reverse("scene_create", args=[pk]),
                    {"kind": "board", "name": "crypt", "colour": "#222222", "shape": "square"}, **HTMX)
    assert taken.status_code == 400 and 'id="scene-board-name-error"' in taken.content.decode()
    bad = gm.post(reverse("scene_create", args=[pk]),
                  {"kind": "board", "name": "Odd", "colour": "red;}", "shape": "square"}, **HTMX)
    assert bad.status_code == 400 and "colour" in bad.content.decode()
    assert not Scene.objects.filter(name="Odd").exists()


def test_an_upload_without_the_pages_csrf_token_is_refused(table, harbour, media) -> None:
    """The upload views check CSRF by hand, after the request's length (views/scenes.py)."""
    from django.test import Client

    before = fingerprint(table, media)
    client = Client(enforce_csrf_checks=True)
    client.force_login(table.gm.user)
    pk = table.row.pk
    scene = client.post(reverse("scene_create", args=[pk]), {"kind": "picture", "name": "Sneaky",
                                                             "image": upload(picture())}, **HTMX)
    portrait = client.post(reverse("character_portrait", args=[pk, harbour["alma"].pk]),
                           {"portrait": upload(picture())})
    assert (scene.status_code, portrait.status_code) == (403, 403)
    assert fingerprint(table, media) == before
