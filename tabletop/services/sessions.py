"""Sessions of play: the GM opens one and closes it. The log reads in chapters (each session
under its own heading), an export and a recap read one of them, and closing one runs the
system's end-of-session rules (``Engine.close_session``: games/core/clock.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.core.rng import Rng
from tabletop.models import Event, PlaySession, Table, Membership
from tabletop.permissions import Verb
from tabletop.services.base import ServiceError, append, lock_member
from tabletop.services.procedure import session_rules


def open_session(table: Table) -> PlaySession | None:
    return PlaySession.objects.filter(table=table, closed=None).first()


def session_open(*, table: Table, actor: Membership) -> Event:
    """Opens the table's next session; refused while one is open."""
    with transaction.atomic():
        locked, me = lock_member(table.pk, actor, Verb.SESSION_MANAGE)
        running = open_session(locked)
        if running is not None:
            raise ServiceError(f"Session {running.number} is open: close it before opening another.")
        last = PlaySession.objects.filter(table=locked).order_by("-number").values_list("number", flat=True).first()
        number = (last or 0) + 1
        now = timezone.now()
        envelope = append(locked, "session.opened", actor=me, summary=f"Session {number} opens.",
                          payload={"session": number, "open": True, "date": now.date().isoformat()})
        PlaySession.objects.create(table=locked, number=number, opened=now, opened_seq=envelope.event.seq)
        return envelope.event


def session_close(*, table: Table, actor: Membership, args: Mapping[str, Any], rng: Rng) -> Event:
    """Closes the open session: the system's end-of-session rules run first (its events logged
    and folded as any move's; a refusal of theirs refuses the close and changes nothing), then
    the session's close is logged."""
    with transaction.atomic():
        locked, me = lock_member(table.pk, actor, Verb.SESSION_MANAGE)
        running = open_session(locked)
        if running is None:
            raise ServiceError("No session is open: open one first.")
        session_rules(locked, me, args, rng)
        now = timezone.now()
        envelope = append(locked, "session.closed", actor=me, summary=f"Session {running.number} closes.",
                          payload={"session": running.number, "open": False, "date": now.date().isoformat()})
        running.closed = now
        running.closed_seq = envelope.event.seq
        running.save(update_fields=["closed", "closed_seq"])
        return envelope.event
