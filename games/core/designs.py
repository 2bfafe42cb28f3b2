"""A Freeform table's sheet, as its GM designs it: an ordered list of fields and the saved rolls
that read them.

A design is plain data, ``{"fields": [...], "rolls": [...]}``. A field is ``{"key", "label",
"kind"}`` with, for a number, an optional ``min`` and ``max``, and for a track the ``max`` a new
character starts with. A group (kind ``group``) is a heading: the fields after it, up to the next
group, are its own, their keys read ``<group>.<key>`` ("skill.stealth"). A saved roll is
``{"label", "notation"}``, its notation naming fields as ``@key`` ("1d20+@str+@skill.melee").

A character on a design holds its values by full key: a number an int, a track ``{"now", "of"}``,
a checkbox a bool, a text or long text a string, a list a list of strings. Nothing here imports
Django: the platform stores the design on the table and a copy of it on each sheet that follows it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from games.sheets import SheetError

KINDS = {
    "number": "Number", "track": "Track (current / max)", "checkbox": "Checkbox", "text": "Text",
    "longtext": "Long text", "list": "List (one per line)", "group": "Group heading",
}
MAX_FIELDS = 60
MAX_ROLLS = 20
MAX_NUMBER = 1_000_000
_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]{0,39}$")
# a reference in a roll: @ and a key, ending before anything that is not a key's character
# (a trailing dot is punctuation, not part of the key: "@str." reads "str")
REFERENCE = re.compile(r"@([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_0-9]+)*)")
_TEXT_LIMITS = {"text": 200, "longtext": 4000}
_LIST_LINES, _LIST_LINE = 40, 200


class DesignError(SheetError):
    """A design the GM must fix: ``field`` names the row at fault ("field-3", "roll-1")."""


def empty() -> dict[str, Any]:
    return {"fields": [], "rolls": []}


def _whole(raw: Any, what: str, where: str) -> int | None:
    if raw in (None, ""):
        return None
    if isinstance(raw, bool):
        raise DesignError(where, f"{what} must be a whole number.")
    try:
        number = int(str(raw).strip())
    except ValueError:
        raise DesignError(where, f"{what} must be a whole number.") from None
    if abs(number) > MAX_NUMBER:
        raise DesignError(where, f"{what} is at most {MAX_NUMBER:,} either way.")
    return number


def clean_design(data: Mapping[str, Any]) -> dict[str, Any]:
    """The design as stored, or a ``DesignError`` naming the first row at fault in a sentence."""
    fields_in = list(data.get("fields") or [])
    rolls_in = list(data.get("rolls") or [])
    if len(fields_in) > MAX_FIELDS:
        raise DesignError("fields", f"A sheet holds at most {MAX_FIELDS} fields.")
    if len(rolls_in) > MAX_ROLLS:
        raise DesignError("rolls", f"A sheet holds at most {MAX_ROLLS} saved rolls.")
    fields: list[dict[str, Any]] = []
    seen: set[str] = set()
    group = ""
    for number, raw in enumerate(fields_in, start=1):
        where = f"field-{number}"
        key = str(raw.get("key") or "").strip()
        label = " ".join(str(raw.get("label") or "").split())
        kind = str(raw.get("kind") or "")
        if kind not in KINDS:
            raise DesignError(where, f"Field {number}: choose its kind ({', '.join(KINDS.values()).lower()}).")
        if not _KEY.match(key) or key.endswith(".") or ".." in key:
            raise DesignError(where, f"Field {number}: a key is letters, digits, dots and underscores, "
                                     "starting with a letter, at most 40 characters (like str or skill_points).")
        if len(label) > 60:
            raise DesignError(where, f"Field {number}: a label is at most 60 characters.")
        label = label or key.replace("_", " ").capitalize()
        field: dict[str, Any] = {"key": key, "label": label, "kind": kind}
        if kind == "group":
            group = key
            full = key
        else:
            full = f"{group}.{key}" if group else key
        if full in seen:
            raise DesignError(where, f"Field {number}: the key {full} is used twice; give it another.")
        seen.add(full)
        if kind == "number":
            low = _whole(raw.get("min"), f"Field {number}'s minimum", where)
            high = _whole(raw.get("max"), f"Field {number}'s maximum", where)
            if low is not None and high is not None and low > high:
                raise DesignError(where, f"Field {number}: its minimum {low} is above its maximum {high}.")
            field.update({"min": low, "max": high})
        if kind == "track":
            high = _whole(raw.get("max"), f"Field {number}'s maximum", where)
            if high is not None and high < 1:
                raise DesignError(where, f"Field {number}: a track's maximum is at least 1.")
            field["max"] = high if high is not None else 10
        fields.append(field)
    rolls = []
    for number, raw in enumerate(rolls_in, start=1):
        where = f"roll-{number}"
        label = " ".join(str(raw.get("label") or "").split())
        notation = " ".join(str(raw.get("notation") or "").split())
        if not label or len(label) > 40:
            raise DesignError(where, f"Saved roll {number}: give it a name of at most 40 characters.")
        if not notation or len(notation) > 120:
            raise DesignError(where, f"Saved roll {number}: give its dice, at most 120 characters (like 1d20+@str).")
        for ref in REFERENCE.findall(notation):
            if ref not in seen and not (ref.endswith(".max") and ref[:-4] in seen):
                raise DesignError(where, f"Saved roll {number} ({label}) reads @{ref}, which is no field of this sheet.")
        rolls.append({"label": label, "notation": notation})
    return {"fields": fields, "rolls": rolls}


def layout(design: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The design's fields with their full keys (``full``) and their group's key (``group``):
    what a sheet and its form are drawn from, in the GM's order."""
    out, group = [], ""
    for field in design.get("fields", []):
        if field["kind"] == "group":
            group = field["key"]
            out.append({**field, "full": field["key"], "group": ""})
        else:
            out.append({**field, "full": f"{group}.{field['key']}" if group else field["key"], "group": group})
    return out


def valued(design: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The fields that hold a value (every kind but a group's heading)."""
    return [f for f in layout(design) if f["kind"] != "group"]


def default_value(field: Mapping[str, Any]) -> Any:
    kind = field["kind"]
    if kind == "number":
        low, high = field.get("min"), field.get("max")
        return low if low is not None and low > 0 else (high if high is not None and high < 0 else 0)
    if kind == "track":
        return {"now": field.get("max") or 10, "of": field.get("max") or 10}
    if kind == "checkbox":
        return False
    if kind == "list":
        return []
    return ""


def _number(raw: Any, label: str, key: str) -> int:
    if isinstance(raw, bool):
        raise SheetError(key, f"{label} must be a whole number.")
    try:
        return int(str(raw).strip()) if not isinstance(raw, int) else raw
    except ValueError:
        raise SheetError(key, f"{label} must be a whole number.") from None


def clean_values(design: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, Any]:
    """A character's values on ``design`` from ``data`` (stored values, or a form's strings):
    each checked against its kind, a missing one at its default; a ``SheetError`` at the first
    at fault (numbers within their range, a track's current within 0 and its maximum)."""
    values: dict[str, Any] = {}
    for field in valued(design):
        key, label, kind = field["full"], field["label"], field["kind"]
        raw = data.get(key, None)
        if raw is None or (raw == "" and kind in ("number", "track")):
            values[key] = default_value(field)
            continue
        if kind == "number":
            number = _number(raw, label, key)
            low, high = field.get("min"), field.get("max")
            if (low is not None and number < low) or (high is not None and number > high):
                span = f"from {low} to {high}" if low is not None and high is not None else \
                    f"at least {low}" if low is not None else f"at most {high}"
                raise SheetError(key, f"{label} runs {span}; {number} is outside it.")
            if abs(number) > MAX_NUMBER:
                raise SheetError(key, f"{label} is at most {MAX_NUMBER:,} either way.")
            values[key] = number
        elif kind == "track":
            raw = raw if isinstance(raw, Mapping) else {"now": raw}
            of_raw, now_raw = raw.get("of"), raw.get("now")
            of = field.get("max") or 10 if of_raw in (None, "") else _number(of_raw, f"{label}'s maximum", key)
            now = of if now_raw in (None, "") else _number(now_raw, label, key)
            if of < 1 or of > MAX_NUMBER:
                raise SheetError(key, f"{label}'s maximum runs from 1 to {MAX_NUMBER:,}.")
            if not 0 <= now <= of:
                raise SheetError(key, f"{label} runs from 0 to its maximum {of}; {now} is outside it.")
            values[key] = {"now": now, "of": of}
        elif kind == "checkbox":
            values[key] = raw in (True, "on", "1", "true", "yes")
        elif kind == "list":
            lines = raw if isinstance(raw, list) else str(raw).splitlines()
            lines = [" ".join(str(line).split()) for line in lines]
            lines = [line for line in lines if line]
            if len(lines) > _LIST_LINES or any(len(line) > _LIST_LINE for line in lines):
                raise SheetError(key, f"{label} holds at most {_LIST_LINES} lines of {_LIST_LINE} characters.")
            values[key] = lines
        else:
            text = str(raw).replace("\r\n", "\n")
            text = text if kind == "longtext" else " ".join(text.split())
            if len(text) > _TEXT_LIMITS[kind]:
                raise SheetError(key, f"{label} is at most {_TEXT_LIMITS[kind]} characters.")
            values[key] = text
    return values


def carried_over(design: Mapping[str, Any], old: Mapping[str, Any]) -> dict[str, Any]:
    """A character's values on a new design: a field that stays (same full key, same kind of
    value) keeps its value where the new design allows it; the rest start at their defaults."""
    values = {}
    for field in valued(design):
        try:
            values.update(clean_values({"fields": [{**field, "key": field["full"]}]}, {field["full"]: old.get(field["full"])}))
        except SheetError:
            values[field["full"]] = default_value(field)
    return values


# ---- rolls that read a sheet

class BadReference(ValueError):
    """A roll naming what the sheet cannot give: the message says what, in a sentence."""


def read(design: Mapping[str, Any], values: Mapping[str, Any], ref: str) -> int:
    """What ``@ref`` reads on a sheet: a number's value, a track's current value (``.max`` its
    maximum), a checkbox's 1 or 0; a refusal for anything else."""
    fields = {f["full"]: f for f in valued(design)}
    key, part = ref, "now"
    if ref not in fields and ref.endswith(".max") and fields.get(ref[:-4], {}).get("kind") == "track":
        key, part = ref[:-4], "of"
    field = fields.get(key)
    if field is None:
        known = ", ".join("@" + k for k in fields if fields[k]["kind"] in ("number", "track", "checkbox"))
        raise BadReference(f"@{ref} is not on this sheet" + (f" (it has {known})." if known else "."))
    value = values.get(key, default_value(field))
    if field["kind"] == "number":
        return int(value)
    if field["kind"] == "track":
        return int((value or {}).get(part, 0))
    if field["kind"] == "checkbox":
        return 1 if value else 0
    raise BadReference(f"@{ref} is {field['label']}, a {KINDS[field['kind']].lower()}: a roll reads only numbers, tracks and checkboxes.")


def resolve(notation: str, design: Mapping[str, Any], values: Mapping[str, Any]) -> tuple[str, list[tuple[str, int]]]:
    """``notation`` with each ``@ref`` replaced by the number it reads now (a negative one in
    brackets, so ``1d20+@str`` with Str -1 rolls ``1d20+(-1)``), and what each read, in order."""
    read_: list[tuple[str, int]] = []

    def swap(match: re.Match[str]) -> str:
        number = read(design, values, match.group(1))
        read_.append((match.group(1), number))
        return str(number) if number >= 0 else f"({number})"

    return REFERENCE.sub(swap, notation), read_


def shown_reads(reads: Sequence[tuple[str, int]]) -> str:
    """What a roll read, as its log line shows it: "(@str +3, @skill.stealth +4)"."""
    return ", ".join(f"@{ref} {number:+d}" for ref, number in dict(reads).items())


# ---- built-in templates: where a GM starts

BUILT_IN: dict[str, tuple[str, dict[str, Any]]] = {
    "blank": ("Blank", empty()),
    "d20": ("d20 fantasy", {
        "fields": [
            {"key": "hp", "label": "Hit points", "kind": "track", "max": 10},
            {"key": "ac", "label": "Armour class", "kind": "number", "min": 0, "max": 30},
            {"key": "str", "label": "Strength", "kind": "number", "min": -5, "max": 10},
            {"key": "dex", "label": "Dexterity", "kind": "number", "min": -5, "max": 10},
            {"key": "wis", "label": "Wisdom", "kind": "number", "min": -5, "max": 10},
            {"key": "skill", "label": "Skills", "kind": "group"},
            {"key": "melee", "label": "Melee", "kind": "number", "min": 0, "max": 10},
            {"key": "stealth", "label": "Stealth", "kind": "number", "min": 0, "max": 10},
            {"key": "inspired", "label": "Inspired", "kind": "checkbox"},
            {"key": "gear", "label": "Gear", "kind": "list"},
        ],
        "rolls": [{"label": "Attack", "notation": "1d20+@str+@skill.melee"},
                  {"label": "Sneak", "notation": "1d20+@dex+@skill.stealth"}],
    }),
    "percentile": ("Percentile", {
        "fields": [
            {"key": "hp", "label": "Health", "kind": "track", "max": 12},
            {"key": "sanity", "label": "Sanity", "kind": "track", "max": 60},
            {"key": "skill", "label": "Skills", "kind": "group"},
            {"key": "spot", "label": "Spot hidden", "kind": "number", "min": 1, "max": 99},
            {"key": "dodge", "label": "Dodge", "kind": "number", "min": 1, "max": 99},
            {"key": "notes", "label": "Notes", "kind": "longtext"},
        ],
        # a percentile roll is read against the skill by the table: the roll shows both
        "rolls": [{"label": "Spot hidden", "notation": "1d100"}],
    }),
}
