"""The three statements every live action runs, as SQL built once instead of through the ORM.

A roll, a chat line, a card move or a procedure step reads the actor's membership with its table's
row locked, moves the table's next seq (and its count of public events) on, and inserts an Event. Through the ORM, building
and compiling those three queries cost more than all the rest of the service together: about
2 ms of the 3.4 ms of CPU a chat line's service took on the project's machine, for 0.2 ms of
work in the database (cProfile; bench/throughput, docs/performance.md).

Here each statement is built once per database connection from the models' own metadata
(table and column names, quoting, the vendor's row lock), values go through the fields' own
conversions both ways (JSON, datetimes, time zones), and rows come back as ordinary model
instances, so callers cannot tell the difference. Everything else keeps using the ORM.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import DatabaseError, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model

from tabletop.models import Table, Event, Membership

Converter = Callable[[Any, Any, BaseDatabaseWrapper], Any]


@dataclass(frozen=True)
class _Reader:
    """Turns a model's columns of a row into an instance, as the ORM's iterator does."""

    model: type[Model]
    names: tuple[str, ...]  # attnames, in column order
    converters: tuple[tuple[tuple[Converter, ...], Any], ...]  # per column: converters, expression

    @classmethod
    def of(cls, model: type[Model], alias: str, connection: BaseDatabaseWrapper) -> _Reader:
        converters = []
        for field in model._meta.concrete_fields:
            col = field.get_col(alias)
            found = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
            converters.append((tuple(found), col))
        return cls(model, tuple(f.attname for f in model._meta.concrete_fields), tuple(converters))

    def read(self, values: Sequence[Any], connection: BaseDatabaseWrapper) -> Model:
        converted = []
        for value, (converters, col) in zip(values, self.converters, strict=True):
            for convert in converters:
                value = convert(value, col, connection)
            converted.append(value)
        return self.model.from_db(connection.alias, self.names, converted)


@dataclass(frozen=True)
class _Plan:
    member_sql: str
    member: _Reader
    table: _Reader
    next_seq_sql: str
    insert_sql: str
    insert_fields: tuple[Field, ...]
    returns_id: bool


_plans: weakref.WeakKeyDictionary[BaseDatabaseWrapper, _Plan] = weakref.WeakKeyDictionary()


def _columns(model: type[Model], alias: str, quote: Callable[[str], str]) -> list[str]:
    return [f"{alias}.{quote(f.column)}" for f in model._meta.concrete_fields]


def _plan(connection: BaseDatabaseWrapper) -> _Plan:
    plan = _plans.get(connection)
    if plan is not None:
        return plan
    q = connection.ops.quote_name
    member, table = Membership._meta, Table._meta
    table_col = q(member.get_field("table").column)
    member_with_table = (
        f"SELECT {', '.join(_columns(Membership, 's', q) + _columns(Table, 't', q))} "
        f"FROM {q(member.db_table)} s INNER JOIN {q(table.db_table)} t "
        f"ON s.{table_col} = t.{q(table.pk.column)} "
    )
    member_sql = f"{member_with_table}WHERE s.{q(member.pk.column)} = %s AND s.{table_col} = %s"
    if connection.features.has_select_for_update_of:
        member_sql += " FOR UPDATE OF t"
    elif connection.features.has_select_for_update:
        member_sql += " FOR UPDATE"
    # SQLite has no row locks: its transactions begin IMMEDIATE (settings), one writer at once.
    next_seq_sql = (
        f"UPDATE {q(table.db_table)} SET {q(table.get_field('next_seq').column)} = %s, "
        f"{q(table.get_field('public_seq').column)} = %s WHERE {q(table.pk.column)} = %s"
    )
    event = Event._meta
    fields = tuple(f for f in event.concrete_fields if not f.primary_key)
    if any(hasattr(f, "get_placeholder") for f in fields):
        raise TypeError("an Event field needs a placeholder of its own: insert it through the ORM")
    returns_id = connection.features.can_return_columns_from_insert
    insert_sql = (
        f"INSERT INTO {q(event.db_table)} ({', '.join(q(f.column) for f in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))})"
    )
    if returns_id:
        insert_sql += f" RETURNING {q(event.pk.column)}"
    plan = _Plan(
        member_sql=member_sql,
        member=_Reader.of(Membership, "s", connection),
        table=_Reader.of(Table, "t", connection),
        next_seq_sql=next_seq_sql,
        insert_sql=insert_sql,
        insert_fields=fields,
        returns_id=returns_id,
    )
    _plans[connection] = plan
    return plan


def member_with_table_locked(table_id: int, member_id: int) -> Membership | None:
    """The member of this table, with its ``table`` read in the same statement and that row
    locked until the transaction ends; None when they are no member of that table."""
    connection = connections[Membership.objects.db]
    plan = _plan(connection)
    width = len(plan.member.names)
    with connection.cursor() as cursor:
        cursor.execute(plan.member_sql, [member_id, table_id])
        row = cursor.fetchone()
    if row is None:
        return None
    member = plan.member.read(row[:width], connection)
    member.table = plan.table.read(row[width:], connection)  # type: ignore[attr-defined]
    return member  # type: ignore[return-value]


def save_next_seq(table: Table) -> None:
    """Writes the table's ``next_seq`` and ``public_seq``, as
    ``table.save(update_fields=["next_seq", "public_seq"])``."""
    connection = connections[table._state.db or Table.objects.db]
    with connection.cursor() as cursor:
        cursor.execute(_plan(connection).next_seq_sql, [table.next_seq, table.public_seq, table.pk])
        if cursor.rowcount != 1:
            raise DatabaseError("Save with update_fields did not affect any rows.")


def insert_event(event: Event) -> Event:
    """Inserts a new Event, as ``event.save()`` would (``created`` set on the way)."""
    connection = connections[Event.objects.db]
    plan = _plan(connection)
    values = [f.get_db_prep_save(f.pre_save(event, True), connection) for f in plan.insert_fields]
    with connection.cursor() as cursor:
        cursor.execute(plan.insert_sql, values)
        if plan.returns_id:
            pk = cursor.fetchone()[0]
        else:
            pk = connection.ops.last_insert_id(cursor, Event._meta.db_table, Event._meta.pk.column)
    event.pk = pk
    event._state.adding = False
    event._state.db = connection.alias
    return event
