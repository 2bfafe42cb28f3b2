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
