"""Issue 28: "rendering reads no database (the system's key and the GM's panel travel with the
event from the commit)". For every system, the frames of each event a random evening logs that
redraws a panel are drawn without a query: the panels, and the seats they are drawn for, were
read under the table's lock and travel with the event (tabletop/panels.py, ``Redraw``)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import registry
from tabletop import rendering
from tabletop.permissions import readings_needed
from tests.integration.test_contract_kit import campaign
from tests.support.frames import committed
from tests.support.kit import make_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("system", sorted(registry.SYSTEMS))
def test_an_event_that_redraws_panels_is_framed_without_a_query(system: str) -> None:
    kt = make_table(system, f"nq-{system}")
    _, _, events = campaign(kt, seed=5 + sum(map(ord, system)), steps=30)
    redrawn = [e for e in committed(events) if getattr(e, "redraw", None) is not None]
    if kt.game.panel is not None:
        assert redrawn, f"{system}: no event of the evening redrew a panel"
    for event in redrawn:
        with CaptureQueriesContext(connection) as queries:
            frames, seats = rendering.event_frames(
                event, readings_needed(audience=event.audience, private_audience=event.private_audience))
        assert frames
        assert [q["sql"] for q in queries.captured_queries] == [], f"{system}: {event.kind} read the database"
