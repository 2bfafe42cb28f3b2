"""Deck and card actions; what they change reaches everyone through the live feed."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from games.core.rng import system_rng
from tabletop import cardviews, services
from tabletop.card_forms import (
    CardForm, ConfigureForm, CountForm, DealForm, DeckCreateForm, DeckForm, DrawForm, PassForm, ReorderForm,
)
from tabletop.models import Campaign, Deck, Membership, Role
from tabletop.permissions import Verb
from tabletop.services import ServiceError

from tabletop.views.base import seat


# Cards


def _cards_reply(request: HttpRequest, campaign: Campaign, notice: str = "", status: int = 200) -> HttpResponse:
    if request.htmx:
        return render(request, "tabletop/cards.html#cards_notice", {"notice": notice}, status=status)
    if status >= 400:
        return render(request, "tabletop/message.html", {"message": notice, "campaign": campaign}, status=status)
    return redirect("table", campaign_id=campaign.pk)


def _member_named(campaign: Campaign, name: str) -> Membership | None:
    return campaign.members.filter(display_name__iexact=name.strip(), removed_at=None).first()


def _form_error(form: Any) -> str:
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


@require_POST
def deck_create(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign, me = seat(request, campaign_id, Verb.DECK_MANAGE)
    form = DeckCreateForm(request.POST)
    if not form.is_valid():
        return _cards_reply(request, campaign, _form_error(form), 400)
    data = form.cleaned_data
    owner = Membership.objects.filter(pk=data["owner"], campaign=campaign).first() if data["owner"] else None
    if data["owner"] and owner is None:
        return _cards_reply(request, campaign, "A personal deck belongs to a player at this table.", 400)
    try:
        services.deck_create(
            campaign=campaign, actor=me, kind=data["kind"], name=data["name"], owner=owner,
            allow_reversed=data["allow_reversed"], players_may_use=data["players_may_use"], rng=system_rng(),
        )
    except ServiceError as exc:
        return _cards_reply(request, campaign, exc.message, exc.status)
    return _cards_reply(request, campaign)


def _deck(campaign: Campaign, form: Any) -> Deck:
    return get_object_or_404(Deck, pk=form.cleaned_data["deck"], campaign=campaign)


DECK_ACTIONS: dict[str, type] = {
    "draw": DrawForm, "deal": DealForm, "shuffle": DeckForm, "reshuffle_discard": DeckForm,
    "recall": DeckForm, "peek": CountForm, "reorder": ReorderForm, "configure": ConfigureForm,
}


@require_POST
def deck_action(request: HttpRequest, campaign_id: int, action: str) -> HttpResponse:
    campaign, me = seat(request, campaign_id, Verb.CARD_PLAY)
    form_class = DECK_ACTIONS.get(action)
    if form_class is None:
        raise Http404("There is no such deck action.")
    if form_class is DealForm:
        players = [(m.pk, m.display_name) for m in campaign.members.filter(role=Role.PLAYER, removed_at=None)]
        form = DealForm(request.POST, players=players)
    else:
        form = form_class(request.POST)
    if not form.is_valid():
        return _cards_reply(request, campaign, _form_error(form), 400)
    data = form.cleaned_data
    deck = _deck(campaign, form)
    rng = system_rng()
    try:
        if action == "draw":
            services.pile_draw(deck=deck, actor=me, count=data["count"], to=data["to"] or "hand")
        elif action == "deal":
            to = list(campaign.members.filter(pk__in=data["to"]))
            services.pile_deal(deck=deck, actor=me, count=data["count"], to=to)
        elif action == "shuffle":
            services.deck_shuffle(deck=deck, actor=me, rng=rng)
        elif action == "reshuffle_discard":
            services.deck_discard_reshuffle(deck=deck, actor=me, rng=rng)
        elif action == "recall":
            services.deck_recall(deck=deck, actor=me, rng=rng)
        elif action == "peek":
            tokens = services.deck_peek(deck=deck, actor=me, count=data["count"])
            context = {"peeked": [cardviews.face(deck.pk, t) for t in tokens], "deck_id": deck.pk,
                       "campaign_id": campaign.pk}
            return render(request, "tabletop/cards.html#peek_result", context)
        elif action == "reorder":
            services.deck_reorder(deck=deck, actor=me, order=data["order"])
        elif action == "configure":
            dealer = _member_named(campaign, data["dealer_name"]) if data["dealer_name"].strip() else None
            if data["dealer_name"].strip() and dealer is None:
                return _cards_reply(request, campaign, "Nobody at this table has that name.", 400)
            services.deck_configure(deck=deck, actor=me, allow_reversed=data["allow_reversed"],
                                    players_may_use=data["players_may_use"], dealer=dealer)
    except ServiceError as exc:
        return _cards_reply(request, campaign, exc.message, exc.status)
    return _cards_reply(request, campaign)


CARD_ACTIONS = {"play", "discard", "return_top", "return_bottom", "pass"}


@require_POST
def card_action(request: HttpRequest, campaign_id: int, action: str) -> HttpResponse:
    campaign, me = seat(request, campaign_id, Verb.CARD_PLAY)
    if action not in CARD_ACTIONS:
        raise Http404("There is no such card action.")
    form = (PassForm if action == "pass" else CardForm)(request.POST)
    if not form.is_valid():
        return _cards_reply(request, campaign, _form_error(form), 400)
    deck_id, card_id = form.cleaned_data["deck"], form.cleaned_data["card"]
    try:
        if action == "play":
            services.card_play(campaign=campaign, actor=me, deck_id=deck_id, card_id=card_id)
        elif action == "discard":
            services.card_discard(campaign=campaign, actor=me, deck_id=deck_id, card_id=card_id)
        elif action in ("return_top", "return_bottom"):
            services.card_return(campaign=campaign, actor=me, deck_id=deck_id, card_id=card_id,
                                 where="top" if action == "return_top" else "bottom")
        else:
            to = _member_named(campaign, form.cleaned_data["to_name"])
            if to is None:
                return _cards_reply(request, campaign, "Nobody at this table has that name.", 400)
            services.card_pass(campaign=campaign, actor=me, deck_id=deck_id, card_id=card_id, to=to)
    except ServiceError as exc:
        return _cards_reply(request, campaign, exc.message, exc.status)
    return _cards_reply(request, campaign)
