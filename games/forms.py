"""Reading what a request sent, for a system's parsers: one reading of each kind of field.

A form is plain data (``Form``: each field's values in the order sent, as Django's
``QueryDict.lists()`` gives them), so parsers are tested without Django. A reader that can
refuse takes ``refuse``: the system words its own message (in its own error type), the
reading itself is the same everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

Form = Mapping[str, Sequence[str]]
YES = ("1", "on", "true", "yes")
NO = ("0", "off", "false", "no")


def value(form: Form, key: str, default: str = "") -> str:
    """A field's value as Django's ``QueryDict.get`` reads it: the last one sent."""
    values = form.get(key) or ()
    return values[-1] if values else default


def values(form: Form, key: str) -> list[str]:
    return list(form.get(key) or ())


def text(form: Form, key: str, *, max_length: int, refuse: Callable[[str], Exception]) -> str:
    """A plain text field, stripped ("" when blank); longer than ``max_length`` raises
    ``refuse(key)``."""
    found = value(form, key).strip()
    if len(found) > max_length:
        raise refuse(key)
    return found


def texts(
    form: Form, keys: Sequence[str], *, max_length: int, refuse: Callable[[str], Exception],
) -> dict[str, str]:
    """The plain text fields of ``keys`` that were sent and are not blank, stripped; a field
    longer than ``max_length`` raises ``refuse(key)``."""
    found: dict[str, str] = {}
    for key in keys:
        text = value(form, key).strip()
        if text:
            if len(text) > max_length:
                raise refuse(key)
            found[key] = text
    return found


def whole(form: Form, key: str, *, refuse: Callable[[str], Exception]) -> int | None:
    """A whole number, None when the field is blank or missing; anything else raises
    ``refuse(raw)`` with what was sent (stripped)."""
    raw = value(form, key).strip()
    if raw == "":
        return None
    try:
        return int(raw)
    except ValueError:
        raise refuse(raw) from None


def bounded(query: Form, key: str, default: int, low: int, high: int) -> int:
    """A whole number for a page that never refuses (an odds calculator): clamped to
    ``low``..``high``, ``default`` when it is missing or not a number."""
    try:
        return min(high, max(low, int(value(query, key, str(default)))))
    except ValueError:
        return default


def flag(form: Form, key: str) -> bool:
    """A checkbox: ticked (or a yes of any spelling) or not."""
    return value(form, key).strip().lower() in YES


def yes_no(form: Form, key: str, *, refuse: Callable[[str], Exception]) -> bool | None:
    """A yes or a no that may be left unsaid (None); anything else raises ``refuse(raw)``."""
    raw = value(form, key).strip().lower()
    if raw in YES:
        return True
    if raw in NO:
        return False
    if raw:
        raise refuse(raw)
    return None
