"""Scene forms: shape and size of input only. Whether a picture is one, whether a point is on
the scene and who may do what are the services' to decide (tabletop/services/scenes.py)."""

from __future__ import annotations

from django import forms

from tabletop.ids import IdField
from tabletop.selectors.scenes import BOARD_SIZES

SHAPES = [("wide", "Wide"), ("square", "Square"), ("tall", "Tall")]
assert {key for key, _ in SHAPES} == set(BOARD_SIZES)
# a coordinate the database could hold; whether it lies on the scene is the service's answer
FAR = 10**9


class SceneForm(forms.Form):
    kind = forms.ChoiceField(choices=[("picture", "A picture"), ("board", "A plain board")])
    name = forms.CharField(max_length=60, required=False)
    image = forms.FileField(required=False)
    colour = forms.CharField(max_length=7, required=False)
    shape = forms.ChoiceField(choices=SHAPES, required=False)


class PlaceForm(forms.Form):
    scene = IdField()
    character = IdField()
    hidden = forms.BooleanField(required=False)


class MoveForm(forms.Form):
    x = forms.IntegerField(min_value=-FAR, max_value=FAR)
    y = forms.IntegerField(min_value=-FAR, max_value=FAR)


class PortraitForm(forms.Form):
    portrait = forms.FileField(required=False)


class GridForm(forms.Form):
    """A scene's grid: numbers as typed (the service says what is in range, in its words)."""
    kind = forms.CharField(max_length=8)
    size = forms.CharField(max_length=24)
    x = forms.CharField(max_length=24, required=False)
    y = forms.CharField(max_length=24, required=False)
    shown = forms.BooleanField(required=False)
    snap = forms.BooleanField(required=False)
    distance = forms.CharField(max_length=24)
    unit = forms.CharField(max_length=40, required=False)


class StyleForm(forms.Form):
    """A token's look: its size in cells, its colour ("" for its character's) and its label."""
    size = forms.CharField(max_length=8)
    colour = forms.CharField(max_length=7, required=False)
    label = forms.CharField(max_length=100, required=False)
