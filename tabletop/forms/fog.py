"""Forms of the GM's fog tools: shape and size only; what the numbers mean on the scene, and
whether they may, are the service's (tabletop/services/fog.py).

Each cleans its fields and nothing else, so an act frame's args are checked through its fields
(forms.check_fields) and the same form serves both doors (tabletop/actions.py)."""

from __future__ import annotations

from django import forms

from tabletop.ids import IdField
from tabletop.services.fog import MAX_POINTS

_NUMBER = {"invalid": "A number, please."}


class FogSceneForm(forms.Form):
    """The scene whose fog is covered all over, cleared or taken back a change."""

    scene = IdField()


class FogShapeForm(FogSceneForm):
    """A rectangle (x, y, w, h), a polygon (points: "x,y x,y ...") or a brush stroke (points and
    its radius r), in the scene's own coordinates."""

    shape = forms.ChoiceField(choices=[("rect", "rectangle"), ("poly", "polygon"), ("brush", "brush")],
                              error_messages={"invalid_choice": "The fog's shapes are a rectangle, a polygon "
                                                                "and a brush."})
    x = forms.FloatField(required=False, error_messages=_NUMBER)
    y = forms.FloatField(required=False, error_messages=_NUMBER)
    w = forms.FloatField(required=False, error_messages=_NUMBER)
    h = forms.FloatField(required=False, error_messages=_NUMBER)
    r = forms.FloatField(required=False, error_messages=_NUMBER)
    # a point is at most "12345.6,12345.6 " (16 characters)
    points = forms.CharField(required=False, strip=True, max_length=16 * MAX_POINTS + 64,
                             error_messages={"max_length": f"A shape has at most {MAX_POINTS} points: draw it "
                                                           "in parts."})
