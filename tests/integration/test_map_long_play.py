"""The map played long, from its own controls: seeded random play through the real views by the
GM, two players and a spectator: the GM fogs, reveals and covers, sets grids, places, hides,
styles and takes off tokens, moves them anywhere (into the fog too), draws on both layers, shows
another scene; the players move their tokens, draw, erase, restyle, and try what is not theirs.

After every step:
- no answer is a 500, and a refusal (4xx) changes nothing (rows and stored files);
- every event the step logged for everyone names only tokens and drawings the other seats see at
  that moment (not hidden, not under fog, not on the GM's layer): a token or drawing leaving their
  sight is named by its id alone, to take it off their page.
Every few steps, and at the end, each non-GM seat's page is read: no token or drawing out of its
sight is in it, and the picture it names, fetched as that seat, shows nothing of the GM's picture
under the fog (Pillow, pixel by pixel against the mask).
"""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from PIL import Image, ImageChops

from tabletop import services
from tabletop.models import Audience, Drawing, Event, Scene, Token
from tabletop.selectors.fog import build_mask, outline
from tests.integration.test_scenes import fingerprint

pytestmark = pytest.mark.django_db
SIZE = (360, 240)
IMG = re.compile(r'class="scene-image" src="([^"]+)"')
LEAVING = {"token.hidden", "token.removed", "drawing.erased", "characters.retired", "drawings.cleared"}


@pytest.fixture(autouse=True)
def media(settings: Any, tmp_path: Path) -> Path:
    settings.MEDIA_ROOT = str(tmp_path / "media")
    return tmp_path / "media"


def noise(seed: int) -> bytes:
    """A picture of light grey noise: far from the fog's dark slate everywhere."""
    rnd = random.Random(seed)
    image = Image.frombytes("L", SIZE, bytes(rnd.randrange(128, 256) for _ in range(SIZE[0] * SIZE[1])))
    out = io.BytesIO()
    image.convert("RGB").save(out, "PNG")
    return out.getvalue()


def client(member: Any) -> Client:
    c = Client(raise_request_exception=False, HTTP_HX_REQUEST="true")
    c.force_login(member.user)
    return c


def named(payload: dict[str, Any]) -> tuple[set[int], set[int]]:
    """The token and drawing ids an event's public part names."""
    tokens: set[int] = set()
    drawings: set[int] = set()
    if isinstance(payload.get("token"), dict):
        tokens.add(int(payload["token"]["id"]))
    for t in payload.get("tokens") or []:
        tokens.add(int(t["id"]) if isinstance(t, dict) else int(t))
    if isinstance(payload.get("drawing"), dict):
        drawings.add(int(payload["drawing"]["id"]))
    for d in payload.get("drawings") or []:
        drawings.add(int(d["id"]))
    return tokens, drawings


def under(mask: Image.Image | None, x: float, y: float) -> bool:
    if mask is None:
        return False
    return mask.getpixel((min(max(int(x), 0), mask.width - 1), min(max(int(y), 0), mask.height - 1))) != 0


def in_sight(token: Token, masks: dict[int, Image.Image | None]) -> bool:
    """The test's own reading, not the server's: on the shown scene, not hidden, its centre clear."""
    return token.scene.shown and not token.hidden and not under(masks[token.scene_id], token.x, token.y)


def drawn_in_sight(drawing: Drawing, masks: dict[int, Image.Image | None]) -> bool:
    return drawing.scene.shown and drawing.layer == "table" and not any(
        under(masks[drawing.scene_id], x, y) for x, y in outline(drawing.shape, drawing.points))


class Map:
    """One table's map under random play."""

    def __init__(self, table: Any, media: Path, seed: int) -> None:
        self.t, self.media, self.rnd = table, media, random.Random(seed)
        self.pk = table.row.pk
        self.gm, self.ann, self.bob, self.watcher = (client(m) for m in (table.gm, table.ann, table.bob, table.watcher))
        self.alma = services.character_create(table=table.row, actor=table.ann, name="Alma", sheet={})
        self.brix = services.character_create(table=table.row, actor=table.bob, name="Brix", sheet={})
        self.npcs = [services.character_create(table=table.row, actor=table.gm, name=f"Ghoul {n}", sheet={}, npc=True)
                     for n in (1, 2, 3)]
        for name, s in (("Crypt", seed), ("Mill", seed + 1)):
            answer = self.gm.post(reverse("scene_create", args=[self.pk]),
                                  {"kind": "picture", "name": name,
                                   "image": SimpleUploadedFile(f"{name}.png", noise(s), "image/png")})
            assert answer.status_code == 200, answer.content[:300]
        self.scenes = list(Scene.objects.filter(table=table.row).order_by("pk"))
        self.gm.post(reverse("scene_action", args=[self.pk, self.scenes[0].pk, "show"]))
        for scene in self.scenes:  # both start covered, a corner revealed: the party's first room
            self.gm.post(reverse("fog_action", args=[self.pk, "cover_all"]), {"scene": scene.pk})
            self.gm.post(reverse("fog_action", args=[self.pk, "reveal"]),
                         {"scene": scene.pk, "shape": "rect", "x": 0, "y": 0, "w": 160, "h": 120})
        self.seq = Event.objects.filter(table=table.row).order_by("-seq").values_list("seq", flat=True).first()
        self.steps = self.refusals = self.checked = self.fogged = 0

    # what there is

    def shown(self) -> Scene:
        return Scene.objects.get(table=self.t.row, shown=True)

    def point(self, scene: Scene) -> dict[str, str]:
        return {"x": str(self.rnd.randrange(scene.width + 1)), "y": str(self.rnd.randrange(scene.height + 1))}

    def tokens(self) -> list[Token]:
        return list(Token.objects.filter(scene__table=self.t.row).select_related("scene", "character"))

    def masks(self) -> dict[int, Image.Image | None]:
        """Each scene's fog as the test draws it from the rows (selectors.fog.build_mask, no cache)."""
        return {s.pk: build_mask(s) for s in Scene.objects.filter(table=self.t.row)}

    def drawings(self) -> list[Drawing]:
        return list(Drawing.objects.filter(scene__table=self.t.row).select_related("scene"))

    # the moves, by seat

    def gm_move(self) -> tuple[str, dict[str, Any]]:
        r, scene = self.rnd, self.rnd.choice(self.scenes + [self.shown()] * 2)
        scene.refresh_from_db()
        pick = r.randrange(14)
        fog = reverse("fog_action", args=[self.pk, "x"]).replace("/x/", "/{}/")
        if pick == 0:
            return fog.format(r.choice(["cover_all", "clear", "undo"])), {"scene": scene.pk}
        if pick in (1, 2):
            x, y = r.randrange(scene.width), r.randrange(scene.height)
            return fog.format(r.choice(["reveal", "reveal", "cover"])), {
                "scene": scene.pk, "shape": "rect", "x": x, "y": y,
                "w": r.randrange(1, scene.width - x + 1), "h": r.randrange(1, scene.height - y + 1)}
        if pick == 3:
            points = " ".join(f"{r.randrange(scene.width)},{r.randrange(scene.height)}" for _ in range(r.randrange(3, 7)))
            shape = r.choice(["poly", "brush"])
            return fog.format(r.choice(["reveal", "cover"])), {"scene": scene.pk, "shape": shape, "points": points,
                                                                "r": r.randrange(4, 40)}
        if pick == 4:
            return reverse("scene_grid", args=[self.pk, scene.pk]), {
                "kind": r.choice(["square", "hex", "none"]), "size": r.randrange(20, 90), "x": 0, "y": 0,
                "shown": "1", "snap": r.choice(["1", ""]), "distance": r.choice(["5", "1.5"]), "unit": "ft"}
        if pick == 5:
            who = r.choice([self.alma, self.brix, *self.npcs])
            return reverse("token_place", args=[self.pk]), {"scene": scene.pk, "character": who.pk,
                                                            "hidden": r.choice(["1", ""])}
        tokens, drawings = self.tokens(), self.drawings()
        if pick in (6, 7) and tokens:
            token = r.choice(tokens)
            return reverse("token_move", args=[self.pk, token.pk]), self.point(token.scene)
        if pick == 8 and tokens:
            token = r.choice(tokens)
            return reverse("token_visibility", args=[self.pk, token.pk, r.choice(["hide", "show"])]), {}
        if pick == 9 and tokens:
            token = r.choice(tokens)
            if r.random() < 0.3:
                return reverse("token_remove", args=[self.pk, token.pk]), {}
            return reverse("token_style", args=[self.pk, token.pk]), {"size": r.randrange(1, 5), "label": "Lurker",
                                                                     "colour": "#2a9d8f"}
        if pick == 10:
            return self.draw(scene, layer=r.choice(["table", "gm"]))
        if pick == 11 and drawings:
            return reverse("drawing_erase", args=[self.pk, r.choice(drawings).pk]), {}
        if pick == 12 and r.random() < 0.3:
            other = r.choice(self.scenes)
            return reverse("scene_action", args=[self.pk, other.pk, "show"]), {}
        return self.draw(scene, layer="table")

    def draw(self, scene: Scene, *, layer: str = "table") -> tuple[str, dict[str, Any]]:
        r = self.rnd
        shape = r.choice(["freehand", "line", "rect", "circle"])
        points = [[r.randrange(scene.width), r.randrange(scene.height)] for _ in range(2 if shape != "freehand" else 5)]
        return reverse("drawing_add", args=[self.pk, scene.pk]), {
            "shape": shape, "points": json.dumps(points), "colour": "#e63946", "width": r.randrange(1, 9),
            "layer": layer}

    def player_move(self, mine: Any) -> tuple[str, dict[str, Any]]:
        r, scene = self.rnd, self.shown()
        tokens, drawings = self.tokens(), self.drawings()
        own = [t for t in tokens if t.character_id == mine.pk]
        pick = r.randrange(7)
        if pick in (0, 1, 2) and tokens:  # their own mostly; another's now and then (refused)
            token = r.choice(own) if own and r.random() < 0.8 else r.choice(tokens)
            return reverse("token_move", args=[self.pk, token.pk]), self.point(token.scene)
        if pick == 3 and tokens:
            token = r.choice(own) if own and r.random() < 0.7 else r.choice(tokens)
            return reverse("token_style", args=[self.pk, token.pk]), {"size": r.randrange(1, 5), "label": "Me"}
        if pick == 4 and drawings:
            return reverse("drawing_erase", args=[self.pk, r.choice(drawings).pk]), {}
        if pick == 5:
            return reverse("drawing_undo", args=[self.pk, scene.pk]), {}
        return self.draw(scene, layer=r.choice(["table", "table", "gm"]))

    # one step, and what it must keep

    def step(self) -> None:
        r = self.rnd
        seat = r.choices(["gm", "ann", "bob", "watcher"], weights=[5, 3, 2, 1])[0]
        if seat == "gm":
            url, data = self.gm_move()
        elif seat == "watcher":
            url, data = self.player_move(self.alma)  # a spectator tries a player's buttons: refused
        else:
            url, data = self.player_move(self.alma if seat == "ann" else self.brix)
        before = fingerprint(self.t, self.media)
        answer = getattr(self, seat).post(url, data)
        self.steps += 1
        assert answer.status_code < 500, (seat, url, data, answer.content[:300])
        if answer.status_code >= 400:
            self.refusals += 1
            assert fingerprint(self.t, self.media) == before, f"a refusal changed something: {seat} {url} {data}"
        if seat == "watcher":
            assert answer.status_code >= 400, (url, data)
        self.events_in_sight()

    def events_in_sight(self) -> None:
        """Each event logged since the last step names, in its everyone's part, only what the other
        seats see now (a leaving one: its id, to take it off)."""
        new = list(Event.objects.filter(table=self.t.row, seq__gt=self.seq).order_by("seq"))
        if not new:
            return
        self.seq = new[-1].seq
        masks = self.masks()
        seen_tokens = {t.pk for t in self.tokens() if in_sight(t, masks)}
        seen_drawings = {d.pk for d in self.drawings() if drawn_in_sight(d, masks)}
        for event in new:
            if event.audience != Audience.EVERYONE or event.kind in LEAVING:
                continue
            tokens, drawings = named(event.payload)
            assert tokens <= seen_tokens, (event.kind, event.payload, seen_tokens)
            assert drawings <= seen_drawings, (event.kind, event.payload, seen_drawings)

    def pages_in_sight(self) -> None:
        """Each non-GM seat's page holds no token or drawing out of its sight, and its picture shows
        nothing of the GM's under the fog."""
        scene, masks = self.shown(), self.masks()
        out_tokens = [t.pk for t in self.tokens() if not in_sight(t, masks)]
        out_drawings = [d.pk for d in self.drawings() if not drawn_in_sight(d, masks)]
        full = Image.open(io.BytesIO(scene.image.open("rb").read())).convert("L")
        scene.image.close()
        mask = masks[scene.pk]
        for viewer in (self.ann, self.watcher):
            page = viewer.get(reverse("table", args=[self.pk]), HTTP_HX_REQUEST="")
            assert page.status_code == 200
            text = page.content.decode()
            for pk in out_tokens:
                assert f'id="token-{pk}"' not in text
            for pk in out_drawings:
                assert f'id="drawing-{pk}"' not in text
            found = IMG.search(text)
            assert found is not None
            got = viewer.get(found.group(1).replace("&amp;", "&"))
            assert got.status_code == 200
            seen = Image.open(io.BytesIO(b"".join(got.streaming_content))).convert("L")
            assert seen.size == full.size
            self.checked += 1
            if mask is None:
                continue
            self.fogged += 1
            # under the fog every pixel is the dark slate, far from the light noise of the picture
            gap = ImageChops.difference(seen, full)
            lightest_under_fog = ImageChops.multiply(seen, mask).getextrema()[1]
            assert lightest_under_fog < 100, lightest_under_fog
            if mask.getextrema()[1]:  # something is covered: the smallest gap there, the rest read as 255
                smallest_gap = ImageChops.lighter(gap, ImageChops.invert(mask)).getextrema()[0]
                assert smallest_gap > 20, smallest_gap


@pytest.mark.parametrize("seed", [37, 1701])
def test_the_map_played_long_keeps_what_is_hidden_and_refuses_what_is_not_yours(table, media, seed) -> None:
    game = Map(table, media, seed)
    for n in range(260):
        game.step()
        if n % 40 == 39:
            game.pages_in_sight()
    game.pages_in_sight()
    kinds = set(Event.objects.filter(table=table.row).values_list("kind", flat=True))
    # the play reached every part of the map
    assert {"scene.fogged", "scene.grid", "token.moved", "token.styled", "drawing.added", "drawing.erased",
            "token.placed"} <= kinds, kinds
    assert game.refusals > 20 and game.checked >= 12 and game.fogged >= 4, (game.refusals, game.checked, game.fogged)
    print(f"map long play seed {seed}: {game.steps} steps, {game.refusals} refused, "
          f"{Event.objects.filter(table=table.row).count()} events, {game.checked} pages read, "
          f"{game.fogged} fogged pictures compared")
