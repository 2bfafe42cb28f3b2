"""What one seat receives of an event, as the live feed sends it (tabletop/live/consumers.py:
its seat's own frame where it has one, else its reading's), for tests that read frames without a
socket. The panels an event redraws travel with the event in memory (tabletop/panels.py), so
these take the events a service logged (``logged``), not rows read back from the database."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from tabletop import rendering
from tabletop.models import Event
from tabletop.panels import viewer
from tabletop.permissions import event_reading, readings_needed
from tabletop.seats import PageSeat
from tabletop.services.base import recording


@contextmanager
def logged() -> Iterator[list[Event]]:
    """The events the services append inside the block, as the live feed gets them."""
    with recording() as events:
        yield events


def committed(events: list[Event]) -> list[Event]:
    """The events of ``events`` that were committed: a refused action's transaction is rolled
    back after its services appended (and recorded) events, which the live feed never sends
    (it broadcasts on commit); the seq they held is taken again by the next."""
    rows = {(pk, seq): created for pk, seq, created in Event.objects.filter(
        pk__in=[e.pk for e in events]).values_list("pk", "seq", "created")}
    return [e for e in events if rows.get((e.pk, e.seq)) == e.created]


def seat_frame(event: Event, seat: PageSeat) -> str | None:
    """The frame ``seat`` receives of ``event``; None when it may not see the event."""
    reading = event_reading(viewer(seat), event)
    if reading is None:
        return None
    frames, seats = rendering.event_frames(
        event, readings_needed(audience=event.audience, private_audience=event.private_audience))
    return seats.get(seat.key, frames[reading])
