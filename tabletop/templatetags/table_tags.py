"""Filters the system templates under templates/games/ may load (``{% load table_tags %}``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template

register = template.Library()


@register.filter
def get_item(mapping: Mapping[Any, Any] | None, key: Any) -> Any:
    """``mapping[key]``, or None: what the platform adds to a panel is keyed by combatant id
    (``controllers``), which Django's dotted lookup cannot take from a variable."""
    if not isinstance(mapping, Mapping):
        return None
    return mapping.get(key)
