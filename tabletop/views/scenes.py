"""Scenes, tokens and portraits over HTTP: thin views around tabletop/services/scenes.py.

The GM's tools post with htmx and get the tools back, drawn afresh (with the refusal at its
field: a 4xx); what changed on the scene reaches every seat through the live feed. A token's
move posts from static/js/scene.js and is answered 204, or with the scene's notice line. A
stored picture is served only here, to a viewer who may see it, found by the row's id: the
client never names a file.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.files.storage import default_storage
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tabletop import services
from tabletop.feed.seat import seat_of
from tabletop.services.images import CONTENT_TYPES
from tabletop.models import Character, Membership, Scene, Table, Token
from tabletop.permissions import Verb, can_edit_character, may_see_portrait, may_see_scene
from tabletop.forms.scenes import GridForm, MoveForm, PlaceForm, PortraitForm, SceneForm, StyleForm
from tabletop.selectors.fog import fog_key
from tabletop.selectors.scenes import portrait_url
from tabletop.services import NotFound, ServiceError, fog
from tabletop.services.scenes import NO_TOKEN
from tabletop.views.base import member_at

SCENE = "tabletop/scene.html"
# a body bigger than the largest picture and its form: refused before it is parsed
SLACK = 64 * 1024


def _too_big(request: HttpRequest) -> bool:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0) > settings.TABLETOP_MAX_IMAGE_BYTES + SLACK
    except ValueError:
        return False


def _too_big_error(field: str) -> ServiceError:
    megabytes = settings.TABLETOP_MAX_IMAGE_BYTES // (1024 * 1024)
    return ServiceError(f"That file is too big: a picture may be at most {megabytes} MB.", field=field)


def _tools(request: HttpRequest, table: Table, me: Membership, *, error: ServiceError | None = None,
           form: str = "", status: int = 200, at: int | None = None) -> HttpResponse:
    """The GM's scene tools, drawn afresh; a refusal at the field it names (or above them)."""
    if not request.htmx:
        if error is None:
            return redirect("table", table_id=table.pk)
        return render(request, "tabletop/message.html", {"message": error.message, "table": table}, status=status)
    context: dict[str, Any] = {"table": table, "me": me, "seat": seat_of(me), "table_id": table.pk, "form": form,
                               "error": {"field": error.field or "", "message": error.message} if error else None,
                               "values": request.POST if error else {}, "at": at}
    return render(request, f"{SCENE}#tools", context, status=status)


# Uploads read the request's body only after its size is known: CSRF is checked by hand, after
# that (Django's own pattern for a view that looks at an upload before it is parsed).
@csrf_exempt
@require_POST
def scene_create(request: HttpRequest, table_id: int) -> HttpResponse:
    table, me = member_at(request, table_id, Verb.SCENE_MANAGE)
    if _too_big(request):
        return _tools(request, table, me, error=_too_big_error("image"), form="picture", status=400)
    return _scene_create(request, table, me)


@csrf_protect
def _scene_create(request: HttpRequest, table: Table, me: Membership) -> HttpResponse:
    form = SceneForm(request.POST, request.FILES)
    kind = request.POST.get("kind", "")
    if not form.is_valid():
        field = next(iter(form.errors))
        return _tools(request, table, me, error=ServiceError(form.errors[field][0], field=field),
                      form=kind, status=400)
    data = form.cleaned_data
    try:
        if data["kind"] == "picture":
            if data["image"] is None:
                raise ServiceError("Choose a picture to upload.", field="image")
            services.scene_create(table=table, actor=me, name=data["name"], image=data["image"])
        else:
            services.scene_create(table=table, actor=me, name=data["name"], colour=data["colour"],
                                  shape=data["shape"] or "wide")
    except ServiceError as exc:
        return _tools(request, table, me, error=exc, form=data["kind"], status=exc.status)
    return _tools(request, table, me)


@require_POST
def scene_action(request: HttpRequest, table_id: int, scene_id: int, action: str) -> HttpResponse:
    """Show a scene to everyone, put it away, or cover a prepared scene in fog or clear it."""
    # a scene being prepared is covered in fog (or cleared) from the list: the shown one's fog is
    # the map's Fog tool (static/js/fog.js), whose changes redraw the stage
    run = {"show": services.scene_show, "delete": services.scene_delete, "fog": fog.fog_cover_all,
           "unfog": fog.fog_clear}.get(action)
    if run is None:
        raise Http404("There is no such thing to do with a scene.")
    table, me = member_at(request, table_id, Verb.SCENE_MANAGE)
    scene = get_object_or_404(Scene, pk=scene_id, table=table)
    try:
        run(scene=scene, actor=me)
    except ServiceError as exc:
        return _tools(request, table, me, error=exc, status=exc.status)
    return _tools(request, table, me)


@require_POST
def token_place(request: HttpRequest, table_id: int) -> HttpResponse:
    table, me = member_at(request, table_id, Verb.SCENE_MANAGE)
    form = PlaceForm(request.POST)
    if not form.is_valid():
        field = next(iter(form.errors))
        return _tools(request, table, me, error=ServiceError(form.errors[field][0], field=field),
                      form="place", status=400)
    scene = Scene.objects.filter(pk=form.cleaned_data["scene"], table=table).first()
    character = Character.objects.filter(pk=form.cleaned_data["character"], table=table).first()
    try:
        if scene is None or character is None:
            raise ServiceError("Choose a character, and a scene of this table.", field="character")
        services.token_place(scene=scene, character=character, actor=me, hidden=form.cleaned_data["hidden"])
    except ServiceError as exc:
        return _tools(request, table, me, error=exc, form="place", status=exc.status)
    return _tools(request, table, me)


@require_POST
def token_visibility(request: HttpRequest, table_id: int, token_id: int, action: str) -> HttpResponse:
    table, me = member_at(request, table_id, Verb.SCENE_MANAGE)  # a player hears who may, first
    if action not in ("hide", "show"):
        raise Http404("A token can be hidden or shown, nothing else.")
    token = get_object_or_404(Token, pk=token_id, scene__table=table)
    try:
        services.token_visibility(token=token, actor=me, hidden=action == "hide")
    except ServiceError as exc:
        return _tools(request, table, me, error=exc, status=exc.status)
    return _tools(request, table, me)


def _notice(message: str, status: int) -> HttpResponse:
    """The scene's notice line, which static/js/scene.js swaps in by its id."""
    return HttpResponse(render_to_string(f"{SCENE}#notice", {"notice": message}), status=status)


@require_POST
def token_move(request: HttpRequest, table_id: int, token_id: int) -> HttpResponse:
    """A token moved by its player or the GM: 204, and the move reaches everyone live."""
    table, me = member_at(request, table_id, Verb.TOKEN_MOVE)
    form = MoveForm(request.POST)
    if not form.is_valid():
        return _notice("A move names a point of the scene: x and y, whole numbers.", 400)
    token = Token.objects.filter(pk=token_id, scene__table=table).select_related("scene").first()
    if token is None:
        return _notice(NO_TOKEN, 404)
    try:
        services.token_move(token=token, actor=me, x=form.cleaned_data["x"], y=form.cleaned_data["y"])
    except ServiceError as exc:
        return _notice(exc.message, exc.status)
    return HttpResponse(status=204)


@require_POST
def scene_grid(request: HttpRequest, table_id: int, scene_id: int) -> HttpResponse:
    """The GM sets a scene's grid (any scene of the table); the grid reaches every seat live."""
    table, me = member_at(request, table_id, Verb.SCENE_MANAGE)
    scene = get_object_or_404(Scene, pk=scene_id, table=table)
    form = GridForm(request.POST)
    try:
        if not form.is_valid():
            field = next(iter(form.errors))
            raise ServiceError(f"Please fill in the grid's {field}.", field=field)
        data = form.cleaned_data
        services.grid_set(scene=scene, actor=me, kind=data["kind"], size=data["size"], x=data["x"] or 0,
                          y=data["y"] or 0, shown=data["shown"], snap=data["snap"], distance=data["distance"],
                          unit=data["unit"])
    except ServiceError as exc:
        return _tools(request, table, me, error=exc, form="grid", at=scene.pk,
                      status=exc.status)
    return _tools(request, table, me)


@require_POST
def token_style(request: HttpRequest, table_id: int, token_id: int) -> HttpResponse:
    """A token's look, set by its player or the GM: from the page's look dialog (answered 204, or
    with the scene's notice line) or from the GM's tools (answered with the tools)."""
    table, me = member_at(request, table_id, Verb.TOKEN_MOVE)
    dialog = request.POST.get("from") == "dialog"
    token = Token.objects.filter(pk=token_id, scene__table=table).select_related("scene").first()
    form = StyleForm(request.POST)
    try:
        if token is None:
            raise NotFound(NO_TOKEN)
        if not form.is_valid():
            raise ServiceError("A token's look is a size, a colour and a label.", field="size")
        data = form.cleaned_data
        services.token_style(token=token, actor=me, size=data["size"], colour=data["colour"], label=data["label"])
    except ServiceError as exc:
        if dialog or me.role != "gm":
            return _notice(exc.message, exc.status)
        return _tools(request, table, me, error=exc, form="style", at=token_id, status=exc.status)
    return HttpResponse(status=204) if dialog or me.role != "gm" else _tools(request, table, me)


@require_POST
def token_remove(request: HttpRequest, table_id: int, token_id: int) -> HttpResponse:
    """The GM takes a token off its scene."""
    table, me = member_at(request, table_id, Verb.SCENE_MANAGE)
    token = get_object_or_404(Token, pk=token_id, scene__table=table)
    try:
        services.token_remove(token=token, actor=me)
    except ServiceError as exc:
        return _tools(request, table, me, error=exc, status=exc.status)
    return _tools(request, table, me)


@require_GET
def scene_tools(request: HttpRequest, table_id: int) -> HttpResponse:
    """The GM's tools as they are now (the page asks when the GM opens them)."""
    table, me = member_at(request, table_id, Verb.SCENE_MANAGE)
    return render(request, f"{SCENE}#tools", {"table": table, "me": me, "seat": seat_of(me), "table_id": table.pk})


@require_GET
def table_image(request: HttpRequest, table_id: int, what: str, pk: int) -> HttpResponse:
    """A stored picture, to a viewer who may see it: a scene's (the shown one: everyone's; any
    other: the GM's) or a character's portrait (the table's). Anything else is a 404, so an
    image's existence tells no one anything."""
    table, me = member_at(request, table_id, Verb.WATCH)
    if what == "scene":
        scene = Scene.objects.filter(pk=pk, table=table).first()
        if scene is None or not may_see_scene(me, shown=scene.shown):
            raise Http404("There is no such picture.")
        if scene.fog_on and not may_see_scene(me, shown=False):
            return _fogged(request, scene)
        if not scene.image:
            raise Http404("There is no such picture.")
        field, kind = scene.image, scene.image_type
    elif what == "portrait":
        character = Character.objects.filter(pk=pk, table=table).first()
        if character is None or not character.portrait or not may_see_portrait(me):
            raise Http404("There is no such picture.")
        field, kind = character.portrait, character.portrait_type
    else:
        raise Http404("There is no such picture.")
    try:
        opened = field.storage.open(field.name, "rb")
    except (FileNotFoundError, OSError):
        raise Http404("There is no such picture.") from None
    response = FileResponse(opened, content_type=CONTENT_TYPES.get(kind, "application/octet-stream"))
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Disposition"] = "inline"
    # the URL carries the file's version: a new picture is a new URL, so this one never changes
    response["Cache-Control"] = "private, max-age=31536000, immutable"
    return response


def _fogged(request: HttpRequest, scene: Scene) -> HttpResponse:
    """The scene's picture as its fog leaves it now, for a seat that is not the GM's: whatever
    fog state its URL names (an old one is never the whole picture, nor an old state: the state
    now), rendered once per state (tabletop/services/fog.py)."""
    opened = None
    for _ in range(2):  # a change committed meanwhile may remove the state's file: rendered again
        try:
            opened = default_storage.open(fog.fogged_picture(scene), "rb")
            break
        except FileNotFoundError:
            continue
        except OSError:
            break
    if opened is None:
        raise Http404("There is no such picture.")
    response = FileResponse(opened, content_type="image/jpeg")
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Disposition"] = "inline"
    # the URL names the fog state: kept while it is the state asked for, else asked again each time
    current = request.GET.get("v", "").endswith("-" + fog_key(scene))
    response["Cache-Control"] = "private, max-age=31536000, immutable" if current else "private, no-store"
    return response


@csrf_exempt
@require_http_methods(["GET", "POST"])
def character_portrait(request: HttpRequest, table_id: int, character_id: int) -> HttpResponse:
    """A character's portrait, uploaded by its player or the GM; its tokens show it."""
    table, me = member_at(request, table_id, Verb.WATCH)
    character = get_object_or_404(Character, pk=character_id, table=table)
    if not can_edit_character(me, character):
        return render(request, "tabletop/message.html", {"message": "Only its player and the GM give "
                      f"{character.name} a portrait.", "table": table}, status=403)
    error = _too_big_error("portrait") if request.method == "POST" and _too_big(request) else None
    return _portrait(request, table, me, character, error)


@csrf_protect
def _portrait(request: HttpRequest, table: Table, me: Membership, character: Character,
              error: ServiceError | None) -> HttpResponse:
    if request.method == "POST" and error is None:
        form = PortraitForm(request.POST, request.FILES)
        try:
            if not form.is_valid():
                raise ServiceError("Choose a picture to upload.", field="portrait")
            services.character_portrait(character=character, actor=me, image=form.cleaned_data["portrait"])
        except ServiceError as exc:
            error = exc
        else:
            return redirect("table", table_id=table.pk)
    context = {"table": table, "character": character, "error": error.message if error else "",
               "portrait": portrait_url(character)}
    return render(request, "tabletop/portrait.html", context, status=error.status if error else 200)
