"""The forms of a sheet its GM designed, in play (tabletop/services/designed.py): shape and size only."""

from __future__ import annotations

from django import forms
from django.conf import settings

from tabletop.ids import IdField


class SheetRollForm(forms.Form):
    """A roll for a character that reads its sheet: a saved roll by its place, or typed notation."""

    character = IdField()
    saved = forms.IntegerField(required=False, min_value=0, max_value=99)
    notation = forms.CharField(required=False, max_length=settings.TABLETOP_MAX_NOTATION_CHARS, label="Dice")


class TrackForm(forms.Form):
    """A tracker's or a counter's - or + on a character's sheet."""

    character = IdField()
    field = forms.CharField(max_length=80)
    change = forms.ChoiceField(choices=[("up", "+"), ("down", "-")])
