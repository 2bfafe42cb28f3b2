"""The seat's view in a template: one filter per rule of tabletop/feed/seat.py, on the
``seat`` (a ``tabletop.feed.seat.Seat``) the context gives, so a template draws only what that
seat may see and use::

    {% load seat_tags %}
    {% if seat|may:"gm" %}<form class="gm-only" ...>{% endif %}
    {% if seat|controls:c.owner_id %}<div class="controller-only" data-controller="...">{% endif %}

The element keeps its mark (the page's CSS and tabletop/feed/marks.py read it). A context without a
seat (``seat`` unset or empty) keeps every element: what a seat may not use is then taken out
of the HTML afterwards, by tabletop/feed/marks.py.
"""

from __future__ import annotations

from typing import Any

from django import template

from tabletop.feed import seat as rules

register = template.Library()


@register.filter
def may(seat: Any, who: str) -> bool:
    """``seat|may:"gm"``, ``"player"`` or ``"seated"``: ``gm-only``, ``player-only``,
    ``data-only``."""
    return not seat or rules.may(seat, who)


@register.filter
def acts(seat: Any) -> bool:
    """``seat|acts``: anything that posts to the table, ``card-tools``, ``deal-tools``."""
    return not seat or rules.acts(seat)


@register.filter
def controls(seat: Any, controller: Any) -> bool:
    """``seat|controls:member_id``: ``controller-only`` with ``data-controller``, and an item of
    a ``mine-only`` list."""
    return not seat or rules.controls(seat, controller)


@register.filter
def owns(seat: Any, owner: Any) -> bool:
    """``seat|owns:member_id``: ``edit-link`` with ``data-owner``."""
    return not seat or rules.owns(seat, owner)


@register.filter
def deals(seat: Any, dealers: Any) -> bool:
    """``seat|deals:deck.dealers``: an element with ``data-dealers`` (``dealer-tools``, a deck
    to deal from)."""
    return not seat or rules.deals(seat, dealers)


@register.filter
def draws(seat: Any, deck: Any) -> bool:
    """``seat|draws:deck`` (a deck's view: ``players_may_use``, ``owner_id``): ``deck-use`` with
    ``data-open`` and ``data-owner``."""
    return not seat or rules.draws(seat, bool(deck["players_may_use"]), deck["owner_id"])
