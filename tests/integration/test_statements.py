"""The hot statements written as SQL read and write exactly what the ORM would."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.models import Model
from django.test.utils import CaptureQueriesContext

from tabletop import services
from tabletop.models import Table, Event, Membership
from tabletop.services import statements


def fields_of(instance: Model) -> dict[str, object]:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def test_the_seat_and_its_table_read_as_the_orm_reads_them(table) -> None:
    services.membership_remove(target=table.bob, actor=table.gm)  # a removed_at to convert
    with transaction.atomic():
        seat = statements.member_with_table_locked(table.row.pk, table.bob.pk)
    assert seat is not None
    assert fields_of(seat) == fields_of(Membership.objects.get(pk=table.bob.pk))
    assert fields_of(seat.table) == fields_of(Table.objects.get(pk=table.row.pk))
    assert seat.removed_at is not None and seat.removed_at.tzinfo is not None
    assert seat.joined.tzinfo is not None
    assert not seat._state.adding and seat._state.db == "default"


def test_no_seat_at_that_table_reads_none(table) -> None:
    other = services.table_create(gm=table.gm.user, name="Elsewhere", system="freeform")
    with transaction.atomic():
        assert statements.member_with_table_locked(other.pk, table.ann.pk) is None
        assert statements.member_with_table_locked(table.row.pk, 987654) is None


def test_an_inserted_event_reads_back_as_it_was_given(table) -> None:
    payload = {"text": "ça va? <b>\"quoted\"</b> 🎲", "nested": {"n": [1, 2.5, None, True]}}
    with transaction.atomic():
        row = Table.objects.get(pk=table.row.pk)
        event = Event(
            table=row, seq=row.next_seq, kind="chat.posted", actor=table.ann,
            owner=table.ann, audience="owner", private_audience="gm", summary="Ann: hi",
            private_summary="secret", payload=payload, private={"roll": {"total": 7}},
        )
        statements.insert_event(event)
    assert event.pk is not None and not event._state.adding
    stored = Event.objects.get(pk=event.pk)
    assert fields_of(stored) == fields_of(event)
    assert stored.payload == payload and stored.created.tzinfo is not None


def test_the_next_seq_is_written_and_a_missing_table_is_an_error(table) -> None:
    with transaction.atomic():
        row = Table.objects.get(pk=table.row.pk)
        row.next_seq += 5
        statements.save_next_seq(row)
    assert Table.objects.get(pk=table.row.pk).next_seq == row.next_seq
    gone = Table(pk=987654, next_seq=3)
    with pytest.raises(DatabaseError), transaction.atomic():
        statements.save_next_seq(gone)


def test_a_chat_line_is_three_statements(table) -> None:
    """The seat with its table, the seq, the event: one statement each."""
    with CaptureQueriesContext(connection) as queries:
        event = services.chat_post(table=table.row, actor=table.ann, text="hello")
    sql = [q["sql"].split()[0].upper() for q in queries.captured_queries]
    assert sql[sql.index("SELECT"):][:3] == ["SELECT", "UPDATE", "INSERT"]
    assert Event.objects.get(pk=event.pk).summary == "Ann: hello"
