"""The one table of live actions: what a seat at the table may ask for, by name.

An action comes through one of two doors, an htmx POST (tabletop/views/table.py, cards.py,
systems.py) or an act frame on the table's socket (tabletop/live/socket_actions.py); both
find it with ``lookup`` and run it through ``take``, so a test through either door takes
production's path.

An entry is the action's name (the act frame's ``action``), the seat's verb it needs
(refused before its input is read: permissions.MATRIX), its form (shape and size only:
each cleans its fields and nothing else, so the socket checks args without building it,
forms.check_fields), and a function that turns the ids and names in the clean input into
rows of this table and calls exactly one service, which decides what is allowed.

The platform's actions are ``ACTIONS``; a table's game system adds its own, by the names
``move.<name>`` (a move of its procedure) and ``check.<name>`` (one of its checks), from its
registration (games/contract.py). Those have no platform form: their input is the submitted
form as plain data (games.forms.Form), which the system's own parser reads against the
table's characters in ``run``, a refusal of the parser being a refusal like any other.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django import forms

from games import registry
from games.contract import GameSystem, Parser
from games.core.engine import RuleError
from games.core.rng import Rng, system_rng
from tabletop import selectors, services
from tabletop.forms.cards import (
    CardForm, ConfigureForm, CountForm, DealForm, DeckCreateForm, DeckForm, DrawForm, PassForm, ReorderForm,
)
from tabletop.forms import ApprovalsForm, ChatForm, RequestForm, RollForm
from tabletop.forms.fog import FogSceneForm, FogShapeForm
from tabletop.forms.designed import SheetRollForm, TrackForm
from tabletop.forms.npcs import AddForm, BringForm, EntryForm, NpcForm, RetireForm, SaveForm
from tabletop.models import Character, Deck, Event, Membership, Role, Scene
from tabletop.permissions import DECK_TABLE_VERB, DeckVerb, Verb
from tabletop.services import NotFound, ServiceError
from tabletop.services import fog
from tabletop.services import designed
from tabletop.services.base import recording
from tabletop.services.piles import get_deck

Data = Mapping[str, Any]


@dataclass(frozen=True)
class Action:
    name: str
    verb: Verb
    # None for a system's move or check: ``run`` reads the plain form through the system's parser
    form: type[forms.Form] | None
    run: Callable[[Membership, Data, Rng], object]


@dataclass(frozen=True)
class Done:
    result: object  # what the service returned: the event, the cards peeked at, or nothing
    events: list[Event]  # every event it logged, in order


def take(action: Action, member: Membership, data: Data) -> Done:
    """Runs an action on input its form cleaned; a refusal is raised (ServiceError) and
    changed nothing."""
    with recording() as logged:
        result = action.run(member, data, system_rng())
    return Done(result, [envelope.event for envelope in logged])


# Ids and names in the input are rows of the actor's table, or a refusal (never a row of
# another table, never a 500). Only what a service takes as a row is read here: services
# that take a card's deck id look the card up at the table themselves.


def _deck(me: Membership, data: Data) -> Deck:
    return get_deck(me.table, data["deck"])  # NotFound


def _named(me: Membership, name: str, field: str) -> Membership:
    """A seated member by the name the log shows, in any case."""
    found = Membership.objects.filter(
        table_id=me.table_id, display_name__iexact=name.strip(), removed_at=None
    ).first()
    if found is None:
        raise ServiceError("Nobody at this table has that name.", field=field)
    return found


def _players(me: Membership, ids: list[int]) -> list[Membership]:
    """The players dealt to, in the order given: only players, as the deal form offers."""
    found = {m.pk: m for m in Membership.objects.filter(
        table_id=me.table_id, pk__in=ids, role=Role.PLAYER, removed_at=None
    )}
    if len(found) != len(set(ids)):
        raise ServiceError("Deal only to players seated at this table.", field="to")
    return [found[i] for i in ids]


def _owner(me: Membership, owner_id: int | None) -> Membership | None:
    if owner_id is None:
        return None
    owner = Membership.objects.filter(pk=owner_id, table_id=me.table_id).first()
    if owner is None:
        raise ServiceError("A personal deck belongs to a player at this table.", field="owner")
    return owner


def _character(me: Membership, character_id: int | None) -> Character | None:
    """A character of this table by its id (any other is "no such character")."""
    if character_id is None:
        return None
    found = Character.objects.filter(pk=character_id, table_id=me.table_id).first()
    if found is None:
        raise NotFound("There is no such character at this table.", field="character")
    return found


def _one(me: Membership, data: Data) -> Character:
    found = _character(me, data["character"])
    assert found is not None  # the form requires it
    return found


def _configure(me: Membership, data: Data, rng: Rng) -> object:
    deck = _deck(me, data)  # an unknown deck is refused before an unknown name
    name = data["dealer_name"].strip()
    return services.deck_configure(
        deck=deck, actor=me, allow_reversed=data["allow_reversed"],
        players_may_use=data["players_may_use"], dealer=_named(me, name, "dealer_name") if name else None,
    )


def _deck_action(verb: DeckVerb, form: type[forms.Form], run: Callable[[Membership, Data, Rng], object]) -> Action:
    return Action(f"deck.{verb}", DECK_TABLE_VERB[verb], form, run)


def _card_action(name: str, form: type[forms.Form], run: Callable[[Membership, Data, Rng], object]) -> Action:
    return Action(f"card.{name}", Verb.CARD_PLAY, form, run)


def _return(where: str) -> Callable[[Membership, Data, Rng], object]:
    return lambda me, data, rng: services.card_return(
        table=me.table, actor=me, deck_id=data["deck"], card_id=data["card"], where=where,  # type: ignore[arg-type]
    )


ACTIONS: dict[str, Action] = {action.name: action for action in (
    Action("dice.roll", Verb.ROLL, RollForm, lambda me, data, rng: services.dice_roll(
        table=me.table, actor=me, notation=data["notation"], mode=data["mode"], rng=rng)),
    Action("chat.post", Verb.CHAT, ChatForm, lambda me, data, rng: services.chat_post(
        table=me.table, actor=me, text=data["text"])),
    Action("deck.create", Verb.DECK_MANAGE, DeckCreateForm, lambda me, data, rng: services.deck_create(
        table=me.table, actor=me, kind=data["kind"], name=data["name"], owner=_owner(me, data["owner"]),
        allow_reversed=data["allow_reversed"], players_may_use=data["players_may_use"], rng=rng)),
    _deck_action(DeckVerb.DRAW, DrawForm, lambda me, data, rng: services.pile_draw(
        deck=_deck(me, data), actor=me, count=data["count"], to=data["to"] or "hand")),
    _deck_action(DeckVerb.DEAL, DealForm, lambda me, data, rng: services.pile_deal(
        deck=_deck(me, data), actor=me, count=data["count"], to=_players(me, data["to"]))),
    _deck_action(DeckVerb.SHUFFLE, DeckForm, lambda me, data, rng: services.deck_shuffle(
        deck=_deck(me, data), actor=me, rng=rng)),
    _deck_action(DeckVerb.RESHUFFLE_DISCARD, DeckForm, lambda me, data, rng: services.deck_discard_reshuffle(
        deck=_deck(me, data), actor=me, rng=rng)),
    _deck_action(DeckVerb.RECALL, DeckForm, lambda me, data, rng: services.deck_recall(
        deck=_deck(me, data), actor=me, rng=rng)),
    _deck_action(DeckVerb.PEEK, CountForm, lambda me, data, rng: services.deck_peek(
        deck=_deck(me, data), actor=me, count=data["count"])),
    _deck_action(DeckVerb.REORDER, ReorderForm, lambda me, data, rng: services.deck_reorder(
        deck=_deck(me, data), actor=me, order=data["order"])),
    _deck_action(DeckVerb.CONFIGURE, ConfigureForm, _configure),
    _card_action("play", CardForm, lambda me, data, rng: services.card_play(
        table=me.table, actor=me, deck_id=data["deck"], card_id=data["card"])),
    _card_action("discard", CardForm, lambda me, data, rng: services.card_discard(
        table=me.table, actor=me, deck_id=data["deck"], card_id=data["card"])),
    _card_action("return_top", CardForm, _return("top")),
    _card_action("return_bottom", CardForm, _return("bottom")),
    _card_action("pass", PassForm, lambda me, data, rng: services.card_pass(
        table=me.table, actor=me, deck_id=data["deck"], card_id=data["card"],
        to=_named(me, data["to_name"], "to_name"))),
    # the GM's NPCs in numbers and bestiary (tabletop/services/npcs.py)
    Action("npc.copy", Verb.NPC_MANAGE, NpcForm, lambda me, data, rng: services.npc_copy(
        character=_one(me, data), actor=me)),
    Action("npc.add", Verb.NPC_MANAGE, AddForm, lambda me, data, rng: services.npc_add(
        table=me.table, actor=me, count=data["count"], character=_one(me, data), scene_id=data["scene"],
        hidden=data["hidden"])),
    Action("npc.reset", Verb.NPC_MANAGE, NpcForm, lambda me, data, rng: services.npc_reset(
        character=_one(me, data), actor=me)),
    Action("npc.retire", Verb.NPC_MANAGE, RetireForm, lambda me, data, rng: services.characters_retire(
        table=me.table, actor=me, character=_character(me, data["character"]), fallen=data["fallen"])),
    Action("npc.return", Verb.NPC_MANAGE, NpcForm, lambda me, data, rng: services.character_return(
        character=_one(me, data), actor=me)),
    Action("bestiary.save", Verb.NPC_MANAGE, SaveForm, lambda me, data, rng: services.bestiary_save(
        character=_one(me, data), actor=me, replace=data["replace"])),
    Action("bestiary.bring", Verb.NPC_MANAGE, BringForm, lambda me, data, rng: services.npc_add(
        table=me.table, actor=me, count=data["count"], entry_id=data["entry"], scene_id=data["scene"],
        hidden=data["hidden"])),
    Action("bestiary.forget", Verb.NPC_MANAGE, EntryForm, lambda me, data, rng: services.bestiary_forget(
        table=me.table, actor=me, entry_id=data["entry"])),
    # no platform form: the close reads the system's end-of-session fields (Clock.closing_parse)
    Action("session.open", Verb.SESSION_MANAGE, None, lambda me, data, rng: services.session_open(
        table=me.table, actor=me)),
    Action("session.close", Verb.SESSION_MANAGE, None, lambda me, data, rng: services.session_close(
        table=me.table, actor=me, args=_closing(me, data), rng=rng)),
    # a player's asked change to their sheet in play (tabletop/services/requests.py)
    Action("request.approve", Verb.CHARACTER_EDIT_ANY, RequestForm, lambda me, data, rng: services.request_approve(
        table=me.table, actor=me, request_id=data["request"], free=data["free"])),
    Action("request.refuse", Verb.CHARACTER_EDIT_ANY, RequestForm, lambda me, data, rng: services.request_refuse(
        table=me.table, actor=me, request_id=data["request"])),
    Action("request.withdraw", Verb.CHARACTER_EDIT_OWN, RequestForm, lambda me, data, rng: services.request_withdraw(
        table=me.table, actor=me, request_id=data["request"])),
    Action("request.approvals", Verb.TABLE_CONFIGURE, ApprovalsForm, lambda me, data, rng:
           services.table_sheet_approvals(table=me.table, actor=me, on=data["on"])),
    # the GM's fog of war, on any scene of the table (tabletop/services/fog.py)
    Action("fog.cover_all", Verb.SCENE_MANAGE, FogSceneForm, lambda me, data, rng: fog.fog_cover_all(
        scene=_scene(me, data), actor=me)),
    Action("fog.clear", Verb.SCENE_MANAGE, FogSceneForm, lambda me, data, rng: fog.fog_clear(
        scene=_scene(me, data), actor=me)),
    Action("fog.undo", Verb.SCENE_MANAGE, FogSceneForm, lambda me, data, rng: fog.fog_undo(
        scene=_scene(me, data), actor=me)),
    Action("fog.reveal", Verb.SCENE_MANAGE, FogShapeForm, lambda me, data, rng: _fog_shape(me, data, "reveal")),
    Action("fog.cover", Verb.SCENE_MANAGE, FogShapeForm, lambda me, data, rng: _fog_shape(me, data, "cover")),
    # a sheet its GM designed, in play (tabletop/services/designed.py): its rolls and trackers
    Action("sheet.roll", Verb.ROLL, SheetRollForm, lambda me, data, rng: designed.sheet_roll(
        table=me.table, actor=me, character=data["character"], rng=rng, notation=data["notation"],
        saved=data["saved"])),
    Action("sheet.track", Verb.ROLL, TrackForm, lambda me, data, rng: designed.track_change(
        table=me.table, actor=me, character=data["character"], field=data["field"], change=data["change"])),
)}


def _scene(me: Membership, data: Data) -> Scene:
    """A scene of this table by its id (any other is "no such scene")."""
    found = Scene.objects.filter(pk=data["scene"], table_id=me.table_id).first()
    if found is None:
        raise NotFound("There is no such scene at this table.", field="scene")
    return found


def _fog_shape(me: Membership, data: Data, op: str) -> object:
    return fog.fog_shape(scene=_scene(me, data), actor=me, op=op, shape=data["shape"], x=data["x"], y=data["y"],
                         w=data["w"], h=data["h"], r=data["r"], points=data["points"])


def _closing(me: Membership, data: Data) -> dict[str, Any]:
    """The system's end-of-session fields, read by its parser (games/core/clock.py,
    ``Clock.closing_parse``); nothing at a table whose system keeps no clock."""
    game = registry.get(me.table.system)
    keeps = game.engine.clock if game.engine is not None else None
    return _parsed(keeps.closing_parse, me, data) if keeps is not None else {}


# A game system's moves and checks: the seat's verb they need (the rules decide the rest:
# who may send a move, whose turn it is, which character a player plays).
SYSTEM_VERB = Verb.ROLL
MOVE, CHECK = "move.", "check."


def _parsed(parse: Parser, me: Membership, data: Data) -> dict[str, Any]:
    """The arguments a system's parser reads from the form; its refusal is a ServiceError."""
    try:
        return parse(data, selectors.table_facts(me.table))
    except RuleError as exc:
        raise ServiceError(str(exc)) from None


def _system_action(game: GameSystem, name: str) -> Action | None:
    if name.startswith(MOVE):
        move = game.command(name.removeprefix(MOVE))
        if move is None:
            return None
        return Action(name, SYSTEM_VERB, None, lambda me, data, rng: services.procedure_command(
            table=me.table, actor=me, command={**_parsed(move.parse, me, data), "type": move.name}, rng=rng))
    if name.startswith(CHECK):
        check = game.check(name.removeprefix(CHECK))
        if check is None:
            return None
        return Action(name, SYSTEM_VERB, None, lambda me, data, rng: services.check_roll(
            table=me.table, actor=me, check=check.name, args=_parsed(check.parse, me, data), rng=rng))
    return None


def lookup(name: str, system: str) -> Action | None:
    """The action ``name`` at a table of ``system``: the platform's, or its system's own move or
    check; None when the table has none of that name (``unknown`` says so)."""
    action = ACTIONS.get(name)
    if action is not None or not name.startswith((MOVE, CHECK)):
        return action
    try:
        game = registry.get(system)
    except registry.UnknownSystem:
        return None
    return _system_action(game, name)


def table_actions(system: str) -> dict[str, Action]:
    """Every action a table of ``system`` takes, by name: what ``lookup`` finds there."""
    try:
        game = registry.get(system)
    except registry.UnknownSystem:
        return dict(ACTIONS)
    names = [MOVE + m.name for m in game.commands] + [CHECK + c.name for c in game.checks]
    return {**ACTIONS, **{name: action for name in names if (action := _system_action(game, name))}}


def unknown(name: str) -> str:
    """The refusal of a name ``lookup`` does not find, in the table's words."""
    if name.startswith(MOVE):
        return "There is no such command at this table."
    if name.startswith(CHECK):
        return "There is no such check at this table."
    known = ", ".join(sorted(ACTIONS))
    return f"Unknown action; this table takes {known}, and its game's {MOVE}<name> and {CHECK}<name>."
