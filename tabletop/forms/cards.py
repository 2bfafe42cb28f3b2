"""Forms of the card actions: shape and size only; services decide what is allowed.

Each cleans its fields and nothing else (no ``clean`` or ``clean_<field>``, no arguments
but the data), so an act frame's args are checked through the fields without building the
form (forms.check_fields), and the same form serves both doors (tabletop/actions.py)."""

from __future__ import annotations

from django import forms

from games.core.cards import deck_kind_choices
from tabletop.ids import IdField, IdListField
from tabletop.services.cards import MAX_DRAW


class DeckCreateForm(forms.Form):
    kind = forms.ChoiceField(choices=deck_kind_choices)
    name = forms.CharField(max_length=60, required=False)
    owner = IdField(required=False)
    allow_reversed = forms.BooleanField(required=False)
    players_may_use = forms.BooleanField(required=False)


class DeckForm(forms.Form):
    deck = IdField()


class CountForm(DeckForm):
    count = forms.IntegerField(min_value=1, max_value=MAX_DRAW)


class DrawForm(CountForm):
    to = forms.ChoiceField(choices=[("hand", "to my hand"), ("play", "face up")], required=False)


class DealForm(CountForm):
    to = IdListField()  # the players, in the order dealt to; who they may be: actions.py


class CardListField(forms.CharField):
    """Card ids, top first, separated by commas: each once, at most ``MAX_DRAW``."""

    def clean(self, value: object) -> list[str]:  # type: ignore[override]
        ids = [part.strip() for part in super().clean(value).split(",") if part.strip()]
        if not ids or len(ids) > MAX_DRAW or len(set(ids)) != len(ids):
            raise forms.ValidationError("List each card once, top first, separated by commas.")
        return ids


class ReorderForm(DeckForm):
    order = CardListField(max_length=2000)


class ConfigureForm(DeckForm):
    allow_reversed = forms.BooleanField(required=False)
    players_may_use = forms.BooleanField(required=False)
    dealer_name = forms.CharField(max_length=40, required=False)  # a player's name; empty: the GM


class CardForm(DeckForm):
    card = forms.CharField(max_length=40)


class PassForm(CardForm):
    to_name = forms.CharField(max_length=40)
