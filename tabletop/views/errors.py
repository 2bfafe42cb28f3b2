"""The site's 400, 403 and 404 answers, and a refused CSRF check: a whole page when a page was
asked for, and a notice at the top of the page the request came from when htmx asked (a
refusal or an expired seat must never draw a whole page inside a panel: issue 23)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

NOTICE = "tabletop/table.html#page_notice"
WHY = {
    400: "That request was not understood; nothing was changed.",
    403: "Your place at this table does not allow that; nothing was changed.",
    404: "That is no longer here (it may have been removed); nothing was changed.",
}


def _said(exception: Exception | None) -> str:
    """What the refusal says, as Django's own handlers read it: its message when it has one
    (never a resolver's list of the URL patterns it tried)."""
    message = exception.args[0] if exception is not None and exception.args else None
    return message if isinstance(message, str) else ""


def _answer(request: HttpRequest, exception: Exception | None, status: int, page: str) -> HttpResponse:
    said = _said(exception)
    if getattr(request, "htmx", False):
        answer = render(request, NOTICE, {"notice": said or WHY[status]}, status=status)
        answer["HX-Retarget"] = "#page-notice"
        answer["HX-Reswap"] = "outerHTML"
        return answer
    return render(request, page, {"exception": said}, status=status)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _answer(request, exception, 400, "400.html")


def forbidden(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _answer(request, exception, 403, "403.html")


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _answer(request, exception, 404, "404.html")


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """The page was open so long its form's token went stale (or another tab logged out)."""
    return _answer(request, PermissionError("This page is out of date: reload it, then try again."), 403,
                   "403.html")
