"""Forms of the card actions: shape and size only; services decide what is allowed."""

from __future__ import annotations

from django import forms

from games.core.cards import deck_kind_choices
from tabletop.ids import IdField
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
    to = forms.TypedMultipleChoiceField(coerce=int, choices=[])

    def __init__(self, *args: object, players: list[tuple[int, str]], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["to"].choices = players


class ReorderForm(DeckForm):
    order = forms.CharField(max_length=2000)

    def clean_order(self) -> list[str]:
        ids = [part.strip() for part in self.cleaned_data["order"].split(",") if part.strip()]
        if not ids or len(ids) > MAX_DRAW or len(set(ids)) != len(ids):
            raise forms.ValidationError("List each card once, top first, separated by commas.")
        return ids


class ConfigureForm(DeckForm):
    allow_reversed = forms.BooleanField(required=False)
    players_may_use = forms.BooleanField(required=False)
    dealer_name = forms.CharField(max_length=40, required=False)  # a player's name; empty: the GM


class CardForm(DeckForm):
    card = forms.CharField(max_length=40)


class PassForm(CardForm):
    to_name = forms.CharField(max_length=40)
