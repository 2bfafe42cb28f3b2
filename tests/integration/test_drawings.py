"""Drawings on the map (issue 37): "the GM and players draw (freehand, line, rectangle, circle),
each drawing its author's and the GM's to erase; the GM may draw on a layer only the GM sees",
and "no token, drawing or ping under fog reaches them in any byte".

Everything goes through the real views (the paths static/js/draw.js posts to); every refusal is
a 4xx with its words and changes nothing (``fingerprint``)."""

from __future__ import annotations

import html
import json
from typing import Any

import pytest
from django.urls import reverse

from tabletop import selectors, services
from tabletop.feed import frames as framing
from tabletop.feed.seat import GM, SPECTATOR, Seat
from tabletop.models import Drawing, Event, Membership, Scene
from tabletop.selectors.drawings import drawings_of
from tabletop.services import drawings
from tests.support.frames import logged, seat_frame

pytestmark = pytest.mark.django_db
LINE = [[100, 100], [300, 200]]
UNDER_FOG = [[600, 100], [800, 300]]  # the right half of the board stays fogged (``fog``)


@pytest.fixture
def board(table: Any) -> Scene:
    """A shown board, 1600 x 1000."""
    scene = services.scene_create(table=table.row, actor=table.gm, name="Crypt", colour="#333333")
    services.scene_show(scene=scene, actor=table.gm)
    scene.refresh_from_db()
    return scene


def fog(scene: Scene) -> None:
    """The fog on, its left part (x below 500) revealed: as the fog tools leave it."""
    scene.fog_on = True
    scene.fog = [{"op": "reveal", "shape": "rect", "x": 0, "y": 0, "w": 500, "h": scene.height}]
    scene.fog_rev += 1
    scene.save()


def draw(table: Any, member: Membership, scene: Scene, points: Any = LINE, **fields: Any) -> Any:
    data = {"shape": "line", "colour": "#112233", "width": "5", "points": points if isinstance(points, str) else json.dumps(points), **fields}
    return table.client(member).post(reverse("drawing_add", args=[table.row.pk, scene.pk]), data)


def erase(table: Any, member: Membership, drawing_id: int) -> Any:
    return table.client(member).post(reverse("drawing_erase", args=[table.row.pk, drawing_id]))


def said(response: Any) -> str:
    return html.unescape(response.content.decode())


def fingerprint(table: Any) -> tuple:
    return (list(Event.objects.filter(table=table.row).values_list("seq", "kind")),
            list(Drawing.objects.filter(scene__table=table.row).values_list("pk", "points", "layer")))


def page(table: Any, member: Membership) -> str:
    return table.client(member).get(reverse("table", args=[table.row.pk])).content.decode()


def everything_received(table: Any, member: Membership, seat: Seat, events: list[Event]) -> dict[str, str]:
    """Every byte ``member`` gets: the page, each live frame, a replay, a snapshot, both exports."""
    client = table.client(member)
    viewer = selectors.viewer_of(member)
    out = {
        "page": page(table, member),
        "frames": "".join(f for e in events if (f := seat_frame(e, seat)) is not None),
        "replay": "".join(framing.frame_for(s.event, s.reading, seat)
                          for s in selectors.events_for(viewer, table.row.pk)),
        "snapshot": framing.snapshot_frame(selectors.table_state(table.row, member)),
    }
    for fmt in ("json", "md"):
        response = client.get(reverse("export", args=[table.row.pk, fmt]))
        assert response.status_code == 200
        out[fmt] = b"".join(response.streaming_content).decode()
    return out


OTHERS = lambda table: ((table.ann, Seat("player", table.ann.pk)), (table.bob, Seat("player", table.bob.pk)),  # noqa: E731
                        (table.watcher, SPECTATOR))


# Drawing and erasing


@pytest.mark.parametrize("shape,tag", [("freehand", "<path"), ("line", "<line"), ("rect", "<rect"),
                                       ("circle", "<ellipse")])
def test_a_player_draws_each_shape_and_everyone_sees_it_live_and_on_the_page(table, board, shape, tag) -> None:
    with logged() as events:
        response = draw(table, table.ann, board, [[100, 100], [150, 180], [300, 200]], shape=shape)
    assert response.status_code == 204
    drawing = Drawing.objects.get()
    assert (drawing.author, drawing.shape, drawing.layer, drawing.colour, drawing.width) == (
        table.ann, shape, "table", "#112233", 5)
    [added] = events
    assert (added.kind, added.audience) == ("drawing.added", "everyone")
    assert added.summary == f"Ann draws a {selectors.drawings.SHAPES[shape]} on Crypt."
    for member, seat in ((table.gm, GM), *OTHERS(table)):
        frame = seat_frame(added, seat)
        assert frame is not None and f'id="drawing-{drawing.pk}"' in frame and tag in frame
        assert 'hx-swap-oob="beforeend:#scene-%d-drawings"' % board.pk in frame
        assert f'id="drawing-{drawing.pk}"' in page(table, member)


def test_a_drawings_author_and_the_gm_erase_it_and_no_one_else(table, board) -> None:
    draw(table, table.ann, board)
    first = Drawing.objects.get()
    before = fingerprint(table)
    for member in (table.bob, table.watcher):
        response = erase(table, member, first.pk)
        assert response.status_code == 403
        assert fingerprint(table) == before
    assert "Only its author and the GM erase a drawing." in said(erase(table, table.bob, first.pk))
    with logged() as events:
        assert erase(table, table.ann, first.pk).status_code == 204
    [erased] = events
    assert (erased.kind, erased.audience, erased.summary) == ("drawing.erased", "everyone",
                                                              "Ann erases their line on Crypt.")
    assert f'<svg id="drawing-{first.pk}" hx-swap-oob="delete">' in seat_frame(erased, SPECTATOR)

    draw(table, table.bob, board)
    second = Drawing.objects.get()
    assert erase(table, table.gm, second.pk).status_code == 204
    assert not Drawing.objects.exists()
    assert Event.objects.filter(kind="drawing.erased").last().summary == \
        f"{table.gm.display_name} erases Bob's line on Crypt."


def test_undo_my_last_drawing_erases_the_actors_latest_and_no_one_elses(table, board) -> None:
    draw(table, table.ann, board, [[10, 10], [20, 20]])
    draw(table, table.ann, board, [[30, 30], [40, 40]])
    draw(table, table.bob, board, [[50, 50], [60, 60]])
    url = reverse("drawing_undo", args=[table.row.pk, board.pk])
    assert table.client(table.ann).post(url).status_code == 204
    left = list(Drawing.objects.values_list("author__display_name", "points"))
    assert left == [("Ann", [[10.0, 10.0], [20.0, 20.0]]), ("Bob", [[50.0, 50.0], [60.0, 60.0]])]
    assert table.client(table.ann).post(url).status_code == 204
    response = table.client(table.ann).post(url)
    assert response.status_code == 400 and "no drawing on this scene to undo" in said(response)
    assert list(Drawing.objects.values_list("author__display_name", flat=True)) == ["Bob"]


def test_the_gm_clears_the_drawings_and_a_player_may_not(table, board) -> None:
    draw(table, table.ann, board)
    draw(table, table.gm, board, layer="gm")
    url = reverse("drawings_clear", args=[table.row.pk, board.pk])
    before = fingerprint(table)
    assert table.client(table.ann).post(url).status_code == 403
    assert fingerprint(table) == before
    with logged() as events:
        assert table.client(table.gm).post(url).status_code == 204
    assert not Drawing.objects.exists()
    [cleared] = events
    assert (cleared.kind, cleared.audience) == ("drawings.cleared", "everyone")
    assert f'hx-swap-oob="innerHTML:#scene-{board.pk}-drawings"' in seat_frame(cleared, Seat("player", table.bob.pk))
    response = table.client(table.gm).post(url)
    assert response.status_code == 400 and "There is no drawing on Crypt to clear." in said(response)


# Who sees what


def test_the_gms_layer_reaches_no_other_seat_in_any_byte(table, board) -> None:
    with logged() as events:
        draw(table, table.gm, board, [[100, 100], [777, 333]], layer="gm")
        draw(table, table.ann, board, [[50, 50], [60, 60]])
    secret, seen = Drawing.objects.order_by("pk")
    assert secret.layer == "gm" and Event.objects.get(kind="drawing.added", actor=table.gm).audience == "gm"
    for member, seat in OTHERS(table):
        received = everything_received(table, member, seat, events)
        assert f'drawing-{seen.pk}"' in received["page"]  # the search would find one
        for where, blob in received.items():
            assert f'drawing-{secret.pk}"' not in blob and "777" not in blob and "only you see" not in blob, (
                member.display_name, where)
    gm = everything_received(table, table.gm, GM, events)
    for where in ("page", "frames", "replay", "json"):
        assert f'drawing-{secret.pk}"' in gm[where] or "777" in gm[where], where
    assert 'class="drawing gm-only is-gm-layer"' in gm["page"]


def test_a_player_may_not_draw_on_the_gms_layer(table, board) -> None:
    before = fingerprint(table)
    response = draw(table, table.ann, board, layer="gm")
    assert response.status_code == 403 and "Only the GM draws on the GM's layer." in said(response)
    assert fingerprint(table) == before


def test_a_drawing_under_fog_is_the_gms_alone_in_every_byte(table, board) -> None:
    fog(board)
    with logged() as events:
        assert draw(table, table.gm, board, UNDER_FOG).status_code == 204  # the GM draws anywhere
        assert draw(table, table.gm, board, [[450, 100], [650, 120]]).status_code == 204  # half under fog
        assert draw(table, table.gm, board, [[100, 100], [200, 120]]).status_code == 204  # in sight
    hidden, half, shown = Drawing.objects.order_by("pk")
    assert list(Event.objects.filter(kind="drawing.added").values_list("audience", flat=True)) == [
        "gm", "gm", "everyone"]
    assert [d["id"] for d in drawings_of(board, gm=False)] == [shown.pk]
    assert [d["id"] for d in drawings_of(board, gm=True)] == [hidden.pk, half.pk, shown.pk]
    for member, seat in OTHERS(table):
        received = everything_received(table, member, seat, events)
        assert f'drawing-{shown.pk}"' in received["page"]
        for where, blob in received.items():
            for secret in (hidden, half):
                assert f'drawing-{secret.pk}"' not in blob, (member.display_name, where)
    # erased while under fog: the others never had it, and are told nothing
    with logged() as events:
        erase(table, table.gm, hidden.pk)
    assert events[0].audience == "gm"
    # a player cannot find it by its id either
    response = erase(table, table.ann, half.pk)
    assert response.status_code == 404 and "There is no such drawing on the scene." in said(response)


def test_a_player_may_not_draw_where_the_fog_covers(table, board) -> None:
    fog(board)
    before = fingerprint(table)
    for points in (UNDER_FOG, [[450, 100], [650, 120]]):
        response = draw(table, table.ann, board, points)
        assert response.status_code == 400
        assert "The fog covers part of that: draw only on what you can see." in said(response)
    # a rectangle is checked along its sides: corners in sight, its far side under fog
    response = draw(table, table.ann, board, [[100, 100], [600, 120]], shape="rect")
    assert response.status_code == 400
    assert fingerprint(table) == before
    assert draw(table, table.ann, board, [[100, 100], [400, 300]], shape="rect").status_code == 204


def test_a_scene_shown_carries_the_drawings_each_reading_sees(table, board) -> None:
    draw(table, table.ann, board)
    draw(table, table.gm, board, [[20, 20], [40, 40]], layer="gm")
    other = services.scene_create(table=table.row, actor=table.gm, name="Harbour", colour="#224466")
    services.scene_show(scene=other, actor=table.gm)
    assert draw(table, table.ann, other).status_code == 204
    with logged() as events:
        services.scene_show(scene=board, actor=table.gm)
    [shown] = events
    public, gm = shown.payload["drawings"], shown.private["drawings"]
    assert [d["layer"] for d in public] == ["table"] and [d["layer"] for d in gm] == ["table", "gm"]
    ann_frame = seat_frame(shown, Seat("player", table.ann.pk))
    assert ann_frame.count('<g id="drawing-') == 1 and "is-gm-layer" not in ann_frame
    assert seat_frame(shown, GM).count('<g id="drawing-') == 2


def test_only_the_gm_draws_on_a_scene_not_shown(table, board) -> None:
    prepared = services.scene_create(table=table.row, actor=table.gm, name="Lair", colour="#440000")
    before = fingerprint(table)
    response = draw(table, table.ann, prepared)
    assert response.status_code == 404 and "There is no such scene." in said(response)
    assert fingerprint(table) == before
    with logged() as events:
        assert draw(table, table.gm, prepared).status_code == 204
    assert events[0].audience == "gm"
    assert seat_frame(events[0], Seat("player", table.ann.pk)) is None
    assert '<g id="drawing-' not in seat_frame(events[0], GM)  # the GM's page shows the shown scene, not this one


# Refusals


@pytest.mark.parametrize("fields,words", [
    ({"shape": "star"}, "Draw a freehand line, a line, a rectangle or a circle."),
    ({"colour": "red"}, "A drawing's colour is written #rrggbb."),
    ({"colour": "#12345g"}, "A drawing's colour is written #rrggbb."),
    ({"width": "0"}, "A line's width is a whole number from 1 to 40."),
    ({"width": "41"}, "A line's width is a whole number from 1 to 40."),
    ({"width": "wide"}, "A line's width is a whole number from 1 to 40."),
    ({"layer": "ceiling"}, "A drawing is on the table's layer or the GM's."),
    ({"points": "[[1, 1]]"}, "A drawing has 2 to 2000 points."),
    ({"points": json.dumps([[1, 1]] * 2001)}, "A drawing has 2 to 2000 points."),
    ({"points": "[[1, 1], [2]]"}, "Each point of a drawing is two numbers, x and y."),
    ({"points": '[[1, 1], ["a", 2]]'}, "Each point of a drawing is two numbers, x and y."),
    ({"points": "[[1, 1], [NaN, 2]]"}, "Each point of a drawing is two numbers, x and y."),
    ({"points": "[[1, 1], [true, 2]]"}, "Each point of a drawing is two numbers, x and y."),
    ({"points": "[[1, 1], [1601, 2]]"}, "That is off the scene: it runs from 0 to 1600 across and 0 to 1000 down."),
    ({"points": "[[1, 1], [-1, 2]]"}, "That is off the scene"),
    ({"points": "not json"}, "A drawing's points are a list of [x, y]."),
    ({"points": "[" * 5000}, "A drawing's points are a list of [x, y]."),
    ({"points": '{"x": 1}'}, "A drawing has 2 to 2000 points."),
])
def test_bad_input_is_refused_with_words_and_changes_nothing(table, board, fields, words) -> None:
    before = fingerprint(table)
    response = draw(table, table.ann, board, **fields)
    assert response.status_code == 400
    assert words in said(response)
    assert fingerprint(table) == before


def test_a_spectator_may_not_draw_and_a_scene_holds_a_bounded_number(table, board, monkeypatch) -> None:
    before = fingerprint(table)
    assert draw(table, table.watcher, board).status_code == 403
    assert fingerprint(table) == before
    monkeypatch.setattr(drawings, "MAX_DRAWINGS", 2)
    assert draw(table, table.ann, board).status_code == 204
    assert draw(table, table.bob, board).status_code == 204
    before = fingerprint(table)
    response = draw(table, table.ann, board)
    assert response.status_code == 400 and "A scene holds at most 2 drawings: erase some first." in \
        said(response)
    assert fingerprint(table) == before


def test_no_such_drawing_or_scene_is_a_404_never_a_500(table, board) -> None:
    assert erase(table, table.gm, 999999).status_code == 404
    assert draw(table, table.ann, Scene(pk=999999, table=table.row, width=1, height=1)).status_code == 404
    url = reverse("drawing_undo", args=[table.row.pk, 999999])
    assert table.client(table.ann).post(url).status_code == 400
