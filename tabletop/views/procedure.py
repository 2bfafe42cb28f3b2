"""A system's table procedure (Demon City's Action Rounds), its task rolls and its odds page."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from games import registry
from games.core.rng import system_rng
from tabletop import selectors, services
from tabletop.ids import parse_id
from tabletop.models import Campaign
from tabletop.permissions import Verb
from tabletop.services import ServiceError

from tabletop.views.base import seat


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
        chosen_ids = [i for i in map(parse_id, post.getlist("characters")) if i is not None]
        chosen = list(campaign.characters.filter(pk__in=chosen_ids).order_by("pk"))
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
    campaign, me = seat(request, campaign_id, Verb.ROLL)
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
    campaign, me = seat(request, campaign_id, Verb.ROLL)
    if registry.get(campaign.system).task is None:
        raise Http404("This game has no task rolls.")
    post = request.POST
    template = f"games/{campaign.system}/panel.html#task_notice"
    try:
        character_id = parse_id(post.get("character"))
        character = campaign.characters.filter(pk=character_id).first() if character_id else None
        if character is None:
            raise ServiceError("Choose a character.")
        opponent_id = parse_id(post.get("opponent"))
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
