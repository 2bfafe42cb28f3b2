"""After commit: tell every socket of the table that an event exists.

The channel layer is lossy and only carries "seq N exists", with the event already
rendered once per reading so the fan-out does no database work and no rendering per
socket. A consumer that sees a gap reads the log from the database instead.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from tabletop.feed import frames
from tabletop.feed.catalogue import Envelope
from tabletop.live.hub import hub
from tabletop.models import Membership

logger = logging.getLogger(__name__)


def member_group(member_id: int) -> str:
    return f"member-{member_id}"


def event_message(envelope: Envelope) -> dict[str, object]:
    """The table's message of one event: its frames by reading and by seat, and what each
    socket needs to pick its own (the event's audience and owner) without the database."""
    event = envelope.event
    member = event.payload.get("member") if event.kind == "member.removed" else None
    by_reading, by_seat = frames.event_frames(envelope)
    return {
        "type": "table.event",
        "table_id": event.table_id,
        "seq": event.seq,
        "kind": event.kind,
        "audience": event.audience,
        "private_audience": event.private_audience,
        "owner_id": event.owner_id,
        "removed_member_id": member["id"] if member else None,
        "frames": by_reading,
        "seats": by_seat,  # where a seat gets a frame of its own (its panel, its controls)
    }


def _publish(table_id: int, build: Callable[[], dict[str, object]], what: str) -> None:
    """After commit: builds the table's message and hands it to the hub. A failure is
    logged, never raised: the change is committed, and every client reads what it missed
    from the log when it next sees a gap or (re)connects."""
    try:
        message = build()
    except Exception:
        logger.warning("building %s failed", what, exc_info=True)
        return
    hub.publish(table_id, message)


def event_committed(envelope: Envelope) -> None:
    """After commit: the event's frames, to the hub. A failure is logged, never raised (see
    ``_publish``)."""
    table_id = envelope.event.table_id
    try:
        message = event_message(envelope)
    except Exception:
        logger.warning("framing seq %s failed", envelope.event.seq, exc_info=True)
        return
    hub.publish(table_id, message)


def member_removed(member: Membership) -> None:
    hub.send_to_group(member_group(member.pk), {"type": "member.removed"})


def presence_changed(table_id: int) -> None:
    _publish(
        table_id,
        lambda: {"type": "presence.changed", "table_id": table_id,
                 "frame": frames.presence_frame(table_id)},
        "presence",
    )
