"""``lock_member``: the table lock and the actor's seat in one statement, refusing as
``lock_table`` and ``acting`` do."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from tabletop import services
from tabletop.models import Membership
from tabletop.permissions import Verb
from tabletop.services.base import NotAllowed, NotFound, lock_member


def test_the_seat_and_its_table_come_back_in_one_statement(table) -> None:
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        locked, me = lock_member(table.row.pk, table.ann, Verb.ROLL)
    selects = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT")]
    assert len(selects) == 1
    assert (locked.pk, me.pk, me.display_name) == (table.row.pk, table.ann.pk, "Ann")
    assert locked.next_seq == type(locked).objects.get(pk=locked.pk).next_seq


def test_a_spectator_a_removed_member_and_another_tables_seat_are_refused(table) -> None:
    with pytest.raises(NotAllowed), transaction.atomic():
        lock_member(table.row.pk, table.watcher, Verb.ROLL)
    services.membership_remove(target=table.bob, actor=table.gm)
    with pytest.raises(NotAllowed), transaction.atomic():
        lock_member(table.row.pk, Membership.objects.get(pk=table.bob.pk), Verb.CHAT)
    other = services.table_create(gm=table.gm.user, name="Elsewhere", system="freeform")
    with pytest.raises(NotAllowed), transaction.atomic():
        lock_member(other.pk, table.ann, Verb.CHAT)


def test_a_table_that_does_not_exist_is_not_found(table) -> None:
    with pytest.raises(NotFound), transaction.atomic():
        lock_member(987654, table.ann, Verb.CHAT)
