"""A sheet the GM designs: the GM's designer, a character's designed sheet, and the rolls and
trackers its panel posts (tabletop/services/designed.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from games.core import designs
from games.sheets import SheetError
from tabletop import ids
from tabletop.models import Character, Role, Table
from tabletop.permissions import Verb, can_edit_character
from tabletop.services import ServiceError
from tabletop.services import designed
from tabletop.views.base import member_at, posted_action

NOTICE = "tabletop/sheet_notice.html"
DESIGNER = "tabletop/sheet_design.html"
SHEET = "tabletop/designed_sheet.html"


@require_POST
def sheet_action(request: HttpRequest, table_id: int, action: str) -> HttpResponse:
    """A roll that reads a sheet, or a tracker's - or +."""
    return posted_action(request, table_id, f"sheet.{action}", notice=NOTICE,
                         unknown="There is no such thing to do with a sheet.")


def _offers_designs(table: Table) -> None:
    if not designed.offers_designs(table):
        raise Http404("This table's game has its own sheet, not one its GM designs.")


# ---- the designer: a draft the page posts back whole, saved only by "Save the design"

def _draft(post: QueryDict) -> dict[str, Any]:
    """The design as the page posted it, in its rows' order."""
    fields = []
    for i in range(designs.MAX_FIELDS + 1):
        if f"f-{i}-kind" not in post:
            break
        fields.append({k: post.get(f"f-{i}-{k}", "") for k in ("key", "label", "kind", "min", "max")})
    rolls = []
    for i in range(designs.MAX_ROLLS + 1):
        if f"r-{i}-label" not in post:
            break
        rolls.append({k: post.get(f"r-{i}-{k}", "") for k in ("label", "notation")})
    return {"fields": fields, "rolls": rolls}


def _moved(items: list[Any], index: int, by: int) -> list[Any]:
    to = index + by
    if 0 <= index < len(items) and 0 <= to < len(items):
        items[index], items[to] = items[to], items[index]
    return items


def _edit(draft: dict[str, Any], op: str, post: QueryDict, table: Table) -> tuple[dict[str, Any], str, bool]:
    """The draft after one of the page's buttons: (draft, a message to show, whether the new
    row's inputs were taken)."""
    name, _, at = op.partition(":")
    index = ids.whole(at, digits=4)
    index = -1 if index is None else index
    fields, rolls = draft["fields"], draft["rolls"]
    if name == "add":
        row = {k: post.get(f"new-{k}", "") for k in ("key", "label", "kind", "min", "max")}
        trial = {"fields": [*fields, row], "rolls": []}
        try:
            designs.clean_design(trial)
        except SheetError as exc:
            return draft, exc.message.replace(f"Field {len(fields) + 1}", "The new field"), False
        return {**draft, "fields": [*fields, row]}, "", True
    if name == "add-roll":
        row = {k: post.get(f"new-roll-{k}", "") for k in ("label", "notation")}
        try:
            designs.clean_design({"fields": fields, "rolls": [row]})
        except SheetError as exc:
            return draft, exc.message.replace("Saved roll 1", "The new roll"), False
        return {**draft, "rolls": [*rolls, row]}, "", True
    if name in ("up", "down"):
        return {**draft, "fields": _moved(fields, index, -1 if name == "up" else 1)}, "", False
    if name == "remove":
        return {**draft, "fields": [f for i, f in enumerate(fields) if i != index]}, "", False
    if name == "remove-roll":
        return {**draft, "rolls": [r for i, r in enumerate(rolls) if i != index]}, "", False
    if name == "start":
        chosen = dict((choice, design) for choice, _, design in designed.templates_of(table)).get(post.get("template", ""))
        if chosen is None:
            return draft, "Choose a template to start from.", False
        return {"fields": [dict(f) for f in chosen["fields"]], "rolls": [dict(r) for r in chosen["rolls"]]}, \
            "Started from the template: change what you like, then save the design.", False
    return draft, "", False


def _rows(draft: dict[str, Any]) -> list[dict[str, Any]]:
    """The draft's fields as the designer draws them: each as typed, with the key a roll reads it by."""
    return [{**typed, "full": laid["full"], "group": laid["group"]} for typed, laid in zip(
        draft["fields"], designs.layout({"fields": [{**f, "key": f.get("key") or "?"} for f in draft["fields"]]}))]


@require_http_methods(["GET", "POST"])
def sheet_design(request: HttpRequest, table_id: int) -> HttpResponse:
    """The GM's designer of the table's sheet."""
    table, me = member_at(request, table_id, Verb.TABLE_CONFIGURE)
    _offers_designs(table)
    draft = table.sheet_design or designs.empty()
    message, error, taken, status = "", "", False, 200
    if request.method == "POST":
        draft = _draft(request.POST)
        op = request.POST.get("op", "")
        if op == "save":
            try:
                designed.design_save(table=table, actor=me, design=draft)
            except ServiceError as exc:
                error, status = exc.message, exc.status
            else:
                return redirect("table", table_id=table.pk)
        elif op == "save-template":
            try:
                saved = designed.template_save(table=table, actor=me, name=request.POST.get("template_name", ""))
            except ServiceError as exc:
                error, status = exc.message, exc.status
            else:
                message = f"Saved as your template \u201c{saved.name}\u201d: start your other tables' sheets from it."
        else:
            draft, error, taken = _edit(draft, op, request.POST, table)
            if error and op != "start":
                status = 400
            elif error:
                message, error = error, ""
    context = {
        "table": table, "draft": draft, "rows": _rows(draft),
        "kinds": designs.KINDS, "templates": [(c, n) for c, n, _ in designed.templates_of(table)],
        "message": message, "error": error,
        "new": {} if taken or status == 200 else {k.replace("-", "_"): request.POST.get(f"new-{k}", "") for k in (
            "key", "label", "kind", "min", "max", "roll-label", "roll-notation")},
        "saved": table.sheet_design,
    }
    return render(request, DESIGNER, context, status=status)


# ---- a character on the table's sheet

def _values(post: QueryDict, design: dict[str, Any]) -> dict[str, Any]:
    """A character's values as the sheet's form posted them."""
    values: dict[str, Any] = {}
    for field in designs.valued(design):
        key = f"v_{field['full']}"
        if field["kind"] == "track":
            values[field["full"]] = {"now": post.get(key, ""), "of": post.get(f"{key}__of", "")}
        elif field["kind"] == "checkbox":
            values[field["full"]] = key in post
        else:
            values[field["full"]] = post.get(key, "")
    return values


def _sheet_rows(design: dict[str, Any], values: dict[str, Any], errors: dict[str, str]) -> list[dict[str, Any]]:
    rows = []
    for field in designs.layout(design):
        value = values.get(field["full"], designs.default_value(field)) if field["kind"] != "group" else None
        if field["kind"] == "list" and isinstance(value, list):
            value = "\n".join(value)
        rows.append({**field, "value": value, "name": f"v_{field['full']}",
                     "id": "v-" + field["full"].replace(".", "-"), "error": errors.get(f"v_{field['full']}", "")})
    return rows


def _errors(exc: ServiceError) -> tuple[dict[str, str], str]:
    pairs = getattr(exc, "errors", [(exc.field, exc.message)])
    by_field = {f: m for f, m in pairs if f and f.startswith("v_")}
    rest = " ".join(m for f, m in pairs if not (f and f.startswith("v_")))
    return by_field, rest


def _sheet_page(request: HttpRequest, table: Table, me: Any, design: dict[str, Any], values: dict[str, Any],
                save: Callable[[dict[str, Any]], object], character: Character | None,
                **shown: Any) -> HttpResponse:
    """A designed sheet's form, new or edited: on POST its values saved by ``save`` (then back to
    the table) or its refusals shown at their fields; otherwise drawn as it stands."""
    errors: dict[str, str] = {}
    error, status = "", 200
    if request.method == "POST":
        values = _values(request.POST, design)
        try:
            save(values)
        except ServiceError as exc:
            errors, error = _errors(exc)
            status = exc.status
        else:
            return redirect("table", table_id=table.pk)
    return render(request, SHEET, {"table": table, "character": character, "is_gm": me.role == Role.GM,
                                   "rows": _sheet_rows(design, values, errors), "error": error, **shown},
                  status=status)


@require_http_methods(["GET", "POST"])
def designed_sheet_new(request: HttpRequest, table_id: int) -> HttpResponse:
    """A new character on the table's design: a player's own, or the GM's NPC or character."""
    table, me = member_at(request, table_id, Verb.CHARACTER_CREATE)
    _offers_designs(table)
    design = table.sheet_design
    if not design:
        return render(request, "tabletop/message.html", {"table": table, "message":
                      "The GM has not designed this table's sheet yet: make a character with free stats instead, "
                      "or ask the GM to design one."}, status=404)
    post = request.POST
    return _sheet_page(
        request, table, me, design, {},
        lambda values: designed.sheet_create(table=table, actor=me, name=post.get("name", ""), values=values,
                                             colour=post.get("colour", ""),
                                             npc=me.role == Role.GM and post.get("kind") == "npc"),
        None, name=post.get("name", ""), colour=post.get("colour", "#6b5b95"))


@require_http_methods(["GET", "POST"])
def designed_sheet_edit(request: HttpRequest, table_id: int, character_id: int) -> HttpResponse:
    """A designed sheet, edited by its player or the GM."""
    table, me = member_at(request, table_id, Verb.CHARACTER_EDIT_OWN)
    character = get_object_or_404(Character, pk=character_id, table=table, retired=False)
    if not can_edit_character(me, character) or not character.sheet.get("design"):
        raise Http404("There is no designed sheet of yours by that name.")
    post = request.POST
    return _sheet_page(
        request, table, me, character.sheet["design"], character.sheet.get("values") or {},
        lambda values: designed.sheet_update(character=character, actor=me, name=post.get("name", ""), values=values,
                                             version=ids.whole(post.get("version", ""), digits=19)),
        character, name=post.get("name", character.name))
