"""Hostile input POSTed to every POST endpoint of tabletop/urls.py by each seat (GM, player,
spectator, a stranger, nobody logged in): never a 500, never an exception from Django's
request handler, and a refusal (4xx) changes nothing at any table. (Django's own logout and
admin are left to Django.)

A table of hostile values (huge and negative numbers, 0, empty, 10 kB strings, NUL,
bytes that are not UTF-8, markup, other tables' ids, a field sent twice) put in one field
at a time of an otherwise good form, so each reaches as deep as it can; not a random
search, so the module stays within a few seconds."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import pytest
from django.contrib.auth import get_user_model
from django.core.signals import got_request_exception
from django.db import connection
from django.test import Client
from django.urls import reverse

from games import registry
from tabletop import services
from tabletop.forms import CharacterForm
from tabletop.ids import MAX_ID
from tabletop.models import (
    Table, CardPlacement, Character, Deck, Event, Membership, ProcedureState, Role,
)
from tabletop.selectors import combatant_id
from tabletop.views.cards import CARD_ACTIONS, DECK_ACTIONS

pytestmark = pytest.mark.django_db

SCRIPT = "<script>alert(1)</script>"
HOSTILE: list[Any] = [
    "", "0", "-1", str(MAX_ID + 1), "9" * 5000, "1.5", "²", "\x00", "x" * 10240, SCRIPT,
]
FEW: list[Any] = [str(10**25), SCRIPT]  # for the player, who takes the GM's paths
NOT_UTF8 = b"%FF%FE%C0%80=%FF&%00=%ED%A0%80"  # keys and values that no UTF-8 decodes


@dataclass
class World:
    """A Freeform table with cards in play, a Demon City table mid-fight, another table
    whose ids are the hostile ones, and a stranger."""

    ff: Table
    gm: Membership
    ann: Membership
    bob: Membership
    watcher: Membership
    deck: Deck
    ann_card: str
    ann_character: Character
    dc: Table
    dc_gm: Membership
    dc_ann: Membership
    dc_watcher: Membership
    dc_characters: list[Character]
    other: Table
    other_ids: dict[str, str]  # what an id field names -> that thing's id at another table
    stranger: Any

    def other_id(self, field: str) -> str:
        """An id of what ``field`` names, from another table."""
        for thing in ("deck", "character", "combatant", "target", "opponent"):
            if thing in field:
                return self.other_ids[thing if thing in self.other_ids else "character"]
        return self.other_ids["member"]

    def hostile(self, field: str = "", values: list[Any] = HOSTILE) -> list[Any]:
        """The values, plus an id of another table and the field sent twice."""
        return [*values, self.other_id(field)] + ([["1", SCRIPT]] if values is HOSTILE else [])


def _table(system: str, gm_name: str) -> tuple[Table, Membership, Membership, Membership, Membership]:
    users = get_user_model()
    gm_user = users.objects.create_user(gm_name, password="a long gm password 1")
    table = services.table_create(gm=gm_user, name=f"{system} table", system=system)
    gm = table.members.select_related("user").get(role=Role.GM)
    seat = lambda role, name: services.membership_join(  # noqa: E731
        table=table, user=services.guest_user_create(), role=role, display_name=name)
    return table, gm, seat(Role.PLAYER, "Ann"), seat(Role.PLAYER, "Bob"), seat(Role.SPECTATOR, "")


@pytest.fixture
def world(db: None) -> World:
    rng = random.Random(7)
    ff, gm, ann, bob, watcher = _table("freeform", "gail")
    deck = services.deck_create(table=ff, actor=gm, kind="standard", players_may_use=True, rng=rng)
    services.pile_deal(deck=deck, actor=gm, count=3, to=[ann, bob])
    services.pile_draw(deck=deck, actor=gm, count=1, to="play")
    hand = CardPlacement.objects.filter(deck=deck, pile__owner=ann).order_by("position")
    ann_character = services.character_create(table=ff, actor=ann, name="Ann's", sheet={})

    dc, dc_gm, dc_ann, dc_bob, dc_watcher = _table("demon_city", "host")
    alfie = services.character_create(table=dc, actor=dc_ann, name="Alfie",
                                      sheet={"agility": 2, "toughness": 3, "hand_to_hand": 4, "side": "players"})
    demon = services.character_create(table=dc, actor=dc_gm, name="Demon", npc=True,
                                      sheet={"agility": 3, "toughness": 1, "hand_to_hand": 6, "side": "demons"})
    services.procedure_command(table=dc, actor=dc_gm, rng=rng, command={
        "type": "start", "combatants": [combatant_id(c) for c in (alfie, demon)]})

    other, other_gm, other_ann, _, _ = _table("freeform", "olga")
    other_deck = services.deck_create(table=other, actor=other_gm, kind="tarot", players_may_use=True, rng=rng)
    other_character = services.character_create(table=other, actor=other_ann, name="Theirs", sheet={})
    other_ids = {"member": str(other_ann.pk), "deck": str(other_deck.pk), "character": str(other_character.pk),
                 "combatant": f"c{other_character.pk}", "target": f"c{other_character.pk}"}
    stranger = get_user_model().objects.create_user("stranger", password="a long stranger password")
    return World(ff, gm, ann, bob, watcher, deck, hand.first().card_id, ann_character, dc, dc_gm, dc_ann,
                 dc_watcher, [alfie, demon], other, other_ids, stranger)


def state() -> tuple:
    """A fingerprint of everything a refusal must leave as it was, at every table: the logs
    (count and seqs), where every card lies, the characters, the seats, the decks, the links,
    the fight, the accounts. One statement (sums weighted by each row's id, so any move or
    edit shows), not a read per model: the module makes a thousand of them."""
    with connection.cursor() as cursor:
        cursor.execute(_STATE_SQL)
        return tuple(cursor.fetchone())


def _state_sql() -> str:
    table = {m.__name__: m._meta.db_table for m in (Event, CardPlacement, Character, Membership, Table,
                                                     Deck, ProcedureState)}
    table["User"] = get_user_model()._meta.db_table
    parts = {
        "Event": ["COUNT(*)", "SUM(seq * table_id)", "MAX(id)"],
        "CardPlacement": ["COUNT(*)", "SUM(id * pile_id)", "SUM(id * position)",
                          "SUM(CASE WHEN reversed THEN id ELSE 0 END)"],
        "Character": ["COUNT(*)", "SUM(id * version)", "SUM(id * COALESCE(owner_id, 0))",
                      "SUM(id * LENGTH(name))", "SUM(id * LENGTH(sheet))"],
        "Membership": ["COUNT(*)", "SUM(CASE WHEN removed_at IS NULL THEN 0 ELSE id END)",
                       "SUM(id * LENGTH(display_name))", "SUM(id * LENGTH(role))"],
        "Table": ["COUNT(*)", "SUM(id * LENGTH(name))", "MAX(player_token)", "MAX(spectator_token)",
                     "MIN(player_token)", "MIN(spectator_token)"],
        "Deck": ["COUNT(*)", "SUM(CASE WHEN allow_reversed THEN id ELSE 0 END)",
                 "SUM(CASE WHEN players_may_use THEN id ELSE 0 END)"],
        "ProcedureState": ["COUNT(*)", "SUM(id * LENGTH(state))"],
        "User": ["COUNT(*)"],
    }
    return "SELECT " + ", ".join(
        f"(SELECT {expr} FROM {table[model]})" for model, exprs in parts.items() for expr in exprs)


_STATE_SQL = _state_sql()


@pytest.fixture
def request_errors() -> Iterator[list[str]]:
    """Every exception Django's request handler met (what it logs as a 500). The handler's
    log of each refusal (a 4xx, with its traceback) is left out: a thousand of them were a
    good part of the module's time."""
    errors: list[str] = []
    request_log = logging.getLogger("django.request")
    level = request_log.level
    request_log.setLevel(logging.ERROR)

    def record(sender: Any, request: Any = None, **kwargs: Any) -> None:
        errors.append(f"{request.method} {request.path}" if request is not None else "?")

    got_request_exception.connect(record)
    yield errors
    got_request_exception.disconnect(record)
    request_log.setLevel(level)


class Prober:
    """Sends requests and checks each answer: no 500, and nothing changed when refused."""

    def __init__(self, errors: list[str]) -> None:
        self.errors = errors
        self.before = state()
        self.sent = 0

    def send(self, client: Client, method: str, url: str, data: Any = None, *, htmx: bool = False,
             raw: bytes | None = None) -> int:
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        if raw is not None:
            response = client.post(url, raw, content_type="application/x-www-form-urlencoded", **headers)
        elif method == "get":
            response = client.get(url, data or {}, **headers)
        else:
            response = client.post(url, data or {}, **headers)
        self.sent += 1
        what = f"{method.upper()} {url[:120]} {str(data)[:200] if raw is None else raw!r}"
        assert response.status_code < 500 and not self.errors, (what, response.status_code, self.errors)
        after = state()
        if response.status_code >= 400:
            assert after == self.before, f"a refusal ({response.status_code}) changed state: {what}"
        self.before = after
        return response.status_code


def client_for(user: Any) -> Client:
    client = Client(raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    return client


def ff_posts(w: World) -> list[tuple[str, dict[str, Any]]]:
    """Every POST of a Freeform table with good data: (url, data)."""
    pk = w.ff.pk
    posts: list[tuple[str, dict[str, Any]]] = [
        (reverse("roll", args=[pk]), {"notation": "1d6", "mode": "public"}),
        (reverse("chat", args=[pk]), {"text": "hello"}),
        (reverse("member_rename", args=[pk, w.watcher.pk]), {"display_name": "Wanda"}),
        (reverse("character_new", args=[pk]), {**_sheet("freeform"), "kind": "pc"}),
        (reverse("character_edit", args=[pk, w.ann_character.pk]),
         {**_sheet("freeform"), "version": str(w.ann_character.version)}),
        (reverse("deck_create", args=[pk]), {"kind": "standard", "name": "Spare", "owner": str(w.ann.pk),
                                             "allow_reversed": "on", "players_may_use": "on"}),
    ]
    good = {"deck": str(w.deck.pk), "count": "1", "order": "std:S:1", "allow_reversed": "on",
            "players_may_use": "on", "card": w.ann_card, "to_name": "Bob"}
    for action in sorted(CARD_ACTIONS):  # before a recall could empty Ann's hand
        data = {"deck": good["deck"], "card": good["card"]}
        if action == "pass":
            data["to_name"] = good["to_name"]
        posts.append((reverse("card_action", args=[pk, action]), data))
    for action, form in DECK_ACTIONS.items():
        data = {name: good.get(name, "") for name in form.base_fields}
        if "to" in data:
            data["to"] = [str(w.ann.pk)] if action == "deal" else "hand"
        posts.append((reverse("deck_action", args=[pk, action]), data))
    return posts


def dc_posts(w: World) -> list[tuple[str, dict[str, Any]]]:
    """Every POST only a Demon City table takes, and its sheet, with good data."""
    pk = w.dc.pk
    alfie, demon = (f"c{c.pk}" for c in w.dc_characters)
    reads = {  # the fields each command reads (games/demon_city/moves.py)
        "start": {"characters": [str(c.pk) for c in w.dc_characters]},
        "add_combatant": {"characters": [str(w.dc_characters[0].pk)]},
        "announce": {"combatant": alfie, "kind": "attack", "description": "swings", "target": demon,
                     "stat": "hand_to_hand", "against": "agility", "massive": "on"},
        "allow_extra_targets": {"combatant": alfie},
        "adjust_pool": {"combatant": alfie, "die": "situation", "change": "grant", "reason": "high ground"},
        "set_difficulty": {"combatant": alfie, "target_number": "4", "stat": "agility"},
        "set_condition": {"combatant": alfie, "field": "unaware", "value": "on"},
        "set_injury_table": {"table": "2-12 | Hurt | alive | final | ouch"},
    }
    posts = [(reverse("table_command", args=[pk, command]), reads.get(command, {"combatant": alfie}))
             for command in sorted(c.name for c in registry.get("demon_city").commands)]
    posts.append((reverse("table_check", args=[pk, "task"]), {
        "character": str(w.dc_characters[0].pk), "opponent": str(w.dc_characters[1].pk), "target_number": "4",
        "stat": "agility", "opponent_stat": "agility", "distracted": "on", "situation": "dark",
        "lost": "tired"}))
    posts.append((reverse("character_new", args=[pk]), {**_sheet("demon_city"), "kind": "npc"}))
    return posts


def _sheet(system: str) -> dict[str, str]:
    form = CharacterForm(system=system)
    data = {"name": "Someone"}
    for name, field in form.fields.items():
        if name.startswith("sheet_"):
            data[name] = str(form.initial.get(name, "") or "")
    return data


def each_field_hostile(data: dict[str, Any], values: Callable[[str], list[Any]]) -> Iterator[dict[str, Any]]:
    """The good data with one field at a time set to each of the field's hostile values."""
    for name in data:
        for value in values(name):
            yield {**data, name: value}


@pytest.mark.parametrize("which", ["ff", "dc"])
def test_no_hostile_form_is_a_500_and_a_refusal_changes_nothing(world, request_errors, which) -> None:
    w = world
    posts = ff_posts(w) if which == "ff" else dc_posts(w)
    seats = {"ff": (w.gm, w.ann, w.watcher), "dc": (w.dc_gm, w.dc_ann, w.dc_watcher)}[which]
    probe = Prober(request_errors)
    gm, player, spectator = (client_for(m.user) for m in seats)
    stranger, nobody = client_for(w.stranger), client_for(None)
    for url, data in posts:
        for i, hostile in enumerate(each_field_hostile(data, w.hostile)):
            probe.send(gm, "post", url, hostile, htmx=i % 2 == 0)
        for i, hostile in enumerate(each_field_hostile(data, lambda field: w.hostile(field, FEW))):
            probe.send(player, "post", url, hostile, htmx=i % 2 == 1)
        for client in (spectator, stranger, nobody):
            probe.send(client, "post", url, {name: SCRIPT for name in data}, htmx=True)
            probe.send(client, "post", url, data)
        for client in (gm, player):
            probe.send(client, "post", url, raw=NOT_UTF8)
            probe.send(client, "post", url, {})
    for client in (gm, player, spectator):
        _no_markup_got_through(client, w.ff if which == "ff" else w.dc)


def _no_markup_got_through(client: Client, table: Table) -> None:
    """What the hostile values left behind (a chat line, a name, a sheet) shows as text."""
    for url in (reverse("table", args=[table.pk]), reverse("export", args=[table.pk, "md"])):
        response = client.get(url)
        assert response.status_code == 200
        assert SCRIPT not in (b"".join(response.streaming_content) if response.streaming else response.content).decode()


PATHS = [  # every URL with a segment from the request, {a}; POSTs without fields are fuzzed here
    ("post", "/tables/{a}/roll/"), ("post", "/tables/{a}/chat/"), ("get", "/tables/{a}/"),
    ("post", "/tables/{ff}/links/{a}/regenerate/"), ("get", "/tables/{ff}/links/{a}/qr.svg"),
    ("post", "/tables/{ff}/members/{a}/rename/"), ("post", "/tables/{ff}/members/{a}/remove/"),
    ("get", "/tables/{ff}/characters/{a}/edit/"), ("post", "/tables/{ff}/characters/{a}/edit/"),
    ("post", "/tables/{ff}/characters/{a}/claim/"), ("get", "/tables/{ff}/export.{a}"),
    ("post", "/tables/{ff}/decks/{a}/"), ("post", "/tables/{ff}/cards/{a}/"),
    ("post", "/tables/{dc}/commands/{a}/"), ("post", "/tables/{a}/checks/task/"),
    ("post", "/tables/{dc}/checks/{a}/"), ("post", "/tables/{ff}/commands/{a}/"), ("get", "/join/{a}/"),
    ("post", "/join/{a}/"), ("post", "/watch/{a}/"), ("get", "/games/demon_city/odds/?against={a}"),
    ("get", "/games/{a}/odds/"), ("get", "/games/demon_city/{a}/"),
]


def test_no_hostile_url_is_a_500_and_a_refusal_changes_nothing(world, request_errors) -> None:
    w = world
    probe = Prober(request_errors)
    clients = [client_for(m.user) for m in (w.gm, w.ann, w.watcher)] + [client_for(w.stranger), client_for(None)]
    segments = [quote(v, safe="") for v in ("0", str(MAX_ID + 1), "9" * 5000, "²", SCRIPT)]
    segments += [w.other_ids["member"], w.other_ids["character"], w.other_ids["combatant"], str(w.other.pk),
                 "%00", "%FF", "..", "player%00", "00001"]
    for method, path in PATHS:
        for i, segment in enumerate(segments):
            url = path.format(a=segment, ff=w.ff.pk, dc=w.dc.pk)
            client = clients[i % len(clients)]
            probe.send(client, method, url, {"display_name": SCRIPT, "notation": "1d6", "mode": "public"})


def test_hostile_accounts_and_table_forms_are_never_a_500(world, request_errors) -> None:
    w = world
    probe = Prober(request_errors)
    forms: list[tuple[Client | None, str, dict[str, Any]]] = [
        (None, reverse("signup"), {"username": "newgm", "password1": "a long gm password 9",
                                   "password2": "a long gm password 9"}),
        (None, reverse("login"), {"username": "gail", "password": "a long gm password 1"}),
        (client_for(w.gm.user), reverse("table_create"), {"name": "Another", "system": "freeform"}),
        (client_for(w.ann.user), reverse("table_create"), {"name": "Another", "system": "freeform"}),
    ]
    for client, url, data in forms:
        for hostile in each_field_hostile(data, w.hostile):
            probe.send(client or client_for(None), "post", url, hostile)
    token = w.ff.player_token
    for value in w.hostile("display_name"):
        probe.send(client_for(None), "post", reverse("join", args=[token]), {"display_name": value})
    probe.send(client_for(None), "post", reverse("join", args=[token]), raw=NOT_UTF8)
