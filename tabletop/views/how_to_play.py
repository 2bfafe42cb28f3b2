"""A short "How to play this here" page per system: what a turn looks like at this table, which
buttons do what, what the GM does and what is hidden from whom, in plain words for players who
never read the rules. Public (no sign-in) and the same for everyone: it reads no table."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import select_template
from django.views.decorators.http import require_GET

from games import registry


GENERAL = "tabletop/how_to_play/general.html"


def page_template(key: str) -> str:
    """The template that holds a system's page (one per registered system)."""
    return f"tabletop/how_to_play/{key}.html"


@require_GET
def how_to_play(request: HttpRequest, system: str) -> HttpResponse:
    """A system's "How to play this here" page; an unknown system is a 404."""
    try:
        game = registry.get(system)
    except registry.UnknownSystem:
        raise Http404("There is no such game.") from None
    others = [s for s in registry.SYSTEMS.values() if s.key != game.key]
    # a system registered without a page of its own gets the general one, never a 500
    page = select_template([page_template(game.key), GENERAL])
    return render(request, "tabletop/how_to_play.html", {"game": game, "page": page,
                                                         "others": others})
