"""Forms: shape and size of input only. What is allowed is decided by services."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm

from games import registry
from games.sheets import SheetField, format_stats
from tabletop.ids import IdField
from tabletop.services import ROLL_MODES


class SignupForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        fields = ("username",)


class TableForm(forms.Form):
    name = forms.CharField(max_length=100, label="Table name")
    system = forms.ChoiceField(label="Game system")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["system"].choices = [(s.key, s.name) for s in registry.SYSTEMS.values()]


class JoinForm(forms.Form):
    display_name = forms.CharField(max_length=40, label="Your name at the table")


class RollForm(forms.Form):
    notation = forms.CharField(
        max_length=settings.TABLETOP_MAX_NOTATION_CHARS,
        label="Dice",
        widget=forms.TextInput(attrs={"placeholder": "Dice, e.g. 2d6+3", "autocomplete": "off"}),
    )
    mode = forms.ChoiceField(choices=list(ROLL_MODES.items()), initial="public", label="Who sees it")


class ChatForm(forms.Form):
    text = forms.CharField(
        max_length=settings.TABLETOP_MAX_MESSAGE_CHARS,
        label="Message",
        widget=forms.TextInput(attrs={"autocomplete": "off", "placeholder": "Say something to the table…"}),
    )


def check_fields(form_class: type[forms.Form], data: Mapping[str, Any]) -> tuple[dict[str, Any], str | None, str]:
    """What ``form_class(data)`` would clean: ``(cleaned, None, "")``, or ``({}, field,
    message)`` for the first field it refuses, read through the class's own fields.

    Building the form deep-copies every field (so that a form shown on a page may change its
    own): for a roll, 92 µs of the 136 its check cost on every act frame (socket_actions.check;
    py-spy under bench/throughput). A check changes no field, so it reads the class's: 15 µs.
    Only for forms that clean nothing beyond their fields (no ``clean`` of their own, no
    ``clean_<field>``); others are refused here."""
    if not _cleans_only_fields(form_class):
        raise TypeError(f"{form_class.__name__} cleans more than its fields: bind the form")
    cleaned: dict[str, Any] = {}
    for name, field in form_class.base_fields.items():
        try:
            cleaned[name] = field.clean(field.widget.value_from_datadict(data, {}, name))
        except forms.ValidationError as error:
            return {}, name, str(error.messages[0])
    return cleaned, None, ""


@cache
def _cleans_only_fields(form_class: type[forms.Form]) -> bool:
    """Once per form class, not on every frame."""
    return form_class.clean is forms.Form.clean and not any(
        hasattr(form_class, f"clean_{name}") for name in form_class.base_fields
    )


class RenameForm(forms.Form):
    display_name = forms.CharField(max_length=40, label="New name")


def _field_for(spec: SheetField) -> forms.Field:
    if spec.kind == "colour":
        return forms.CharField(
            label=spec.label, max_length=7, widget=forms.TextInput(attrs={"type": "color"})
        )
    if spec.kind == "int":
        return forms.IntegerField(label=spec.label, help_text=spec.help, required=False)
    if spec.kind == "bool":
        return forms.BooleanField(label=spec.label, help_text=spec.help, required=False)
    if spec.kind == "skills":
        return forms.CharField(
            label=spec.label, required=False, max_length=2000,
            help_text=spec.help or "One per line, as 'Skill: rating' (for example 'Driving: 6').",
            widget=forms.Textarea(attrs={"rows": 3}),
        )
    if spec.kind in ("longtext", "stats"):
        return forms.CharField(
            label=spec.label,
            required=False,
            max_length=spec.max_length * (40 if spec.kind == "stats" else 1),
            help_text=spec.help,
            widget=forms.Textarea(attrs={"rows": 4}),
        )
    return forms.CharField(label=spec.label, max_length=spec.max_length, required=False, help_text=spec.help)


class CharacterForm(forms.Form):
    """The sheet of the table's system, with the name every system has."""

    name = forms.CharField(max_length=60, label="Character name")
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args: Any, system: str, player_making: bool | None = None,
                 asks: frozenset[str] = frozenset(), **kwargs: Any) -> None:
        """``player_making``: a player's form (True when making the character, False when
        editing it): the fields the rules own (SheetField.rules) are shown, not editable.
        ``asks``: the fields whose change by this player waits for the GM (a field the rules read
        of a character in play, a field chosen at its making): open, saying so
        (tabletop/services/requests.py)."""
        super().__init__(*args, **kwargs)
        self.sheet_fields = registry.get(system).sheet_fields
        for spec in self.sheet_fields:
            field = self.fields[f"sheet_{spec.key}"] = _field_for(spec)
            if spec.kind in ("stats", "skills"):
                self.initial.setdefault(f"sheet_{spec.key}", "")
            else:
                self.initial.setdefault(f"sheet_{spec.key}", spec.default)
            if spec.key in asks:
                field.help_text = " ".join(filter(None, [field.help_text,
                                                         "A change waits for the GM's approval."]))
            elif player_making is not None and not spec.player_sets(making=player_making):
                field.disabled = True
                field.help_text = " ".join(filter(None, [field.help_text, "The rules keep this; the GM can change it."]))

    @staticmethod
    def initial_from(character: Any, system: str) -> dict[str, Any]:
        initial: dict[str, Any] = {"name": character.name, "version": character.version}
        for spec in registry.get(system).sheet_fields:
            value = character.sheet.get(spec.key, spec.default)
            if spec.kind == "stats":
                value = format_stats(value)
            elif spec.kind == "skills":
                value = format_stats([[k, str(v)] for k, v in (value or {}).items()])
            initial[f"sheet_{spec.key}"] = value
        return initial

    def sheet(self) -> dict[str, Any]:
        return {spec.key: self.cleaned_data.get(f"sheet_{spec.key}") for spec in self.sheet_fields}


class RequestForm(forms.Form):
    """A sheet request the GM approves or refuses, or its player withdraws."""

    request = IdField()
    free = forms.BooleanField(required=False)  # the GM grants it without charge


class ApprovalsForm(forms.Form):
    """The table's option: players' changes to a sheet in play wait for the GM (``on``)."""

    on = forms.BooleanField(required=False)
