"""Members (rename, remove) and characters (make, edit, claim)."""

from __future__ import annotations


from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import registry

from tabletop.feed import panels
from tabletop.selectors import growth, sheet_is_secret
from tabletop import services
from tabletop.forms import CharacterForm, RenameForm
from tabletop.models import Table, Character, Membership, Role
from tabletop.permissions import Verb, can_edit_character
from tabletop.services import ServiceError, requests

from tabletop.views.base import TABLE, refusal, member_at


# Members


def _target(table: Table, member_id: int) -> Membership:
    return get_object_or_404(Membership, pk=member_id, table=table)


@require_POST
def member_rename(request: HttpRequest, table_id: int, member_id: int) -> HttpResponse:
    table, me = member_at(request, table_id, Verb.MEMBER_RENAME)
    target = _target(table, member_id)
    form = RenameForm(request.POST)
    if not form.is_valid():
        return _member_error(request, table, "Please give a name of at most 40 characters.")
    try:
        services.membership_rename(target=target, actor=me, display_name=form.cleaned_data["display_name"])
    except ServiceError as exc:
        return _member_error(request, table, exc.message, exc.status)
    return _member_done(request, table)


@require_POST
def member_remove(request: HttpRequest, table_id: int, member_id: int) -> HttpResponse:
    table, me = member_at(request, table_id, Verb.MEMBER_REMOVE)
    target = _target(table, member_id)
    try:
        services.membership_remove(target=target, actor=me)
    except ServiceError as exc:
        return _member_error(request, table, exc.message, exc.status)
    return _member_done(request, table)


def _member_done(request: HttpRequest, table: Table) -> HttpResponse:
    if request.htmx:  # the member list changes through the live feed
        return render(request, f"{TABLE}#members_notice", {"notice": ""})
    return redirect("table", table_id=table.pk)


def _member_error(
    request: HttpRequest, table: Table, message: str, status: int = 400
) -> HttpResponse:
    if request.htmx:
        return render(request, f"{TABLE}#members_notice", {"notice": message}, status=status)
    return render(request, "tabletop/message.html", {"message": message, "table": table}, status=status)


@require_POST
def npc_sheets(request: HttpRequest, table_id: int) -> HttpResponse:
    """The GM keeps the NPCs' sheets behind the screen, or shows them to everyone."""
    table, me = member_at(request, table_id, Verb.TABLE_CONFIGURE)
    try:
        services.table_npc_sheets(table=table, actor=me, secret=request.POST.get("npc_sheets_secret") == "1")
    except ServiceError as exc:
        return _member_error(request, table, exc.message, exc.status)
    return _member_done(request, table)


# Characters


@require_http_methods(["GET", "POST"])
def character_new(request: HttpRequest, table_id: int) -> HttpResponse:
    table, me = member_at(request, table_id, Verb.CHARACTER_CREATE)
    if table.sheet_design:  # a Freeform table whose GM designed its sheet: characters are made on it
        return redirect("designed_sheet_new", table_id=table.pk)
    is_gm = me.role == Role.GM
    form = CharacterForm(request.POST or None, system=table.system, player_making=None if is_gm else True)
    if request.method == "POST" and form.is_valid():
        # The GM makes NPCs or characters for players to claim; a player makes their own.
        kind = request.POST.get("kind", "pc") if is_gm else "own"
        try:
            made = services.character_create(
                table=table,
                actor=me,
                name=form.cleaned_data["name"],
                sheet=form.sheet(),
                npc=kind == "npc",
                for_players=kind == "pc",
            )
        except ServiceError as exc:
            refusal(form, exc)
        else:
            if requests.latest_request(made, me) is not None:
                messages.info(request, f"{made.name} is made; the figures past what a new character may have "
                                       "wait for the GM's approval.")
            return redirect("table", table_id=table.pk)
    context = {"form": form, "table": table, "is_gm": is_gm, "character": None}
    return render(request, "tabletop/character_form.html", context, status=400 if form.errors else 200)


@require_http_methods(["GET", "POST"])
def character_edit(request: HttpRequest, table_id: int, character_id: int) -> HttpResponse:
    table, me = member_at(request, table_id, Verb.WATCH)
    character = get_object_or_404(Character, pk=character_id, table=table)
    if not can_edit_character(me, character):
        raise PermissionDenied("You may edit only your own character.")
    if character.sheet.get("design") and not character.retired:  # a Freeform sheet on its table's design
        return redirect("designed_sheet_edit", table_id=table.pk, character_id=character.pk)
    form = CharacterForm(
        request.POST or None,
        system=table.system,
        initial=CharacterForm.initial_from(character, table.system),
        player_making=None if me.role == Role.GM else False,
        asks=requests.asked_keys(table, me, character),
    )
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            waiting = requests.latest_request(character, me)
            try:
                services.character_update(
                    character=character,
                    actor=me,
                    name=form.cleaned_data["name"],
                    sheet=form.sheet(),
                    version=form.cleaned_data.get("version"),
                )
            except ServiceError as exc:
                refusal(form, exc)
                status = exc.status
            else:
                if requests.latest_request(character, me) != waiting:
                    messages.info(request, f"Your change to {character.name}'s figures waits for the GM's approval; "
                                           "the rules read the old ones until then.")
                return redirect("table", table_id=table.pk)
    # the conditions on it, as the editor's seat sees them (games/core/clock.py): a sheet in play
    # shows what lasts on it, as its card does
    campaign = panels.current_campaign(table, me) or {}
    badges = next((c["badges"] for c in campaign.get("characters", ()) if c["id"] == character.pk), [])
    context = {"form": form, "table": table, "is_gm": me.role == Role.GM, "character": character,
               "c": {"id": character.pk, "badges": badges}}
    return render(request, "tabletop/character_form.html", context, status=status)


@require_POST
def character_claim(request: HttpRequest, table_id: int, character_id: int) -> HttpResponse:
    table, me = member_at(request, table_id, Verb.CHARACTER_CLAIM)
    character = get_object_or_404(Character, pk=character_id, table=table)
    try:
        services.character_claim(character=character, actor=me)
    except ServiceError as exc:
        return _member_error(request, table, exc.message, exc.status)
    if request.htmx:
        return HttpResponse(status=204)
    return redirect("table", table_id=table.pk)


@require_GET
def character_growth(request: HttpRequest, table_id: int, character_id: int) -> HttpResponse:
    """A character's growth, as this seat reads its log (tabletop/selectors/growth.py): anyone at
    the table for a sheet everyone sees; the GM alone for an NPC's sheet behind the screen."""
    table, me = member_at(request, table_id, Verb.WATCH)
    character = get_object_or_404(Character, pk=character_id, table=table)
    if sheet_is_secret(character) and me.role != Role.GM:
        raise PermissionDenied(f"{character.name}'s sheet is the GM's.")
    game = registry.get(table.system)
    pool = None
    if game.growth is not None and game.growth.pool:
        label = next((f.label for f in game.sheet_fields if f.key == game.growth.pool), game.growth.unit)
        pool = {"label": label, "has": character.sheet.get(game.growth.pool) or 0}
    return render(request, "tabletop/growth.html", {
        "table": table, "character": character, "game": game, "pool": pool,
        "steps": growth.history(table, me, character)})
