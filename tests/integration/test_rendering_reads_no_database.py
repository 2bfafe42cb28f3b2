"""Issue 28: "rendering reads no database (the system's key and the GM's panel travel with the
event from the commit)". For every system, the frames of each event a random evening logs that
redraws a panel are drawn without a query: the panels, and the seats they are drawn for, were
read under the table's lock and travel with the event (tabletop/feed/panels.py, ``Redraw``)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import registry
from tabletop.feed import frames as framing
from tests.integration.test_contract_kit import campaign
from tests.support.frames import committed, envelope_of
from tests.support.kit import make_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("system", sorted(registry.SYSTEMS))
def test_an_event_that_redraws_panels_is_framed_without_a_query(system: str) -> None:
    kt = make_table(system, f"nq-{system}")
    _, _, events = campaign(kt, seed=5 + sum(map(ord, system)), steps=30)
    redrawn = [envelope_of(e) for e in committed(events) if envelope_of(e).redraw is not None]
    if kt.game.panel is not None:
        assert redrawn, f"{system}: no event of the evening redrew a panel"
    for envelope in redrawn:
        with CaptureQueriesContext(connection) as queries:
            frames, seats = framing.event_frames(envelope)
        assert frames
        assert [q["sql"] for q in queries.captured_queries] == [], f"{system}: {envelope.event.kind} read the database"
