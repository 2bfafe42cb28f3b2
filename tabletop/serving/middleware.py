"""Keeps a request's middleware in its own thread (``SyncChain``), and gives a browser that opens
a button's address a page rather than an empty 405 (``MethodPage``).

Under ASGI, Django runs a middleware that can be async in async mode when the handler
below it is async, and then calls every sync hook of the chain through ``sync_to_async``:
a request crossed between the event loop and a worker thread about fifteen times. A
sync-only middleware last in the chain makes Django run the whole chain synchronously in
the request's one thread (bench/latency and bench/throughput: an empty view went from
6.2 to 4.0 ms of CPU).
"""

from __future__ import annotations

from collections.abc import Callable

import re

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

TABLE_PATH = re.compile(r"^/tables/(\d+)/")


class SyncChain:
    sync_capable = True
    async_capable = False

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)


class MethodPage:
    """An address only a button posts to (a form's, "/tables/new/"), opened in the browser: the
    view's 405 comes with no body, and Chromium shows "HTTP ERROR 405". A GET for a page gets
    the site's own page instead, saying what the address is for, with a way back (to the table
    the address belongs to, else the tables), still a 405 with its Allow header. Sync only, like
    ``SyncChain`` (it sits just before it)."""

    sync_capable = True
    async_capable = False

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or request.method != "GET" or response.content \
                or request.headers.get("HX-Request"):
            return response
        table = TABLE_PATH.match(request.path)
        page = render(request, "405.html", {"table_id": int(table.group(1)) if table else None}, status=405)
        if response.has_header("Allow"):
            page["Allow"] = response["Allow"]
        return page
