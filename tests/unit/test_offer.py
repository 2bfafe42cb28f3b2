"""A socket that writes frames directly takes the table's very next event at once, and
leaves everything else (a gap, a busy turn, a removal) to its ordered path."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from tabletop.live.delivery import Delivery
from tabletop.feed.seat import Viewer
from tabletop.permissions import Standing
from tabletop.serving import wire
from tabletop.feed.seat import Seat


async def _nothing(*args: Any) -> None:
    return None


def socket(seat: Standing = Standing.PLAYER, member_id: int = 5, cursor: int | None = 10) -> tuple[Delivery, list[bytes]]:
    written: list[bytes] = []
    delivery = Delivery(
        table_id=1, member_id=member_id, viewer=Viewer(membership_id=member_id, standing=seat),
        seat=Seat(seat.value, member_id) if seat == Standing.PLAYER else Seat(seat.value),
        send=_nothing, close=_nothing,
        write=lambda message, key, text: written.append(wire.prepared(message, key, text).payloadHybi) or True)
    delivery.cursor = cursor
    return delivery, written


def event(seq: int, *, audience: str = "everyone", owner_id: int | None = 1, **extra: Any) -> dict[str, Any]:
    return {"type": "table.event", "seq": seq, "audience": audience, "private_audience": "owner",
            "owner_id": owner_id, "removed_member_id": None,
            "frames": {"gm": "G", "public": "P", "private": "O"}, **extra}


def test_the_next_event_is_written_at_once_and_framed_once_for_all() -> None:
    ann, to_ann = socket()
    bob, to_bob = socket(member_id=6)
    message = event(11)
    assert ann.offer(message) and bob.offer(message)
    assert ann.cursor == bob.cursor == 11
    assert to_ann == to_bob == [b"\x81\x01P"]  # one text frame, unmasked, as a server sends
    assert len(message["prepared_frames"]) == 1


def test_a_seat_with_a_frame_of_its_own_gets_it_and_the_others_their_lens_s() -> None:
    """Issue 21: each seat its own panel; a seat's frame replaces its reading's."""
    ann, to_ann = socket()
    bob, to_bob = socket(member_id=6)
    watcher, to_watcher = socket(seat=Standing.SPECTATOR, member_id=9)
    message = event(11, seats={"p5": "A"})
    assert ann.offer(message) and bob.offer(message) and watcher.offer(message)
    assert (to_ann, to_bob, to_watcher) == ([b"\x81\x01A"], [b"\x81\x01P"], [b"\x81\x01P"])
    assert set(message["prepared_frames"]) == {"seat:p5", "public"}


def test_what_a_seat_may_not_see_is_skipped_but_counted() -> None:
    ann, written = socket()
    assert ann.offer(event(11, audience="gm"))
    assert written == [] and ann.cursor == 11


def test_a_gap_a_busy_turn_a_removal_or_no_direct_writer_go_the_ordered_way() -> None:
    ann, written = socket()
    assert not ann.offer(event(12))  # 11 has not come yet
    assert not ann.offer(event(11, removed_member_id=9))
    assert not ann.offer({"type": "presence.changed", "frame": "x"})
    unresumed, _ = socket(cursor=None)
    assert not unresumed.offer(event(1))
    plain, _ = socket()
    plain.write = None
    assert not plain.offer(event(11))
    assert written == [] and ann.cursor == 10


def test_nothing_is_written_while_the_socket_takes_its_turn() -> None:
    ann, written = socket()
    offered: list[bool] = []

    async def scenario() -> None:
        async with ann.turn:
            offered.append(ann.offer(event(11)))

    # a loop of its own, in a thread of its own: the browser tests keep one running here
    thread = threading.Thread(target=asyncio.run, args=(scenario(),))
    thread.start()
    thread.join(timeout=30)
    assert offered == [False]
    assert written == [] and ann.cursor == 10
    assert ann.offer(event(11)) and ann.cursor == 11
