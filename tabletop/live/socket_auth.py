"""Who a socket belongs to: the user of its session cookie, read once when it opens.

Channels' ``AuthMiddlewareStack`` reads the same, and also wraps the socket's ``send`` so it
can save a session that a consumer changed: every frame a table pushed went through that
wrapper and its lazy session object (2-3 % of daphne's time under bench/throughput). The
table's socket never changes its session, so here the user is read once, with Channels' own
``get_user`` (the session's auth hash checked, as a request checks it), and frames go
straight to the server.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from channels.auth import get_user
from django.conf import settings
from django.http.cookie import parse_cookie


class SessionUser:
    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        key = None
        for name, value in scope.get("headers", []):
            if name == b"cookie":
                key = parse_cookie(value.decode("latin1")).get(settings.SESSION_COOKIE_NAME)
                break
        session = import_module(settings.SESSION_ENGINE).SessionStore(session_key=key)
        user = await get_user({"session": session})
        return await self.inner({**scope, "session": session, "user": user}, receive, send)
