"""How characters grow, in the platform's words (the decided readings "advancement" for every
system, issue 36): what a purchase costs and what it is paid from, and the experience the GM
awards, written once for the systems that have it.

**Purchases.** A system with a ``Growth`` keeps what a character has to spend in one sheet field
its rules keep (``pool``: Shadows', Demon City's and Report Card's experience the GM awards,
Harsh Light's Experiences). A player buys by asking for the sheet they want (a request,
tabletop/services/requests.py); ``price(before, after, state)`` says what that change costs, line
by line, at the table's option costs (the clock's options, in ``state``), or raises
``SheetError`` naming what cannot be bought that way. The GM's approval takes the cost from the
pool with the change, in one logged step. A system whose characters grow by its own rules alone
(Passages: the Director's rises at a session's close) has ``pool=""``: it sells nothing, its
``price`` costs every change 0 (``free``), and an approval takes nothing from any field.
``kinds`` are the system's own event types (without the ``<key>.`` prefix) that are growth
(experience awarded, a Beat, a rise approved): with the approvals, a character's growth history;
``whose(event)`` names the characters such an event is about.

The pieces every ``price`` is made of are here: ``Bill`` adds up a change figure by figure, each
raised figure priced one step at a time (a rise of two steps costs both), a figure lowered or
raised past the rules' most refused, naming it.

**Experience the GM awards** (the decided reading for Shadows, Demon City and Report Card: "the
GM awards experience at a session's close, with a reason, logged"). Its sheet field (``XP``,
``xp_field``) is kept by the rules. An engine with ``awards`` (``Engine.awards``) has the GM's move
``award``: a player character, how much (1 to 50) and why (a reason, required); its event
``experience_awarded`` is logged for everyone ("The GM awards Ann 3 experience: survived the
mill.") and written back to the sheet. A session's close offers the same award for each player
character, with one reason (``with_awards`` wraps a system's ``Clock``); the GM's undo of an award
takes it off the sheet again. Pure Python: no Django.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from games.core import clock as time
from games.forms import Form, value
from games.sheets import SheetError, SheetField

if TYPE_CHECKING:
    from games.core.engine import Args, Event, Move, State, Turn
    from games.core.facts import Table

Sheet = Mapping[str, Any]


@dataclass(frozen=True)
class Price:
    """What a change costs: ``cost`` in the pool's unit, and a line for each thing bought
    ("Agility 4 → 5: 5 XP"). A change that buys nothing costs 0 with no lines."""

    cost: int
    lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class Growth:
    pool: str  # the sheet field a purchase is paid from (kept by the rules: SheetField rules "kept"); "": none
    unit: str  # what the pool counts, as the screen says it ("XP", "Experiences")
    price: Callable[[Sheet, Sheet, Mapping[str, Any]], Price]
    kinds: tuple[str, ...] = ()


def free(before: Sheet, after: Sheet, state: Mapping[str, Any]) -> Price:
    """The price of every change at a system that sells nothing (``pool=""``): nothing."""
    return Price(0)


def whose(event: Mapping[str, Any]) -> tuple[str, ...]:
    """The combatant ids a growth event is about: its ``combatant`` (or ``cid``), or each of its
    ``rows`` (Passages' rises at a session's close)."""
    found = [event.get("combatant") or event.get("cid")]
    found += [row.get("combatant") for row in event.get("rows") or () if isinstance(row, Mapping)]
    return tuple(dict.fromkeys(str(c) for c in found if c))


# ---------------------------------------------------------------------------------------- prices

def counted(amount: int, unit: str) -> str:
    """An amount in the pool's unit: "5 XP", "1 Experience", "4 Experiences"."""
    return f"{amount} {unit[:-1] if amount == 1 and unit.endswith('s') else unit}"


def not_for_sale(key: str, label: str, why: str = "") -> SheetError:
    """The refusal of a change that no purchase makes ("Vulnerabilities is not bought with
    experience: it is the being's nature, the GM's to change.")."""
    return SheetError(key, f"{label} is not bought with experience{': ' + why if why else ''}.")


class Bill:
    """A change's cost added up, figure by figure (``price()`` when done): each figure raised
    costs each of its steps (``rise``); what a purchase does not make refuses (``SheetError``)."""

    def __init__(self, unit: str) -> None:
        self.unit = unit
        self.cost = 0
        self.lines: list[str] = []

    def rise(self, key: str, label: str, was: int, now: int, step: Callable[[int], int],
             most: int | None = None, why_most: str = "") -> None:
        """``label`` from ``was`` to ``now``: each step to a value ``v`` costs ``step(v)`` (a
        step costing 0 is not for sale at this table); never lowered, never past ``most``."""
        if now == was:
            return
        if now < was:
            raise SheetError(key, f"{label} {was} → {now}: a purchase never lowers a figure.")
        if most is not None and now > most:
            raise SheetError(key, f"{label} {was} → {now}: {label} above {most} cannot be bought"
                                  f"{' (' + why_most + ')' if why_most else ''}.")
        steps = [step(v) for v in range(was + 1, now + 1)]
        if any(s <= 0 for s in steps):
            raise SheetError(key, f"{label} is not for sale at this table (its cost is set to 0).")
        cost = sum(steps)
        each = f" ({' + '.join(map(str, steps))})" if len(steps) > 1 else ""
        self.add(cost, f"{label} {was} → {now}: {counted(cost, self.unit)}{each}")

    def buy(self, key: str, what: str, cost: int) -> None:
        """One thing bought whole (a new Ability) at ``cost``: 0 is not for sale at this table."""
        if cost <= 0:
            raise SheetError(key, f"{what} is not for sale at this table (its cost is set to 0).")
        self.add(cost, f"{what}: {counted(cost, self.unit)}")

    def gear(self, label: str, was: object, now: object) -> None:
        """What a character carries (a weapon, armour): the GM allows it for nothing, a line
        saying so. Gear is found, bought or lost in the story, not with experience."""
        self.add(0, f"{label} {_shown(was)} → {_shown(now)}: gear, the GM's to allow (free)")

    def add(self, cost: int, line: str) -> None:
        """One thing bought, at ``cost`` (0 for what the GM allows for nothing: gear)."""
        self.cost += cost
        self.lines.append(line)

    def price(self) -> Price:
        return Price(self.cost, tuple(self.lines))


def _shown(value: object) -> str:
    return "none" if value in (None, "", 0) else str(value)


def kept(fields: Iterable[SheetField], before: Sheet, after: Sheet) -> None:
    """Refuses a change to a field the rules keep (a track in play, the pool itself): no
    purchase makes it, only the rules and the GM's own edit."""
    for spec in fields:
        if spec.rules == "kept" and before.get(spec.key) != after.get(spec.key):
            raise SheetError(spec.key, f"{spec.label} is kept by the rules: no purchase changes it.")


# ---------------------------------------------------------------------------------------- the pool

XP = "xp"
XP_MAX = 999
XP_LABEL = "Experience"


def xp_field() -> SheetField:
    """The sheet field of unspent experience, kept by the rules (the GM's award fills it, an
    approved purchase spends it; the GM may correct it, logged)."""
    return SheetField(XP, XP_LABEL, "int", 0, max_length=3, rules="kept",
                      help="Unspent experience, 0 or more. The GM awards it, with a reason (at a session's close or "
                           "any time); a purchase the GM approves spends it.")


def clean_xp(raw: object, *, stored: bool = False) -> int:
    """A sheet's experience: blank is 0; a whole number from 0 to 999, else ``SheetError``
    (or, for a sheet already ``stored``, the nearest one)."""
    if raw in (None, ""):
        return 0
    try:
        number = int(str(raw).strip()) if not isinstance(raw, bool) else None
    except ValueError:
        number = None
    if number is None:
        if stored:
            return 0
        raise SheetError(XP, f"{XP_LABEL} must be a whole number.")
    if not 0 <= number <= XP_MAX:
        if stored:
            return min(max(number, 0), XP_MAX)
        raise SheetError(XP, f"{XP_LABEL} is from 0 to {XP_MAX}; {number} is not.")
    return number


def xp_of(sheet: Sheet) -> int:
    """What a stored sheet holds of experience (0 for what cannot be read)."""
    return clean_xp(sheet.get(XP), stored=True)


# ---------------------------------------------------------------------------------------- awards

AWARD = "award"  # the GM's move (games/core/clock.py MOVE_NAMES: the campaign box posts it too)
AWARDED = "experience_awarded"
AMOUNT_MAX, REASON_MAX = 50, 80
# The close form's fields: an amount for each player character (``xp_<character id>``) and one reason.
AT_CLOSE, CLOSE_REASON = "xp_", "xp_reason"


@dataclass(frozen=True)
class Awards:
    """Experience the GM awards, at an engine that has it (``Engine.awards``): written to the
    sheet field ``pool``, counted as ``noun`` in the log ("3 experience")."""

    pool: str = XP
    noun: str = "experience"


AWARDS = Awards()


def _refuse(message: str) -> Exception:
    from games.core.engine import RuleError

    return RuleError(message)


def _amount(raw: str) -> int:
    raw = raw.strip()
    if not raw.isascii() or not raw.isdigit() or len(raw) > 4 or not 1 <= int(raw) <= AMOUNT_MAX:
        raise _refuse(f"An award of experience is a whole number from 1 to {AMOUNT_MAX}.")
    return int(raw)


def _reason(raw: str) -> str:
    reason = " ".join(raw.split())
    if not reason or len(reason) > REASON_MAX:
        raise _refuse(f"Say why the GM awards experience, in at most {REASON_MAX} characters "
                      "(\"survived the mill\").")
    return reason


def parse_award(form: Form, table: Table) -> Args:
    """The GM's award: ``character`` (a player character), ``amount`` (1 to 50), ``reason``."""
    who = table.character(value(form, "character"))
    if who is None or who.is_npc:
        raise _refuse("Choose a player character: the GM awards experience to the players' characters.")
    return {"combatant": who.cid, "amount": _amount(value(form, "amount")), "reason": _reason(value(form, "reason"))}


def awarded(awards: Awards, turn: Turn, cid: str, amount: int, reason: str, *, at_close: bool = False) -> Event:
    """The event of one award, from the character's sheet as the table has it now."""
    who = turn.character(cid)
    if who is None or who.is_npc:
        raise _refuse("Choose a player character at this table: the GM awards experience to the players' characters.")
    was = xp_of(who.sheet)
    if was + amount > XP_MAX:
        raise _refuse(f"{who.name} holds {was} experience: at most {XP_MAX}.")
    event: Event = {"type": AWARDED, "combatant": who.cid, "who": who.name, "amount": amount, "reason": reason,
                    "pool": awards.pool, "noun": awards.noun, "was": was, "now": was + amount}
    if at_close:
        event["at_close"] = True
    return event


def award(awards: Awards) -> Callable[[Mapping[str, Any], Args, Turn], list[Event]]:
    def handle(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
        return [awarded(awards, turn, str(args["combatant"]), int(args["amount"]), str(args["reason"]))]
    return handle


def moves(awards: Awards) -> tuple[Move, ...]:
    """The GM's move of awards, added to every engine that has them."""
    from games.core.engine import Move

    return (Move(AWARD, "Award experience", parse_award, award(awards)),)


def line(event: Mapping[str, Any]) -> str:
    """The log line of an award, for everyone: "The GM awards Ann 3 experience: survived the mill."."""
    if event.get("type") != AWARDED:
        return ""
    return (f"The GM awards {event.get('who') or 'someone'} {event.get('amount')} {event.get('noun') or 'experience'}: "
            f"{str(event.get('reason') or '').rstrip('.')}.")


def written(event: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """What an award puts on the sheet: the experience it holds now."""
    if event.get("type") != AWARDED:
        return {}
    return {str(event["combatant"]): {str(event.get("pool") or XP): int(event["now"])}}


def _fold(state: State, event: Mapping[str, Any]) -> None:
    """An award lives on the sheet (written back); the procedure's state keeps nothing of it."""


FOLDS: dict[str, Callable[[State, Mapping[str, Any]], None]] = {AWARDED: _fold}
EVENTS = frozenset(FOLDS)

# An undo's key: the experience the step taken back had awarded, off each sheet again.
TAKEN_BACK = "experience_back"


def taken_back(awards: Awards, step: Iterable[Mapping[str, Any]], turn: Turn) -> dict[str, Any]:
    """What the GM's undo of a step says of the awards it held: each character's experience less
    what the step awarded (never below 0: some may have been spent since), as its sheet has it now."""
    given: dict[str, int] = {}
    for event in step:
        if event.get("type") == AWARDED:
            given[str(event["combatant"])] = given.get(str(event["combatant"]), 0) + int(event.get("amount") or 0)
    back = {}
    for cid, amount in given.items():
        who = turn.character(cid)
        if who is not None:
            back[cid] = {awards.pool: max(0, xp_of(who.sheet) - amount)}
    return {TAKEN_BACK: back} if back else {}


def restored(event: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """What an undo puts back on the sheets of the awards it takes back."""
    return {str(cid): dict(fields) for cid, fields in (event.get(TAKEN_BACK) or {}).items()}


# ---------------------------------------------------------------------------------------- at a session's close

def parse_close(form: Form, table: Table) -> Args:
    """The close form's awards: ``xp_<character id>`` for each player character (blank or 0: none),
    and one ``xp_reason`` for all of them, required when any is given; nothing when none is."""
    given = []
    for who in table.characters:
        raw = value(form, f"{AT_CLOSE}{who.id}").strip()
        if who.is_npc or raw in ("", "0"):
            continue
        given.append({"combatant": who.cid, "amount": _amount(raw)})
    return {"awards": given, "reason": _reason(value(form, CLOSE_REASON))} if given else {}


def at_close(awards: Awards, args: Mapping[str, Any], turn: Turn) -> list[Event]:
    """The awards the GM gave on the close form: the same event as the move's, each."""
    return [awarded(awards, turn, str(a["combatant"]), int(a["amount"]), str(args.get("reason") or ""), at_close=True)
            for a in args.get("awards") or ()]


def awardable(state: Mapping[str, Any], characters: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The player characters the close form and the award form list: ``id`` (what forms post),
    ``cid``, ``name``, and the experience each holds."""
    return [{"id": c.id, "cid": str(cid), "name": c.name, "xp": xp_of(c.sheet)}
            for cid, c in characters.items() if not c.is_npc]


CLOSE_FIELDS = "games/core/growth.html#closing"
SAYS_AT_CLOSE = "the GM awards experience to the player characters, with a reason"


def with_awards(clock: time.Clock, awards: Awards = AWARDS) -> time.Clock:
    """``clock`` with the GM's awards at a session's close: its close form reads the awards beside
    its own fields, its closing makes the award events after its own, and the GM's campaign box
    lists the player characters (``closing_view``, when the clock has none of its own; a clock
    with its own close fields draws the awards from its template: games/core/growth.html)."""
    own_close, own_parse = clock.closing, clock.closing_parse

    def closing(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
        return [*(own_close(state, args, turn) if own_close is not None else []), *at_close(awards, args, turn)]

    def parse(form: Form, table: Table) -> Args:
        return {**own_parse(form, table), **parse_close(form, table)}

    said = clock.says.get(time.SESSION, "")
    says = {**clock.says, time.SESSION: f"{said.rstrip('.')}; {SAYS_AT_CLOSE}." if said else
            f"{SAYS_AT_CLOSE[:1].upper()}{SAYS_AT_CLOSE[1:]}."}
    return dataclasses.replace(clock, closing=closing, closing_parse=parse, says=says,
                               closing_view=clock.closing_view or awardable,
                               closing_fields=clock.closing_fields or CLOSE_FIELDS)
