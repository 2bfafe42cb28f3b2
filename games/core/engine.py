"""The engine every system's procedure runs on: its move table, dispatch, event folding, step
counting and undo, written once.

A system writes rules: for each move a pure parser (form to arguments, the one validation) and
a handler ``handle(state, args, turn) -> events`` that reads the state and the ``Turn`` (who sent
it, the table's characters, the dice, the decks) and returns the events the rules make of it,
refusing with a ``RuleError``; and for each event kind a fold, ``fold(state, event)``, that
writes the event into a copy of the state (it never rolls, never draws). ``Engine`` does the
rest the same way for all five: it finds the move, copies what a handler could touch, stamps
every event of one move with one step number, folds, keeps the steps a GM may take back, and
takes one back by folding the log again without it (no snapshot is kept in the state).

Who may send a move (``Move.sender``, for the character ``Move.subject`` names) is checked by
the platform under the table's lock, once, before ``decide`` runs (``may_send``); a handler
checks only what its rules give to one person (a Bonus pick is its player's, a turn is the
acting character's). Pure Python: no Django.
"""

from __future__ import annotations

import copy
from functools import cached_property
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from games.core import clock as time
from games.core import growth

if TYPE_CHECKING:
    from games.core.cards_port import Cards
    from games.core.facts import Character, Member, Table
    from games.core.rng import Rng
    from games.forms import Form

State = dict[str, Any]
Event = dict[str, Any]
Args = dict[str, Any]
# Who may send a move: the GM only, or whoever controls its subject (its player, and the GM,
# who stands in for anyone).
Sender = Literal["gm", "controller"]
UNDONE = "undone"  # the event of a step taken back


class RuleError(Exception):
    """A move or input the rules do not allow, raised before anything changes (and before any
    card is drawn): the sender is shown ``str(error)`` and the table carries on. Every system's
    refusals are this or a subclass of it (``NotYours``, ``NotNow``...)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotYourMove(RuleError):
    """The sender may not send this move: a GM's move from a player (``forbidden`` False: the
    platform answers 400, as for any refusal, since players are never offered it), or a move
    for a character the sender does not play (``forbidden``: 403)."""

    def __init__(self, message: str, *, forbidden: bool) -> None:
        super().__init__(message)
        self.forbidden = forbidden


class UnknownEvent(ValueError):
    """An event no fold knows: a faulty engine or a log from another system, never a player's
    doing."""


@dataclass(frozen=True)
class Turn:
    """What a move's handler is handed, read under the table's lock: who sent it (``member``),
    the table's characters by combatant id as they are now (their sheets included: a rule
    reads a sheet here, so no state keeps a copy of one), the dice and the decks (the cards
    port: draws, counts, what is left), and the log so far (``history``, read only when asked:
    an undo wants the state before the last step), and who the table's GM is (``gm``)."""

    member: Member
    characters: Mapping[str, Character] = field(default_factory=dict)
    rng: Rng | None = None
    cards: Cards | None = None
    history: Callable[[], Sequence[Event]] = tuple
    gm: int | None = None  # the member id of the table's GM (a card only the GM sees goes to their hand)

    def character(self, cid: object) -> Character | None:
        return self.characters.get(str(cid)) if cid is not None else None


Parser = Callable[["Form", "Table"], Args]
Handler = Callable[[Mapping[str, Any], Args, Turn], list[Event]]
Fold = Callable[[State, Event], None]


@dataclass(frozen=True)
class Move:
    """One move of a system's procedure, posted to ``tables/<id>/commands/<name>/``: its
    ``label`` (a button's words, "Roll the Clash"), ``parse`` (the submitted form to the
    handler's arguments, without reading the state), ``handle``, who may send it (``sender``)
    and the argument that names the character it is made for (``subject``, a combatant id): for
    a "controller" move, only that character's player or the GM may send it."""

    name: str
    label: str
    parse: Parser
    handle: Handler
    sender: Sender = "gm"
    subject: str | None = None


def players_move(name: str, label: str, parse: Parser, handle: Handler, *, subject: str = "character") -> Move:
    """A move a character's player makes for it (and the GM, who stands in for anyone): the
    argument ``subject`` names the character."""
    return Move(name, label, parse, handle, sender="controller", subject=subject)


def may_send(sender: Sender, member: Member, subject: Character | None) -> bool:
    """The one rule of who may send a move: the GM anything; a player a "controller" move made
    for a character they play."""
    if member.is_gm:
        return True
    return sender == "controller" and subject is not None and subject.owner == member.id


def require_sender(sender: Sender, label: str, member: Member, subject: Character | None) -> None:
    """Refuses a sender ``may_send`` does not allow, in the words the table shows: for a move,
    and for a one-off check (``games.contract.Check``) alike."""
    if may_send(sender, member, subject):
        return
    if sender == "gm":
        raise NotYourMove(f"Only the GM can {label[:1].lower()}{label[1:]}.", forbidden=False)
    raise NotYourMove("You act only for the characters you control.", forbidden=True)


@dataclass(frozen=True)
class Undo:
    """The GM may take back the last steps (a slip of the hand): ``label`` is the move's button,
    ``nothing`` the refusal when no step is left, ``depth`` how many steps back the panel keeps
    listed. ``says(before, now)`` adds to the undo's event what the rules want said of it
    (Demon City: whose sheets it restores), from the state before the step and the state now."""

    label: str = "Undo"
    nothing: str = "Nothing to undo."
    depth: int = 10
    says: Callable[[Mapping[str, Any], Mapping[str, Any]], dict[str, Any]] | None = None
    # the undo's log line, from its event and the state it leaves ("The GM takes back ...")
    line: Callable[[Event, State], str] | None = None


def _no_args(form: Form, table: Table) -> Args:
    return {}


@dataclass(frozen=True)
class Engine:
    """A system's procedure: ``new_state()``, its ``moves``, its ``folds`` (event kind -> how it
    changes the state), the log line of each event (``summary(event, state)``), how it came out
    (``working``), the sheet fields it puts back on characters (``writeback``), and ``undo``
    when the GM may take steps back. ``settle(state, events, turn)`` is a last look at a move's
    events before they are logged (Demon City marks the pools an announcement changed), and
    ``step_line(event, state)`` what the undo list says of a step (its summary by default).

    The state keeps ``step`` (the number of the last step folded: it only grows, so every
    event in a log keeps a distinct one) and, with ``undo``, ``undo``: ``[{step, what}]``, the
    steps the GM may take back, newest last."""

    new_state: Callable[[], State]
    moves: tuple[Move, ...]
    folds: Mapping[str, Fold]
    summary: Callable[[Event, State], str]
    writeback: Callable[[Event, State], dict[str, dict[str, Any]]] | None = None
    working: Callable[[Event, State], Any] | None = None  # -> games.contract.Working or None
    undo: Undo | None = None
    settle: Callable[[Mapping[str, Any], list[Event], Turn], list[Event]] | None = None
    step_line: Callable[[Event, State], str] | None = None
    # What time does to its tracks and what its rules read of conditions (games/core/clock.py):
    # with a clock, the engine has the GM's moves of time and conditions, and closes sessions.
    clock: time.Clock | None = None
    # The experience the GM awards (games/core/growth.py): with it, the engine has the GM's move
    # ``award``, its event written back to the sheet; a clock wrapped ``growth.with_awards``
    # awards it at a session's close too.
    awards: growth.Awards | None = None

    @cached_property
    def all_moves(self) -> tuple[Move, ...]:
        """The system's moves, the clock's (time and conditions) when it has one, the GM's award
        of experience when it has it, and the GM's undo when it has one."""
        moves = (*self.moves, *(time.moves(self.clock) if self.clock is not None else ()),
                 *(growth.moves(self.awards) if self.awards is not None else ()))
        if self.undo is None:
            return moves
        return (*moves, Move(name="undo", label=self.undo.label, parse=_no_args, handle=self._take_back))

    @cached_property
    def every_fold(self) -> Mapping[str, Fold]:
        """The system's folds, the clock's and the awards'."""
        return {**(time.FOLDS if self.clock is not None else {}),
                **(growth.FOLDS if self.awards is not None else {}), **self.folds}

    @property
    def events(self) -> frozenset[str]:
        """Every event kind a move may emit."""
        return frozenset(self.every_fold) | ({UNDONE} if self.undo is not None else frozenset())

    def line(self, event: Event, state: State) -> str:
        """An event's log line: the system's ``summary``, the clock's and the undo's own."""
        if self._clocks(event):
            return time.line(event)
        if self._grows(event):
            return growth.line(event)
        if event["type"] == UNDONE and self.undo is not None:
            if self.undo.line is not None:
                return self.undo.line(event, state)
            return f"The GM takes back a step: {event.get('what') or 'the last one'}"
        return self.summary(event, state)

    def _clocks(self, event: Mapping[str, Any]) -> bool:
        """Whether an event is the clock's own (folded, told and written by games/core/clock.py)."""
        return self.clock is not None and event.get("type") in time.EVENTS and event.get("type") not in self.folds

    def _grows(self, event: Mapping[str, Any]) -> bool:
        """Whether an event is an award of experience (folded, told and written by games/core/growth.py)."""
        return self.awards is not None and event.get("type") in growth.EVENTS and event.get("type") not in self.folds

    def _core(self, event: Mapping[str, Any]) -> bool:
        """Whether an event is the core's own (the clock's, an award), not the system's."""
        return self._clocks(event) or self._grows(event)

    def worked(self, event: Event, state: State) -> Any:
        """How an event's line came out (the system's ``working``; the core's own have none)."""
        if self.working is None or self._core(event):
            return None
        return self.working(event, state)

    def written(self, event: Event, state: State) -> dict[str, dict[str, Any]]:
        """What an event puts back on the sheets (the system's ``writeback``; the clock's own
        events keep conditions in the state, never on a sheet; an award writes the experience
        it gives, and the GM's undo of one takes it off again)."""
        if self._grows(event):
            return growth.written(event)
        wrote = self.writeback(event, state) if self.writeback is not None and not self._clocks(event) else {}
        if event["type"] == UNDONE and self.awards is not None:
            for cid, fields in growth.restored(event).items():
                wrote = {**wrote, cid: {**wrote.get(cid, {}), **fields}}
        return wrote

    def move(self, name: str) -> Move | None:
        return next((m for m in self.all_moves if m.name == name), None)

    def subject(self, move: Move, args: Mapping[str, Any], turn: Turn) -> Character | None:
        """The character the move is made for, as the table has it now."""
        return turn.character(args.get(move.subject)) if move.subject else None

    def decide(self, state: Mapping[str, Any], name: str, args: Mapping[str, Any], turn: Turn) -> list[Event]:
        """The events move ``name`` makes of ``args``, each stamped with the move's step; a
        ``RuleError`` (nothing drawn, nothing changed) if the rules refuse it. Who sent it is
        checked first, once, against the move's ``sender`` and its subject as ``turn`` has it
        (``NotYourMove``). The state and the arguments are never changed: a handler gets copies."""
        move = self.move(name)
        if move is None:
            raise RuleError(f"There is no such command: {str(name)[:30]!r}.")
        require_sender(move.sender, move.label, turn.member, self.subject(move, args, turn))
        events = copy.deepcopy(move.handle(state, copy.deepcopy(dict(args)), turn))
        if self.settle is not None:
            events = self.settle(state, events, turn)
        return self._stamped(state, self._rounds(state, events, turn))

    def close_session(self, state: Mapping[str, Any], args: Mapping[str, Any], turn: Turn) -> list[Event]:
        """The events of a session's close (the platform's session service calls it; no seat
        sends it as a move): the system's end-of-session rules (``Clock.closing``, with the
        arguments ``Clock.closing_parse`` read) and the end of every condition lasting the
        session. A ``RuleError`` refuses the close."""
        if self.clock is None:
            return []
        made = self.clock.closing(state, copy.deepcopy(dict(args)), turn) if self.clock.closing else []
        events = [*copy.deepcopy(made), *time.expiring(state, time.SESSION, turn)]
        if self.settle is not None:
            events = self.settle(state, events, turn)
        return self._stamped(state, events)

    def _stamped(self, state: Mapping[str, Any], events: list[Event]) -> list[Event]:
        step = int(state.get("step") or 0) + 1
        for event in events:
            event["step"] = step
        return events

    def _rounds(self, state: Mapping[str, Any], events: list[Event], turn: Turn) -> list[Event]:
        """The move's events, and the end of the conditions lasting rounds that it ends (a round
        passed, or the fight over: ``clock.after_move``)."""
        if self.clock is None or self.clock.round is None or not time.conditions(state) or not events:
            return events
        after: State = dict(state)
        for event in events:
            if event["type"] in self.every_fold:
                after = self.apply(after, event)
        return [*events, *time.after_move(self.clock, state, after, turn)]

    def apply(self, state: Mapping[str, Any], event: Mapping[str, Any],
              history: Callable[[], Sequence[Mapping[str, Any]]] = tuple) -> State:
        """The state after ``event`` (the given one is left as it was). An undo folds the log
        (``history``: every event before this one) again without the step it takes back."""
        if event["type"] == UNDONE and self.undo is not None:
            return self.fold([*history(), event])
        fold = self.every_fold.get(event["type"])
        if fold is None:
            raise UnknownEvent(f"no fold for an event {str(event['type'])[:40]!r}")
        new: State = copy.deepcopy(dict(state))
        fold(new, dict(event))
        step = event.get("step")
        if isinstance(step, int) and step > int(state.get("step") or 0):
            new["step"] = step
            if self.undo is not None:
                line = self.step_line(dict(event), new) if self.step_line is not None and not self._core(event) \
                    else self.line(dict(event), new)
                kept = [*(state.get("undo") or []), {"step": step, "what": line}]
                new["undo"] = kept[-self.undo.depth:]
        return new

    def fold(self, events: Sequence[Mapping[str, Any]]) -> State:
        """The state a log leaves, from a new one: every event folded in order, except those
        of a step later taken back. An undo takes back the newest step still standing at its
        place in the log (the one it names, ``undoes_step``, when it names one)."""
        standing: list[tuple[int | None, list[Mapping[str, Any]]]] = []
        last = 0
        for event in events:
            step = event.get("step")
            if isinstance(step, int):
                last = max(last, step)
            if event["type"] == UNDONE and self.undo is not None:
                named = event.get("undoes_step")
                for at in range(len(standing) - 1, -1, -1):
                    if named is None or standing[at][0] == named:
                        del standing[at]
                        break
            elif standing and standing[-1][0] == step and step is not None:
                standing[-1][1].append(event)
            else:
                standing.append((step, [event]))
        state = self.new_state()
        for _, group in standing:
            for event in group:
                state = self.apply(state, event)
        if last > int(state.get("step") or 0):
            state["step"] = last
        return state

    def run(self, state: Mapping[str, Any], name: str, args: Mapping[str, Any], turn: Turn,
            history: Sequence[Mapping[str, Any]] = ()) -> tuple[State, list[Event]]:
        """``decide`` then ``apply`` each event, as the table does it: the new state and the
        events (for tests and tools; ``history`` is the log before, for an undo)."""
        events = self.decide(state, name, args, turn)
        new: State = dict(state)
        for event in events:
            new = self.apply(new, event, lambda: history)
        return new, events

    def _take_back(self, state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
        assert self.undo is not None
        kept = state.get("undo") or []
        if not kept:
            raise RuleError(self.undo.nothing)
        last = kept[-1]
        event: Event = {"type": UNDONE, "undoes_step": last.get("step"), "what": last.get("what", "")}
        if self.undo.says is not None:
            before = self.fold([e for e in turn.history() if e.get("step") != last.get("step")])
            event.update(self.undo.says(before, state))
        if self.awards is not None:  # the experience the step awarded comes off the sheets again
            event.update(growth.taken_back(self.awards, [e for e in turn.history() if e.get("step") == last.get("step")],
                                           turn))
        return [event]
