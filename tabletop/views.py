"""Thin views: parse the request, call one service or selector, render.

Forms post with htmx and get their own partial back (with an inline error and a 4xx
status when refused); without JavaScript they post normally and are redirected.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import segno
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import registry
from games.core.cards import deck_kind_choices
from games.core.rng import system_rng
from tabletop import cardviews, rendering, selectors, services
from tabletop.card_forms import (
    CardForm, ConfigureForm, CountForm, DealForm, DeckCreateForm, DeckForm, DrawForm, PassForm, ReorderForm,
)
from tabletop.forms import CampaignForm, CharacterForm, ChatForm, JoinForm, RenameForm, RollForm, SignupForm
from tabletop.models import Campaign, Character, Deck, Membership, Role
from tabletop.permissions import Seat, Verb, can, can_edit_character, seat_of
from tabletop.services import ServiceError

TABLE = "tabletop/table.html"


def _seat(request: HttpRequest, campaign_id: int, verb: Verb) -> tuple[Campaign, Membership]:
    """The table and the requester's seat, if that seat may ``verb``; 404 or 403 otherwise."""
    campaign = get_object_or_404(Campaign, pk=campaign_id)
    member = selectors.membership_for(campaign, request.user)
    seat = seat_of(member)
    if not can(seat, verb):
        if seat == Seat.REMOVED:
            raise PermissionDenied("The GM removed you from this table.")
        if seat == Seat.STRANGER:
            raise PermissionDenied("You are not at this table. Ask the GM for a link.")
        raise PermissionDenied("Your seat at this table does not allow that.")
    assert member is not None
    return campaign, member


def _form_response(
    request: HttpRequest, partial: str, context: dict[str, Any], *, status: int = 200
) -> HttpResponse:
    if request.htmx:
        return render(request, f"{TABLE}#{partial}", context, status=status)
    return render(request, "tabletop/form_page.html", {**context, "partial": partial}, status=status)


def _refusal(form: Any, error: ServiceError) -> None:
    field = error.field if error.field in form.fields else None
    form.add_error(field, error.message)


# Accounts and campaigns


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form}, status=400 if form.errors else 200)


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    context: dict[str, Any] = {"systems": registry.SYSTEMS.values()}
    if request.user.is_authenticated:
        context["seats"] = (
            Membership.objects.filter(user=request.user, removed_at=None)
            .select_related("campaign")
            .order_by("-campaign__created")
        )
        context["can_host"] = request.user.has_usable_password()
        context["form"] = CampaignForm()
    return render(request, "tabletop/home.html", context)


@require_POST
@login_required
def campaign_create(request: HttpRequest) -> HttpResponse:
    if not request.user.has_usable_password():
        raise PermissionDenied("Sign up to host a table of your own.")
    form = CampaignForm(request.POST)
    if form.is_valid():
        try:
            campaign = services.campaign_create(
                gm=request.user, name=form.cleaned_data["name"], system=form.cleaned_data["system"]
            )
        except ServiceError as exc:
            _refusal(form, exc)
        else:
            return redirect("table", campaign_id=campaign.pk)
    seats = Membership.objects.filter(user=request.user, removed_at=None).select_related("campaign")
    return render(
        request,
        "tabletop/home.html",
        {"form": form, "seats": seats, "can_host": True, "systems": registry.SYSTEMS.values()},
        status=400,
    )


# The table


def _table_context(request: HttpRequest, campaign: Campaign, member: Membership) -> dict[str, Any]:
    state = selectors.table_state(campaign, member)
    cards = selectors.card_state(campaign, member)
    for m in state.members:
        m["cards_in_hand"] = cards["hand_counts"].get(m["id"], 0)
    state_of_procedure = selectors.procedure_state(campaign)
    return {
        "panel": selectors.panel_for(campaign, state_of_procedure) if state_of_procedure is not None else None,
        "procedure_panel": f"games/{campaign.system}/panel.html#panel",
        "procedure_notice": f"games/{campaign.system}/panel.html#rounds_notice",
        "cards": cards,
        "me_id": member.pk,
        "deck_kinds": deck_kind_choices(),
        "state": state,
        "entries": [rendering.event_entry(s.event, s.lens) for s in state.log],
        "campaign": campaign,
        "campaign_id": campaign.pk,
        "me": member,
        "is_gm": member.role == Role.GM,
        "can_act": can(state.viewer.seat, Verb.ROLL),
        "game": registry.get(campaign.system),
        "roll_form": RollForm(),
        "chat_form": ChatForm(),
        "links": _links(request, campaign) if member.role == Role.GM else None,
    }


def _links(request: HttpRequest, campaign: Campaign) -> list[dict[str, str]]:
    return [
        {
            "which": which,
            "label": label,
            "url": request.build_absolute_uri(reverse(view, args=[token])),
        }
        for which, label, view, token in (
            ("player", "Player link", "join", campaign.player_token),
            ("spectator", "Spectator link", "watch", campaign.spectator_token),
        )
    ]


@require_GET
def table(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign, member = _seat(request, campaign_id, Verb.WATCH)
    return render(request, TABLE, _table_context(request, campaign, member))


def _table_form(
    request: HttpRequest,
    campaign: Campaign,
    form: Any,
    *,
    partial: str,
    act: Callable[[dict[str, Any]], object],
    fresh: Callable[[dict[str, Any]], Any],
) -> HttpResponse:
    """Runs ``act`` on a valid form and answers with the form again: fresh after success
    (what it did reaches everyone through the live feed), or with the refusal inline."""
    status = 400
    if form.is_valid():
        try:
            act(form.cleaned_data)
        except ServiceError as exc:
            _refusal(form, exc)
            status = exc.status
        else:
            if not request.htmx:
                return redirect("table", campaign_id=campaign.pk)
            form, status = fresh(form.cleaned_data), 200
    return _form_response(request, partial, {partial: form, "campaign": campaign}, status=status)


@require_POST
def roll(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign, member = _seat(request, campaign_id, Verb.ROLL)
    return _table_form(
        request, campaign, RollForm(request.POST), partial="roll_form",
        act=lambda data: services.dice_roll(
            campaign=campaign, actor=member, notation=data["notation"], mode=data["mode"],
            rng=system_rng(),
        ),
        fresh=lambda data: RollForm(initial={"mode": data["mode"]}),  # keep the chosen mode
    )


@require_POST
def chat(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign, member = _seat(request, campaign_id, Verb.CHAT)
    return _table_form(
        request, campaign, ChatForm(request.POST), partial="chat_form",
        act=lambda data: services.chat_post(campaign=campaign, actor=member, text=data["text"]),
        fresh=lambda data: ChatForm(),
    )


# Links


@require_POST
def link_regenerate(request: HttpRequest, campaign_id: int, which: str) -> HttpResponse:
    campaign, member = _seat(request, campaign_id, Verb.LINKS_MANAGE)
    try:
        campaign = services.campaign_regenerate_link(campaign=campaign, actor=member, which=which)
    except ServiceError as exc:
        return HttpResponse(exc.message, status=exc.status, content_type="text/plain")
    if request.htmx:
        return render(
            request, f"{TABLE}#links", {"links": _links(request, campaign), "campaign": campaign}
        )
    return redirect("table", campaign_id=campaign.pk)


@require_GET
def link_qr(request: HttpRequest, campaign_id: int, which: str) -> HttpResponse:
    campaign, _ = _seat(request, campaign_id, Verb.LINKS_MANAGE)
    link = next((l for l in _links(request, campaign) if l["which"] == which), None)
    if link is None:
        raise Http404("There is no such link.")
    svg = segno.make(link["url"], error="m").svg_inline(scale=4, title=link["label"])
    return HttpResponse(svg, content_type="image/svg+xml")


# Joining


def _link_campaign(token: str, which: str) -> Campaign:
    campaign = Campaign.objects.filter(**{f"{which}_token": token}).first()
    if campaign is None:
        raise Http404("This link does not work: it is mistyped or the GM replaced it.")
    return campaign


def _link_seat(request: HttpRequest, token: str, which: str) -> tuple[Campaign, HttpResponse | None]:
    """The link's table, and a redirect to it when this browser already has a seat there."""
    campaign = _link_campaign(token, which)
    member = selectors.membership_for(campaign, request.user)
    if member is None:
        return campaign, None
    if member.removed_at is not None:
        raise PermissionDenied("The GM removed you from this table.")
    return campaign, redirect("table", campaign_id=campaign.pk)


def _take_seat(request: HttpRequest, campaign: Campaign, role: str, display_name: str = "") -> HttpResponse:
    """Seats the requester (a new guest if not logged in) and logs a guest in by session."""
    user = request.user if request.user.is_authenticated else None
    member = services.membership_join(campaign=campaign, user=user, role=role, display_name=display_name)
    if user is None:
        login(request, member.user, backend="django.contrib.auth.backends.ModelBackend")
    return redirect("table", campaign_id=campaign.pk)


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponse:
    campaign, seated = _link_seat(request, token, "player")
    if seated:
        return seated
    form = JoinForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            return _take_seat(request, campaign, Role.PLAYER, form.cleaned_data["display_name"])
        except ServiceError as exc:
            _refusal(form, exc)
    status = 400 if form.errors else 200
    return render(request, "tabletop/join.html", {"form": form, "campaign": campaign}, status=status)


@require_http_methods(["GET", "POST"])
def watch(request: HttpRequest, token: str) -> HttpResponse:
    campaign, seated = _link_seat(request, token, "spectator")
    if seated:
        return seated
    if request.method == "POST":
        return _take_seat(request, campaign, Role.SPECTATOR)
    return render(request, "tabletop/watch.html", {"campaign": campaign})


# Members


def _target(campaign: Campaign, member_id: int) -> Membership:
    return get_object_or_404(Membership, pk=member_id, campaign=campaign)


@require_POST
def member_rename(request: HttpRequest, campaign_id: int, member_id: int) -> HttpResponse:
    campaign, me = _seat(request, campaign_id, Verb.MEMBER_RENAME)
    target = _target(campaign, member_id)
    form = RenameForm(request.POST)
    if not form.is_valid():
        return _member_error(request, campaign, "Please give a name of at most 40 characters.")
    try:
        services.membership_rename(target=target, actor=me, display_name=form.cleaned_data["display_name"])
    except ServiceError as exc:
        return _member_error(request, campaign, exc.message, exc.status)
    return _member_done(request, campaign)


@require_POST
def member_remove(request: HttpRequest, campaign_id: int, member_id: int) -> HttpResponse:
    campaign, me = _seat(request, campaign_id, Verb.MEMBER_REMOVE)
    target = _target(campaign, member_id)
    try:
        services.membership_remove(target=target, actor=me)
    except ServiceError as exc:
        return _member_error(request, campaign, exc.message, exc.status)
    return _member_done(request, campaign)


def _member_done(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    if request.htmx:  # the member list changes through the live feed
        return render(request, f"{TABLE}#members_notice", {"notice": ""})
    return redirect("table", campaign_id=campaign.pk)


def _member_error(
    request: HttpRequest, campaign: Campaign, message: str, status: int = 400
) -> HttpResponse:
    if request.htmx:
        return render(request, f"{TABLE}#members_notice", {"notice": message}, status=status)
    return render(request, "tabletop/message.html", {"message": message, "campaign": campaign}, status=status)


# Characters


@require_http_methods(["GET", "POST"])
def character_new(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign, me = _seat(request, campaign_id, Verb.CHARACTER_CREATE)
    form = CharacterForm(request.POST or None, system=campaign.system)
    is_gm = me.role == Role.GM
    if request.method == "POST" and form.is_valid():
        # The GM makes NPCs or characters for players to claim; a player makes their own.
        kind = request.POST.get("kind", "pc") if is_gm else "own"
        try:
            services.character_create(
                campaign=campaign,
                actor=me,
                name=form.cleaned_data["name"],
                sheet=form.sheet(),
                npc=kind == "npc",
                for_players=kind == "pc",
            )
        except ServiceError as exc:
            _refusal(form, exc)
        else:
            return redirect("table", campaign_id=campaign.pk)
    context = {"form": form, "campaign": campaign, "is_gm": is_gm, "character": None}
    return render(request, "tabletop/character_form.html", context, status=400 if form.errors else 200)


@require_http_methods(["GET", "POST"])
def character_edit(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    campaign, me = _seat(request, campaign_id, Verb.WATCH)
    character = get_object_or_404(Character, pk=character_id, campaign=campaign)
    if not can_edit_character(me, character):
        raise PermissionDenied("You may edit only your own character.")
    form = CharacterForm(
        request.POST or None,
        system=campaign.system,
        initial=CharacterForm.initial_from(character, campaign.system),
    )
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                services.character_update(
                    character=character,
                    actor=me,
                    name=form.cleaned_data["name"],
                    sheet=form.sheet(),
                    version=form.cleaned_data.get("version"),
                )
            except ServiceError as exc:
                _refusal(form, exc)
                status = exc.status
            else:
                return redirect("table", campaign_id=campaign.pk)
    context = {"form": form, "campaign": campaign, "is_gm": me.role == Role.GM, "character": character}
    return render(request, "tabletop/character_form.html", context, status=status)


@require_POST
def character_claim(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    campaign, me = _seat(request, campaign_id, Verb.CHARACTER_CLAIM)
    character = get_object_or_404(Character, pk=character_id, campaign=campaign)
    try:
        services.character_claim(character=character, actor=me)
    except ServiceError as exc:
        return _member_error(request, campaign, exc.message, exc.status)
    if request.htmx:
        return HttpResponse(status=204)
    return redirect("table", campaign_id=campaign.pk)


# Export


@require_GET
def export(request: HttpRequest, campaign_id: int, fmt: str) -> HttpResponse:
    campaign, me = _seat(request, campaign_id, Verb.EXPORT)
    rows = selectors.export_rows(selectors.viewer_of(me), campaign.pk)
    filename = f"table-{campaign.pk}-log.{fmt}"
    if fmt == "json":
        response: HttpResponse = JsonResponse(
            {"campaign": campaign.name, "system": campaign.system, "viewer": me.display_name, "events": rows},
            json_dumps_params={"indent": 2, "ensure_ascii": False},
        )
    elif fmt == "md":
        lines = [f"# {campaign.name}", "", f"Log as seen by {me.display_name}.", ""]
        lines += [f"- **#{row['seq']}** {row['at'][:19].replace('T', ' ')}: {_md(row['summary'])}" for row in rows]
        response = HttpResponse("\n".join(lines) + "\n", content_type="text/markdown; charset=utf-8")
    else:
        raise Http404("Export as md or json.")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _md(text: str) -> str:
    """Escapes Markdown and HTML so an exported message stays text in any viewer."""
    out = text.replace("\\", "\\\\")
    for ch in "`*_[]<>#|":
        out = out.replace(ch, "\\" + ch)
    return " ".join(out.split())




# Cards


def _cards_reply(request: HttpRequest, campaign: Campaign, notice: str = "", status: int = 200) -> HttpResponse:
    if request.htmx:
        return render(request, "tabletop/cards.html#cards_notice", {"notice": notice}, status=status)
    if status >= 400:
        return render(request, "tabletop/message.html", {"message": notice, "campaign": campaign}, status=status)
    return redirect("table", campaign_id=campaign.pk)


def _form_error(form: Any) -> str:
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


@require_POST
def deck_create(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign, me = _seat(request, campaign_id, Verb.DECK_MANAGE)
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
    campaign, me = _seat(request, campaign_id, Verb.CARD_PLAY)
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
            services.deck_configure(deck=deck, actor=me, allow_reversed=data["allow_reversed"],
                                    players_may_use=data["players_may_use"])
    except ServiceError as exc:
        return _cards_reply(request, campaign, exc.message, exc.status)
    return _cards_reply(request, campaign)


CARD_ACTIONS = {"play", "discard", "return_top", "return_bottom", "pass"}


@require_POST
def card_action(request: HttpRequest, campaign_id: int, action: str) -> HttpResponse:
    campaign, me = _seat(request, campaign_id, Verb.CARD_PLAY)
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
            to = campaign.members.filter(display_name__iexact=form.cleaned_data["to_name"].strip(), removed_at=None).first()
            if to is None:
                return _cards_reply(request, campaign, "Nobody at this table has that name.", 400)
            services.card_pass(campaign=campaign, actor=me, deck_id=deck_id, card_id=card_id, to=to)
    except ServiceError as exc:
        return _cards_reply(request, campaign, exc.message, exc.status)
    return _cards_reply(request, campaign)


# A system's table procedure (Demon City's Action Rounds)

ROUND_COMMANDS = {
    "start", "add_combatant", "announce", "allow_extra_targets", "adjust_pool",
    "set_difficulty", "set_injury_table", "roll", "next_round", "end", "undo",
}


def _round_args(campaign: Campaign, command: str, post: Any) -> dict[str, Any]:
    """The command's arguments from the form; the engine validates their meaning."""
    procedure = registry.get(campaign.system).procedure
    assert procedure is not None
    if command in procedure.command_args:
        try:
            return procedure.command_args[command](post)
        except procedure.error as exc:
            raise ServiceError(str(exc)) from None
    if command in ("start", "add_combatant"):
        ids = [int(i) for i in post.getlist("characters") if i.isdigit()]
        chosen = list(campaign.characters.filter(pk__in=ids).order_by("pk"))
        if not chosen:
            raise ServiceError("Choose at least one character.")
        sheets = [selectors.combatant_sheet(c) for c in chosen]
        if command == "add_combatant":
            return {"combatant": sheets[0]}
        state = selectors.procedure_state(campaign) or {}
        # A new fight keeps the table's own Injury table, as the GM last edited it.
        return {"combatants": sheets, "injury_table": state.get("injury_table")}
    args: dict[str, Any] = {}
    for key in ("combatant", "kind", "description", "die", "change", "reason", "stat", "against"):
        value = post.get(key, "").strip()
        if value:
            if len(value) > 200:
                raise ServiceError(f"{key} is at most 200 characters.")
            args[key] = value
    targets = [t for t in post.getlist("targets") if t]
    if len(targets) > 1:
        args["targets"] = targets
    elif targets or post.get("target"):
        args["target"] = targets[0] if targets else post["target"]
    if command == "announce":
        args["massive"] = post.get("massive") in ("1", "on", "true")
        args.setdefault("description", "")
    if command == "set_difficulty":
        try:
            args["target_number"] = int(post.get("target_number", ""))
        except ValueError:
            raise ServiceError("The difficulty is a whole number.") from None
    return args


@require_POST
def round_command(request: HttpRequest, campaign_id: int, command: str) -> HttpResponse:
    campaign, me = _seat(request, campaign_id, Verb.ROLL)
    if command not in ROUND_COMMANDS or registry.get(campaign.system).procedure is None:
        raise Http404("There is no such command at this table.")
    template = f"games/{campaign.system}/panel.html#rounds_notice"
    try:
        args = _round_args(campaign, command, request.POST)
        services.procedure_command(campaign=campaign, actor=me, command={"type": command, **args}, rng=system_rng())
    except ServiceError as exc:
        if not request.htmx:
            return render(request, "tabletop/message.html", {"message": exc.message, "campaign": campaign}, status=exc.status)
        return render(request, template, {"notice": exc.message}, status=exc.status)
    if not request.htmx:
        return redirect("table", campaign_id=campaign.pk)
    return render(request, template, {"notice": ""})


@require_GET
def demon_city_odds(request: HttpRequest) -> HttpResponse:
    """Exact odds of a pool against a pool and against a static number, for the Host."""
    from games.demon_city import odds_chart
    from games.demon_city import odds as dc_odds

    def pct(x: float) -> str:
        return f"{x * 100:.1f}"

    try:
        opponent = min(5, max(1, int(request.GET.get("against", 1))))
    except ValueError:
        opponent = 1
    pools = range(1, 6)
    clash_rows = [
        {"label": f"{a}d10 v {b}d10", **{k: pct(getattr(dc_odds.clash(a, b), k)) for k in
                                         ("win", "tie", "lose", "crit", "fumble", "win_ties_rerolled")}}
        for a in pools for b in pools
    ]
    target_rows = [
        {"pool": n, "cells": [pct(dc_odds.against_target(n, t).win) for t in range(0, 10)]}
        for n in pools
    ]
    context = {"clash_rows": clash_rows, "target_rows": target_rows, "targets": range(0, 10),
               "chart": odds_chart(opponent), "opponent": opponent, "opponents": pools}
    return render(request, "games/demon_city/odds.html", context)


@require_POST
def task(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """A system's task roll (Demon City: a stat against a difficulty, or against an opponent)."""
    campaign, me = _seat(request, campaign_id, Verb.ROLL)
    if registry.get(campaign.system).task is None:
        raise Http404("This game has no task rolls.")
    post = request.POST
    template = f"games/{campaign.system}/panel.html#task_notice"
    try:
        character = campaign.characters.filter(pk=_int_or_none(post.get("character"))).first()
        if character is None:
            raise ServiceError("Choose a character.")
        opponent_id = _int_or_none(post.get("opponent"))
        opponent = campaign.characters.filter(pk=opponent_id).first() if opponent_id else None
        number = _int_or_none(post.get("target_number"))
        if opponent is None and number is None:
            raise ServiceError("Give a difficulty or choose an opponent.")
        services.task_roll(
            campaign=campaign, actor=me, character=character, stat=post.get("stat", "agility")[:40],
            target_number=None if opponent else number, opponent=opponent,
            opponent_stat=post.get("opponent_stat", "agility")[:40],
            distracted=post.get("distracted") in ("1", "on"),
            situation=tuple(r.strip()[:80] for r in post.getlist("situation") if r.strip()),
            lost=tuple(r.strip()[:80] for r in post.getlist("lost") if r.strip()),
            rng=system_rng(),
        )
    except ServiceError as exc:
        return render(request, template, {"notice": exc.message}, status=exc.status)
    return render(request, template, {"notice": ""})


def _int_or_none(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        raise ServiceError(f"{value!r} is not a whole number.") from None
