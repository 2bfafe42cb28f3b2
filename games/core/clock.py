"""The passing of time at a table, and the conditions that last on characters: written once for
every system (the decided readings "All systems, time" and, for conditions, issue 35).

**Time.** The GM moves the table's clock on: the scene ends, a night passes, a week passes
(``pass_time``, event ``time_passed``). A system says what that does to its tracks with a
``Clock``: ``passes(state, span, turn)`` returns its own events for the span (folded, written
back and logged like any of its events), read from the state and the sheets as they are before
the clock moves. The state keeps the clock (``state["clock"]``: the day and the scene's number),
so a rule that may happen "once per span of time" (Passages' rest) stamps what it did with
``now(state)`` and compares. A night is a day; a week, seven; a night and a
week both end the scene.

**Sessions.** The platform opens and closes a session; closing one runs the engine's
``close_session`` (not a move a seat may send: the platform's session service calls it): the
system's end-of-session rules (``Clock.closing``, from the fields its ``closing_parse`` reads off
the close form) and the end of every condition that lasts the session.

**Conditions.** A condition is a fact on a character: its name, what it does (``effect``, one of
the keys the system's rules read, ``Clock.effects``, with an ``amount``, or nothing: a note), who
sees it (everyone, or the GM alone: the default on an NPC), and how long it lasts (until
removed, ``rounds`` of a fight, the scene, the session, a night or a week). The GM adds one
(``add_condition``) and ends one (``end_condition``); the clock, the session's close and the
fight's rounds (``Clock.round``) end it by themselves, each with a logged line. A rule reads it
through ``modifier(state, cid, effect)`` and ``has(state, cid, effect)``. Pure Python: no Django.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from games.forms import Form, value, whole

if TYPE_CHECKING:
    from games.core.engine import Args, Event, Move, State, Turn
    from games.core.facts import Table

SCENE, NIGHT, WEEK, SESSION = "scene", "night", "week", "session"
# What the GM's buttons say, and the log's line, of each span.
SPANS: dict[str, str] = {SCENE: "The scene ends", NIGHT: "A night passes", WEEK: "A week passes"}
DAYS = {SCENE: 0, NIGHT: 1, WEEK: 7}
# The lasting of a condition that a span ends: a night and a week end the scene too.
ENDS: dict[str, frozenset[str]] = {
    SCENE: frozenset({SCENE}),
    NIGHT: frozenset({SCENE, NIGHT}),
    WEEK: frozenset({SCENE, NIGHT, WEEK}),
    SESSION: frozenset({SESSION}),
}
REMOVED, ROUNDS = "removed", "rounds"
# How long a condition lasts, as the GM's form offers it.
LASTS: dict[str, str] = {
    REMOVED: "until removed",
    ROUNDS: "for some rounds of the fight",
    SCENE: "until the scene ends",
    SESSION: "until the session closes",
    NIGHT: "until a night passes",
    WEEK: "until a week passes",
}
WHY_ENDED = {SCENE: "the scene ended", NIGHT: "a night passed", WEEK: "a week passed",
             SESSION: "the session closed", ROUNDS: "its rounds are over", REMOVED: "the GM ended it",
             "fight": "the fight ended"}
EVERYONE, GM = "everyone", "gm"
NAME_MAX, NOTE_MAX, AMOUNT_MAX, ROUNDS_MAX = 40, 200, 20, 99

TIME_PASSED = "time_passed"
CONDITION_ADDED = "condition_added"
CONDITION_ENDED = "condition_ended"
OPTION_SET = "option_set"
# The GM's moves every engine with a clock has (``moves``); the campaign box posts these, and the
# GM's award of experience at an engine that has it (games/core/growth.py ``AWARD``).
PASS_TIME, ADD_CONDITION, END_CONDITION, SET_OPTION = "pass_time", "add_condition", "end_condition", "set_option"
MOVE_NAMES = frozenset({PASS_TIME, ADD_CONDITION, END_CONDITION, SET_OPTION, "award"})


@dataclass(frozen=True)
class Option:
    """A table option of a system's campaign rules: an amount (or a yes/no: ``low`` 0, ``high``
    1, ``yes_no``) that its seed does not give, with its documented default and the reading it
    follows (``why``, shown where the GM sets it: "the decided reading: one point a night")."""

    key: str
    label: str
    default: int
    low: int = 0
    high: int = 99
    why: str = ""
    yes_no: bool = False


def _nothing(state: Mapping[str, Any], span: str, turn: Turn) -> list[Event]:
    return []


def _no_args(form: Form, table: Table) -> Args:
    return {}


@dataclass(frozen=True)
class Clock:
    """What time does to one system's tracks, and what its rules read of conditions.

    - ``passes(state, span, turn)``: the system's events when ``span`` (scene, night, week)
      passes, from the state and the sheets before the clock moves (recovery as its seed or
      the decided readings say); events of its own kinds, with its own folds and audiences.
    - ``says``: what each span does, in the table's words, shown beside the GM's clock buttons
      and in docs/ (``{span: "Æssence returns in full"}``).
    - ``effects``: the condition effects its rules read, ``{key: what it does}`` ("penalty":
      "a Penalty on every check"); a condition with no effect is a note.
    - ``round(state)``: the round the fight is in (0 or None when no fight is), for conditions
      that last rounds.
    - ``closing(state, args, turn)``: its end-of-session rules, with ``closing_parse`` the fields
      of the close form they read (Shadows' card each character carries).
    """

    passes: Callable[[Mapping[str, Any], str, Turn], list[Event]] = _nothing
    says: Mapping[str, str] = field(default_factory=dict)
    effects: Mapping[str, str] = field(default_factory=dict)
    round: Callable[[Mapping[str, Any]], int | None] | None = None
    closing: Callable[[Mapping[str, Any], Args, Turn], list[Event]] | None = None
    closing_parse: Callable[[Form, Table], Args] = _no_args
    # its table options (``Option``): the GM sets them (``set_option``), its rules read ``option``
    options: tuple[Option, ...] = ()
    # a Django template partial drawing the fields ``closing_parse`` reads, in the GM's campaign
    # box (each input names the form ``session-close``), from ``closing_view(state, characters)``
    # (``closing``: what the GM chooses among, Passages' marked skills) and the panel's view
    closing_fields: str = ""
    closing_view: Callable[[Mapping[str, Any], Mapping[str, Any]], Any] | None = None

    def declared(self, key: str) -> Option | None:
        """The table option called ``key``, if the system declares one."""
        return next((o for o in self.options if o.key == key), None)

    def option(self, state: Mapping[str, Any], key: str) -> int:
        """A table option's value now: the GM's, else its default."""
        found = self.declared(key)
        if found is None:
            raise KeyError(key)
        return option_value(state, found)


def option_value(state: Mapping[str, Any], option: Option) -> int:
    """A table option's value now, read from the state without its clock (a system's price of
    a purchase reads its costs so): the GM's, else its default."""
    kept = (state.get("options_set") or {}).get(option.key)
    return int(kept) if isinstance(kept, int) and not isinstance(kept, bool) else option.default


# ---------------------------------------------------------------------------------------- the clock

def now(state: Mapping[str, Any]) -> dict[str, int]:
    """The table's clock: ``day`` (nights passed) and ``scene`` (scenes ended). A stamp of it
    says when something happened, for rules "once per span"."""
    kept = state.get("clock") or {}
    return {"day": int(kept.get("day", 0)), "scene": int(kept.get("scene", 0))}


def same_span(stamp: Mapping[str, Any] | None, state: Mapping[str, Any]) -> bool:
    """Whether ``stamp`` (a ``now`` taken earlier) is of the scene and the day the clock is in:
    no time has passed since."""
    if not stamp:
        return False
    at = now(state)
    return int(stamp.get("day", -1)) == at["day"] and int(stamp.get("scene", -1)) == at["scene"]


def when(state: Mapping[str, Any]) -> str:
    """The clock as a line: "Day 3, scene 7"."""
    at = now(state)
    return f"Day {at['day'] + 1}, scene {at['scene'] + 1}"


def _fold_time(state: State, event: Mapping[str, Any]) -> None:
    at = now(state)
    span = event.get("span")
    at["day"] += DAYS.get(str(span), 0)
    at["scene"] += 1
    state["clock"] = at


def _parse_span(form: Form, table: Table) -> Args:
    from games.core.engine import RuleError

    span = value(form, "span").strip()
    if span not in SPANS:
        raise RuleError("Choose how much time passes: the scene ends, a night passes or a week passes.")
    return {"span": span}


# ---------------------------------------------------------------------------------------- conditions

def conditions(state: Mapping[str, Any], cid: str | None = None) -> list[dict[str, Any]]:
    """The conditions on one character (every one when ``cid`` is None), oldest first."""
    kept = [dict(c) for c in state.get("conditions") or ()]
    return [c for c in kept if cid is None or c.get("combatant") == str(cid)]


def shown(condition: Mapping[str, Any], gm: bool) -> bool:
    """Whether a seat sees this condition: the GM every one, the others those shown."""
    return gm or condition.get("seen") == EVERYONE


def modifier(state: Mapping[str, Any], cid: object, effect: str) -> int:
    """What the conditions on ``cid`` add to ``effect`` (a system's key: "penalty"), summed."""
    return sum(int(c.get("amount") or 0) for c in conditions(state, str(cid)) if c.get("effect") == effect)


def has(state: Mapping[str, Any], cid: object, effect: str) -> bool:
    """Whether any condition on ``cid`` has ``effect``."""
    return any(c.get("effect") == effect for c in conditions(state, str(cid)))


def lasting(condition: Mapping[str, Any], round_now: int | None = None) -> str:
    """How long a condition lasts, in words: "until the scene ends", "2 more rounds" (counted
    from the fight's round now, when given; else as it was made)."""
    lasts = condition.get("lasts")
    if lasts == ROUNDS:
        left = int(condition.get("rounds") or 0)
        if round_now is not None:
            left = max(0, int(condition.get("until_round") or 0) - round_now)
        return f"{left} more round{'s' if left != 1 else ''}" if round_now is not None else \
            f"for {left} round{'s' if left != 1 else ''}"
    return LASTS.get(str(lasts), "until removed")


def badge(condition: Mapping[str, Any], effects: Mapping[str, str], round_now: int | None = None) -> dict[str, Any]:
    """What a sheet, a card and a token show of one condition: its name, what it does, how long."""
    effect = str(condition.get("effect") or "")
    said = effects.get(effect, "")
    does = said.split(" (")[0]  # a badge says it short; the whole (with the rule's words) is its title
    amount = int(condition.get("amount") or 0)
    if effect and amount:
        does = f"{does} {amount:+d}" if does else f"{amount:+d}"
    note = str(condition.get("note") or "")
    return {"id": condition.get("id"), "name": condition.get("name", ""), "does": does, "said": said, "note": note,
            "lasts": lasting(condition, round_now), "gm_only": condition.get("seen") != EVERYONE}


def _parse_condition(effects: Mapping[str, str]) -> Callable[[Form, Table], Args]:
    def parse(form: Form, table: Table) -> Args:
        from games.core.engine import RuleError

        def refuse(raw: str) -> RuleError:
            return RuleError(f"{raw[:20]!r} is not a whole number.")

        who = table.character(value(form, "character"))
        if who is None:
            raise RuleError("Choose the character the condition is on.")
        name = " ".join(value(form, "name").split())
        if not name or len(name) > NAME_MAX:
            raise RuleError(f"Name the condition, in at most {NAME_MAX} characters (Grabbed, Splinted leg).")
        effect = value(form, "effect").strip()
        if effect and effect not in effects:
            raise RuleError("Choose what the condition does from the list, or nothing (a note).")
        amount = whole(form, "amount", refuse=refuse) or 0
        if effect and not (-AMOUNT_MAX <= amount <= AMOUNT_MAX):
            raise RuleError(f"An amount is between -{AMOUNT_MAX} and {AMOUNT_MAX}.")
        note = " ".join(value(form, "note").split())
        if len(note) > NOTE_MAX:
            raise RuleError(f"A note is at most {NOTE_MAX} characters.")
        lasts = value(form, "lasts", REMOVED).strip() or REMOVED
        if lasts not in LASTS:
            raise RuleError("Choose how long the condition lasts from the list.")
        rounds = whole(form, "rounds", refuse=refuse)
        if lasts == ROUNDS and (rounds is None or not 1 <= rounds <= ROUNDS_MAX):
            raise RuleError(f"Say for how many rounds it lasts (1 to {ROUNDS_MAX}).")
        seen = value(form, "seen").strip()
        if seen not in (EVERYONE, GM):
            # the decided reading: a condition on a secret NPC is the GM's unless shown
            seen = GM if who.is_npc else EVERYONE
        return {"combatant": who.cid, "name": name, "effect": effect, "amount": amount if effect else 0,
                "note": note, "lasts": lasts, "rounds": rounds if lasts == ROUNDS else None, "seen": seen}
    return parse


def _add_condition(clock: Clock) -> Callable[[Mapping[str, Any], Args, Turn], list[Event]]:
    def handle(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
        from games.core.engine import RuleError

        who = turn.character(args["combatant"])
        if who is None:
            raise RuleError("There is no such character at the table.")
        round_now = int(clock.round(state) or 0) if clock.round is not None else 0
        if args["lasts"] == ROUNDS and round_now <= 0:
            raise RuleError("A condition lasts rounds only in a fight: start one, or choose another span.")
        number = max([int(c.get("id") or 0) for c in conditions(state)] + [int(state.get("conditions_made") or 0)]) + 1
        made = {"id": number, "combatant": who.cid, "name": args["name"], "effect": args["effect"],
                "amount": args["amount"], "note": args["note"], "lasts": args["lasts"], "seen": args["seen"]}
        if args["lasts"] == ROUNDS:
            made["rounds"] = int(args["rounds"])
            made["until_round"] = round_now + int(args["rounds"])
        return [{"type": CONDITION_ADDED, "combatant": who.cid, "who": who.name, "condition": made}]
    return handle


def _parse_end(form: Form, table: Table) -> Args:
    from games.core.engine import RuleError

    raw = value(form, "condition").strip()
    if not raw.isdigit() or len(raw) > 9:
        raise RuleError("Choose the condition to end.")
    return {"condition": int(raw)}


def _end_condition(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    from games.core.engine import RuleError

    found = next((c for c in conditions(state) if c.get("id") == args["condition"]), None)
    if found is None:
        raise RuleError("There is no such condition on anyone at the table.")
    return [ended(found, REMOVED, turn)]


def ended(condition: Mapping[str, Any], why: str, turn: Turn | None = None) -> Event:
    """The event of one condition's end (``why``: a span, ``rounds``, ``removed``, ``fight``)."""
    who = turn.character(condition.get("combatant")) if turn is not None else None
    return {"type": CONDITION_ENDED, "combatant": condition.get("combatant"),
            "who": who.name if who is not None else str(condition.get("who", "")),
            "condition": {k: condition.get(k) for k in ("id", "name", "seen")}, "why": why}


def expiring(state: Mapping[str, Any], span: str, turn: Turn) -> list[Event]:
    """The end of every condition that ``span`` ends (a session's close ends those lasting it)."""
    return [ended(c, span, turn) for c in conditions(state) if c.get("lasts") in ENDS.get(span, ())]


def _fold_added(state: State, event: Mapping[str, Any]) -> None:
    made = dict(event["condition"])
    state["conditions"] = [*conditions(state), made]
    state["conditions_made"] = max(int(state.get("conditions_made") or 0), int(made.get("id") or 0))


def _fold_ended(state: State, event: Mapping[str, Any]) -> None:
    gone = (event.get("condition") or {}).get("id")
    state["conditions"] = [c for c in conditions(state) if c.get("id") != gone]


def after_move(clock: Clock, before: Mapping[str, Any], after: Mapping[str, Any], turn: Turn) -> list[Event]:
    """What a move's events did to conditions lasting rounds: those whose last round is over
    end when the fight's round moves past it, and all of them when the fight ends."""
    if clock.round is None:
        return []
    counting = [c for c in conditions(after) if c.get("lasts") == ROUNDS]
    if not counting:
        return []
    was, is_ = int(clock.round(before) or 0), int(clock.round(after) or 0)
    if was > 0 and is_ == 0:
        return [ended(c, "fight", turn) for c in counting]
    if is_ <= was:
        return []
    return [ended(c, ROUNDS, turn) for c in counting if int(c.get("until_round") or 0) <= is_]


# ---------------------------------------------------------------------------------------- lines

def line(event: Mapping[str, Any]) -> str:
    """The log line of the clock's own events."""
    kind = event.get("type")
    if kind == TIME_PASSED:
        return SPANS.get(str(event.get("span")), "Time passes") + "."
    if kind == CONDITION_ADDED:
        made = event.get("condition") or {}
        does = f" ({made.get('note')})" if made.get("note") else ""
        return f"{event.get('who') or 'Someone'} is {made.get('name', 'affected')}{does}, {lasting(made)}."
    if kind == OPTION_SET:
        return f"The GM sets the table option {event.get('label', '')}: {event.get('shown', '')}."
    if kind == CONDITION_ENDED:
        made = event.get("condition") or {}
        why = WHY_ENDED.get(str(event.get("why")), "it ended")
        return f"{event.get('who') or 'Someone'} is no longer {made.get('name', 'affected')}: {why}."
    return ""


def _parse_option(clock: Clock) -> Callable[[Form, Table], Args]:
    def parse(form: Form, table: Table) -> Args:
        from games.core.engine import RuleError

        key = value(form, "option").strip()
        found = clock.declared(key)
        if found is None:
            raise RuleError("Choose a table option from the list.")
        if found.yes_no:
            return {"option": key, "value": 1 if value(form, "value").strip().lower() in ("1", "on", "yes", "true") else 0}
        raw = value(form, "value").strip()
        if not raw.lstrip("-").isdigit() or len(raw) > 4 or not found.low <= int(raw) <= found.high:
            raise RuleError(f"{found.label}: a whole number from {found.low} to {found.high}.")
        return {"option": key, "value": int(raw)}
    return parse


def _set_option(clock: Clock) -> Callable[[Mapping[str, Any], Args, Turn], list[Event]]:
    def handle(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
        from games.core.engine import RuleError

        found = clock.declared(args["option"])
        assert found is not None  # the parser read it
        if clock.option(state, found.key) == args["value"]:
            raise RuleError(f"{found.label} is already {shown_option(found, args['value'])}.")
        return [{"type": OPTION_SET, "option": found.key, "label": found.label, "value": args["value"],
                 "shown": shown_option(found, args["value"])}]
    return handle


def shown_option(option: Option, value_: int) -> str:
    return ("on" if value_ else "off") if option.yes_no else str(value_)


def _fold_option(state: State, event: Mapping[str, Any]) -> None:
    state["options_set"] = {**(state.get("options_set") or {}), str(event["option"]): int(event["value"])}


def is_secret(event: Mapping[str, Any]) -> bool:
    """Whether a condition's event is the GM's alone (a condition the GM did not show)."""
    return (event.get("condition") or {}).get("seen") == GM


def moves(clock: Clock) -> tuple[Move, ...]:
    """The GM's moves of time and conditions, added to every engine that has a clock."""
    from games.core.engine import Move

    made = (
        Move(PASS_TIME, "Move the clock on", _parse_span,
             lambda state, args, turn: passing(clock, state, args, turn)),
        Move(ADD_CONDITION, "Add a condition", _parse_condition(clock.effects), _add_condition(clock)),
        Move(END_CONDITION, "End a condition", _parse_end, _end_condition),
    )
    if clock.options:
        made = (*made, Move(SET_OPTION, "Set a table option", _parse_option(clock), _set_option(clock)))
    return made


def passing(clock: Clock, state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """The events of ``pass_time``: the clock moves on, what lasted the span ends, and the
    system's own recovery for it."""
    span = args["span"]
    return [{"type": TIME_PASSED, "span": span}, *expiring(state, span, turn), *clock.passes(state, span, turn)]


FOLDS: dict[str, Callable[[State, Mapping[str, Any]], None]] = {
    TIME_PASSED: _fold_time,
    CONDITION_ADDED: _fold_added,
    CONDITION_ENDED: _fold_ended,
    OPTION_SET: _fold_option,
}
EVENTS = frozenset(FOLDS)
