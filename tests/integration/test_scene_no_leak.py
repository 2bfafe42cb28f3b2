"""Issue 23: "the GM can hide a token (an NPC not yet seen) and it then reaches no one else in
any byte": not in a page, a live frame, a replay, a snapshot, an export (JSON or Markdown).

A scene is played through (tokens placed, moved, a scene switched away and back, a portrait
given to the hidden NPC); every byte each seat would receive is then searched for the hidden
token: its element, its label, the lines that place or move it. The NPC itself is at the table
for everyone (its name on its character card): it is its token, where it stands, that is the
GM's. The same search over the GM's bytes finds it, and after the GM reveals it, everyone's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tabletop import selectors, services
from tabletop.feed import frames as framing
from tabletop.models import Event, Membership
from tabletop.feed.seat import GM, SPECTATOR, Seat
from tests.support.frames import logged, seat_frame
from tests.support.pictures import picture

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = str(tmp_path / "media")


def markers(token_id: int) -> list[str]:
    """What of the hidden token any byte would show: its element, its label, its log lines (an
    export's rows are searched for its id besides)."""
    return [f'token-{token_id}"', 'aria-label="Nosferatu', "places Nosferatu", "moves Nosferatu"]


def leaks(blob: str, token_id: int) -> list[str]:
    return [m for m in markers(token_id) if m in blob]


def play(table: Any) -> tuple[int, list[Event]]:
    """The scene played through; the hidden NPC token's id, and every event as the feed got it."""
    with logged() as events:
        alma = services.character_create(table=table.row, actor=table.ann, name="Alma", sheet={})
        npc = services.character_create(table=table.row, actor=table.gm, name="Nosferatu", sheet={}, npc=True)
        harbour = services.scene_create(table=table.row, actor=table.gm, name="Harbour",
                                        image=SimpleUploadedFile("h.png", picture(size=(800, 500))))
        crypt = services.scene_create(table=table.row, actor=table.gm, name="Crypt", colour="#333333")
        services.scene_show(scene=harbour, actor=table.gm)
        seen = services.token_place(scene=harbour, character=alma, actor=table.gm)
        hidden = services.token_place(scene=harbour, character=npc, actor=table.gm, hidden=True)
        services.token_move(token=hidden, actor=table.gm, x=700, y=450)
        services.token_move(token=seen, actor=table.ann, x=100, y=100)
        services.scene_show(scene=crypt, actor=table.gm)
        services.scene_show(scene=harbour, actor=table.gm)  # its tokens come back with it
        services.character_portrait(character=npc, actor=table.gm,
                                    image=SimpleUploadedFile("n.png", picture("JPEG", (48, 48))))
        services.token_move(token=hidden, actor=table.gm, x=650, y=400)
    return hidden.pk, events


def everything_received(table: Any, member: Membership, seat: Seat, events: list[Event]) -> dict[str, str]:
    """Every byte ``member`` gets: the page, each live frame, a replay from the start, a
    snapshot, both exports, the scene tools' answer."""
    client = table.client(member)
    viewer = selectors.viewer_of(member)
    out = {
        "page": client.get(reverse("table", args=[table.row.pk])).content.decode(),
        "frames": "".join(f for e in events if (f := seat_frame(e, seat)) is not None),
        "replay": "".join(framing.frame_for(s.event, s.reading, seat)
                          for s in selectors.events_for(viewer, table.row.pk)),
        "snapshot": framing.snapshot_frame(selectors.table_state(table.row, member)),
        "tools": client.get(reverse("scene_tools", args=[table.row.pk])).content.decode(),
    }
    for fmt in ("json", "md"):
        response = client.get(reverse("export", args=[table.row.pk, fmt]))
        assert response.status_code == 200
        out[fmt] = b"".join(response.streaming_content).decode()
    return out


def test_a_hidden_npc_token_reaches_no_player_and_no_spectator_in_any_byte(table) -> None:
    hidden_id, events = play(table)
    for member, seat in ((table.ann, Seat("player", table.ann.pk)), (table.bob, Seat("player", table.bob.pk)),
                         (table.watcher, SPECTATOR)):
        received = everything_received(table, member, seat, events)
        assert "Harbour" in received["page"] and "Alma" in received["frames"]  # they do see the scene
        for where, blob in received.items():
            assert leaks(blob, hidden_id) == [], f"{member.display_name}'s {where} shows the hidden token"
        for row in json.loads(received["json"])["events"]:
            tokens = [row["data"].get("token")] + row["data"].get("tokens", [])
            assert hidden_id not in [t["id"] for t in tokens if t], (member.display_name, row)

    gm = everything_received(table, table.gm, GM, events)
    for where in ("page", "frames", "replay", "snapshot", "json", "md"):
        assert leaks(gm[where], hidden_id), f"the GM's {where} lacks the hidden token: the search finds nothing"


def test_once_revealed_the_token_reaches_everyone(table) -> None:
    hidden_id, _ = play(table)
    token = table.row.scenes.get(name="Harbour").tokens.get(pk=hidden_id)
    with logged() as events:
        services.token_visibility(token=token, actor=table.gm, hidden=False)
    [revealed] = events
    for seat in (Seat("player", table.ann.pk), SPECTATOR):
        frame = seat_frame(revealed, seat)
        assert frame is not None and f'token-{hidden_id}"' in frame and 'aria-label="Nosferatu' in frame
    page = table.client(table.watcher).get(reverse("table", args=[table.row.pk])).content.decode()
    assert f'token-{hidden_id}"' in page


def test_a_scene_prepared_is_the_gms_until_shown(table) -> None:
    with logged() as events:
        services.scene_create(table=table.row, actor=table.gm, name="The Vampire's Lair", colour="#440000")
    for member, seat in ((table.ann, Seat("player", table.ann.pk)), (table.watcher, SPECTATOR)):
        received = everything_received(table, member, seat, events)
        assert not [where for where, blob in received.items() if "Lair" in blob], member.display_name
    assert "Lair" in everything_received(table, table.gm, GM, events)["page"]
