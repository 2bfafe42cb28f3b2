"""The GM grants what players asked for (issue 36): a new character's figures past what its rules
allow at creation wait for the GM; a fixture that seats such a character has the GM approve them,
as the GM would from the requests box, so the test starts from the sheet it means."""

from __future__ import annotations

from tabletop import services
from tabletop.models import Membership, SheetRequest, Table


def granted(table: Table, gm: Membership) -> int:
    """Approves every waiting request at ``table`` without charge; how many there were."""
    waiting = list(SheetRequest.objects.filter(table=table, status=SheetRequest.Status.OPEN).order_by("pk"))
    for request in waiting:
        services.request_approve(table=table, actor=gm, request_id=request.pk, free=True)
    return len(waiting)
