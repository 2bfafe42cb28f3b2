"""After commit: tell every socket of the table that an event exists.

The channel layer is lossy and only carries "seq N exists", with the event already
rendered once per lens so the fan-out does no database work and no rendering per
socket. A consumer that sees a gap reads the log from the database instead.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from tabletop.hub import hub, table_group
from tabletop.models import Event, Membership
from tabletop.permissions import Lens
from tabletop import rendering

logger = logging.getLogger(__name__)


def member_group(member_id: int) -> str:
    return f"member-{member_id}"


def lenses_needed(event: Event) -> list[Lens]:
    """The lenses somebody at the table will see this event through."""
    lenses: list[Lens] = ["gm"]
    if event.audience == "everyone" or (
        event.audience == "owner" and event.private_audience == "gm"
    ):
        lenses.append("public")
    if event.audience != "gm" and event.private_audience == "owner":
        lenses.append("private")
    return lenses


def event_message(event: Event) -> dict[str, object]:
    member = event.payload.get("member") if event.kind == "member.removed" else None
    return {
        "type": "table.event",
        "campaign_id": event.campaign_id,
        "seq": event.seq,
        "kind": event.kind,
        "audience": event.audience,
        "private_audience": event.private_audience,
        "owner_id": event.owner_id,
        "removed_member_id": member["id"] if member else None,
        "frames": rendering.event_frames(event, lenses_needed(event)),
    }


def _send(group: str, message: Callable[[], dict[str, object]]) -> None:
    """Sends after commit; a failure is logged, never raised: the event is committed,
    and every client reads what it missed from the log when it next (re)connects."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message())
    except Exception:
        logger.warning("broadcast to %s failed", group, exc_info=True)


def event_committed(event: Event) -> None:
    try:
        message = event_message(event)
    except Exception:  # committed all the same: sockets read it from the log on their next gap
        logger.warning("rendering seq %s failed", event.seq, exc_info=True)
        return
    hub.publish(event.campaign_id, message)


def member_removed(member: Membership) -> None:
    _send(member_group(member.pk), lambda: {"type": "member.removed"})


def presence_changed(campaign_id: int) -> None:
    message = {"type": "presence.changed", "campaign_id": campaign_id,
               "frame": rendering.presence_frame(campaign_id)}
    hub.publish(campaign_id, message)
