"""Rolls and chat lines taken through the table's socket (tabletop/live/socket_actions.py), and the
one fan-out per process (tabletop/live/hub.py) that pushes them."""

from __future__ import annotations

import html
import re

import pytest
from channels.db import database_sync_to_async

from tabletop.live import hub as hub_module
from tests.support.log import logged_events

pytestmark = pytest.mark.django_db(transaction=True)
ACK = re.compile(r'id="socket-ack"[^>]*data-ref="([^"]*)" data-outcome="(done|refused)"')


def answer(frames: list[str]) -> dict[str, str]:
    """The ack or refusal frame among these, as its data attributes and its text."""
    last = frames[-1]
    attrs = dict(re.findall(r'data-([a-z]+)="([^"]*)"', last))
    attrs["text"] = html.unescape(re.sub(r"<[^>]+>", "", last))
    return attrs


def roll(ref: str, notation: str = "2d6+3", mode: str = "public") -> dict[str, object]:
    return {"type": "act", "ref": ref, "action": "dice.roll", "args": {"notation": notation, "mode": mode}}


async def test_a_roll_sent_on_the_socket_is_logged_acked_and_reaches_everyone(table, connect) -> None:
    ann = await connect(table.row, table.ann)
    bob = await connect(table.row, table.bob)
    watcher = await connect(table.row, table.watcher)
    before = await logged_events()
    await ann.send(roll("r1"))
    done = answer(await ann.until('data-ref="r1"'))
    after = await logged_events()
    assert len(after) == len(before) + 1
    event = after[-1]
    assert event.kind == "dice.rolled" and event.actor_id == table.ann.pk
    assert done["outcome"] == "done" and int(done["seq"]) == event.seq
    assert event.summary.startswith("Ann rolls 2d6+3")
    for socket in (ann, bob, watcher):
        frame = await socket.seen(f'data-frame-seq="{event.seq}"')
        assert f'<strong class="total">{event.payload["roll"]["total"]}</strong>' in frame
    for socket in (ann, bob, watcher):
        await socket.close()


async def test_a_chat_line_sent_on_the_socket_is_logged(table, connect) -> None:
    bob = await connect(table.row, table.bob)
    await bob.send({"type": "act", "ref": "c-1", "action": "chat.post", "args": {"text": "  hello there "}})
    done = answer(await bob.until('data-ref="c-1"'))
    event = (await logged_events())[-1]
    assert done["outcome"] == "done" and int(done["seq"]) == event.seq
    assert event.kind == "chat.posted" and event.payload == {"text": "hello there"}
    await bob.close()


async def test_a_blind_roll_on_the_socket_shows_its_result_to_the_gm_alone(table, connect) -> None:
    gm = await connect(table.row, table.gm)
    ann = await connect(table.row, table.ann)
    bob = await connect(table.row, table.bob)
    await ann.send(roll("b1", notation="1d20", mode="blind"))
    position = answer(await ann.until('data-ref="b1"'))["seq"]
    event = (await logged_events())[-1]
    assert position == f"{event.public_no}.1"  # Ann's own numbering: her first hidden line since
    result = str(event.private["roll"]["total"])
    gm_frame = await gm.seen(f'data-frame-seq="{event.seq}"')
    ann_frame = await ann.seen(f'data-frame-seq="{position}"')
    total = f'<strong class="total">{result}</strong>'
    assert total in gm_frame
    assert "only the GM sees the result" in html.unescape(ann_frame) and "total" not in ann_frame
    await bob.send({"type": "act", "ref": "x", "action": "chat.post", "args": {"text": "AFTER"}})
    after = await bob.seen("AFTER")
    # not even that it happened: Bob's next line is numbered as if the roll never was
    assert f'data-frame-seq="{event.public_no + 1}"' in after
    assert not any("1d20" in f for f in bob.received)
    for socket in (gm, ann, bob):
        await socket.close()


@pytest.mark.parametrize(
    ("frame", "code", "field"),
    [
        ({"type": "act", "ref": "u", "action": "deck.burn", "args": {}}, "unknown-action", ""),
        ({"type": "act", "ref": "v", "action": "deck.shuffle", "args": {}}, "invalid", "deck"),
        (roll("v", notation=""), "invalid", "notation"),
        (roll("v", notation="1d6" + "+1" * 200), "invalid", "notation"),
        (roll("v", notation="2d6 + banana"), "invalid", "notation"),
        (roll("v", notation="1000d6"), "invalid", "notation"),
        (roll("v", mode="everyone-but-bob"), "invalid", "mode"),
        ({"type": "act", "ref": "v", "action": "chat.post", "args": {"text": "   "}}, "invalid", "text"),
        ({"type": "act", "ref": "v", "action": "chat.post", "args": {}}, "invalid", "text"),
    ],
)
async def test_a_bad_action_is_refused_for_its_ref_and_changes_nothing(table, connect, frame, code, field) -> None:
    ann = await connect(table.row, table.ann)
    before = await logged_events()
    await ann.send(frame)
    refused = answer(await ann.until(f'data-ref="{frame["ref"]}"'))
    assert refused["outcome"] == "refused" and refused["error"] == code and refused["field"] == field
    assert refused["text"].strip()  # a message fit to show the player
    assert await logged_events() == before
    await ann.close()


async def test_a_spectator_acting_on_the_socket_is_refused_and_changes_nothing(table, connect) -> None:
    watcher = await connect(table.row, table.watcher)
    before = await logged_events()
    for i, frame in enumerate([roll("s0"), {"type": "act", "ref": "s1", "action": "chat.post", "args": {"text": "hi"}}]):
        await watcher.send(frame)
        refused = answer(await watcher.until(f'data-ref="s{i}"'))
        assert refused["outcome"] == "refused" and refused["error"] == "not-allowed"
    assert await logged_events() == before
    await watcher.close()


async def test_a_member_removed_while_connected_cannot_act(table, connect) -> None:
    """The socket is closed at removal; an action that raced the removal is refused by the
    service, which re-reads the seat under the table lock."""
    from tabletop import services
    from tabletop.live import socket_actions

    await database_sync_to_async(services.membership_remove)(target=table.bob, actor=table.gm)
    before = await logged_events()
    request = socket_actions.parse(roll("late"))
    assert request is not None
    checked = socket_actions.check(request, table.bob)  # the seat the socket opened with
    assert not isinstance(checked, socket_actions.Outcome)
    outcome = await database_sync_to_async(socket_actions.perform)(socket_actions.Job("late", *checked, table.bob))
    assert outcome.seq is None and outcome.code == "not-allowed"
    assert await logged_events() == before


@pytest.mark.parametrize(
    "frame",
    [
        '{"type": "act", "action": "dice.roll", "args": {"notation": "1d6", "mode": "public"}}',
        '{"type": "act", "ref": "<b>x</b>", "action": "dice.roll", "args": {}}',
        '{"type": "act", "ref": "' + "r" * 41 + '", "action": "dice.roll", "args": {}}',
        '{"type": "act", "ref": "ok", "action": ["dice.roll"], "args": {}}',
        '{"type": "act", "ref": "ok", "action": "dice.roll", "args": ["1d6"]}',
        '{"type": "act", "ref": "ok", "action": "dice.roll", "args": {"notation": 6, "mode": "public"}}',
        # a lone surrogate, which no UTF-8 holds: it had crashed the socket in the database
        '{"type": "act", "ref": "ok", "action": "chat.post", "args": {"text": "\\ud800"}}',
        '{"type": "act", "ref": "ok", "action": "dice.roll", "args": {"notation": "1d6 \\udfff", "mode": "public"}}',
    ],  # an act frame over the size limit closes the socket (test_consumers.py)
)
async def test_a_malformed_act_frame_gets_the_error_frame_and_changes_nothing(table, connect, frame) -> None:
    ann = await connect(table.row, table.ann)
    before = await logged_events()
    await ann.send(frame)
    got = await ann.until('data-error="unexpected-frame"')
    assert 'role="alert"' in got[-1] and "<b>" not in got[-1]
    assert await logged_events() == before
    await ann.close()


async def test_a_refusal_message_is_text_never_markup(table, connect) -> None:
    ann = await connect(table.row, table.ann)
    await ann.send(roll("h", notation="<img src=x onerror=alert(1)>"))
    frame = (await ann.until('data-ref="h"'))[-1]
    assert "<img" not in frame and answer([frame])["outcome"] == "refused"
    await ann.close()


async def test_the_hub_holds_each_socket_of_the_table_once_while_it_is_open(table, connect) -> None:
    assert hub_module.serves_everyone()  # the one-process layer: events go through the hub
    table_id = table.row.pk
    assert hub_module.hub.listeners(table_id) == 0
    ann = await connect(table.row, table.ann)
    watcher = await connect(table.row, table.watcher)
    assert hub_module.hub.listeners(table_id) == 2
    await ann.close()
    assert hub_module.hub.listeners(table_id) == 1
    await watcher.close()
    assert hub_module.hub.listeners(table_id) == 0


async def test_many_actions_from_several_sockets_reach_every_socket_once_in_order(table, connect) -> None:
    sockets = [await connect(table.row, m) for m in (table.gm, table.ann, table.bob, table.watcher)]
    actors = sockets[:3]
    for i in range(10):
        for n, socket in enumerate(actors):
            await socket.send({"type": "act", "ref": f"a{n}-{i}", "action": "chat.post", "args": {"text": f"{n}:{i}"}})
    for n, socket in enumerate(actors):
        await socket.seen(f'data-ref="a{n}-9"', timeout=10)
    last = (await logged_events())[-1].seq
    first = min(e.seq for e in await logged_events() if e.kind == "chat.posted")
    for socket in sockets:
        await socket.seen(f'data-frame-seq="{last}"', timeout=10)
        got = socket.event_seqs()
        assert [seq for seq in got if seq >= first] == list(range(first, last + 1))  # in order, once
    logged = [e.payload["text"] for e in await logged_events() if e.kind == "chat.posted"]
    assert sorted(logged) == sorted(f"{n}:{i}" for n in range(3) for i in range(10))
    for socket in sockets:
        await socket.close()


@pytest.fixture
def shared_layer(settings):
    """A layer the process does not own, as with Redis (Channels' own in-memory layer stands in
    for it): the hub joins each table's group with its one channel and relays."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    from channels.layers import get_channel_layer

    assert not hub_module.serves_everyone()
    return get_channel_layer()


async def test_with_a_shared_layer_a_table_is_one_group_member_per_process(table, connect, shared_layer) -> None:
    group = f"table-{table.row.pk}"
    sockets = [await connect(table.row, m) for m in (table.gm, table.ann, table.bob, table.watcher)]
    assert len(shared_layer.groups.get(group, {})) == 1  # the hub's channel, not four sockets
    await sockets[1].send({"type": "act", "ref": "r", "action": "chat.post", "args": {"text": "RELAYED"}})
    seq = int(answer(await sockets[1].until('data-ref="r"'))["seq"])
    for socket in sockets:
        frame = await socket.seen(f'data-frame-seq="{seq}"')
        assert "RELAYED" in frame
        assert sum(f'data-frame-seq="{seq}"' in f for f in socket.received) == 1
    for socket in sockets:
        await socket.close()
    assert not shared_layer.groups.get(group)  # the last socket gone, the process leaves


async def test_calls_handed_to_the_loop_run_in_order_with_one_wake_up_for_a_burst() -> None:
    """Calls handed from other threads run in the order handed; a burst that arrives before
    the loop gets to it costs one wake-up, not one each."""
    import asyncio
    import threading

    loop = asyncio.get_running_loop()
    ran: list[int] = []
    wakes = 0
    real = loop.call_soon_threadsafe

    def counting(callback, *args):  # type: ignore[no-untyped-def]
        nonlocal wakes
        wakes += 1
        return real(callback, *args)

    loop.call_soon_threadsafe = counting  # type: ignore[method-assign]
    try:
        burst = threading.Thread(target=lambda: [hub_module.hand_to(loop, ran.append, i) for i in range(50)])
        burst.start()
        burst.join()
        await asyncio.sleep(0.05)
    finally:
        del loop.call_soon_threadsafe
    assert ran == list(range(50))
    assert wakes == 1
