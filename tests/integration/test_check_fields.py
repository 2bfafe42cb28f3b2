"""An act frame's input is checked through its form's own fields, without building the form
(tabletop.forms.check_fields): the same cleaned data, the same first refusal and message."""

from __future__ import annotations

from typing import Any

import pytest
from django import forms

from tabletop.forms import check_fields
from tabletop.live.socket_actions import ACTIONS

LONG = "x" * 3000
INPUTS: list[dict[str, Any]] = [
    {"notation": "2d6+3", "mode": "public"},
    {"notation": "  1d20  ", "mode": "blind"},
    {"notation": "", "mode": "public"},
    {"notation": "1d6" + "+1" * 200, "mode": "gm"},
    {"notation": "1d6", "mode": "everyone-but-bob"},
    {"notation": "", "mode": "nope"},  # both refused: the first field is the one named
    {"notation": "1d6"},
    {"mode": "public"},
    {},
    {"text": "  hello there "},
    {"text": "   "},
    {"text": LONG},
    {"text": "<b>x</b>", "extra": "ignored"},
]


def by_the_form(form_class: type[forms.Form], data: dict[str, Any]) -> tuple[dict[str, Any], str | None, str]:
    form = form_class(data)
    if form.is_valid():
        return form.cleaned_data, None, ""
    field, errors = next(iter(form.errors.items()))
    return {}, field, str(errors[0])


@pytest.mark.parametrize("action", sorted(ACTIONS))
@pytest.mark.parametrize("data", INPUTS, ids=range(len(INPUTS)))
def test_checking_through_the_fields_is_what_the_form_would_say(action: str, data: dict[str, Any]) -> None:
    form_class = ACTIONS[action].form
    assert check_fields(form_class, data) == by_the_form(form_class, data)


def test_a_form_that_cleans_more_than_its_fields_is_not_checked_this_way() -> None:
    class Both(forms.Form):
        a = forms.CharField()
        b = forms.CharField()

        def clean(self) -> dict[str, Any]:
            raise forms.ValidationError("a and b disagree")

    class Lower(forms.Form):
        a = forms.CharField()

        def clean_a(self) -> str:
            return self.cleaned_data["a"].lower()

    for form_class in (Both, Lower):
        with pytest.raises(TypeError, match="cleans more than its fields"):
            check_fields(form_class, {"a": "A", "b": "B"})
