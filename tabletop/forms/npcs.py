"""Forms of the GM's NPC tools and bestiary: shape and size only; which character, entry or scene
an id names, and what is allowed, are the services' (tabletop/services/npcs.py).

Each cleans its fields and nothing else, so an act frame's args are checked through its fields
(forms.check_fields) and the same form serves both doors (tabletop/actions.py)."""

from __future__ import annotations

from django import forms

from tabletop.ids import IdField
from tabletop.services.npcs import MAX_FIELDED


class NpcForm(forms.Form):
    """One character: to copy, reset, bring back or save to the bestiary."""

    character = IdField()


class RetireForm(forms.Form):
    """One character to retire, or every NPC out of the fight (``fallen``)."""

    character = IdField(required=False)
    fallen = forms.BooleanField(required=False)


class _Fielding(forms.Form):
    count = forms.IntegerField(min_value=1, max_value=MAX_FIELDED,
                               error_messages={"min_value": f"Field 1 to {MAX_FIELDED} at a time.",
                                               "max_value": f"Field 1 to {MAX_FIELDED} at a time."})
    scene = IdField(required=False)  # blank: the scene shown, if any
    hidden = forms.BooleanField(required=False)


class AddForm(_Fielding):
    """Several NPCs from one NPC's sheet."""

    character = IdField()


class BringForm(_Fielding):
    """Several NPCs from an entry of the GM's bestiary."""

    entry = IdField()


class SaveForm(NpcForm):
    replace = forms.BooleanField(required=False)


class EntryForm(forms.Form):
    entry = IdField()
