"""The table's log as the database holds it, read from async tests (the socket tests)."""

from __future__ import annotations

from channels.db import database_sync_to_async

from tabletop.models import Event


async def logged_events() -> list[Event]:
    """Every event of every table, in seq order."""
    return await database_sync_to_async(lambda: list(Event.objects.order_by("seq")))()
