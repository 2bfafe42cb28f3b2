"""What one seat receives of an event, as the live feed sends it (tabletop/live/delivery.py:
its seat's own frame where it has one, else its reading's), for tests that read frames without a
socket. The panels an event redraws travel with the event in memory (its envelope:
tabletop/feed/catalogue.py, ``Envelope.redraw``), so these take the events a service logged
(``logged``), not rows read back from the database."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, overload
from weakref import WeakValueDictionary

from tabletop.feed import frames as framing
from tabletop.feed.catalogue import Envelope
from tabletop.feed.panels import panel_html
from tabletop.feed.seat import Seat, event_reading, viewer_at
from tabletop.feed.marks import strip
from tabletop.models import Event
from tabletop.services.base import recording

# each envelope a ``Logged`` handed out, by its event's identity, for as long as its recording lives
_ENVELOPES: WeakValueDictionary[int, Envelope] = WeakValueDictionary()


class Logged(Sequence[Event]):
    """The events of a recording, in order, as it fills; each keeps its envelope (``envelope_of``)."""

    def __init__(self, envelopes: list[Envelope]) -> None:
        self._envelopes = envelopes

    def __len__(self) -> int:
        return len(self._envelopes)

    @overload
    def __getitem__(self, index: int) -> Event: ...
    @overload
    def __getitem__(self, index: slice) -> list[Event]: ...
    def __getitem__(self, index: int | slice) -> Event | list[Event]:
        if isinstance(index, slice):
            return [self._event(e) for e in self._envelopes[index]]
        return self._event(self._envelopes[index])

    def clear(self) -> None:
        """Forgets what was logged so far; what is logged next is recorded as before."""
        self._envelopes.clear()

    @staticmethod
    def _event(envelope: Envelope) -> Event:
        _ENVELOPES[id(envelope.event)] = envelope
        return envelope.event


@contextmanager
def logged() -> Iterator[Logged]:
    """The events the services append inside the block, as the live feed gets them."""
    with recording() as envelopes:
        yield Logged(envelopes)


def envelope_of(event: Event) -> Envelope:
    """The envelope ``event`` was logged in (its panels' redraws), when a ``logged`` block saw it;
    else one made from the row (no redraw), as a replay makes it."""
    found = _ENVELOPES.get(id(event))
    return found if found is not None and found.event is event else Envelope.of(event)


def committed(events: list[Event]) -> list[Event]:
    """The events of ``events`` that were committed: a refused action's transaction is rolled
    back after its services appended (and recorded) events, which the live feed never sends
    (it broadcasts on commit); the seq they held is taken again by the next."""
    rows = {(pk, seq): created for pk, seq, created in Event.objects.filter(
        pk__in=[e.pk for e in events]).values_list("pk", "seq", "created")}
    return [e for e in events if rows.get((e.pk, e.seq)) == e.created]


def seat_frame(event: Event, seat: Seat) -> str | None:
    """The frame ``seat`` receives of ``event``; None when it may not see the event."""
    reading = event_reading(viewer_at(seat), event)
    if reading is None:
        return None
    frames, seats = framing.event_frames(envelope_of(event))
    return seats.get(seat.key, frames[reading])


def panel_as_sent(template: str, view: dict[str, Any], seat: Seat, table_id: int) -> str:
    """A seat's panel as a live redraw sends it: drawn for the seat, with its turn banner."""
    return strip(panel_html(template, view, seat, table_id), seat)
