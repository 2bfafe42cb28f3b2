"""What a game system gives the platform, as plain data and plain functions.

A system is one package (or one module) under ``games/`` that exposes
``SYSTEM = GameSystem(...)``; ``games/registry.py`` lists them. The platform (``tabletop/``) knows only these
types: it parses requests through a system's parsers, checks who may send what, runs
the engine under the table's lock, logs each event with the audience the system gives
it, and renders the templates the registration names. Nothing here imports Django, so
a system is tested without a database. See docs/adding-a-system.md.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from games.core import clock as time
from games.core.cards_port import Cards
from games.core.engine import Engine, Move, RuleError, Sender, Turn
from games.core.facts import Character, Member, Table
from games.core.fights import Fighter
from games.core.growth import AWARDED, Growth
from games.core.rng import Rng
from games.forms import Form
from games.sheets import SheetField

# Who a panel is drawn for: what the GM, a player and a spectator may each see.
# Who a seat is at the table: the GM, a player or a spectator (a membership's role).
Role = Literal["gm", "player", "spectator"]
Audience = Literal["everyone", "owner", "gm"]
State = dict[str, Any]


# A parser turns a form into a move's or a check's arguments, raising a ``RuleError`` with a
# message fit to show; the engine still judges what they mean.
Parser = Callable[[Form, Table], dict[str, Any]]


@dataclass(frozen=True)
class CheckRun:
    """Everything a check's ``run`` gets: plain data read under the table's lock."""

    member: Member
    characters: Mapping[int, Character]
    args: Mapping[str, Any]
    rng: Rng
    cards: Cards  # the table's decks (games/core/cards_port.py): a rule's cards are real cards
    # the procedure's state, read under the lock (Passages: a Persona in a fight checks there)
    state: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class Working:
    """How one log line came out, for the reader who unfolds it: the arithmetic step by step
    ("King of Cups: 13", "+ Melee 20", "against Defence 5: 28, a hit") and the rule it applied,
    in the rule text's own words where the system has them (``rule``), with where that text
    stands (``source``: "Combat, Attacks").

    Who reads it is who reads the event's line: the platform stores it in the event's public
    payload only when the system's audience for the event gives everyone the whole of it
    (nothing private, no GM's line); otherwise it goes with the private part, to that part's
    audience alone (docs/protocol.md, "A line's working"). So a working may name what the
    event names, never more.

    An event with a private part may still unfold for everyone: a working that carries
    ``private`` (what the private audience reads instead: the NPC's own figures) declares
    itself public, built from the event's public part alone; it goes in the payload, and
    ``private`` with the private part."""

    steps: tuple[str, ...] = ()
    rule: str = ""
    source: str = ""
    private: Working | None = None

    def data(self) -> dict[str, Any]:
        return {"steps": list(self.steps), "rule": self.rule, "source": self.source}


def public_part(event: Mapping[str, Any], seen: Visibility) -> dict[str, Any]:
    """What everyone in the event's audience reads of it: the event less its private part (the
    platform stores exactly this as the event's public payload). A public working is built
    from this alone."""
    return {k: v for k, v in event.items() if k not in seen.private}


def twinned(told: Working | None, whole: Working) -> Working:
    """``told`` (a working built from the event's public part) declared public, with ``whole``
    its private twin; with nothing ``told``, ``whole`` stays the private part's alone."""
    if told is None:
        return Working(private=whole)
    return Working(steps=told.steps, rule=told.rule, source=told.source, private=whole)


@dataclass(frozen=True)
class Check:
    """A one-off roll outside any procedure (Demon City's task), posted to
    ``tables/<id>/checks/<name>/``; logged as ``<system>.<event>`` with payload
    ``{<name>: data, "character": <subject id>}``.

    ``subject`` is the argument holding the id of the character it is rolled for: with
    ``sender`` "controller" only that character's player or the GM may roll it."""

    name: str
    label: str
    parse: Parser
    run: Callable[[CheckRun], tuple[dict[str, Any], str]]  # -> (the event's data, its log line)
    event: str
    notice: str  # template#partial answering the form: the refusal, or nothing
    subject: str = "character"
    sender: Sender = "controller"
    # How its line came out, from the event's data (``Working``).
    working: Callable[[Mapping[str, Any]], Working | None] | None = None


@dataclass(frozen=True)
class Page:
    """A page of its own, open to anyone (Demon City's odds): ``games/<key>/<slug>/``."""

    slug: str
    title: str
    template: str
    context: Callable[[Form], dict[str, Any]]  # from the query string; never refuses


@dataclass(frozen=True)
class DeckView:
    """What anyone at the table may know of one deck, as it is now (the deck panel shows the
    same): ``unseen``, the ids of its cards not lying face up (its draw pile and every hand:
    what odds shown to a seat are counted from, so nobody subtracts a card held face down),
    ``draw``, how many its draw pile holds, and ``discard``, the ids face up on its discard pile."""

    name: str
    unseen: tuple[str, ...] = ()
    draw: int = 0
    discard: tuple[str, ...] = ()


@dataclass(frozen=True)
class Seat:
    """Whom a panel is drawn for, as the platform vouches for it: their role, their member id
    (none for a spectator), the combatants they play, and the combatants whose sheets they may
    not see (``hidden``: an NPC's, while the table keeps NPC sheets behind the GM's screen).

    A view reads sheets only through what the seat lets it: a figure of a combatant in
    ``hidden`` (a skill, a hand size, an odds figure counted from it) is not in the view, and
    the contract kit scans every seat's bytes for them (tests/integration/test_contract_kit.py)."""

    role: Role = "spectator"
    member: int | None = None
    controls: frozenset[str] = frozenset()
    hidden: frozenset[str] = frozenset()
    # the table's decks the panel reads (``Panel.decks``), as the seat may know them: a view
    # reads counts here, so no state keeps a copy of a deck's
    decks: tuple[DeckView, ...] = ()

    def deck(self, name: str) -> DeckView | None:
        return next((d for d in self.decks if d.name == name), None)

    @property
    def is_gm(self) -> bool:
        return self.role == "gm"

    def sees_sheet(self, cid: str) -> bool:
        """Whether this seat may see the figures of combatant ``cid``'s sheet."""
        return self.is_gm or cid not in self.hidden

    def plays(self, cid: str) -> bool:
        return cid in self.controls


GM_SEAT = Seat(role="gm")
SPECTATOR_SEAT = Seat()


@dataclass(frozen=True)
class Panel:
    """The system's panel on the table page, drawn from the procedure's state.

    ``view(state, seat)`` is what one seat sees (``Seat``: the GM, one player, a spectator).
    The platform draws it for each seat, on the page and in every live redraw, and sends each
    seat its own: no seat receives another's view. ``template`` and ``notice`` are Django
    ``template#partial`` names: the panel itself, and the line that answers a command. A
    control only the GM may use carries the class ``gm-only``, one only a combatant's player
    may use ``controller-only`` with ``data-controller``: the platform takes them out of every
    other seat's HTML (tabletop/feed/marks.py), whatever the view says.

    Whose turn it is: a view may hold ``"turn": {"combatant": <cid or None>, "gm": bool,
    "says": "Alfie announces", "prompt": "announce what Alfie does"}``, and when a step waits for
    several at once (a group check, declarations) ``"waiting": [cid, ...]`` and ``"prompts":
    {cid: prompt}``. The platform shows it in the page's banner: "Your turn: <prompt>." to each
    player the step waits for (to the GM for ``gm`` or a character nobody plays), with the tab's
    title, and "<says>." to everyone else."""

    view: Callable[[Mapping[str, Any], Seat], dict[str, Any]]
    template: str
    notice: str
    # What the panel shows of each character at the table, whether the procedure holds it or
    # not (Passages: a Persona's skills with the odds of each, for its check form): drawn from
    # the character's facts as ``panel.characters[i].view``, for the seats that may see its sheet.
    character_view: Callable[[Character], dict[str, Any]] | None = None
    # The table's decks (by name) whose counts the view reads, handed to it as ``seat.decks``
    # (Harsh Light's odds count the cards not lying face up); ``rule_decks`` hands it every deck
    # the rules draw from as well (``GameSystem.rule_decks`` and each character's own, made by
    # ``character_decks``: Report Card's odds count each player's own deck).
    decks: tuple[str, ...] = ()
    rule_decks: bool = False


@dataclass(frozen=True)
class Visibility:
    """Who sees one event (docs/protocol.md, Audiences). ``owner`` is a combatant id: its
    player owns the event (the actor when None or when nobody plays it). ``private`` goes only
    to ``private_audience``, with ``private_summary`` as their log line; or, when their line is
    the public one with something more, ``private_note`` is added after it (a Major Critical's
    effect after the attack's whole line)."""

    audience: Audience = "everyone"
    owner: str | None = None
    private: Mapping[str, Any] = field(default_factory=dict)
    private_summary: str = ""
    private_note: str = ""
    private_audience: Literal["owner", "gm"] = "owner"


# How a system declares who sees one kind of its events: a fixed Visibility, or a function of
# the event when it depends on what the event holds (whose hand a card went to).
AudienceRule = Visibility | Callable[[Mapping[str, Any]], Visibility]

PUBLIC = Visibility()  # everyone sees all of it: said by a system, never assumed by the platform
GM_ONLY = Visibility(audience="gm")


def _condition_seen(event: Mapping[str, Any]) -> Visibility:
    """A condition's events go to whoever sees it: everyone, or the GM alone (the default on an
    NPC: the decided reading, "a condition on a secret NPC is the GM's unless shown")."""
    return GM_ONLY if time.is_secret(event) else PUBLIC


# Who sees the clock's own events (games/core/clock.py), for every system whose engine has one.
CLOCK_AUDIENCES: Mapping[str, AudienceRule] = {
    time.TIME_PASSED: PUBLIC, time.CONDITION_ADDED: _condition_seen, time.CONDITION_ENDED: _condition_seen,
    time.OPTION_SET: PUBLIC,
}


# Who sees an award of experience (games/core/growth.py), at every system whose engine has awards:
# everyone (the decided reading: "the GM awards experience ... with a reason, logged"); it goes
# only to a player character, whose sheet its players see.
GROWTH_AUDIENCES: Mapping[str, AudienceRule] = {AWARDED: PUBLIC}


def public(*kinds: str) -> dict[str, AudienceRule]:
    """The audiences of event kinds that everyone sees whole (Demon City: every die is public)."""
    return {kind: PUBLIC for kind in kinds}


# An event some of whose keys only the GM may read, and the GM's whole log line (a system that
# keeps NPCs' figures behind the screen marks them when its engine decides: Demon City, Passages).
GM_PART = "gm"


def with_gm_part(event: Mapping[str, Any], keys: Collection[str], line: str) -> dict[str, Any]:
    """``event`` with its GM's part: these keys are the GM's, and ``line`` the GM's log line."""
    return {**event, GM_PART: {"keys": sorted(set(keys)), "line": line}}


def screened(event: Mapping[str, Any]) -> Visibility:
    """The audience of an event that may carry a GM's part (``with_gm_part``): everyone sees it;
    its GM's part, and the keys it names, only the GM, who reads the GM's line."""
    part = event.get(GM_PART)
    if not part:
        return PUBLIC
    return Visibility(private={GM_PART: part, **{k: event[k] for k in part["keys"] if k in event}},
                      private_audience="gm", private_summary=part["line"])


def _no_derived(sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
    return []


@dataclass(frozen=True)
class Glance:
    """A character at a glance, for its card beside the table: the stats that matter in play,
    its tracks (current harm: ``(label, now, of)``, drawn as a bar), and its tags ("Injured");
    ``out`` greys the card (out of the fight, downed)."""

    stats: tuple[tuple[str, str], ...] = ()
    tracks: tuple[tuple[str, int, int], ...] = ()
    tags: tuple[str, ...] = ()
    out: bool = False


def _no_glance(sheet: Mapping[str, Any]) -> Glance:
    return Glance()


def harm_shown(glance: Glance) -> Glance:
    """What an NPC's card shows the seats that may not see its sheet, unless its system says
    more or less: its tracks and whether it is out of the fight, harm everyone at the table
    watches happen; none of its stats, and no tag (a tag may name a trait: "Supernatural")."""
    return Glance(tracks=glance.tracks, out=glance.out)


def _no_limits(sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
    return []


@dataclass(frozen=True)
class Sheet:
    """A system's character sheet: its ``fields`` (the form, and which the rules own), ``clean``
    (a submitted sheet to the stored one, raising ``SheetError``), ``derived`` (what a card shows
    but nobody types: ``[(label, value)]``), ``glance`` (the card beside the table) and
    ``npc_glance`` (what an NPC's card shows while its sheet is behind the GM's screen: what the
    rules make public of it, the decided reading: "a total, a track")."""

    fields: tuple[SheetField, ...] = ()
    clean: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None
    derived: Callable[[Mapping[str, Any]], list[tuple[str, str]]] = _no_derived
    glance: Callable[[Mapping[str, Any]], Glance] = _no_glance
    npc_glance: Callable[[Glance], Glance] = harm_shown
    # What a new character may not start with: a cleaned sheet to ``[(field key, why)]``, one
    # for each figure past what the system allows at creation ("Agility 9: a new character's
    # stats run 1 to 6"). A player's new character that has any is made with those fields at
    # their defaults and its figures asked of the GM (a SheetRequest); the GM's is made as typed.
    creation: Callable[[Mapping[str, Any]], list[tuple[str, str]]] = _no_limits


@dataclass(frozen=True)
class DeckSpec:
    """A deck a system gives each new character (Report Card: "each player has their own
    full Tarot deck"): made and shuffled (sealed) with the character, owned by its player;
    ``kind`` is a deck kind of ``games/core/cards.py`` (``tarot``, ``ten_value``...), ``name``
    how its rules find it through the cards port (unique at the table)."""

    name: str
    kind: str
    allow_reversed: bool = False
    # its rules draw from it: only the rules (and the GM, by hand) move its cards
    rules: bool = True


def _no_decks(character: Character) -> tuple[DeckSpec, ...]:
    return ()


@dataclass(frozen=True)
class Sample:
    """An example character, as the sheet form would send it: for a new table's first steps and
    the contract kit (tests/integration/test_contract_kit.py), which seats two players with the
    system's sample characters and the GM with its sample NPCs. Samples are content a group
    would enjoy (a new table's demo shows them): the kit marks a sample NPC's free text that its
    system keeps behind the screen with a word of its own, and scans every other seat's bytes
    for it (tests/support/kit.py)."""

    name: str
    sheet: Mapping[str, Any]
    npc: bool = False


@dataclass(frozen=True)
class Fights:
    """A system's fights as the table knows them (games/core/fights.py): ``roster(state,
    characters)``, the ``Fighter`` rows of the fight under way (side, and who is out, as the
    system's rules say: empty when no fight is), and ``end``, the name of the GM's move that ends
    it. The platform reads the roster into every seat's view: once one side has no one able to
    act, every seat's banner reads "The fight is over: <side> stands", and the GM's carries the
    ``end`` move's button. A system's own handlers refuse a move against one who is out and
    start no new round once the fight is over."""

    roster: Callable[[Mapping[str, Any], Mapping[str, Character]], Sequence[Fighter]]
    end: str


@dataclass(frozen=True)
class GameSystem:
    """One system's registration.

    ``log_lines`` maps an event type (without the ``<key>.`` prefix) to its Jinja2 log line
    under ``jinja2/``; a type not named there is shown by its summary alone.

    Whether an NPC's sheet is the GM's alone is the table's setting (``Table.npc_sheets_secret``,
    on by default), not the system's: a view learns it through ``Seat.hidden``."""

    key: str
    name: str
    blurb: str
    sheet: Sheet = field(default_factory=lambda: Sheet())
    character_decks: Callable[[Character], tuple[DeckSpec, ...]] = _no_decks
    # The table's decks its rules draw from, by name (Shadows' "Minor Arcana"): as a character's
    # decks that say ``rules``, only the rules and the GM (by hand, logged) move their cards.
    rule_decks: tuple[str, ...] = ()
    # Example characters (at least one player's and one NPC).
    samples: tuple[Sample, ...] = ()
    # Its procedure: the moves players and the GM send, and how their events fold (games/core/engine.py).
    engine: Engine | None = None
    checks: tuple[Check, ...] = ()
    pages: tuple[Page, ...] = ()
    panel: Panel | None = None
    # Its fights' sides and who is out, and the move that ends one (``Fights``).
    fights: Fights | None = None
    log_lines: Mapping[str, str] = field(default_factory=dict)
    # Who sees each event type the system emits (its procedure's ``events`` and its checks'
    # ``event``), declared one by one: the registry refuses a type with none (secret is the
    # default; public is declared).
    audiences: Mapping[str, AudienceRule] = field(default_factory=dict)
    # How its characters grow, and what a purchase costs (games/core/growth.py); None: no purchases.
    growth: Growth | None = None
    # Whether its table's GM designs the sheet (games/core/designs.py: fields, groups, saved rolls
    # that read them), a copy of the design kept on each sheet that follows it: a game without rules
    # of its own for a sheet (Freeform). The platform's designer, trackers and rolls serve it.
    designed_sheets: bool = False

    # The sheet's parts, as the platform reads them.
    @property
    def sheet_fields(self) -> tuple[SheetField, ...]:
        return self.sheet.fields

    @property
    def clean_sheet(self) -> Callable[[Mapping[str, Any]], dict[str, Any]] | None:
        return self.sheet.clean

    @property
    def derived(self) -> Callable[[Mapping[str, Any]], list[tuple[str, str]]]:
        return self.sheet.derived

    @property
    def glance(self) -> Callable[[Mapping[str, Any]], Glance]:
        return self.sheet.glance

    @property
    def npc_glance(self) -> Callable[[Glance], Glance]:
        return self.sheet.npc_glance

    @property
    def commands(self) -> tuple[Move, ...]:
        """Every move of its procedure, the GM's undo included."""
        return self.engine.all_moves if self.engine is not None else ()

    def event_kinds(self) -> frozenset[str]:
        """Every event type the system emits: its procedure's and its checks'."""
        kinds = set(self.engine.events) if self.engine is not None else set()
        return frozenset(kinds | {check.event for check in self.checks})

    @property
    def audience_rules(self) -> Mapping[str, AudienceRule]:
        """Who sees each event type: the registration's ``audiences``, the clock's own events'
        (``CLOCK_AUDIENCES``) when its engine has a clock, and the awards' (``GROWTH_AUDIENCES``)
        when it has awards."""
        if self.engine is None:
            return self.audiences
        return {**(CLOCK_AUDIENCES if self.engine.clock is not None else {}),
                **(GROWTH_AUDIENCES if self.engine.awards is not None else {}), **self.audiences}

    def visibility(self, event: Mapping[str, Any]) -> Visibility:
        """Who sees this event (``event["type"]``), as the registration declares. A type with no
        declaration (the registry refuses such a registration, so only a faulty engine emits
        one) goes to the GM alone."""
        rule = self.audience_rules.get(str(event.get("type", "")))
        if rule is None:
            return GM_ONLY
        return rule(event) if callable(rule) else rule

    def command(self, name: str) -> Move | None:
        return self.engine.move(name) if self.engine is not None else None

    def check(self, name: str) -> Check | None:
        return next((c for c in self.checks if c.name == name), None)

    def page(self, slug: str) -> Page | None:
        return next((p for p in self.pages if p.slug == slug), None)

