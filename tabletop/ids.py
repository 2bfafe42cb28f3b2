"""Ids that come from a request: one rule for every form field, URL and argument that names a row.

A number the database cannot hold never reaches it: SQLite's driver raises OverflowError and
PostgreSQL a DataError for an integer beyond 64 bits, and a raw statement or a foreign key
lookup (``deck_id=…``) does not get the ORM's own guard, so ``deck=10**25`` had been a 500.
Here such an id is what any unknown id is: the form's field error, or a URL that does not
match (404).
"""

from __future__ import annotations

from django import forms
from django.urls import register_converter

# The largest id of a BigAutoField on every database the project runs on (SQLite INTEGER,
# PostgreSQL bigint).
MAX_ID = 2**63 - 1


class IdField(forms.IntegerField):
    """A row's id: a whole number from 1 to ``MAX_ID``; anything else is the field's error."""

    default_error_messages = {
        "invalid": "There is no such one at this table.",
        "min_value": "There is no such one at this table.",
        "max_value": "There is no such one at this table.",
    }

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(**kwargs)  # type: ignore[arg-type]


_ID = IdField()


class IdListField(forms.Field):
    """Rows' ids, each as ``IdField`` takes it, in the order given: a field repeated
    (``to=3&to=4``, as checkboxes post) or one string of them separated by commas (``"3,4"``:
    an act frame's args are strings only), so either door takes one form."""

    widget = forms.SelectMultiple  # only for reading every value of a repeated field
    default_error_messages = {
        "invalid": "There is no such one at this table.",
        "too_many": "Choose at most %(max)d.",
    }

    def __init__(self, *, max_ids: int = 100, **kwargs: object) -> None:
        self.max_ids = max_ids
        super().__init__(**kwargs)  # type: ignore[arg-type]

    def to_python(self, value: object) -> list[int]:
        if value in self.empty_values:
            return []
        values = [value] if isinstance(value, str) else value
        if not isinstance(values, (list, tuple)) or not all(isinstance(v, str) for v in values):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        parts = [part.strip() for v in values for part in v.split(",") if part.strip()]
        if len(parts) > self.max_ids:  # before parsing: a bound on the work and the query
            raise forms.ValidationError(self.error_messages["too_many"], code="too_many",
                                        params={"max": self.max_ids})
        ids = [parse_id(part) for part in parts]
        if any(i is None for i in ids):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return [i for i in ids if i is not None]


def parse_id(value: object) -> int | None:
    """``value`` as an id (a string of digits from a form or URL, or an int), or None when it
    is not one the database could hold."""
    try:
        return _ID.clean(value)
    except forms.ValidationError:
        return None


def whole(text: str, *, digits: int) -> int | None:
    """A form's small whole number (a width, an index, a version): ASCII digits, at most
    ``digits`` of them, else None. ``str.isdigit`` alone is not enough: "²" is a digit to it,
    and ``int()`` refuses it."""
    if text.isascii() and text.isdigit() and len(text) <= digits:
        return int(text)
    return None


class IdConverter:
    """``<id:name>`` in a URL: like ``<int:name>``, but an id out of range does not match."""

    regex = "[0-9]+"

    def to_python(self, value: str) -> int:
        parsed = parse_id(value)
        if parsed is None:
            raise ValueError(f"{value!r} is not an id")
        return parsed

    def to_url(self, value: int) -> str:
        return str(value)


def register() -> None:
    """Once per process, before any URL pattern is built (the app's ``ready``)."""
    register_converter(IdConverter, "id")
