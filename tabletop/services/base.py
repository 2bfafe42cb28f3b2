"""What every service shares: refusals, the table lock, and appending to the log."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.conf import settings
from django.db import transaction

from tabletop.feed import catalogue
from tabletop.feed.catalogue import Envelope
from tabletop.live import broadcast
from tabletop.models import Audience, Table, Event, Membership
from tabletop.permissions import Verb, can, refusal_of, standing_of
from tabletop.services import statements


class ServiceError(Exception):
    """A refusal with a message fit to show the person who asked. Nothing was changed."""

    status = 400

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class NotAllowed(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409


def lock_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise NotFound("There is no such table.") from None


def acting(table: Table, actor: Membership, verb: Verb) -> Membership:
    """Re-reads the actor under the table lock, so a member removed a moment ago cannot act."""
    fresh = Membership.objects.filter(pk=actor.pk, table=table).first()
    if not can(standing_of(fresh), verb):
        raise NotAllowed(refusal_of(standing_of(fresh), verb))
    assert fresh is not None
    return fresh


def lock_member(table_id: int, actor: Membership, verb: Verb) -> tuple[Table, Membership]:
    """``lock_table`` and ``acting`` in one statement (the member joined to its table, the
    table's row locked): the hot path of a live table, one round trip fewer per action,
    written as SQL (statements.py)."""
    me = statements.member_with_table_locked(table_id, actor.pk)
    if me is None:
        locked = lock_table(table_id)  # no such table (NotFound), or no member of it
        return locked, acting(locked, actor, verb)
    if not can(standing_of(me), verb):
        raise NotAllowed(refusal_of(standing_of(me), verb))
    return me.table, me


# The events appended while an action of the action table runs (tabletop/actions.py: take):
# most services return nothing, or one thing of several they logged, and the answer to an
# act frame names the last event its actor sees.
# Recordings nest: an action recorded inside a test's recording reaches both lists.
_recording: ContextVar[tuple[list[Envelope], ...]] = ContextVar("recording", default=())


@contextmanager
def recording() -> Iterator[list[Envelope]]:
    """A list that receives the envelope of each event this thread's services append while it
    is open (and every recording open around it receives them too)."""
    events: list[Envelope] = []
    token = _recording.set((*_recording.get(), events))
    try:
        yield events
    finally:
        _recording.reset(token)


def append(
    table: Table,
    kind: str,
    *,
    actor: Membership | None,
    summary: str,
    payload: Mapping[str, Any] | None = None,
    audience: str = Audience.EVERYONE,
    owner: Membership | None = None,
    private: Mapping[str, Any] | None = None,
    private_summary: str = "",
    private_audience: str = Audience.OWNER,
) -> Envelope:
    """Appends one Event under the (already held) table lock and schedules its broadcast: its
    envelope (the row, its kind, what each reading sees of it) carries it to the feed. An event
    of a kind the catalogue does not hold is refused before anything is written; with
    ``TABLETOP_CHECK_EVENTS`` on (the tests), one that does not match its kind's declaration too."""
    declared = catalogue.kind_of(kind)
    if settings.TABLETOP_CHECK_EVENTS:
        wrong = catalogue.problems(declared, audience=audience, payload=payload or {}, private=private or {})
        assert not wrong, "; ".join(wrong)
    seq = table.next_seq
    table.next_seq = seq + 1
    own_no = 0
    if audience == Audience.EVERYONE:
        table.public_seq += 1
    elif audience == Audience.OWNER:
        # the owner's events since the last public one: they number these after it
        own_no = 1 + Event.objects.filter(
            table=table, public_no=table.public_seq, audience=Audience.OWNER,
            owner=owner or actor,
        ).count()
    statements.save_next_seq(table)
    event = Event(
        table=table,
        seq=seq,
        public_no=table.public_seq,
        own_no=own_no,
        kind=kind,
        actor=actor,
        owner=owner or actor,
        audience=audience,
        private_audience=private_audience,
        summary=summary,
        private_summary=private_summary,
        payload=dict(payload or {}),
        private=dict(private or {}),
    )
    statements.insert_event(event)
    envelope = Envelope.appended(event, declared)
    for recorded in _recording.get():
        recorded.append(envelope)
    # robust: the event is committed whatever its broadcast does (socket_actions' batches
    # rely on it: a hook's error must not look like a failed commit)
    transaction.on_commit(lambda: broadcast.event_committed(envelope), robust=True)
    return envelope


def unique_name(table: Table, name: str, *, exclude: int | None = None) -> str:
    """Two people at one table with the same name would make the log ambiguous."""
    taken = table.members.filter(removed_at=None, display_name__iexact=name)
    if exclude is not None:
        taken = taken.exclude(pk=exclude)
    if taken.exists():
        raise ServiceError(f"Someone at this table is already called {name}.", field="display_name")
    return name


def clean_name(name: str, *, what: str = "name", max_length: int = 40) -> str:
    cleaned = " ".join((name or "").split())
    if not cleaned:
        raise ServiceError(f"Please give a {what}.", field="display_name")
    if len(cleaned) > max_length:
        raise ServiceError(f"A {what} is at most {max_length} characters.", field="display_name")
    return cleaned


def finite_number(value: object, field: str, message: str) -> float:
    """A number a form sent as text (or a number), finite; else a refusal at ``field`` saying
    ``message`` (each caller's own words: "The x must be a number.", "A cell's size is a number.")."""
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ServiceError(message, field=field) from None
    if not math.isfinite(number):
        raise ServiceError(message, field=field)
    return number
