"""The log's export is streamed a page of events at a time (``tabletop/views/exports.py``): the
bytes are those of the whole document written at once, each seat's part as it may see it, and a
long log leaves as many parts; under ASGI the parts come from an asynchronous iterator, so
Django's ASGI handler does not gather them into a list first."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.core.serializers.json import DjangoJSONEncoder
from django.http import StreamingHttpResponse
from django.test import AsyncClient
from django.urls import reverse

from tabletop import selectors, services
from tabletop.views import exports as export_view


def log_a_session(table, rng: random.Random, rolls: int) -> None:
    """Public, GM-only and blind rolls, chat with markup, a link replaced: every audience."""
    for i in range(rolls):
        mode = ("public", "gm", "blind")[i % 3]
        who = (table.gm, table.ann, table.bob)[i % 3]
        services.dice_roll(table=table.row, actor=who, notation=f"1d20+{i}", mode=mode, rng=rng)
        if i % 4 == 0:
            services.chat_post(table=table.row, actor=table.ann, text=f"*line* <b>{i}</b> \\ `é` #{i}")
    services.table_regenerate_link(table=table.row, actor=table.gm, which="player")


def whole_document(table, member, fmt: str) -> bytes:
    """The export as it was written before it streamed: every row read, then one document."""
    viewer = selectors.viewer_of(member)
    rows = [export_view.row(viewer, seen) for seen in selectors.events_for(viewer, table.row.pk)]
    if fmt == "json":
        data = {"table": table.row.name, "system": table.row.system, "viewer": member.display_name, "events": rows}
        return json.dumps(data, cls=DjangoJSONEncoder, indent=2, ensure_ascii=False).encode()
    md = export_view._md
    lines = [f"# {md(table.row.name)}", "", f"Log as seen by {md(member.display_name)}.", ""]
    lines += [f"- **#{row['position']}** {row['at'][:19].replace('T', ' ')}: {md(row['summary'])}" for row in rows]
    return ("\n".join(lines) + "\n").encode()


def streamed(table, member, fmt: str) -> tuple[StreamingHttpResponse, list[bytes]]:
    response = table.client(member).get(reverse("export", args=[table.row.pk, fmt]))
    assert response.status_code == 200
    return response, list(response.streaming_content)


@pytest.mark.parametrize("page", [1, 4, 500])
@pytest.mark.parametrize("fmt", ["json", "md"])
def test_every_seat_s_export_is_the_same_bytes_as_the_whole_document(table, rng, monkeypatch, fmt, page) -> None:
    monkeypatch.setattr(export_view, "PAGE", page)
    log_a_session(table, rng, rolls=13)
    for member in (table.gm, table.ann, table.bob, table.watcher):
        _, parts = streamed(table, member, fmt)
        assert b"".join(parts) == whole_document(table, member, fmt), member.display_name
    # what each seat reads: the spectator, the public rolls' results alone
    watcher = b"".join(streamed(table, table.watcher, fmt)[1]).decode()
    assert all(re.search(rf"1d20\+{i}\b", watcher) for i in range(0, 13, 3))
    assert not any(re.search(rf"1d20\+{i}\b", watcher) for i in range(1, 13, 3))


def test_a_short_log_is_the_same_bytes_too(table, monkeypatch) -> None:
    monkeypatch.setattr(export_view, "PAGE", 2)
    services.table_regenerate_link(table=table.row, actor=table.gm, which="player")
    for fmt in ("json", "md"):
        for member in (table.gm, table.watcher):
            assert b"".join(streamed(table, member, fmt)[1]) == whole_document(table, member, fmt)
    assert json.loads(b"".join(streamed(table, table.gm, "json")[1]))["events"]


def test_a_long_log_leaves_in_many_parts_a_page_of_events_each(table, rng, monkeypatch) -> None:
    monkeypatch.setattr(export_view, "PAGE", 10)
    log_a_session(table, rng, rolls=120)
    last = selectors.last_seq(table.row.pk)
    for fmt in ("json", "md"):
        response, parts = streamed(table, table.gm, fmt)
        assert isinstance(response, StreamingHttpResponse) and not response.is_async
        assert response["Content-Disposition"] == f'attachment; filename="table-{table.row.pk}-log.{fmt}"'
        # a head, one part per page of ten events, and (for JSON) the closing brackets
        assert len(parts) >= last // 10
        assert max(len(p) for p in parts) < len(b"".join(parts)) / 8
    assert streamed(table, table.gm, "json")[0]["Content-Type"] == "application/json"
    assert streamed(table, table.gm, "md")[0]["Content-Type"] == "text/markdown; charset=utf-8"


@pytest.mark.django_db(transaction=True)
async def test_under_asgi_the_export_is_an_asynchronous_stream_of_the_same_bytes(table, rng, monkeypatch) -> None:
    monkeypatch.setattr(export_view, "PAGE", 3)
    await services_in_a_thread(log_a_session, table, rng, 10)
    for member in (table.gm, table.ann, table.watcher):
        client = AsyncClient()
        await client.aforce_login(member.user)
        for fmt in ("json", "md"):
            response = await client.get(reverse("export", args=[table.row.pk, fmt]))
            assert response.status_code == 200 and response.is_async
            parts = [part async for part in response.streaming_content]
            assert len(parts) > 3
            expected = await services_in_a_thread(whole_document, table, member, fmt)
            assert b"".join(parts) == expected, (member.display_name, fmt)


async def services_in_a_thread(function, *args):
    from asgiref.sync import sync_to_async

    return await sync_to_async(function, thread_sensitive=True)(*args)
