"""Signing up, the home page, and creating a table."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import registry
from tabletop import services
from tabletop.forms import TableForm, SignupForm
from tabletop.models import Membership
from tabletop.services import ServiceError

from tabletop.views.base import refusal


# Accounts and tables


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form}, status=400 if form.errors else 200)


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    context: dict[str, Any] = {"systems": registry.SYSTEMS.values()}
    if request.user.is_authenticated:
        context["seats"] = (
            Membership.objects.filter(user=request.user, removed_at=None)
            .select_related("table")
            .order_by("-table__created")
        )
        context["can_host"] = request.user.has_usable_password()
        context["form"] = TableForm()
    return render(request, "tabletop/home.html", context)


@require_POST
@login_required
def table_create(request: HttpRequest) -> HttpResponse:
    if not request.user.has_usable_password():
        raise PermissionDenied("Sign up to host a table of your own.")
    form = TableForm(request.POST)
    if form.is_valid():
        try:
            table = services.table_create(
                gm=request.user, name=form.cleaned_data["name"], system=form.cleaned_data["system"]
            )
        except ServiceError as exc:
            refusal(form, exc)
        else:
            return redirect("table", table_id=table.pk)
    seats = Membership.objects.filter(user=request.user, removed_at=None).select_related("table")
    return render(
        request,
        "tabletop/home.html",
        {"form": form, "seats": seats, "can_host": True, "systems": registry.SYSTEMS.values()},
        status=400,
    )
