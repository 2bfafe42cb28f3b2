"""An act frame's input is checked through its form's own fields, without building the form
(tabletop.forms.check_fields): the same cleaned data, the same first refusal and message."""

from __future__ import annotations

from typing import Any

import pytest
from django import forms
from django.http import QueryDict

from tabletop.forms import check_fields
from tabletop.actions import ACTIONS

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
    # the card actions' shapes
    {"deck": "3", "count": "2", "to": "play"},
    {"deck": "x", "count": "2"},
    {"deck": str(2**63), "count": "1"},
    {"deck": "3", "count": "0"},
    {"deck": "3", "count": "21", "card": "std:S:1"},
    {"deck": "3", "count": "1", "to": "4, 5"},
    {"deck": "3", "count": "1", "to": "4,x"},
    {"deck": "3", "count": "1", "to": ",,"},
    {"deck": "3", "count": "1", "to": ",".join(["4"] * 101)},
    {"deck": "3", "order": "std:S:1, std:H:2"},
    {"deck": "3", "order": "std:S:1, std:S:1"},
    {"deck": "3", "order": " , "},
    {"deck": "3", "card": "std:S:1", "to_name": "Bob"},
    {"deck": "3", "allow_reversed": "false", "players_may_use": "on", "dealer_name": "x" * 41},
    {"kind": "tarot", "owner": "", "allow_reversed": "on", "players_may_use": "false", "name": "Spare"},
    {"kind": "nope", "owner": "-1"},
]


def by_the_form(form_class: type[forms.Form], data: dict[str, Any]) -> tuple[dict[str, Any], str | None, str]:
    form = form_class(data)
    if form.is_valid():
        return form.cleaned_data, None, ""
    field, errors = next(iter(form.errors.items()))
    return {}, field, str(errors[0])


# the platform's actions with a form of their own (a session's opening and close have none: the
# close reads its system's fields through the system's parser)
@pytest.mark.parametrize("action", sorted(name for name, action in ACTIONS.items() if action.form is not None))
@pytest.mark.parametrize("data", INPUTS, ids=range(len(INPUTS)))
def test_checking_through_the_fields_is_what_the_form_would_say(action: str, data: dict[str, Any]) -> None:
    form_class = ACTIONS[action].form
    assert check_fields(form_class, data) == by_the_form(form_class, data)


def test_a_deal_takes_its_players_repeated_as_a_form_posts_them_or_in_one_string() -> None:
    form_class = ACTIONS["deck.deal"].form
    posted = QueryDict("deck=3&count=1&to=5&to=4")
    assert by_the_form(form_class, posted) == check_fields(form_class, posted)
    assert check_fields(form_class, {"deck": "3", "count": "1", "to": "5,4"}) == (
        {"deck": 3, "count": 1, "to": [5, 4]}, None, "")
    assert by_the_form(form_class, posted)[0]["to"] == [5, 4]


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
