"""The fog of war through the real views (issue 37): "The GM covers the map and reveals areas
(rectangles, polygons, a brush), or hides it all and uncovers as the party goes ... no token ...
under fog reaches them in any byte. A reveal reaches every seat live."

Each change is one event: its refusals (a player, a spectator, bad numbers, too many changes)
change nothing; undo takes the last one back; a token under the fog is on no other seat's page,
frame or export until a reveal brings it in, and a player may not walk into the fog."""

from __future__ import annotations

import html
import io
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from tabletop import services
from tabletop.feed.seat import GM, SPECTATOR, Seat
from tabletop.models import Event, Scene, Token
from tabletop.selectors.fog import covered, fog_key
from tabletop.services import ServiceError
from tabletop.services import fog
from tests.support.frames import logged, seat_frame
from tests.support.pictures import picture

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def media(settings: Any, tmp_path: Path) -> Path:
    settings.MEDIA_ROOT = str(tmp_path / "media")
    return tmp_path / "media"


@pytest.fixture
def harbour(table: Any) -> dict[str, Any]:
    """A shown 900 x 600 picture with Ann's Alma at (100, 100) and the GM's Ghoul at (700, 450)."""
    alma = services.character_create(table=table.row, actor=table.ann, name="Alma Vey", sheet={})
    ghoul = services.character_create(table=table.row, actor=table.gm, name="Ghoul", sheet={}, npc=True)
    scene = services.scene_create(table=table.row, actor=table.gm, name="Harbour",
                                  image=SimpleUploadedFile("h.png", picture(size=(900, 600)), "image/png"))
    services.scene_show(scene=scene, actor=table.gm)
    a = services.token_place(scene=scene, character=alma, actor=table.gm)
    g = services.token_place(scene=scene, character=ghoul, actor=table.gm)
    services.token_move(token=a, actor=table.gm, x=100, y=100)
    services.token_move(token=g, actor=table.gm, x=700, y=450)
    return {"scene": scene, "alma": a, "ghoul": g}


def act(table: Any, member: Any, action: str, **fields: Any) -> Any:
    return table.client(member).post(reverse("fog_action", args=[table.row.pk, action]),
                                     {k: str(v) for k, v in fields.items()}, **HTMX)


def fresh(scene: Scene) -> Scene:
    return Scene.objects.get(pk=scene.pk)


def page(table: Any, member: Any) -> str:
    return table.client(member).get(reverse("table", args=[table.row.pk])).content.decode()


def state(table: Any) -> tuple:
    return (list(Event.objects.filter(table=table.row).values_list("seq", "kind")),
            list(Scene.objects.filter(table=table.row).values_list("fog_on", "fog", "fog_rev")))


def test_the_gm_covers_reveals_covers_again_and_undoes_through_the_views(table, harbour) -> None:
    scene = harbour["scene"]
    assert act(table, table.gm, "cover_all", scene=scene.pk).status_code == 200
    s = fresh(scene)
    assert s.fog_on and s.fog == [] and s.fog_rev == 1 and covered(s, 450, 300)
    key_all = fog_key(s)

    r = act(table, table.gm, "reveal", scene=scene.pk, shape="rect", x=50, y=50, w=200, h=150)
    assert r.status_code == 200 and 'id="fog-notice"' in r.content.decode()
    s = fresh(scene)
    assert s.fog == [{"op": "reveal", "shape": "rect", "x": 50.0, "y": 50.0, "w": 200.0, "h": 150.0}]
    assert not covered(s, 100, 100) and covered(s, 700, 450) and fog_key(s) != key_all

    act(table, table.gm, "reveal", scene=scene.pk, shape="poly", points="400,400 600,400 500,550")
    act(table, table.gm, "reveal", scene=scene.pk, shape="brush", points="800,50 850,100", r=20)
    act(table, table.gm, "cover", scene=scene.pk, shape="rect", x=60, y=60, w=20, h=20)
    s = fresh(scene)
    assert [c["shape"] for c in s.fog] == ["rect", "poly", "brush", "rect"] and s.fog_rev == 5
    assert not covered(s, 500, 450) and not covered(s, 825, 75) and covered(s, 70, 70)

    act(table, table.gm, "undo", scene=scene.pk)
    s = fresh(scene)
    assert len(s.fog) == 3 and not covered(s, 70, 70) and s.fog_rev == 6

    act(table, table.gm, "cover_all", scene=scene.pk)  # again: a change, which undo takes back
    assert covered(fresh(scene), 500, 450)
    act(table, table.gm, "undo", scene=scene.pk)
    assert not covered(fresh(scene), 500, 450)

    act(table, table.gm, "clear", scene=scene.pk)
    s = fresh(scene)
    assert not s.fog_on and s.fog == [] and fog_key(s) == "" and not covered(s, 700, 450)
    kinds = [e.kind for e in Event.objects.filter(table=table.row, kind="scene.fogged")]
    assert len(kinds) == 9


def test_undo_with_no_change_left_takes_the_cover_back(table, harbour) -> None:
    scene = harbour["scene"]
    act(table, table.gm, "cover_all", scene=scene.pk)
    act(table, table.gm, "undo", scene=scene.pk)
    assert not fresh(scene).fog_on
    r = act(table, table.gm, "undo", scene=scene.pk)
    assert r.status_code == 400 and "There is no fog change to undo." in r.content.decode()


@pytest.mark.parametrize(("action", "fields", "words"), [
    ("reveal", {"shape": "rect", "x": "a", "y": 1, "w": 10, "h": 10}, "A number, please."),
    ("reveal", {"shape": "rect", "x": "nan", "y": 1, "w": 10, "h": 10}, "A number, please."),
    ("reveal", {"shape": "rect", "x": 800, "y": 1, "w": 500, "h": 10}, "That is off the scene"),
    ("reveal", {"shape": "rect", "x": 10, "y": 10, "w": 0, "h": 10}, "some width and height"),
    ("reveal", {"shape": "rect", "y": 10, "w": 5, "h": 10}, "The x must be a number."),
    ("reveal", {"shape": "poly", "points": "1,1 2,2"}, "three points or more"),
    ("reveal", {"shape": "poly", "points": "1,1 2,2 x,3"}, "must be a number"),
    ("reveal", {"shape": "poly", "points": "1,1 2 3,3"}, "Each point is x,y"),
    ("reveal", {"shape": "poly", "points": "1,1 2,2 3,-5"}, "That is off the scene"),
    ("reveal", {"shape": "brush", "points": "1,1", "r": 0}, "The brush's size runs from 1"),
    ("reveal", {"shape": "brush", "points": " ".join(["5,5"] * 4001), "r": 5}, "at most 4000 points"),
    ("reveal", {"shape": "star", "points": "1,1"}, "The fog's shapes are"),
    ("cover", {"shape": "rect", "x": 1, "y": 1, "w": 10, "h": 10, "scene": 10**30}, "no such one"),
])
def test_bad_numbers_are_refused_with_words_and_change_nothing(table, harbour, action, fields, words) -> None:
    scene = harbour["scene"]
    act(table, table.gm, "cover_all", scene=scene.pk)
    before = state(table)
    r = act(table, table.gm, action, **{"scene": scene.pk, **fields})
    assert 400 <= r.status_code < 500 and words in html.unescape(r.content.decode())
    assert state(table) == before


def test_a_player_and_a_spectator_may_not_touch_the_fog(table, harbour) -> None:
    scene = harbour["scene"]
    act(table, table.gm, "cover_all", scene=scene.pk)
    before = state(table)
    for member in (table.ann, table.watcher):
        for action, fields in (("reveal", {"shape": "rect", "x": 0, "y": 0, "w": 900, "h": 600}),
                               ("clear", {}), ("undo", {}), ("cover_all", {})):
            assert act(table, member, action, scene=scene.pk, **fields).status_code == 403
    assert state(table) == before
    assert act(table, table.gm, "lift", scene=scene.pk).status_code == 404


def test_a_scene_of_another_table_is_no_scene(table, harbour) -> None:
    from tabletop.models import Membership, Role
    other = services.table_create(gm=table.gm.user, name="Elsewhere", system="freeform")
    there = services.scene_create(table=other, actor=Membership.objects.get(table=other, role=Role.GM),
                                  name="Far", colour="#123456")
    r = act(table, table.gm, "cover_all", scene=there.pk)
    assert r.status_code == 404 and "There is no such scene" in r.content.decode()
    assert not fresh(there).fog_on


def test_a_scene_keeps_at_most_so_many_changes(table, harbour, monkeypatch) -> None:
    scene = harbour["scene"]
    monkeypatch.setattr(fog, "MAX_CHANGES", 3)
    act(table, table.gm, "cover_all", scene=scene.pk)
    for n in range(3):
        assert act(table, table.gm, "reveal", scene=scene.pk, shape="rect", x=n, y=0, w=5, h=5).status_code == 200
    before = state(table)
    r = act(table, table.gm, "reveal", scene=scene.pk, shape="rect", x=10, y=0, w=5, h=5)
    assert r.status_code == 400 and "holds 3 changes, the most it keeps" in r.content.decode()
    assert state(table) == before


def test_the_fog_is_prepared_on_a_scene_not_shown_for_the_gm_alone(table, harbour) -> None:
    crypt = services.scene_create(table=table.row, actor=table.gm, name="Crypt", colour="#333333")
    with logged() as events:
        act(table, table.gm, "cover_all", scene=crypt.pk)
        act(table, table.gm, "reveal", scene=crypt.pk, shape="rect", x=0, y=0, w=100, h=100)
    assert [e.audience for e in events] == ["gm", "gm"]
    for seat in (Seat("player", table.ann.pk), SPECTATOR):
        assert all(seat_frame(e, seat) is None for e in events)
    assert fresh(crypt).fog_on and len(fresh(crypt).fog) == 1


def test_a_prepared_scene_is_covered_from_the_scene_list_and_shown_covered(table, harbour) -> None:
    """The GM covers a scene before showing it (its list's "Cover in fog"), then shows it: the
    players get it covered, and the GM reveals it from the map as the party goes."""
    crypt = services.scene_create(table=table.row, actor=table.gm, name="Crypt",
                                  image=SimpleUploadedFile("c.png", picture(size=(400, 300)), "image/png"))
    gm = table.client(table.gm)
    tools = gm.post(reverse("scene_action", args=[table.row.pk, crypt.pk, "fog"]), **HTMX)
    assert tools.status_code == 200
    text = tools.content.decode()
    assert "in fog" in text and "Clear the fog" in text  # the list says so, with the way back
    assert fresh(crypt).fog_on and fresh(crypt).fog == []
    before = state(table)
    refused = table.client(table.ann).post(reverse("scene_action", args=[table.row.pk, crypt.pk, "unfog"]), **HTMX)
    assert refused.status_code == 403 and state(table) == before
    gm.post(reverse("scene_action", args=[table.row.pk, crypt.pk, "show"]), **HTMX)
    shown = page(table, table.ann)
    picture_url = re.search(r'class="scene-image" src="([^"]+)"', shown).group(1).replace("&amp;", "&")
    assert "-" in picture_url.split("v=")[1]  # the fogged picture's URL: its version and its fog key
    got = Image.open(io.BytesIO(b"".join(table.client(table.ann).get(picture_url).streaming_content)))
    assert got.convert("RGB").getpixel((200, 150)) == pytest.approx(fog.FOG_COLOUR, abs=4)
    gm.post(reverse("scene_action", args=[table.row.pk, harbour["scene"].pk, "fog"]), **HTMX)
    assert fresh(harbour["scene"]).fog_on  # the scene shown before, now being prepared again
    gm.post(reverse("scene_action", args=[table.row.pk, harbour["scene"].pk, "unfog"]), **HTMX)
    assert not fresh(harbour["scene"]).fog_on  # the list clears a prepared scene's fog too


def test_a_token_under_the_fog_is_on_no_other_page_until_a_reveal_brings_it_in(table, harbour) -> None:
    scene, ghoul, alma = harbour["scene"], harbour["ghoul"], harbour["alma"]
    with logged() as events:
        act(table, table.gm, "cover_all", scene=scene.pk)
    [covered_all] = events
    ann, gm_seat = Seat("player", table.ann.pk), GM
    for seat in (ann, SPECTATOR):
        frame = seat_frame(covered_all, seat)
        assert frame is not None and 'id="scene-stage"' in frame
        assert f'id="token-{ghoul.pk}"' not in frame and f'id="token-{alma.pk}"' not in frame
        assert "fog-layer" not in frame and "Cover all" not in frame
    gm_frame = seat_frame(covered_all, gm_seat)
    assert f'id="token-{ghoul.pk}"' in gm_frame and "fog-layer" in gm_frame and "Cover all" in gm_frame
    for member in (table.ann, table.watcher):
        text = page(table, member)
        assert f'id="token-{ghoul.pk}"' not in text and "Ghoul, at" not in text
    assert f'id="token-{ghoul.pk}"' in page(table, table.gm)

    with logged() as events:
        act(table, table.gm, "reveal", scene=scene.pk, shape="rect", x=600, y=350, w=200, h=200)
    [revealed] = events
    frame = seat_frame(revealed, ann)
    assert f'id="token-{ghoul.pk}"' in frame and f'id="token-{alma.pk}"' not in frame
    assert f"-{fog_key(fresh(scene))}" in frame  # the new picture's URL
    assert f'id="token-{ghoul.pk}"' in page(table, table.watcher)

    # the export: the fogged changes' rows hold, for a player, only the tokens in sight
    rows = table.client(table.ann).get(reverse("export", args=[table.row.pk, "json"]))
    import json
    data = json.loads(b"".join(rows.streaming_content))
    fogged = [r for r in data["events"] if r["kind"] == "scene.fogged"]
    assert [[t["id"] for t in r["data"]["tokens"]] for r in fogged] == [[], [ghoul.pk]]
    assert all("changes" not in r["data"]["scene"]["fog"] for r in fogged)


def test_a_player_may_not_move_into_the_fog(table, harbour) -> None:
    scene, alma = harbour["scene"], harbour["alma"]
    act(table, table.gm, "cover_all", scene=scene.pk)
    act(table, table.gm, "reveal", scene=scene.pk, shape="rect", x=0, y=0, w=300, h=300)
    client = table.client(table.ann)
    move = reverse("token_move", args=[table.row.pk, alma.pk])
    before = state(table)
    r = client.post(move, {"x": "500", "y": "500"}, **HTMX)
    assert r.status_code == 400 and "That is under the fog: the GM has not revealed it yet." in r.content.decode()
    assert state(table) == before and Token.objects.get(pk=alma.pk).x == 100
    with pytest.raises(ServiceError, match="under the fog"):
        services.token_move(token=alma, actor=table.ann, x=500, y=500)
    assert client.post(move, {"x": "200", "y": "250"}, **HTMX).status_code == 204  # in sight: fine


def test_a_token_under_the_fog_is_no_token_to_a_player(table, harbour) -> None:
    """Ann's own token, taken under the fog by the GM: she cannot address it by its id."""
    scene, alma = harbour["scene"], harbour["alma"]
    act(table, table.gm, "cover_all", scene=scene.pk)
    r = table.client(table.ann).post(reverse("token_move", args=[table.row.pk, alma.pk]), {"x": "5", "y": "5"}, **HTMX)
    assert r.status_code == 404 and "There is no such token on the scene." in r.content.decode()


def test_the_gm_moving_a_token_into_and_out_of_the_fog_the_others_see_it_leave_and_come(table, harbour) -> None:
    scene, alma = harbour["scene"], harbour["alma"]
    act(table, table.gm, "cover_all", scene=scene.pk)
    act(table, table.gm, "reveal", scene=scene.pk, shape="rect", x=0, y=0, w=300, h=300)
    ann = Seat("player", table.ann.pk)
    with logged() as events:
        services.token_move(token=alma, actor=table.gm, x=800, y=500)  # into the fog
        services.token_move(token=alma, actor=table.gm, x=810, y=520)  # within it
        services.token_move(token=alma, actor=table.gm, x=150, y=150)  # out of it
    into, within, out = events
    assert (into.kind, into.audience) == ("token.hidden", "everyone")
    frame = seat_frame(into, ann)
    assert f'id="token-{alma.pk}" hx-swap-oob="delete"' in frame
    assert "800" not in frame and "bottom right" not in frame and "into the fog" in frame
    assert "bottom right" in seat_frame(into, GM)
    assert within.audience == "gm" and seat_frame(within, ann) is None
    assert (out.kind, out.audience) == ("token.shown", "everyone")
    assert f'id="token-{alma.pk}"' in seat_frame(out, ann)


def test_the_gm_places_a_token_under_the_fog_for_themselves(table, harbour) -> None:
    scene = harbour["scene"]
    act(table, table.gm, "cover_all", scene=scene.pk)
    bat = services.character_create(table=table.row, actor=table.gm, name="Bat", sheet={}, npc=True)
    with logged() as events:
        token = services.token_place(scene=scene, character=bat, actor=table.gm)
    [placed] = events
    assert placed.audience == "gm" and seat_frame(placed, SPECTATOR) is None
    # revealing the hidden-flag of a token under fog still shows it to no one else
    with logged() as events:
        services.token_visibility(token=token, actor=table.gm, hidden=True)
        services.token_visibility(token=token, actor=table.gm, hidden=False)
    assert [e.audience for e in events] == ["gm", "gm"]


def test_the_picture_a_player_gets_is_fogged_and_the_gms_is_whole(table, harbour, media) -> None:
    scene = harbour["scene"]
    act(table, table.gm, "cover_all", scene=scene.pk)
    act(table, table.gm, "reveal", scene=scene.pk, shape="rect", x=0, y=0, w=400, h=300)
    s = fresh(scene)
    url = reverse("table_image", args=[table.row.pk, "scene", scene.pk]) + f"?v=x-{fog_key(s)}"
    r = table.client(table.ann).get(url)
    assert r.status_code == 200 and r["Content-Type"] == "image/jpeg" and "immutable" in r["Cache-Control"]
    got = Image.open(io.BytesIO(b"".join(r.streaming_content))).convert("RGB")
    assert got.size == (900, 600)
    assert max(abs(a - b) for a, b in zip(got.getpixel((700, 500)), fog.FOG_COLOUR)) <= 6
    assert max(abs(a - b) for a, b in zip(got.getpixel((100, 100)), (0x33, 0x66, 0x99))) <= 6
    gm = table.client(table.gm).get(url)
    assert Image.open(io.BytesIO(b"".join(gm.streaming_content))).convert("RGB").getpixel((700, 500)) == (0x33, 0x66, 0x99)
    # one file per fog state is kept: the next change's picture replaces this one
    act(table, table.gm, "reveal", scene=scene.pk, shape="rect", x=500, y=300, w=100, h=100)
    table.client(table.ann).get(url)
    assert len(list((media / "fog").iterdir())) == 1


def test_a_board_under_fog_gets_a_picture_too(table) -> None:
    crypt = services.scene_create(table=table.row, actor=table.gm, name="Crypt", colour="#aa0000", shape="square")
    services.scene_show(scene=crypt, actor=table.gm)
    act(table, table.gm, "cover_all", scene=crypt.pk)
    act(table, table.gm, "reveal", scene=crypt.pk, shape="rect", x=0, y=0, w=600, h=600)
    text = page(table, table.ann)
    assert 'class="scene-image"' in text
    url = reverse("table_image", args=[table.row.pk, "scene", crypt.pk]) + "?v=board-" + fog_key(fresh(crypt))
    got = Image.open(io.BytesIO(b"".join(table.client(table.watcher).get(url).streaming_content))).convert("RGB")
    assert got.size == (1200, 1200)
    assert max(abs(a - b) for a, b in zip(got.getpixel((100, 100)), (0xaa, 0, 0))) <= 6
    assert max(abs(a - b) for a, b in zip(got.getpixel((1000, 1000)), fog.FOG_COLOUR)) <= 6
    assert table.client(table.gm).get(url).status_code == 404  # the GM's board has no picture: the page draws it


def test_npcs_fielded_under_the_fog_reach_only_the_gm(table, harbour) -> None:
    scene = harbour["scene"]
    act(table, table.gm, "cover_all", scene=scene.pk)
    ghoul = Token.objects.get(pk=harbour["ghoul"].pk).character
    with logged() as events:
        services.npc_add(table=table.row, actor=table.gm, count=2, character=ghoul)
    [added] = [e for e in events if e.kind == "npcs.added"]
    assert added.payload["tokens"] == [] and len(added.private["tokens"]) == 2
    frame = seat_frame(added, Seat("player", table.ann.pk))
    assert all(f'id="token-{t["id"]}"' not in frame for t in added.private["tokens"])
