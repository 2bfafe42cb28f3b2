"""The contract kit's parts (tests/integration/test_contract_kit.py): a table of any registered
system set up from its sample characters, the controls a seat's own panel offers it, read from
the HTML it is sent and filled as a person would, and the invariants every step must keep.

Nothing here names a system: a sixth system is driven the same way from its registration and
its ``samples`` (games/contract.py)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games import registry
from games.contract import GameSystem, Sample
from games.core.cards import deck_kind
from tabletop import services
from tabletop.feed import panels
from tabletop.selectors import engine_log
from tabletop.models import CardPlacement, Character, Deck, Event, Membership, PileKind, ProcedureState, Role, Table

HTMX = {"HTTP_HX_REQUEST": "true"}
SENTINEL = "Zqxv"  # put in a sample NPC's free text behind the screen (``samples``): no seat but the GM's may receive it
# The free-text fields of each system's sample NPC that its system keeps behind the screen: the kit
# writes its marker word at their start (the samples themselves are content a table would enjoy).
MARKED = {"demon_city": ("skills",), "freeform": ("notes", "stats"), "harsh_light": ("weapon",),
          "passages": ("weapon", "armour"), "shadows": ("skills", "vulnerabilities", "notes")}


def samples(game: GameSystem) -> list[Sample]:
    """The system's samples as the kit seats them: each NPC's hidden free text marked with
    ``SENTINEL``, which the kit then scans every other seat's bytes for."""
    fields = MARKED.get(game.key, ())
    return [Sample(s.name, {k: f"{SENTINEL} {v}" if k in fields and isinstance(v, str) and v else v
                            for k, v in s.sheet.items()}, s.npc) if s.npc else s for s in game.samples]


# Controls, as a seat's HTML offers them


@dataclass
class Field:
    name: str
    kind: str  # input type, "select", "textarea"
    value: str = ""
    options: list[str] = field(default_factory=list)
    multiple: bool = False
    low: int | None = None
    high: int | None = None
    checked: bool = False
    required: bool = False


@dataclass
class Control:
    """Something a seat can send: a form, or a button posting on its own (its ``hx-vals``)."""

    url: str
    fields: list[Field] = field(default_factory=list)
    vals: dict[str, str] = field(default_factory=dict)
    picks: str = ""  # the field the seat fills by clicking cards in a hand (data-picks)
    picks_from: str = ""  # whose hand (data-picks-from)
    label: str = ""

    @property
    def name(self) -> str:
        """The route's last part: a command's or a check's name, or the platform route's."""
        return self.url.rstrip("/").rsplit("/", 1)[-1]

    @property
    def key(self) -> str:
        """What tells this control from another of the same route: a deck's name for a button
        that brings one out ("Minor Arcana", "Major Arcana")."""
        named = self.vals.get("name") or next((f.value for f in self.fields if f.name == "name" and f.kind == "hidden"), "")
        return f"{self.name}:{named}" if self.url.endswith("/decks/new/") else self.name


class _Controls(HTMLParser):
    def __init__(self, prefix: str) -> None:
        super().__init__(convert_charrefs=True)
        self.prefix = prefix
        self.controls: list[Control] = []
        self.form: Control | None = None
        self.select: Field | None = None
        self.textarea: Field | None = None
        self.button: Control | None = None

    def _url(self, attrs: Mapping[str, str]) -> str:
        url = attrs.get("hx-post") or (attrs.get("action") if attrs.get("method", "").lower() == "post" else "")
        return url if url and url.startswith(self.prefix) else ""

    def handle_starttag(self, tag: str, raw: list[tuple[str, str | None]]) -> None:
        attrs = {k: v or "" for k, v in raw}
        if tag == "form":  # one that posts itself, or only holds the fields of its buttons
            url = self._url(attrs)
            self.form = Control(url, picks=attrs.get("data-picks", ""), picks_from=attrs.get("data-picks-from", ""),
                                label=attrs.get("aria-label", ""))
            if url:
                self.controls.append(self.form)
        elif tag == "input" and self.form is not None and attrs.get("name") and "disabled" not in attrs:
            kind = attrs.get("type", "text")
            self.form.fields.append(Field(attrs["name"], kind, attrs.get("value", ""), low=_int(attrs.get("min")),
                                          high=_int(attrs.get("max")), checked="checked" in attrs,
                                          required="required" in attrs))
        elif tag == "select" and self.form is not None and attrs.get("name"):
            self.select = Field(attrs["name"], "select", multiple="multiple" in attrs)
            self.form.fields.append(self.select)
        elif tag == "option" and self.select is not None and "disabled" not in attrs:
            self.select.options.append(attrs.get("value", ""))
            if "selected" in attrs:
                self.select.value = attrs.get("value", "")
        elif tag == "textarea" and self.form is not None and attrs.get("name"):
            self.textarea = Field(attrs["name"], "textarea")
            self.form.fields.append(self.textarea)
        elif tag == "button":
            url = self._url(attrs)
            vals = json.loads(attrs["hx-vals"]) if attrs.get("hx-vals", "").startswith("{") else {}
            if url:  # a button of its own: htmx sends the enclosing form's fields too
                form = self.form
                self.controls.append(Control(url, form.fields if form else [], {str(k): str(v) for k, v in vals.items()},
                                             picks=form.picks if form else "", picks_from=form.picks_from if form else "",
                                             label=attrs.get("aria-label", "")))
            elif self.form is not None and attrs.get("name"):
                self.form.vals[attrs["name"]] = attrs.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.form = None
        elif tag == "select":
            self.select = None
        elif tag == "textarea":
            self.textarea = None

    def handle_data(self, data: str) -> None:
        if self.textarea is not None:
            self.textarea.value += data


def _int(raw: str | None) -> int | None:
    try:
        return int(raw) if raw not in (None, "") else None
    except ValueError:
        return None


def controls_in(html: str, table_id: int) -> list[Control]:
    """Every control in ``html`` that posts to the table ``table_id``."""
    parser = _Controls(f"/tables/{table_id}/")
    parser.feed(html)
    return parser.controls


# Filling a control as a person would


WORDS = ["the door", "Brawl", "search the office", "7", "a", "Melee", "it"]


def fill(control: Control, rnd: random.Random, hands: Mapping[int, list[str]]) -> dict[str, Any]:
    """A submission of ``control``: each field given a value it offers (an option, a number in
    its range, a box ticked or not, what a text field holds or a plain word), and, for a form
    that plays cards from a hand, one to three cards of that hand in a random order."""
    data: dict[str, Any] = {}
    radios: dict[str, list[str]] = {}
    for f in control.fields:
        if f.kind == "select":
            if not f.options:
                continue
            if f.multiple:
                data[f.name] = rnd.sample(f.options, rnd.randint(1, len(f.options)))
            else:
                data[f.name] = rnd.choice(f.options) if rnd.random() < 0.8 else (f.value or f.options[0])
        elif f.kind == "checkbox":
            if rnd.random() < (0.7 if f.checked else 0.3):
                data.setdefault(f.name, []).append(f.value or "on")
        elif f.kind == "radio":
            radios.setdefault(f.name, []).append(f.value)
        elif f.kind == "number":
            low = f.low if f.low is not None else -3
            high = f.high if f.high is not None else max(low + 6, 12)
            data[f.name] = str(rnd.randint(low, high)) if rnd.random() < 0.6 and low <= high else (f.value or str(low))
        elif f.kind in ("hidden", "textarea", "color"):
            data[f.name] = f.value
        elif f.kind in ("text", "search", ""):  # what it holds (often nothing, often right), or a word
            data[f.name] = f.value if rnd.random() < 0.75 else rnd.choice(WORDS)
        else:
            data[f.name] = f.value
    for name, values in radios.items():
        data[name] = rnd.choice(values)
    data.update(control.vals)
    return _pick_cards(control, rnd, hands, data)


# A table of a system, with its people


@dataclass
class Seat:
    name: str
    member: Membership
    client: Client

    @property
    def role(self) -> str:
        return self.member.role


@dataclass
class KitTable:
    game: GameSystem
    table: Table
    gm: Seat
    players: list[Seat]
    watcher: Seat
    npcs: list[Character]

    @property
    def seats(self) -> list[Seat]:
        return [self.gm, *self.players, self.watcher]

    def panel_html(self, seat: Seat) -> str:
        """The seat's panel as it is now, as a live redraw or a replay sends it (stripped)."""
        self.table.refresh_from_db()
        return panels.current_frame(self.table, seat.member)

    def hands(self) -> dict[int, list[str]]:
        held: dict[int, list[str]] = {}
        for owner, card in CardPlacement.objects.filter(deck__table=self.table, pile__kind=PileKind.HAND).order_by(
                "pile_id", "position").values_list("pile__owner_id", "card_id"):
            held.setdefault(owner, []).append(card)
        return held

    def post(self, seat: Seat, url: str, data: Mapping[str, Any]) -> int:
        return seat.client.post(url, data, **HTMX).status_code


def make_table(system: str, tag: str) -> KitTable:
    """A table of ``system``: a GM, two players each with the system's first sample character,
    a spectator, and the system's sample NPCs."""
    game = registry.get(system)
    users = get_user_model()
    gm_user = users.objects.create_user(f"gm-{tag}", password="a long kit password 1")
    table = services.table_create(gm=gm_user, name=f"Kit {game.name}", system=system)
    gm = table.members.select_related("user").get(role=Role.GM)
    players = [services.membership_join(table=table, user=services.guest_user_create(), role=Role.PLAYER,
                                        display_name=name) for name in ("Ann", "Bob")]
    watcher = services.membership_join(table=table, user=services.guest_user_create(), role=Role.SPECTATOR)
    pcs = [s for s in samples(game) if not s.npc]
    for i, player in enumerate(players):
        sample = pcs[i % len(pcs)]
        services.character_create(table=table, actor=player, name=f"{sample.name} {i + 1}" if i >= len(pcs)
                                  else sample.name, sheet=sample.sheet)
    npcs = [services.character_create(table=table, actor=gm, name=s.name, sheet=s.sheet, npc=True)
            for s in samples(game) if s.npc]

    def seat(name: str, member: Membership) -> Seat:
        client = Client(raise_request_exception=False)
        client.force_login(member.user)
        return Seat(name, member, client)

    return KitTable(game, table, seat("gm", gm), [seat("ann", players[0]), seat("bob", players[1])],
                    seat("watcher", watcher), npcs)


# Invariants


def snapshot(table: Table) -> tuple[Any, ...]:
    """What a refusal must leave as it was: the procedure's state, the log, where every card lies,
    the sheets, the decks."""
    row = ProcedureState.objects.filter(table=table).first()
    return (json.dumps(row.state if row else None, sort_keys=True),
            list(Event.objects.filter(table=table).values_list("seq", flat=True)),
            sorted(CardPlacement.objects.filter(deck__table=table).values_list("deck_id", "card_id", "pile_id",
                                                                               "position")),
            sorted(Character.objects.filter(table=table).values_list("pk", "version")),
            list(Deck.objects.filter(table=table).values_list("pk", "name")))


def conserved(table: Table) -> list[str]:
    """Each deck holds exactly its kind's cards, each in one place: what is wrong, if anything."""
    wrong = []
    for deck in Deck.objects.filter(table=table):
        ids = sorted(CardPlacement.objects.filter(deck=deck).values_list("card_id", flat=True))
        if ids != sorted(c.id for c in deck_kind(deck.kind).factory()):
            wrong.append(f"{deck.name}: {len(ids)} cards")
    return wrong


def fold(table: Table) -> dict[str, Any] | None:
    """The procedure's state rebuilt from the log alone: every logged engine event (its public
    part and its private part) folded in order from a new state."""
    game = registry.get(table.system)
    if game.engine is None:
        return None
    return json.loads(json.dumps(game.engine.fold(engine_log(table))))


def stored_state(table: Table) -> dict[str, Any] | None:
    row = ProcedureState.objects.filter(table=table).first()
    game = registry.get(table.system)
    if game.engine is None:
        return None
    return json.loads(json.dumps(row.state if row else game.engine.new_state()))


def weighted(rnd: random.Random, items: Sequence[Any], weights: Sequence[float]) -> Any:
    return rnd.choices(list(items), weights=list(weights), k=1)[0]


def every_seat_bytes(kt: KitTable, seat: Seat) -> Iterator[str]:
    """What one seat can be sent, read now: its page, its exports."""
    t = kt.table.pk
    yield seat.client.get(reverse("table", args=[t])).content.decode()
    for fmt in ("json", "md"):
        yield b"".join(seat.client.get(reverse("export", args=[t, fmt])).streaming_content).decode()


SENTENCE = re.compile(r"[A-Za-z]+")


def fill_as_offered(control: Control, rnd: random.Random, hands: Mapping[int, list[str]],
                    keep: float = 0.85) -> dict[str, Any]:
    """A submission of ``control`` as a person in a hurry sends it: most of the time each field
    as the form offers it (the option it has selected, else its first, the number it holds, the
    boxes ticked as they are), and now and then (``1 - keep``) another value it offers, as
    ``fill`` picks. Cards played from a hand are picked as ``fill`` picks them."""
    if rnd.random() >= keep:
        return fill(control, rnd, hands)
    data: dict[str, Any] = {}
    for f in control.fields:
        if f.kind == "select":
            if f.options:
                data[f.name] = [f.value] if f.multiple and f.value else (
                    f.options[:1] if f.multiple else (f.value if f.value in f.options else f.options[0]))
        elif f.kind in ("checkbox", "radio"):
            if f.checked:
                if f.kind == "radio":
                    data[f.name] = f.value
                else:
                    data.setdefault(f.name, []).append(f.value or "on")
        elif f.kind == "number":  # an empty box stays empty unless it must be filled: then 0, or its least
            data[f.name] = f.value or ("" if not f.required else str(
                0 if (f.low or 0) <= 0 <= (f.high if f.high is not None else 0) else f.low))
        else:
            data[f.name] = f.value
    for f in control.fields:  # a radio group with nothing checked: a person takes the first
        if f.kind == "radio" and f.name not in data:
            data[f.name] = f.value
    data.update(control.vals)
    return _pick_cards(control, rnd, hands, data)


def _pick_cards(control: Control, rnd: random.Random, hands: Mapping[int, list[str]],
                data: dict[str, Any]) -> dict[str, Any]:
    """A form that takes cards from a hand (``picks``): one to three of those it holds."""
    if control.picks:
        held = hands.get(_int(control.picks_from) or 0, [])
        if held:
            data[control.picks] = rnd.sample(held, rnd.randint(1, min(3, len(held))))
    return data
