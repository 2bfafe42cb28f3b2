"""A game system's procedure (its commands) and one-off checks, driven through its engine.

The engine decides and folds; this only locks, hands the engine what it may read (the
engine checks who may send what, ``games.core.engine.require_sender``), and logs each engine event as an Event with the
table's next seq and the audience the system gives it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.db import transaction

from games import registry
from games.contract import Check, CheckRun, GameSystem, Visibility, Working, public_part
from games.core.engine import NotYourMove, RuleError, Turn, require_sender
from games.core.cards_port import OutOfCards, UnknownDeck
from games.core import words
from games.core.rng import Rng
from tabletop.models import Table, Character, Event, Membership, ProcedureState, Role
from tabletop.permissions import Verb
from tabletop.feed import panels
from tabletop.feed.catalogue import Envelope
from tabletop.selectors import (
    character_facts, cids_named, combatant_id, engine_log, member_facts, procedure_state, sheet_is_secret,
    table_gm,
)
from tabletop.selectors.npcs import seated
from tabletop.services.base import NotAllowed, NotFound, ServiceError, append, lock_member
from tabletop.services.characters import character_event
from tabletop.services.table_cards import TableCards


def procedure_command(
    *, table: Table, actor: Membership, command: dict[str, Any], rng: Rng
) -> list[Event]:
    """Runs one move of the table's procedure (``command["type"]``, its parsed arguments
    beside); a refusal changes nothing.

    Under the table's lock the engine is handed the facts it may need (``Turn``: the sender, the
    characters as they are now, the dice, the decks, the log); it checks the sender against the
    move's subject once (``games.core.engine.require_sender``), decides and folds, and each
    event is logged with its system's audience."""
    game = registry.get(table.system)
    engine = game.engine
    move = engine.move(str(command.get("type", ""))) if engine is not None else None
    if engine is None or move is None:
        raise NotFound("There is no such command at this table.")
    args = {k: v for k, v in command.items() if k != "type"}
    with transaction.atomic():
        locked, me = lock_member(table.pk, actor, Verb.ROLL)
        at = _AtTable(locked, me, rng)
        # a card line names whom the move is for ("For the Ghoul's defence"), else who sent it:
        # an NPC's hand is held by the GM, whose name said nothing of whose defence it was
        named = engine.subject(move, args, at.turn)
        at.cards.why = words.for_whom(named.name if named else me.display_name, move.label)
        logged = at.commit(lambda state, turn: engine.decide(state, move.name, args, turn))
    return [envelope.event for envelope in logged]


class _AtTable:
    """What a system's engine is handed under the table's lock (the sender, the characters as
    they are now, the dice, the decks, the log), and the one way its events are folded, logged
    and written back (``commit``). A retired character is not handed to the rules (no time
    heals it, no session's close counts it) unless the fight under way still holds it."""

    def __init__(self, locked: Table, me: Membership, rng: Rng) -> None:
        self.table, self.me = locked, me
        self.game = registry.get(locked.system)
        self.characters = list(Character.objects.filter(table=locked).order_by("pk"))
        # every character names itself in a line (a retired one too); the rules read those seated
        self.by_cid = {combatant_id(c): c for c in self.characters}
        in_play = seated(locked, self.characters)
        self.cards = TableCards(locked, me, rng)
        self.turn = Turn(
            member=member_facts(me, self.characters),
            characters={cid: character_facts(c) for cid, c in self.by_cid.items() if cid in in_play},
            rng=rng, cards=self.cards, history=lambda: engine_log(locked),
            gm=me.pk if me.role == Role.GM else table_gm(locked))  # the GM's own move asks nothing

    def commit(self, decide: Callable[[dict[str, Any], Turn], list[dict[str, Any]]]) -> list[Envelope]:
        """Runs ``decide(state, turn)`` (a refusal changes nothing), then folds each event it
        made, logs it with its system's audience and puts on the sheets what the engine writes
        back; each seat's panel is drawn onto the envelopes (``panels.attach``)."""
        engine = self.game.engine
        assert engine is not None
        row, _ = ProcedureState.objects.get_or_create(table=self.table, defaults={"state": engine.new_state()})
        state = row.state
        try:
            happened = decide(state, self.turn)
        except NotYourMove as exc:
            raise (NotAllowed if exc.forbidden else ServiceError)(exc.message) from None
        except RuleError as exc:
            raise ServiceError(_named(str(exc), self.by_cid)) from None
        except (OutOfCards, UnknownDeck) as exc:
            raise ServiceError(_card_trouble(exc)) from None
        logged = []
        wrote = False
        for event in happened:
            state = engine.apply(state, event, self.turn.history)
            seen = self.game.visibility(event)
            logged.append(_log(
                self.table, self.me, self.game, event["type"], seen, self.by_cid, summary=engine.line(event, state),
                payload={"event": public_part(event, seen)},
                working=engine.worked(event, state),
            ))
            wrote = _write_back(self.table, self.me, engine.written(event, state)) or wrote
        mark_in_play(self.by_cid, happened)
        # a panel reads the sheets too (Panel.character_view): after a write-back, as they are now
        panels.attach(logged, self.table, state, None if wrote else self.characters)
        row.state = state
        row.save(update_fields=["state", "updated"])
        return logged


def session_rules(locked: Table, me: Membership, args: Mapping[str, Any], rng: Rng) -> list[Envelope]:
    """A session's close at a table whose engine keeps a clock, under the lock the session
    service holds: the system's end-of-session rules and the end of what lasted the session
    (``Engine.close_session``), folded and logged as any move's events."""
    engine = registry.get(locked.system).engine
    if engine is None or engine.clock is None:
        return []
    at = _AtTable(locked, me, rng)
    at.cards.why = "For the session's close"
    return at.commit(lambda state, turn: engine.close_session(state, args, turn))


def check_roll(
    *, table: Table, actor: Membership, check: str, args: Mapping[str, Any], rng: Rng
) -> Event:
    """Rolls one of the system's checks (Demon City's task) for the character ``args`` names.
    Players roll for the characters they control; the GM for anyone."""
    game = registry.get(table.system)
    spec = game.check(check)
    if spec is None:
        raise NotFound("There is no such check at this table.")
    with transaction.atomic():
        locked, me = lock_member(table.pk, actor, Verb.ROLL)
        characters = list(Character.objects.filter(table=locked).order_by("pk"))
        subject = next((c for c in characters if c.pk == args.get(spec.subject) and not c.retired), None)
        if subject is None:
            raise ServiceError("That character is not at this table.")
        try:
            require_sender(spec.sender, spec.label, member_facts(me, characters), character_facts(subject))
        except NotYourMove as exc:
            raise (NotAllowed if exc.forbidden else ServiceError)(exc.message) from None
        data, line = _run(game, spec, me, characters, args, rng, TableCards(
            locked, me, rng, why=words.for_whom(subject.name, spec.label)))
        seen = game.visibility({**data, "type": spec.event})
        envelope = _log(locked, me, game, spec.event, seen, {combatant_id(c): c for c in characters},
                        summary=line, payload={spec.name: public_part(data, seen), "character": subject.pk},
                        working=spec.working(data) if spec.working is not None else None)
        _fold_check(locked, game, spec, data, subject, envelope, characters)
        mark_in_play({combatant_id(subject): subject}, [combatant_id(subject)])  # a check uses its subject
        return envelope.event


def _fold_check(locked: Table, game: GameSystem, spec: Check, data: Mapping[str, Any], subject: Character,
                envelope: Envelope, characters: list[Character]) -> None:
    """A check whose event its engine folds (Passages marks the skill a counted check used, for
    the session's close) goes into the procedure's state too, as ``check_event`` makes it (and
    the log replays it: ``selectors.engine_log``), and each seat's panel is drawn afresh."""
    engine = game.engine
    if engine is None or spec.event not in engine.every_fold:
        return
    row, _ = ProcedureState.objects.get_or_create(table=locked, defaults={"state": engine.new_state()})
    row.state = engine.apply(row.state, check_event(spec, data, combatant_id(subject)))
    row.save(update_fields=["state", "updated"])
    panels.attach([envelope], locked, row.state, characters)


def check_event(spec: Check, data: Mapping[str, Any], cid: str) -> dict[str, Any]:
    """A check's roll as its engine folds it: its data, its type and whom it was rolled for."""
    return {**data, "type": spec.event, "combatant": cid}


def _run(game: GameSystem, spec: Check, me: Membership, characters: list[Character],
         args: Mapping[str, Any], rng: Rng, cards: TableCards) -> tuple[dict[str, Any], str]:
    facts = {c.pk: character_facts(c) for c in characters}
    try:
        return spec.run(CheckRun(member=member_facts(me, characters), characters=facts, args=args, rng=rng,
                                 cards=cards, state=procedure_state(cards.table)))
    except RuleError as exc:
        raise ServiceError(str(exc)) from None
    except (OutOfCards, UnknownDeck) as exc:
        raise ServiceError(_card_trouble(exc)) from None


def _card_trouble(exc: LookupError) -> str:
    """A rule asked for cards the table cannot give: the GM's to fix (bring out the deck,
    gather cards back); the transaction is rolled back, so nothing was drawn."""
    if isinstance(exc, UnknownDeck):
        return f"This needs a deck the table does not have ({exc}); the GM can bring one out."
    return f"Not enough cards for that: {exc}."


def _log(table: Table, me: Membership, game: GameSystem, kind: str, seen: Visibility,
         by_cid: Mapping[str, Character], *, summary: str, payload: dict[str, Any],
         working: Working | None = None) -> Envelope:
    """Appends a system's event as ``<key>.<kind>`` with the audience the system gave it; its
    owner is the named combatant's player, or the sender when nobody plays it. Its line's
    working goes where its audience reads all of it (``_with_working``)."""
    character = by_cid.get(seen.owner or "")
    owner = character.owner if character is not None and character.owner_id else None
    payload, private = _with_working(payload, seen, working)
    return append(
        table, f"{game.key}.{kind}", actor=me, summary=summary, payload=payload,
        audience=seen.audience, owner=owner, private=private,
        private_summary=seen.private_summary or (f"{summary} {seen.private_note}" if seen.private_note else ""),
        private_audience=seen.private_audience,
    )


WORKING = "working"  # the key of a line's working, in the payload or the private part


def _with_working(payload: dict[str, Any], seen: Visibility,
                  working: Working | None) -> tuple[dict[str, Any], Mapping[str, Any]]:
    """The event's payload and private part, the working in one of them: in the payload (read
    by all the event's audience) when that audience reads the whole event; with any private
    part or GM's line, in the private part, for its audience alone, since a working is worked
    out from the whole event and may name what the others do not see. A working that carries
    its private audience's own (``Working.private``) is declared public: it goes in the
    payload, and its private twin in the private part."""
    if working is None or not (working.steps or working.rule or working.private):
        return payload, seen.private
    screened = bool(seen.private or seen.private_summary or seen.private_note)
    if working.private is not None:
        public = {**payload, WORKING: working.data()} if working.steps or working.rule else payload
        return public, {**seen.private, WORKING: working.private.data()} if screened else seen.private
    if screened:
        return payload, {**seen.private, WORKING: working.data()}
    return {**payload, WORKING: working.data()}, seen.private


def _named(message: str, by_cid: Mapping[str, Character]) -> str:
    """Engine messages name combatants by id; the table knows them by name."""
    for cid, character in by_cid.items():
        message = message.replace(f"'{cid}'", character.name)
    return message


def mark_in_play(by_cid: Mapping[str, Character], events: list[Any]) -> None:
    """Marks in play every character a rule move's events name (its combatant id as a value
    anywhere in them): from now on its player asks the GM to change what its rules read
    (tabletop/services/requests.py)."""
    named = cids_named(events, by_cid)
    fresh = [by_cid[cid].pk for cid in named if not by_cid[cid].in_play]
    if fresh:
        Character.objects.filter(pk__in=fresh).update(in_play=True)
        for cid in named:
            by_cid[cid].in_play = True


def _write_back(table: Table, me: Membership, changes: dict[str, dict[str, Any]]) -> bool:
    """Puts what the procedure left on each character (Toughness, injuries) on its sheet, and
    says what changed by the sheet's own labels (a contest is no fight: issue 17). Whether any
    sheet changed."""
    labels = {f.key: f.label for f in registry.get(table.system).sheet_fields}
    wrote = False
    for character in Character.objects.filter(table=table).order_by("pk"):
        update = changes.get(combatant_id(character))
        changed = {k: v for k, v in (update or {}).items() if character.sheet.get(k) != v}
        if not changed:
            continue
        character.sheet = {**character.sheet, **update}
        character.version += 1
        character.save(update_fields=["sheet", "version"])
        wrote = True
        now = ", ".join(f"{labels.get(k, k)} {_shown(v)}" for k, v in changed.items())
        line = f"{character.name}'s sheet now holds {now}."
        if sheet_is_secret(character):  # the GM's figures: the others learn that it changed
            character_event(table, "character.updated", actor=me, character=character, private_summary=line,
                            summary=f"The GM's sheet of {character.name} changes.", with_panel=False)
        else:
            character_event(table, "character.updated", actor=me, character=character, summary=line,
                            with_panel=False)
    return wrote


def _shown(value: Any) -> str:
    """A sheet value in a write-back's line; a field written back blank (a track back at its
    whole, as Shadows and Demon City write it) reads "cleared", never "None"."""
    if value is None or value == "":
        return "cleared"
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)
