"""A guest's way back to their seat: the personal seat link, and leaving with a warning.

A guest has no password: the browser's session is the key to their seat. The seat link
(``seat/<token>/``) gives the key to any browser, so a guest who logged out, cleared their
cookies or moved to a phone takes their seat back, with their character and hand. Only the
member and the GM see it; the GM replaces it to revoke it (issue 13, bug 4).
"""

from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tabletop import services
from tabletop.models import Membership
from tabletop.permissions import Verb, can, standing_of
from tabletop.services import ServiceError
from tabletop.views.base import member_at, qr_svg

BACKEND = "django.contrib.auth.backends.ModelBackend"


def _seat_url(request: HttpRequest, member: Membership) -> str:
    return request.build_absolute_uri(reverse("seat", args=[member.seat_token]))


@require_GET
def seat_link(request: HttpRequest, table_id: int, member_id: int) -> HttpResponse:
    """A member's seat link, on a page of its own (never on the table page or in the feed):
    for the member, and for the GM, who may replace it."""
    if not request.user.is_authenticated:  # a bookmarked page, opened logged out
        return redirect_to_login(request.get_full_path())
    table, me = member_at(request, table_id, Verb.WATCH)
    target = get_object_or_404(Membership.objects.select_related("user"), pk=member_id, table=table,
                               removed_at=None)
    is_gm = can(standing_of(me), Verb.LINKS_MANAGE)
    if target.pk != me.pk and not is_gm:
        raise PermissionDenied("A seat link is shown only to its member and the GM.")
    url = _seat_url(request, target)
    context = {
        "table": table, "target": target, "url": url, "qr": qr_svg(url, f"Seat link of {target.display_name}"),
        "own": target.pk == me.pk, "is_gm": is_gm, "guest": not target.user.has_usable_password(),
    }
    return render(request, "tabletop/seat_link.html", context)


@require_POST
def seat_link_replace(request: HttpRequest, table_id: int, member_id: int) -> HttpResponse:
    table, me = member_at(request, table_id, Verb.LINKS_MANAGE)
    target = get_object_or_404(Membership, pk=member_id, table=table, removed_at=None)
    try:
        services.membership_replace_seat_link(target=target, actor=me)
    except ServiceError as exc:
        return render(request, "tabletop/message.html", {"message": exc.message, "table": table},
                      status=exc.status)
    return redirect("seat_link", table_id=table.pk, member_id=target.pk)


@require_http_methods(["GET", "POST"])
def seat(request: HttpRequest, token: str) -> HttpResponse:
    """Opening a seat link: a page that says whose seat it is; its button logs this browser in."""
    member = Membership.objects.filter(seat_token=token).select_related("table", "user").first()
    if member is None:
        raise Http404("This seat link does not work: it is mistyped or the GM replaced it. Ask your GM for a new one.")
    if member.removed_at is not None:
        raise PermissionDenied("The GM removed this seat from the table.")
    if member.user.has_usable_password():
        raise PermissionDenied("This seat belongs to an account with a password: log in to take it.")
    if request.user.is_authenticated and request.user.pk == member.user_id:
        return redirect("table", table_id=member.table_id)
    if request.method == "POST":
        login(request, member.user, backend=BACKEND)
        return redirect("table", table_id=member.table_id)
    other = request.user.get_username() if request.user.is_authenticated else ""
    return render(request, "tabletop/seat.html", {"member": member, "table": member.table, "other": other})


@require_GET
def leave(request: HttpRequest) -> HttpResponse:
    """Logging out, for a guest: a warning first, with the seat links that bring them back."""
    if not request.user.is_authenticated:
        return redirect("home")
    seats = list(Membership.objects.filter(user=request.user, removed_at=None)
                 .select_related("table").order_by("-table__created"))
    rows = [{"member": m, "url": _seat_url(request, m)} for m in seats]
    return render(request, "tabletop/leave.html",
                  {"rows": rows, "guest": not request.user.has_usable_password()})
