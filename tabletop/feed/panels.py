"""A system's panel, one per seat: on the page, in each live redraw, and after a replay.

Each seat (the GM, each player, the spectators) gets the view the system draws for it
(``Panel.view(state, seat)``, games/contract.py) and nothing drawn for another: a panel never
travels in an event's stored payload, where every reader of the log would get it. A command's
events carry, in memory, the views of the state after the command (``Redraw``), drawn under the
table's lock; each seat's view rides on the last of those events that seat sees. A replay sends
its log lines and then the seat's current panel (``current_frame``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import Q
from django.template.loader import render_to_string

from games import contract, registry
from games.core import clock, fights
from tabletop.feed.marks import checked
from tabletop.feed.seat import Seat, seat_of, seat_readings, seats_at
from tabletop.models import CardPlacement, Character, Membership, PileKind, Table, Token
from tabletop.selectors import character_facts, procedure_state

if TYPE_CHECKING:
    from tabletop.feed.catalogue import Envelope

TABLE = "tabletop/table.html"
CAMPAIGN = "tabletop/campaign.html#campaign"


def system_seat(seat: Seat, characters: Sequence[contract.Character], *, npc_sheets_secret: bool,
            decks: tuple[contract.DeckView, ...] = ()) -> contract.Seat:
    """What a system's view is told of a seat: its role, whom it plays, whose sheets it may not
    see, and the decks its panel reads."""
    if seat.role == "gm":
        return contract.Seat(role="gm", decks=decks)
    hidden = frozenset(c.cid for c in characters if c.is_npc) if npc_sheets_secret else frozenset()
    if seat.role == "spectator":
        return contract.Seat(role="spectator", hidden=hidden, decks=decks)
    return contract.Seat(role="player", member=seat.member, hidden=hidden, decks=decks,
                         controls=frozenset(c.cid for c in characters if c.owner == seat.member))


def deck_views(table: Table, panel: contract.Panel) -> tuple[contract.DeckView, ...]:
    """The decks a panel reads (``Panel.decks``, ``Panel.rule_decks``), as everyone at the table
    may know them."""
    if not panel.decks and not panel.rule_decks:
        return ()
    wanted = Q(deck__name__in=panel.decks) | Q(deck__rules=True) if panel.rule_decks else Q(deck__name__in=panel.decks)
    rows = (CardPlacement.objects.filter(wanted, deck__table=table)
            .values_list("deck__name", "card_id", "pile__kind").order_by("deck__name", "pile__kind", "position"))
    found: dict[str, dict[str, list[str]]] = {}
    for name, card, kind in rows:
        found.setdefault(name, {}).setdefault(kind, []).append(card)
    # unseen sorted: the draw pile's order never leaves the server, not even to a view
    return tuple(contract.DeckView(name=name, unseen=tuple(sorted(piles.get(PileKind.DRAW, []) + piles.get(PileKind.HAND, []))),
                                   draw=len(piles.get(PileKind.DRAW, [])), discard=tuple(piles.get(PileKind.DISCARD, [])))
                 for name, piles in found.items())


def view_for(game: contract.GameSystem, state: Mapping[str, Any], seat: contract.Seat,
             characters: Sequence[contract.Character], placed: Mapping[int, bool] | None = None,
             retired: Collection[int] = ()) -> dict[str, Any]:
    """The system's view for ``seat``, plus what the table knows and the rules do not: who
    controls each combatant (its owner's member id; none for the GM's) and the characters that
    could join, each with what the system shows of it (``Panel.character_view``) where the seat
    may see its sheet. A retired character (``retired``, by id) is offered in no list and no
    form, while the fight under way still reads it (its roster names whoever fought)."""
    assert game.panel is not None
    shown = game.panel.character_view
    offered = [c for c in characters if c.id not in retired]
    drawn = game.panel.view(state, seat)
    return {
        **drawn,
        **fight_view(game, state, characters),
        "scene_marks": scene_marks(game, state, drawn, seat, characters, placed or {}),
        "campaign": campaign_view(game, state, seat, offered, placed or {}),
        "controllers": {c.cid: c.owner for c in characters},
        "characters": [{"id": c.id, "cid": c.cid, "name": c.name,
                        **({"view": shown(c)} if shown and seat.sees_sheet(c.cid) else {})}
                       for c in offered],
    }


def fight_view(game: contract.GameSystem, state: Mapping[str, Any],
               characters: Sequence[contract.Character]) -> dict[str, Any]:
    """What every seat knows of the fight under way (``GameSystem.fights``): whether it is over
    and the line that says so, and the move that ends it. Nothing here is secret: who is out is
    what every seat watches happen (a glance's ``out``), and a side is the table's to see."""
    if game.fights is None:
        return {}
    roster = list(game.fights.roster(state, {c.cid: c for c in characters}))
    if not roster:
        return {}
    done, side = fights.winner(roster)
    return {"fight_over": {"line": fights.over_line(side), "end": game.fights.end,
                           "label": "End the fight"} if done else None}


def scene_marks(game: contract.GameSystem, state: Mapping[str, Any], drawn: Mapping[str, Any],
                seat: contract.Seat, characters: Sequence[contract.Character],
                placed: Mapping[int, bool]) -> dict[str, list[int]]:
    """The fight on the map: the characters whose token is marked for ``seat`` as acting now (the
    panel's ``turn["combatant"]``) and as out (the fight's roster, ``Fighter.out``), by id. Only
    tokens the seat sees are named (``placed``: on the shown scene, and whether each is out of
    the others' sight): a hidden or fogged token's mark is the GM's alone."""
    def seen(pk: int) -> bool:
        return pk in placed and (seat.is_gm or not placed[pk])

    ids = {c.cid: c.id for c in characters}
    turn = drawn.get("turn") or {}
    acting = [ids[cid] for cid in [turn.get("combatant")] if cid in ids and seen(ids[cid])]
    out: list[int] = []
    if game.fights is not None:
        roster = game.fights.roster(state, {c.cid: c for c in characters})
        out = [ids[f.cid] for f in roster if f.out and f.cid in ids and seen(ids[f.cid])]
    return {"acting": acting, "out": out}


def campaign_view(game: contract.GameSystem, state: Mapping[str, Any], seat: contract.Seat,
                  characters: Sequence[contract.Character], placed: Mapping[int, bool]) -> dict[str, Any] | None:
    """The table's clock and the conditions on its characters, as ``seat`` may see them
    (games/core/clock.py): every seat reads the clock and the conditions shown to it; the GM
    also reads what each span does, the table options and every condition, with the forms to
    change them. A character with a token on the shown scene that the seat sees (``placed``:
    by character id, whether its token is hidden) has its token's badges redrawn too: the
    conditions everyone sees. None when the system keeps no clock."""
    keeps = game.engine.clock if game.engine is not None else None
    if keeps is None:
        return None
    round_now = int(keeps.round(state) or 0) if keeps.round is not None else 0
    people = []
    for c in characters:
        badges = [clock.badge(made, keeps.effects, round_now or None)
                  for made in clock.conditions(state, c.cid) if clock.shown(made, seat.is_gm)]
        token = c.id in placed and (seat.is_gm or not placed[c.id])
        people.append({"id": c.id, "cid": c.cid, "name": c.name, "npc": c.is_npc, "badges": badges, "token": token,
                       "shown": [b for b in badges if not b["gm_only"]]})
    view: dict[str, Any] = {"when": clock.when(state), "characters": people,
                            "any": any(p["badges"] for p in people), "in_fight": round_now > 0}
    if seat.is_gm:
        view["spans"] = [{"span": span, "label": label, "says": keeps.says.get(span, "")}
                         for span, label in clock.SPANS.items()]
        view["session_says"] = keeps.says.get(clock.SESSION, "")
        view["effects"] = [(key, said.split(" (")[0]) for key, said in keeps.effects.items()]  # short, as a badge says it
        view["lasts"] = list(clock.LASTS.items())
        view["options"] = [{"key": o.key, "label": o.label, "value": keeps.option(state, o.key), "default": o.default,
                            "low": o.low, "high": o.high, "why": o.why, "yes_no": o.yes_no} for o in keeps.options]
        view["closing_fields"] = keeps.closing_fields
        if keeps.closing_view is not None:
            view["closing"] = keeps.closing_view(state, {c.cid: c for c in characters})
    return view


def current(table: Table, member: Membership | None) -> dict[str, Any] | None:
    """The panel on the table page for this member, or None when the system has none."""
    game = registry.get(table.system)
    if game.panel is None:
        return None
    rows = list(table.characters.order_by("pk"))
    characters = [character_facts(c) for c in rows]
    seat = system_seat(seat_of(member), characters, npc_sheets_secret=table.npc_sheets_secret,
                   decks=deck_views(table, game.panel))
    return view_for(game, procedure_state(table) or {}, seat, characters, placed_tokens(table), retired_of(rows))


def current_campaign(table: Table, member: Membership | None) -> dict[str, Any] | None:
    """The campaign box's view for this member alone (a sheet's page shows the conditions on its
    character), without drawing the system's panel; None when the system keeps no clock."""
    game = registry.get(table.system)
    if game.engine is None or game.engine.clock is None:
        return None
    rows = list(table.characters.filter(retired=False).order_by("pk"))
    characters = [character_facts(c) for c in rows]
    seat = system_seat(seat_of(member), characters, npc_sheets_secret=table.npc_sheets_secret)
    return campaign_view(game, procedure_state(table) or {}, seat, characters, {})


def retired_of(rows: Iterable[Character]) -> frozenset[int]:
    """The ids of the retired among these characters: every seat's panel still reads them (their
    sheets stay hidden from whom they were), and offers them nowhere."""
    return frozenset(c.pk for c in rows if c.retired)


def placed_tokens(table: Table) -> dict[int, bool]:
    """The characters with a token on the table's shown scene, and whether each token is out of
    the other seats' sight (hidden, or under the fog: ``selectors.scenes.token_seen``)."""
    from tabletop.selectors.scenes import shown_scene, token_seen

    scene = shown_scene(table)  # one row: its fog's key and mask are read once for all its tokens
    if scene is None:
        return {}
    return {t.character_id: not token_seen(scene, t) for t in Token.objects.filter(scene=scene)}


def turn_view(panel: Mapping[str, Any] | None, seat: Seat) -> dict[str, Any] | None:
    """Whose turn it is, as the banner on ``seat``'s page shows it (games/contract.py, Panel):
    "Your turn: <prompt>" to every seat whose input the step waits for (the player of each
    combatant it names, ``combatant`` or each of ``waiting``; the GM for a turn of the GM's or of
    a character nobody plays), with the prompt of the first of its own (``prompts`` by combatant,
    else ``prompt``), and "<says>" to the others."""
    over = (panel or {}).get("fight_over")
    if over:
        # a fight over outranks whatever step it stood at: everyone reads it, the GM ends it
        return {"says": over["line"], "prompt": over["line"], "mine": False, "over": True,
                **({"end": over["end"], "end_label": over["label"]} if seat.role == "gm" else {})}
    turn = (panel or {}).get("turn")
    if not turn:
        return None
    controllers = (panel or {}).get("controllers", {})
    waiting = list(dict.fromkeys(c for c in [turn.get("combatant"), *turn.get("waiting", ())] if c))
    if seat.role == "player":
        own = [c for c in waiting if controllers.get(c) == seat.member]
    else:
        own = [c for c in waiting if controllers.get(c) is None] if seat.role == "gm" else []
    mine = bool(own) or (seat.role == "gm" and bool(turn.get("gm")))
    prompt = turn.get("prompts", {}).get(own[0], turn.get("prompt", "")) if own else turn.get("prompt", "")
    return {"says": turn.get("says", ""), "prompt": prompt, "mine": mine}


def panel_html(template: str, view: Mapping[str, Any], seat: Seat, table_id: int) -> str:
    """A seat's panel as a live redraw swaps it in, with the turn banner it implies, drawn for
    that seat (the templates draw only what it may use)."""
    me = {"pk": seat.member, "role": seat.role} if seat.role != "spectator" else None
    html = render_to_string(template, {"panel": view, "oob": True, "table_id": table_id, "me": me, "seat": seat})
    html += render_to_string(f"{TABLE}#turn_banner", {"turn": turn_view(view, seat), "oob": True,
                                                      "table_id": table_id, "seat": seat})
    html += render_to_string("tabletop/scene.html#marks", {"marks": view.get("scene_marks"), "oob": True})
    if view.get("campaign") is not None:
        html += render_to_string(CAMPAIGN, {"panel": view, "campaign": view["campaign"], "oob": True,
                                            "table_id": table_id, "seat": seat})
    return html


@dataclass(frozen=True)
class Redraw:
    """The panels an event redraws: the view of each seat it is drawn for."""

    template: str
    views: Mapping[Seat, dict[str, Any]]


def redrawn(redraw: Redraw, table_id: int) -> dict[Seat, str]:
    """Each seat's redrawn panel."""
    return {seat: panel_html(redraw.template, view, seat, table_id) for seat, view in redraw.views.items()}


def attach(envelopes: Iterable[Envelope], table: Table, state: Mapping[str, Any],
           characters: Sequence[Character] | None = None) -> None:
    """Under the table's lock, after the events of ``envelopes`` were logged: gives each seat
    the view of ``state`` on the last of them it sees (``Envelope.redraw``), so a command that
    logs several events draws each seat's panel once; an envelope that redraws panels knows every
    seat that reads it (``Envelope.readers``), read with the views."""
    game = registry.get(table.system)
    if game.panel is None:
        return
    rows = list(characters if characters is not None else table.characters.order_by("pk"))
    facts_ = [character_facts(c) for c in rows]
    retired = retired_of(rows)
    covered: set[Seat] = set()
    views: dict[Seat, dict[str, Any]] = {}
    seats = seats_at(table.pk)
    decks = deck_views(table, game.panel)
    # the tokens on the shown scene: their badges (a clock's conditions) and the fight's marks
    placed = placed_tokens(table) if game.fights is not None or (
        game.engine is not None and game.engine.clock is not None) else {}
    for envelope in reversed(list(envelopes)):
        event = envelope.event
        readers = seat_readings(seats, audience=event.audience, private_audience=event.private_audience,
                                owner_id=event.owner_id)
        mine: dict[Seat, dict[str, Any]] = {}
        for seat in readers:
            if seat in covered:
                continue
            if seat not in views:
                views[seat] = view_for(game, state, system_seat(seat, facts_, npc_sheets_secret=table.npc_sheets_secret,
                                                                decks=decks), facts_, placed, retired)
            mine[seat] = views[seat]
            covered.add(seat)
        if mine:
            envelope.redraw = Redraw(game.panel.template, mine)
            envelope.readers = readers


def current_frame(table: Table, member: Membership) -> str:
    """The member's panel as it is now, for a socket brought up to date by a replay: only what
    their seat may use (``marks.checked``)."""
    game = registry.get(table.system)
    view = current(table, member)
    if view is None or game.panel is None:
        return ""
    seat = seat_of(member)
    return checked(panel_html(game.panel.template, view, seat, table.pk), seat)


def attach_if_it_reads_decks(envelope: Envelope, table: Table) -> None:
    """A card event at a table whose system panel reads its decks (``Panel.decks``,
    ``Panel.rule_decks``: its odds) redraws that panel for each seat that sees the event, so a
    card moved by hand (a draw, a recall, a shuffle) changes the odds at once."""
    game = registry.get(table.system)
    if game.panel is None or not (game.panel.decks or game.panel.rule_decks):
        return
    attach([envelope], table, procedure_state(table) or {})
