"""The log's export, streamed: a page of events at a time, so memory stays flat however long
the log. Under ASGI the body is an asynchronous iterator (Django's ASGI handler reads a
synchronous one into a list first); under WSGI and the test client, a synchronous one. Either
way the bytes are those of the whole document written at once, and each event is read through
``selectors.events_for``: a viewer gets what it may see and nothing else."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpRequest, StreamingHttpResponse
from django.views.decorators.http import require_GET

from tabletop import selectors
from tabletop.ids import parse_id
from tabletop.selectors.recap import md as _md
from tabletop.models import Membership, PlaySession, Table
from tabletop.feed.seat import Viewer
from tabletop.permissions import Verb
from tabletop.views.base import member_at

# Events read from the database at once (one query a page, by seq).
PAGE = 500


@require_GET
def export(request: HttpRequest, table_id: int, fmt: str) -> StreamingHttpResponse:
    table, me = member_at(request, table_id, Verb.EXPORT)
    write = FORMATS.get(fmt)
    if write is None:
        raise Http404("Export as md or json.")
    writer, content_type = write
    after, upto, name = 0, selectors.last_seq(table.pk), "log"
    if "session" in request.GET:  # one session's chapter of the log
        session = PlaySession.objects.filter(table=table, number=parse_id(request.GET["session"]) or 0).first()
        if session is None:
            raise Http404("There is no such session at this table.")
        after, name = session.opened_seq - 1, f"session-{session.number}"
        upto = session.closed_seq if session.closed_seq is not None else upto
    parts = writer(table, me, selectors.viewer_of(me), upto, after)
    body: Iterator[bytes] | AsyncIterator[bytes] = (
        _asynchronous(parts) if isinstance(request, ASGIRequest) else parts)
    response = StreamingHttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="table-{table.pk}-{name}.{fmt}"'
    return response


def pages(viewer: Viewer, table_id: int, upto: int, start: int = 0) -> Iterator[list[dict[str, Any]]]:
    """The log after ``start`` up to ``upto`` as ``viewer`` may see it, as export rows, ``PAGE``
    seqs at a time."""
    for after in range(start, upto, PAGE):
        yield [row(viewer, seen) for seen in selectors.events_for(viewer, table_id, after=after,
                                                                  upto=min(after + PAGE, upto))]


def row(viewer: Viewer, seen: selectors.SeenEvent) -> dict[str, Any]:
    """One event of the export: its part ``viewer`` reads."""
    event = seen.event
    data: dict[str, Any] = {
        "position": event.position(gm=viewer.is_gm),
        "at": event.created.isoformat(),
        "kind": event.kind,
        "actor": event.actor.display_name if event.actor else None,
        "owner": event.owner.display_name if event.owner else None,
        "summary": seen.summary,
        "data": event.payload,
    }
    if seen.private is not None and event.private:
        data["private"] = seen.private
    return data


def _dumps(value: Any) -> str:
    return json.dumps(value, cls=DjangoJSONEncoder, indent=2, ensure_ascii=False)


def json_parts(table: Table, me: Membership, viewer: Viewer, upto: int, start: int = 0) -> Iterator[bytes]:
    """``{"table", "system", "viewer", "events": [...]}`` indented by two, as ``json.dumps``
    writes it, one page of events a part."""
    head = {"table": table.name, "system": table.system, "viewer": me.display_name}
    yield ("{\n" + "".join(f"  {_dumps(k)}: {_dumps(v)},\n" for k, v in head.items()) + '  "events": [').encode()
    first = True
    for page in pages(viewer, table.pk, upto, start):
        text = []
        for data in page:
            # an event's own lines sit four spaces in (a newline inside a string is written "\n")
            text.append(("\n    " if first else ",\n    ") + _dumps(data).replace("\n", "\n    "))
            first = False
        if text:
            yield "".join(text).encode()
    yield ("]\n}" if first else "\n  ]\n}").encode()


def markdown_parts(table: Table, me: Membership, viewer: Viewer, upto: int, start: int = 0) -> Iterator[bytes]:
    """A heading, whose log this is, and a line an event; each session under a heading of its
    own, with its date (the log reads in chapters)."""
    yield f"# {_md(table.name)}\n\nLog as seen by {_md(me.display_name)}.\n\n".encode()
    for page in pages(viewer, table.pk, upto, start):
        if page:
            yield "".join(_md_line(data) for data in page).encode()


def _md_line(data: dict[str, Any]) -> str:
    line = f"- **#{data['position']}** {data['at'][:19].replace('T', ' ')}: {_md(data['summary'])}\n"
    if data["kind"] == "session.opened":
        return f"\n## Session {data['data']['session']} · {data['data']['date']}\n\n{line}"
    return line


_END = object()


async def _asynchronous(parts: Iterator[bytes]) -> AsyncIterator[bytes]:
    """``parts`` read a part at a time in Django's thread for the database."""
    step = sync_to_async(next, thread_sensitive=True)
    while (part := await step(parts, _END)) is not _END:
        yield part


Writer = Callable[[Table, Membership, Viewer, int, int], Iterator[bytes]]
FORMATS: dict[str, tuple[Writer, str]] = {
    "json": (json_parts, "application/json"),
    "md": (markdown_parts, "text/markdown; charset=utf-8"),
}
