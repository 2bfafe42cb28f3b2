"""A sheet the GM designs, at a table whose game offers it (``GameSystem.designed_sheets``): the design, the characters on it, the trackers that
change in play and the rolls that read it (games/core/designs.py holds the rules of a design).

Every change is an event in the log like any other: the design is the GM's act, everyone sees it;
a sheet's change is a ``character.updated`` (an NPC whose sheet is secret tells the others only
that the GM's sheet changed); a roll is a ``sheet.rolled``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import transaction

from games.core.dice import NotationError, roll_notation
from games.core.rng import Rng
from games import registry
from games.core import designs
from games.sheets import SheetError
from tabletop.models import Audience, Character, Event, Membership, Role, SheetTemplate, Table
from tabletop.permissions import Verb, can_edit_character
from tabletop.selectors import sheet_is_secret
from tabletop.services.base import NotAllowed, NotFound, ServiceError, acting, append, lock_table
from tabletop.services.characters import (
    SheetErrors, _under_lock, _unique_name, character_create, character_event,
)

def offers_designs(table: Table) -> bool:
    """Whether the table's game lets its GM design the sheet (``GameSystem.designed_sheets``)."""
    return registry.get(table.system).designed_sheets


def _designs(table: Table) -> None:
    if not offers_designs(table):
        raise ServiceError("This table's game has its own sheet: only a table of free play has a sheet its GM designs.")


def _design_or_refusal(data: Mapping[str, Any]) -> dict[str, Any]:
    try:
        return designs.clean_design(data)
    except SheetError as exc:
        raise ServiceError(exc.message, field=exc.field) from None


def _what_changed(before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """A design's change in words: "adds Strength, Hit points; drops Wits; rolls Sneak"."""
    def named(design: Mapping[str, Any]) -> dict[str, str]:
        # the fields that hold a value, each under its group's heading: "Skills: Stealth"
        headings = {f["full"]: f["label"] for f in designs.layout(design) if f["kind"] == "group"}
        return {f["full"]: f"{headings[f['group']]}: {f['label']}" if f["group"] in headings else f["label"]
                for f in designs.valued(design)}

    was = named(before) if before else {}
    now = named(after)
    parts = []
    added = [now[k] for k in now if k not in was]
    dropped = [was[k] for k in was if k not in now]
    if added:
        parts.append("adds " + ", ".join(added))
    if dropped:
        parts.append("drops " + ", ".join(dropped))
    rolls = [r["label"] for r in after.get("rolls", [])]
    if rolls:
        parts.append("saved rolls " + ", ".join(rolls))
    return "; ".join(parts) or "rearranges it"


def design_save(*, table: Table, actor: Membership, design: Mapping[str, Any]) -> Event:
    """The GM's design of the table's sheet. Each character on the old design follows the new
    one, keeping the value of every field that stays (``design.carried_over``); a character of
    free stats, made before any design, keeps them. Refused, changing nothing, when unchanged."""
    cleaned = _design_or_refusal(design)
    with transaction.atomic():
        locked = lock_table(table.pk)
        me = acting(locked, actor, Verb.TABLE_CONFIGURE)
        _designs(locked)
        before = locked.sheet_design or {}
        if before == cleaned:
            raise ServiceError("The sheet is already designed so: nothing changed.")
        locked.sheet_design = cleaned
        locked.save(update_fields=["sheet_design"])
        count = len(designs.valued(cleaned))
        envelope = append(locked, "sheet.designed", actor=me, payload={"design": cleaned},
                          summary=f"{me.display_name} designs the sheet ({count} field{'s' * (count != 1)}): "
                                  f"{_what_changed(before, cleaned)}.")
        for character in locked.characters.filter(retired=False).select_related("owner").order_by("pk"):
            if not character.sheet.get("design"):
                continue
            character.table = locked
            values = designs.carried_over(cleaned, character.sheet.get("values") or {})
            character.sheet = {**character.sheet, "design": cleaned, "values": values}
            character.version += 1
            character.save(update_fields=["sheet", "version"])
            line = f"{character.name}'s sheet follows the new design."
            _sheet_event(locked, me, character, line)
        return envelope.event


def _sheet_event(locked: Table, me: Membership, character: Character, line: str) -> None:
    """A designed sheet's change, to everyone who may see it: an NPC's secret sheet tells the
    others only that it changed, the GM reading ``line``."""
    if sheet_is_secret(character):
        character_event(locked, "character.updated", actor=me, character=character, private_summary=line,
                        summary=f"The GM's sheet of {character.name} changes.")
    else:
        character_event(locked, "character.updated", actor=me, character=character, summary=line)


def template_save(*, table: Table, actor: Membership, name: str) -> SheetTemplate:
    """The table's design kept as one of the GM's templates, to start their other tables' sheets
    from (the same name replaces the one saved before). The GM's own shelf: not the table's log."""
    title = " ".join((name or "").split())
    if not title or len(title) > 60:
        raise ServiceError("Give the template a name of at most 60 characters.", field="name")
    with transaction.atomic():
        locked = lock_table(table.pk)
        acting(locked, actor, Verb.TABLE_CONFIGURE)
        _designs(locked)
        if not locked.sheet_design:
            raise ServiceError("Design the sheet first: there is nothing to save yet.")
        template, _ = SheetTemplate.objects.update_or_create(owner=locked.gm, name=title,
                                                             defaults={"design": locked.sheet_design})
    return template


def templates_of(table: Table) -> list[tuple[str, str, dict[str, Any]]]:
    """Where a design may start: the built-in templates and the GM's own, as (choice, name, design)."""
    built = [(f"built:{key}", name, design) for key, (name, design) in designs.BUILT_IN.items()]
    mine = [(f"mine:{t.pk}", f"{t.name} (saved)", t.design) for t in SheetTemplate.objects.filter(owner=table.gm_id)]
    return built + mine


def _values_or_refusal(design: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    try:
        return designs.clean_values(design, values)
    except SheetError as exc:
        raise SheetErrors([(f"v_{exc.field}", exc.message)]) from None


def sheet_create(*, table: Table, actor: Membership, name: str, values: Mapping[str, Any],
                 colour: str = "", notes: str = "", npc: bool = False) -> Character:
    """A character on the table's design: a player's own, or the GM's (an NPC with ``npc``)."""
    design = table.sheet_design
    if not offers_designs(table) or not design:
        raise ServiceError("The GM has not designed this table's sheet yet.")
    _values_or_refusal(design, values)
    return character_create(table=table, actor=actor, name=name, npc=npc,
                            sheet={"colour": colour, "notes": notes, "stats": [], "design": design, "values": values})


def _changes(design: Mapping[str, Any], before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    out = []
    for field in designs.valued(design):
        old, new = before.get(field["full"]), after.get(field["full"])
        if old == new:
            continue
        if field["kind"] == "track":
            out.append(f"{field['label']} {_track(old)} → {_track(new)}")
        elif field["kind"] in ("number", "checkbox"):
            out.append(f"{field['label']} {_said(old)} → {_said(new)}")
        else:
            out.append(f"{field['label']} changed")
    return out


def _track(value: Any) -> str:
    return f"{value.get('now')}/{value.get('of')}" if isinstance(value, Mapping) else "blank"


def _said(value: Any) -> str:
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def _editable(locked: Table, character: Character, actor: Membership, verb: Verb) -> tuple[Character, Membership]:
    fresh, me = _under_lock(locked, character, actor)
    me = acting(locked, me or actor, verb)
    if not can_edit_character(me, fresh):
        raise NotAllowed(f"Only {fresh.name}'s player and the GM change {fresh.name}'s sheet.")
    if not fresh.sheet.get("design"):
        raise ServiceError(f"{fresh.name}'s sheet has free stats, not the table's design.")
    fresh.table = locked
    return fresh, me


def sheet_update(*, character: Character, actor: Membership, name: str, values: Mapping[str, Any],
                 version: int | None = None) -> Character:
    """A designed sheet saved by its player or the GM. A table of free play's GM is its rules: no
    field of a designed sheet is the rules' own, so a player's change is direct, logged field by
    field with the old and the new value, as a tracker's is."""
    with transaction.atomic():
        locked = lock_table(character.table_id)
        fresh, me = _editable(locked, character, actor, Verb.CHARACTER_EDIT_OWN)
        if version is not None and version != fresh.version:
            raise ServiceError(f"{fresh.name} was changed by someone else; reload it and try again.")
        design = fresh.sheet["design"]
        cleaned = _values_or_refusal(design, values)
        before_name, before = fresh.name, fresh.sheet.get("values") or {}
        fresh.name = _unique_name(locked, name, but=fresh)
        changed = ([f"name {before_name} → {fresh.name}"] if fresh.name != before_name else []) + \
            _changes(design, before, cleaned)
        if not changed:
            raise ServiceError("Nothing changed on the sheet.")
        fresh.sheet = {**fresh.sheet, "values": cleaned}
        fresh.version += 1
        fresh.save(update_fields=["name", "sheet", "version"])
        _sheet_event(locked, me, fresh, f"{me.display_name} changes {before_name}: {'; '.join(changed)}.")
    return fresh


def _character(locked: Table, raw_id: Any) -> Character:
    character = locked.characters.filter(pk=raw_id, retired=False).select_related("owner").first() \
        if isinstance(raw_id, int) else None
    if character is None:
        raise NotFound("That character is not at this table.")
    character.table = locked
    return character


def track_change(*, table: Table, actor: Membership, character: int, field: str, change: str) -> Character:
    """A tracker's - or +, or a counter's (a number's), by its character's player or the GM,
    direct and logged: hit points lost in a fight are play, not a sheet edit awaiting approval.
    The value stays within its bounds: a track within 0 and its maximum, a number within its range."""
    if change not in ("up", "down"):
        raise ServiceError("Choose + or -.", field="change")
    with transaction.atomic():
        locked = lock_table(table.pk)
        fresh, me = _editable(locked, _character(locked, character), actor, Verb.ROLL)
        design = fresh.sheet["design"]
        spec = next((f for f in designs.valued(design) if f["full"] == field), None)
        if spec is None or spec["kind"] not in ("track", "number"):
            raise ServiceError(f"{fresh.name}'s sheet has no tracker or counter called {field}.", field="field")
        values = dict(fresh.sheet.get("values") or {})
        step = 1 if change == "up" else -1
        old = values.get(field, designs.default_value(spec))
        if spec["kind"] == "track":
            new: Any = {**old, "now": int(old["now"]) + step}
            if not 0 <= new["now"] <= new["of"]:
                raise ServiceError(f"{spec['label']} runs from 0 to {new['of']}: it is {old['now']} already.")
        else:
            new = int(old) + step
            low, high = spec.get("min"), spec.get("max")
            if (low is not None and new < low) or (high is not None and new > high):
                raise ServiceError(f"{spec['label']} is already at its {'maximum' if step > 0 else 'minimum'}, {old}.")
        values[field] = new
        fresh.sheet = {**fresh.sheet, "values": values}
        fresh.version += 1
        fresh.save(update_fields=["sheet", "version"])
        _sheet_event(locked, me, fresh, f"{me.display_name} changes {fresh.name}: {'; '.join(_changes(design, {field: old}, {field: new}))}.")
    return fresh


def sheet_roll(*, table: Table, actor: Membership, character: int, rng: Rng, notation: str = "",
               saved: int | None = None) -> Event:
    """A roll for a character that reads its sheet: a saved roll (by its place on the design) or
    typed notation, each ``@key`` replaced by the sheet's value at the moment of rolling. Its
    player rolls for it, the GM for anyone. The line shows both the notation and what it read:
    "Sneak: 1d20+@skill.stealth (@skill.stealth +4) = 17". An NPC whose sheet is secret rolls
    where everyone sees that it rolled and only the GM what it read and threw (its total less
    its dice would tell its figures); the GM rolls plain dice in the open when they want to."""
    with transaction.atomic():
        locked = lock_table(table.pk)
        me = acting(locked, actor, Verb.ROLL)
        who = _character(locked, character)
        if me.role != Role.GM and who.owner_id != me.pk:
            raise NotAllowed(f"You roll only for your own character; {who.name} is not yours.")
        design = who.sheet.get("design")
        if not design:
            raise ServiceError(f"{who.name}'s sheet has free stats: roll dice in the dice box instead.")
        if saved is not None:
            rolls = design.get("rolls", [])
            if not 0 <= saved < len(rolls):
                raise NotFound("There is no such saved roll on this sheet.")
            label, notation = rolls[saved]["label"], rolls[saved]["notation"]
        else:
            label = ""
            notation = " ".join((notation or "").split())
            if not notation:
                raise ServiceError("Type some dice, such as 1d20+@str.", field="notation")
        if len(notation) > settings.TABLETOP_MAX_NOTATION_CHARS:
            raise ServiceError(f"Dice notation is at most {settings.TABLETOP_MAX_NOTATION_CHARS} characters.",
                               field="notation")
        try:
            resolved, reads = designs.resolve(notation, design, who.sheet.get("values") or {})
            result = roll_notation(resolved, rng, max_dice=settings.TABLETOP_MAX_DICE)
        except designs.BadReference as exc:
            raise ServiceError(f"Nothing was rolled: {exc}", field="notation") from None
        except NotationError as exc:
            raise ServiceError(str(exc), field="notation") from None
        named = f"{label}: " if label else ""
        read = f" ({designs.shown_reads(reads)})" if reads else ""
        line = f"{me.display_name} rolls for {who.name}, {named}{notation}{read} = {result.total}  [{result.detail}]"
        data = {"character": who.pk, "label": label, "notation": notation, "reads": [list(r) for r in reads],
                "roll": result.as_dict()}
        if sheet_is_secret(who):
            return append(locked, "sheet.rolled", actor=me, payload={"character": who.pk, "label": label},
                          summary=f"The GM rolls {label or 'dice'} for {who.name}.",
                          private=data, private_summary=line, private_audience=Audience.GM).event
        return append(locked, "sheet.rolled", actor=me, payload=data, summary=line).event
