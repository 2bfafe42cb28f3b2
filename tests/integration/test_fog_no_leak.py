"""Issue 37's "Done means": "A test fetches, as a player and as a spectator, every image URL their
pages and frames name and proves that no pixel under fog equals the GM's picture there (compare
with Pillow), and that no token ... under fog is in their bytes."

The GM uploads a picture of noise (no pixel of it near the fog's colour), covers it, reveals some
areas and places a token under the fog. Every byte a player and a spectator receive (the page,
each live frame, a replay, a snapshot, both exports) is searched for image URLs; each one is
fetched as that seat and compared, pixel by pixel, with the GM's picture under the mask the
server keeps: under the fog not one pixel matches, in the revealed areas the picture shows
(within JPEG's tolerance). An old fog URL asked after the GM covers all again gets the state
now, never the whole picture, nor the reveal it once named."""

from __future__ import annotations

import html
import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image, ImageChops, ImageFilter

from tabletop import selectors, services
from tabletop.feed import frames as framing
from tabletop.feed.seat import SPECTATOR, Seat
from tabletop.models import Event, Membership, Scene
from tabletop.selectors.fog import build_mask
from tabletop.selectors.scenes import scene_data
from tabletop.services import fog
from tests.support.frames import logged, seat_frame

pytestmark = pytest.mark.django_db
SIZE = (640, 480)
URL = re.compile(r"/tables/\d+/images/[a-z]+/\d+/[^\"'\s<>)\\]*")


@pytest.fixture(autouse=True)
def media(settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = str(tmp_path / "media")


def noise() -> Image.Image:
    """Grey noise, each pixel from 128 to 255: far from the fog's slate, so no fogged pixel is
    near one (grey: JPEG keeps the light of every pixel, its colour only at half the size)."""
    rnd = random.Random(37)
    return Image.frombytes("L", SIZE, bytes(rnd.randrange(128, 256) for _ in range(SIZE[0] * SIZE[1]))).convert("RGB")


def png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def play(table: Any) -> tuple[Scene, int, list[Event], str]:
    """The scene covered, two areas revealed, the Ghoul placed under the fog and Alma in sight;
    its scene, the Ghoul's token id, every event, and a fog URL of a state since left."""
    with logged() as events:
        alma = services.character_create(table=table.row, actor=table.ann, name="Alma Vey", sheet={})
        ghoul = services.character_create(table=table.row, actor=table.gm, name="Ghoul", sheet={}, npc=True)
        scene = services.scene_create(table=table.row, actor=table.gm, name="Catacombs",
                                      image=SimpleUploadedFile("c.png", png(noise()), "image/png"))
        services.scene_show(scene=scene, actor=table.gm)
        a = services.token_place(scene=scene, character=alma, actor=table.gm)
        fog.fog_cover_all(scene=scene, actor=table.gm)
        g = services.token_place(scene=Scene.objects.get(pk=scene.pk), character=ghoul, actor=table.gm)
        services.token_move(token=g, actor=table.gm, x=600, y=40)  # and the reveals leave it under the fog
        fog.fog_shape(scene=scene, actor=table.gm, op="reveal", shape="rect", x=40, y=40, w=200, h=160)
        old = scene_data(Scene.objects.get(pk=scene.pk))["image"]
        fog.fog_shape(scene=scene, actor=table.gm, op="reveal", shape="poly", points="300,300 600,280 560,460")
        fog.fog_shape(scene=scene, actor=table.gm, op="reveal", shape="brush", points="380,60 520,120", r=30)
        fog.fog_shape(scene=scene, actor=table.gm, op="cover", shape="rect", x=100, y=100, w=30, h=30)
        services.token_move(token=a, actor=table.gm, x=120, y=60)
    return Scene.objects.get(pk=scene.pk), g.pk, events, old


def received(table: Any, member: Membership, seat: Seat, events: list[Event]) -> dict[str, str]:
    client = table.client(member)
    out = {
        "page": client.get(reverse("table", args=[table.row.pk])).content.decode(),
        "frames": "".join(f for e in events if (f := seat_frame(e, seat)) is not None),
        "replay": "".join(framing.frame_for(s.event, s.reading, seat)
                          for s in selectors.events_for(selectors.viewer_of(member), table.row.pk)),
        "snapshot": framing.snapshot_frame(selectors.table_state(table.row, member)),
    }
    for fmt in ("json", "md"):
        out[fmt] = b"".join(client.get(reverse("export", args=[table.row.pk, fmt])).streaming_content).decode()
    return out


def urls(blobs: dict[str, str]) -> set[str]:
    found = set()
    for blob in blobs.values():
        for raw in URL.findall(blob):
            found.add(html.unescape(raw).replace("\\u0026", "&"))
    return found


def fetched(table: Any, member: Membership, url: str) -> Image.Image:
    response = table.client(member).get(url)
    assert response.status_code == 200, url
    return Image.open(io.BytesIO(b"".join(response.streaming_content))).convert("RGB")


def proof(got: Image.Image, whole: Image.Image, scene: Scene) -> None:
    """No pixel under the fog near the GM's there; the revealed areas the GM's picture."""
    assert got.size == whole.size
    mask = build_mask(scene)
    assert mask is not None
    diff = ImageChops.difference(got, whole).convert("L", (1 / 3, 1 / 3, 1 / 3, 0))  # mean of channels
    closest = ImageChops.darker(diff, ImageChops.invert(mask))  # 0 where revealed: ignored below
    # under the fog: every pixel at least 40 away from the GM's on average over its channels
    under = [d for d, m in zip(diff.tobytes(), mask.tobytes()) if m]
    assert under and min(under) >= 40, f"a fogged pixel within {min(under)} of the GM's picture"
    assert closest.getextrema()[0] == 0  # the revealed pixels exist
    # deep under the fog (12 px from any reveal): the fog's flat colour
    deep = mask.filter(ImageFilter.MinFilter(25))
    rgb = got.tobytes()
    fogged = [rgb[3 * i:3 * i + 3] for i, m in enumerate(deep.tobytes()) if m]
    assert fogged and max(max(abs(a - b) for a, b in zip(p, fog.FOG_COLOUR)) for p in fogged) <= 8
    # deep in the revealed areas: the picture, within the encoder's tolerance
    shown = ImageChops.invert(mask).filter(ImageFilter.MinFilter(25))
    seen = [d for d, m in zip(diff.tobytes(), shown.tobytes()) if m]
    assert len(seen) > 5000 and sum(seen) / len(seen) < 15


def test_no_pixel_under_the_fog_reaches_a_player_or_a_spectator(table) -> None:
    scene, ghoul, events, old = play(table)
    whole = Image.open(scene.image.path).convert("RGB")
    for member, seat in ((table.ann, Seat("player", table.ann.pk)), (table.watcher, SPECTATOR)):
        blobs = received(table, member, seat, events)
        named = {u for u in urls(blobs) if "/images/scene/" in u}
        assert named, f"{member.display_name} is given no picture of the scene"
        assert old in named  # the frames of the first reveal name its state: asked now, it is the state now
        for url in sorted(named):
            proof(fetched(table, member, url), whole, scene)
        for where, blob in blobs.items():
            assert f'token-{ghoul}"' not in blob and 'aria-label="Ghoul' not in blob, f"{member.display_name}'s {where}"
            assert '"x": 600' not in blob
        rows = json.loads(blobs["json"])["events"]
        assert all(ghoul not in [t["id"] for t in [r["data"].get("token")] + r["data"].get("tokens", []) if t]
                   for r in rows)
    # the GM's bytes do hold the token (the search finds what it looks for)
    gm_page = table.client(table.gm).get(reverse("table", args=[table.row.pk])).content.decode()
    assert f'token-{ghoul}"' in gm_page and 'aria-label="Ghoul' in gm_page


def test_an_old_fog_url_after_a_cover_gets_the_fog_now_never_the_whole(table) -> None:
    scene, _, _, old = play(table)
    whole = Image.open(scene.image.path).convert("RGB")
    fog.fog_cover_all(scene=scene, actor=table.gm)
    scene = Scene.objects.get(pk=scene.pk)
    for member in (table.ann, table.watcher):
        response = table.client(member).get(old)
        assert response["Cache-Control"] == "private, no-store"
        got = Image.open(io.BytesIO(b"".join(response.streaming_content))).convert("RGB")
        proof_all = ImageChops.difference(got, whole).convert("L", (1 / 3, 1 / 3, 1 / 3, 0))
        assert proof_all.getextrema()[0] >= 40  # not a pixel of the picture: all of it is fog
        # and the picture's own URL (no fog key) is no way round it
        bare = old.split("?")[0] + "?v=" + old.split("v=")[1].split("-")[0]
        got = fetched(table, member, bare)
        assert ImageChops.difference(got, whole).convert("L", (1 / 3, 1 / 3, 1 / 3, 0)).getextrema()[0] >= 40
    # the GM gets the whole picture at any of these URLs
    assert fetched(table, table.gm, old).tobytes() == whole.tobytes() or \
        ImageChops.difference(fetched(table, table.gm, old), whole).getextrema() == ((0, 0), (0, 0), (0, 0))
