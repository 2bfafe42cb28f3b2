"""Rulers and pings over the table's socket (issue 37): "a ruler any seat drags (in cells and the
GM's unit, seen live by the others while it is held); a ping: a click that draws everyone's eye
to a spot for a moment", and "no token, drawing or ping under fog reaches them in any byte".

They are moments, not facts: relayed to the table's other sockets, never logged. A seat that
must not get a mark gets nothing of it: the test sends a mark it does get after it (a barrier;
one socket's marks are relayed in the order sent) and checks nothing came before that."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async

from tabletop import services
from tabletop.live import pointers
from tabletop.models import Event, Scene

pytestmark = pytest.mark.django_db(transaction=True)


def shown_board(table: Any, *, fogged: bool = False) -> Scene:
    """A shown board, 1600 x 1000; with ``fogged``, the fog on and only x below 500 revealed."""
    scene = services.scene_create(table=table.row, actor=table.gm, name="Crypt", colour="#333333")
    services.scene_show(scene=scene, actor=table.gm)
    if fogged:
        Scene.objects.filter(pk=scene.pk).update(
            fog_on=True, fog_rev=1, fog=[{"op": "reveal", "shape": "rect", "x": 0, "y": 0, "w": 500, "h": 1000}])
    return Scene.objects.get(pk=scene.pk)


async def seated(table: Any, connect: Any, *names: str) -> dict[str, Any]:
    sockets = {}
    for name in names:
        sockets[name] = await connect(table.row, getattr(table, name))
        await sockets[name].until("caught-up")
    return sockets


def ruler(scene: Scene, *points: list[float]) -> dict[str, Any]:
    return {"type": "mark", "mark": "ruler", "scene": scene.pk, "points": list(points)}


def ping(scene: Scene, x: float, y: float) -> dict[str, Any]:
    return {"type": "mark", "mark": "ping", "scene": scene.pk, "points": [[x, y]]}


async def nothing_but_the_barrier(socket: Any, barrier: str) -> list[str]:
    """The frames a socket got up to the barrier: the barrier's alone, or the test fails."""
    frames = await socket.until(barrier)
    return frames[:-1]


async def test_a_players_ruler_reaches_the_others_live_and_goes_when_released(table, connect) -> None:
    scene = await database_sync_to_async(shown_board)(table)
    logged = await database_sync_to_async(Event.objects.count)()
    s = await seated(table, connect, "ann", "gm", "bob", "watcher")
    await s["ann"].send(ruler(scene, [100, 100], [310, 100]))
    for name in ("gm", "bob", "watcher"):  # a spectator watches the ruler like a player
        frame = await s[name].seen('data-mark="ruler"')
        assert f'data-from="{table.ann.pk}"' in frame and 'data-by="Ann"' in frame
        assert 'data-points="[[100,100],[310,100]]"' in frame and 'data-done="false"' in frame
    await s["ann"].send({"type": "mark", "mark": "ruler", "scene": scene.pk, "done": True})
    for name in ("gm", "bob", "watcher"):
        assert f'data-from="{table.ann.pk}"' in await s[name].seen('data-done="true"')
    # the author's own page drew it: nothing comes back to it (the GM's ping is its barrier)
    await s["gm"].send(ping(scene, 50, 50))
    assert not [f for f in await nothing_but_the_barrier(s["ann"], 'data-mark="ping"') if "data-mark" in f]
    # a moment, not a fact: nothing in the log
    assert await database_sync_to_async(Event.objects.count)() == logged
    for socket in s.values():
        await socket.close()


async def test_a_ruler_or_a_ping_under_fog_reaches_the_gm_alone(table, connect) -> None:
    scene = await database_sync_to_async(shown_board, thread_sensitive=True)(table, fogged=True)
    s = await seated(table, connect, "ann", "gm", "bob", "watcher")
    await s["ann"].send(ruler(scene, [100, 100], [900, 100]))  # its far end in the fog
    await s["ann"].send(ruler(scene, [100, 600], [400, 300]))  # both ends in sight
    await s["ann"].send(ping(scene, 800, 800))  # under fog
    await s["ann"].send(ping(scene, 123, 456))  # the barrier: in sight
    gm = await s["gm"].until('data-points="[[123,456]]"')
    assert any('data-points="[[100,100],[900,100]]"' in f for f in gm)
    assert any('data-points="[[800,800]]"' in f for f in gm)
    for name in ("bob", "watcher"):
        before = await nothing_but_the_barrier(s[name], 'data-points="[[123,456]]"')
        got = "".join(before)
        assert "900" not in got and "800,800" not in got, name
        assert 'data-points="[[100,600],[400,300]]"' in got  # the ruler in sight did come
    for socket in s.values():
        await socket.close()


async def test_a_ruler_whose_path_crosses_the_fog_is_the_gms_alone(table, connect) -> None:
    """Both ends in sight, its middle under a covered strip: the path counts too."""
    def strip() -> Scene:
        scene = shown_board(table, fogged=True)
        scene.fog = [{"op": "reveal", "shape": "all"},
                     {"op": "cover", "shape": "rect", "x": 700, "y": 0, "w": 100, "h": 1000}]
        scene.fog_rev = 2
        scene.save()
        return scene
    scene = await database_sync_to_async(strip)()
    s = await seated(table, connect, "ann", "bob")
    await s["ann"].send(ruler(scene, [100, 100], [1500, 100]))
    await s["ann"].send(ping(scene, 1, 1))
    got = "".join(await nothing_but_the_barrier(s["bob"], 'data-points="[[1,1]]"'))
    assert "1500" not in got
    for socket in s.values():
        await socket.close()


BAD = [
    ({"type": "mark", "mark": "laser", "points": [[1, 1]]}, "A mark is a"),
    ({"type": "mark", "mark": "ping", "points": [[1, 1]]}, "A mark names the scene it is on by its id."),
    ({"type": "mark", "mark": "ping", "scene": "3", "points": [[1, 1]]}, "A mark names the scene"),
    ({"type": "mark", "mark": "ping", "scene": 0, "points": [[1, 1], [2, 2]]}, "A ping has 1 point: [x, y]."),
    ({"type": "mark", "mark": "ruler", "scene": 0, "points": [[1, 1]] * 3}, "A ruler has 2 points: [x, y]."),
    ({"type": "mark", "mark": "ruler", "scene": 0, "points": [[1, 1], ["a", 1]]}, "two numbers, x and y."),
    ({"type": "mark", "mark": "ruler", "scene": 0, "points": [[1, 1], [True, 1]]}, "two numbers, x and y."),
    ({"type": "mark", "mark": "ruler", "scene": 0, "points": [[1, 1], [1e400, 1]]}, "two numbers, x and y."),
    ({"type": "mark", "mark": "ruler", "scene": 0, "points": "1,1"}, "A ruler has 2 points"),
    ({"type": "mark", "mark": "ping", "scene": 0, "points": [[1601, 5]]},
     "That is off the scene: it runs from 0 to 1600 across and 0 to 1000 down."),
    ({"type": "mark", "mark": "ping", "scene": 0, "points": [[5, -1]]}, "That is off the scene"),
    ({"type": "mark", "mark": "ping", "scene": -7, "points": [[5, 5]]}, "That scene is not the one shown"),
]


@pytest.mark.parametrize("bad,words", BAD)
async def test_bad_marks_are_refused_with_an_error_frame_and_relay_nothing(table, connect, bad, words) -> None:
    scene = await database_sync_to_async(shown_board)(table)
    s = await seated(table, connect, "ann", "bob")
    if bad.get("scene") == 0:
        bad = {**bad, "scene": scene.pk}
    await s["ann"].send(bad)
    error = await s["ann"].seen('data-frame="error"')
    assert words.replace("'", "&#x27;").replace('"', "&quot;") in error
    await s["ann"].send(ping(scene, 7, 7))
    assert not [f for f in await nothing_but_the_barrier(s["bob"], 'data-points="[[7,7]]"') if "data-mark" in f]
    for socket in s.values():
        await socket.close()


async def test_a_spectator_may_not_measure_or_ping(table, connect) -> None:
    scene = await database_sync_to_async(shown_board)(table)
    s = await seated(table, connect, "watcher", "bob", "ann")
    await s["watcher"].send(ping(scene, 9, 9))
    error = await s["watcher"].seen('data-frame="error"')
    assert 'data-error="not-allowed"' in error and "a spectator watches" in error
    await s["ann"].send(ping(scene, 7, 7))
    assert not [f for f in await nothing_but_the_barrier(s["bob"], 'data-points="[[7,7]]"') if "[9,9]" in f]
    for socket in s.values():
        await socket.close()


async def test_a_socket_flooding_marks_is_held_to_its_rate(table, connect) -> None:
    scene = await database_sync_to_async(shown_board)(table)
    s = await seated(table, connect, "ann", "bob")
    for i in range(100):
        await s["ann"].send(ruler(scene, [10, 10], [20, 20 + i]))
    await asyncio.sleep(1.2)  # the allowance refills: the barrier gets through
    await s["ann"].send(ping(scene, 7, 7))
    got = [f for f in await s["bob"].until('data-points="[[7,7]]"') if 'data-mark="ruler"' in f]
    assert pointers.BURST - 1 <= len(got) < 100 - 50  # a burst passes, the flood does not
    for socket in s.values():
        await socket.close()


async def test_a_ruler_dragged_into_the_fog_leaves_the_others_pages(table, connect) -> None:
    scene = await database_sync_to_async(shown_board)(table, fogged=True)
    s = await seated(table, connect, "ann", "gm", "bob")
    await s["ann"].send(ruler(scene, [100, 100], [300, 100]))  # in sight: Bob gets it
    assert 'data-done="false"' in await s["bob"].seen('data-points="[[100,100],[300,100]]"')
    await s["ann"].send(ruler(scene, [100, 100], [900, 100]))  # into the fog
    gone = await s["bob"].seen('data-done="true"')
    assert f'data-from="{table.ann.pk}"' in gone and "900" not in gone
    assert 'data-points="[[100,100],[900,100]]"' in await s["gm"].seen("[900,100]")
    await s["ann"].send({"type": "mark", "mark": "ruler", "scene": scene.pk, "done": True})
    await s["ann"].send(ping(scene, 7, 7))
    got = await nothing_but_the_barrier(s["bob"], 'data-points="[[7,7]]"')
    assert not [f for f in got if "900" in f]
    assert 'data-done="true"' in await s["gm"].seen('data-done="true"')
    for socket in s.values():
        await socket.close()


async def test_a_ruler_held_as_its_socket_closes_leaves_the_others_pages(table, connect) -> None:
    scene = await database_sync_to_async(shown_board)(table)
    s = await seated(table, connect, "ann", "bob")
    await s["ann"].send(ruler(scene, [100, 100], [300, 100]))
    await s["bob"].seen('data-points="[[100,100],[300,100]]"')
    await s["ann"].close()
    assert f'data-from="{table.ann.pk}"' in await s["bob"].seen('data-done="true"')
    await s["bob"].close()
