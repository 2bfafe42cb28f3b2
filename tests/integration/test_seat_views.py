"""Each seat's table page is drawn as that seat's view: the templates draw only what the seat may
see and use (tabletop/feed/seat.py through tabletop/templatetags/seat_tags.py), so the pass
over the HTML (tabletop/feed/marks.py, ``strip``) finds nothing to take out.

A table of each system with a GM, two players each with a character, an NPC, a character
waiting to be claimed, decks (the table's, a player's own, one open to the players that a player
deals, and the rules' decks where the system has them) with cards in hands and face up, and a
shown scene with tokens, one of them hidden; then the same table with the system's procedure
under way. The page of the GM, of each player and of a spectator is read before the pass."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from django.urls import reverse

from games import registry
from tabletop import services
from tabletop.feed import marks
from tabletop.services import drawings
from tabletop.feed.seat import Seat, seat_of
from tabletop.models import Character, Membership, Role, Table
from tabletop.views.table import _table_context
from tests.integration.test_passages_table import GARBO, TRAYER
from tests.integration.test_report_card_table import JO, MARIETA

HTMX = {"HTTP_HX_REQUEST": "true"}
TABLE = "tabletop/table.html"
WHO = ("gm", "ann", "bob", "watcher")
# the module, not the view of the same name that tabletop/views/__init__.py lifts beside it
table_views = importlib.import_module("tabletop.views.table")

Steps = Callable[[dict[str, Character]], list[tuple[str, str, dict[str, Any]]]]


@dataclass(frozen=True)
class Setup:
    """A system's sheets (Ann's character, Bob's, the NPC) and the commands that set its
    procedure going, by who posts them."""

    sheets: tuple[dict[str, Any], dict[str, Any], dict[str, Any]]
    rule_decks: tuple[tuple[str, str], ...] = ()  # (kind, name) of the decks its rules draw from
    under_way: Steps = field(default=lambda c: [])


def _all(c: dict[str, Character]) -> list[int]:
    return [c["ann"].pk, c["bob"].pk, c["npc"].pk]


def _cid(character: Character) -> str:
    return f"c{character.pk}"


HARSH = {"strength": 3, "dexterity": 3, "wits": 3, "resolve": 2, "composure": 2, "skills": "Brawl: 2"}
SHADOWS = {"body": 3, "physical": 2, "mind": 3, "mental": 2, "spirit": 3, "emotional": 2, "quickness": 5,
           "skills": "Melee: 6\nStealth: 4"}
SETUPS: dict[str, Setup] = {
    "freeform": Setup(sheets=({}, {}, {})),
    "demon_city": Setup(
        sheets=({"agility": 2, "toughness": 3, "hand_to_hand": 4, "side": "players"},
                {"agility": 5, "toughness": 2, "firearms": 5, "side": "players"},
                {"agility": 3, "toughness": 1, "hand_to_hand": 6, "side": "demons"}),
        under_way=lambda c: [("gm", "start", {"characters": _all(c)})]),
    "report_card": Setup(
        sheets=(MARIETA, JO, JO),
        under_way=lambda c: [("gm", "call_check", {"character": c["bob"].pk, "skill": "LAW", "rank": "medium",
                                                   "task": "Argue the case"})]),
    "harsh_light": Setup(
        sheets=(HARSH, HARSH, HARSH), rule_decks=(("ten_value", "Harsh Light"),),
        under_way=lambda c: [("gm", "roll_initiative", {"characters": _all(c)})]),
    "shadows": Setup(
        sheets=(SHADOWS, {**SHADOWS, "quickness": 3}, {**SHADOWS, "quickness": 4, "health": 30}),
        rule_decks=(("minor_arcana", "Minor Arcana"), ("major_arcana", "Major Arcana")),
        under_way=lambda c: [
            ("gm", "set_weapons", {"table": "Blade | physical | 0 | 3 | cups | muscle | 1 | steel"}),
            ("gm", "start_combat", {"characters": _all(c)}),
            ("ann", "declare_focus", {"combatant": _cid(c["ann"]), "focus": "physical"}),
            ("bob", "declare_focus", {"combatant": _cid(c["bob"]), "focus": "physical"}),
            ("gm", "declare_focus", {"combatant": _cid(c["npc"]), "focus": "physical"}),
            ("gm", "deal", {}),
        ]),
    "passages": Setup(
        sheets=(TRAYER, {"skills": "Stealth: 40\nBrawl: 30"}, GARBO),
        under_way=lambda c: [("gm", "combat_start", {"characters": _all(c)})]),
}


def test_every_system_has_a_setup() -> None:
    assert set(SETUPS) == set(registry.SYSTEMS)


@dataclass
class Seated:
    table: Table
    members: dict[str, Membership]
    characters: dict[str, Character]

    def client(self, who: str) -> Client:
        client = Client()
        client.force_login(self.members[who].user)
        return client


def seated_table(system: str) -> Seated:
    setup = SETUPS[system]
    gm_user = get_user_model().objects.create_user(f"gm-{system}", password="a long gm password 1")
    table = services.table_create(gm=gm_user, name=f"Seats at {system}", system=system)
    gm = table.members.select_related("user").get(role=Role.GM)

    def join(role: str, name: str = "") -> Membership:
        return services.membership_join(table=table, user=services.guest_user_create(), role=role,
                                        display_name=name)

    ann, bob, watcher = join(Role.PLAYER, "Ann"), join(Role.PLAYER, "Bob"), join(Role.SPECTATOR)
    characters = {
        "ann": services.character_create(table=table, actor=ann, name="Alma", sheet=setup.sheets[0]),
        "bob": services.character_create(table=table, actor=bob, name="Bram", sheet=setup.sheets[1]),
        "npc": services.character_create(table=table, actor=gm, name="Ghoul", npc=True, sheet=setup.sheets[2]),
        "spare": services.character_create(table=table, actor=gm, name="Spare", for_players=True,
                                           sheet=setup.sheets[1]),
    }
    rng = random.Random(34)
    for kind, name in setup.rule_decks:
        services.deck_create(table=table, actor=gm, kind=kind, name=name, rng=rng)
    shared = services.deck_create(table=table, actor=gm, kind="standard", name="Table deck", rng=rng)
    own = services.deck_create(table=table, actor=gm, kind="standard", name="Ann's deck", owner=ann, rng=rng)
    dealt = services.deck_create(table=table, actor=gm, kind="tarot", name="Fortunes", rng=rng)
    services.deck_configure(deck=dealt, actor=gm, allow_reversed=False, players_may_use=True, dealer=bob)
    services.pile_draw(deck=own, actor=ann, count=2)
    services.pile_draw(deck=dealt, actor=bob, count=1)
    services.pile_draw(deck=dealt, actor=bob, count=1, to="play")
    services.pile_draw(deck=shared, actor=gm, count=2)
    services.pile_draw(deck=shared, actor=gm, count=1, to="play")
    services.pile_deal(deck=dealt, actor=bob, count=1, to=[ann, bob])
    scene = services.scene_create(table=table, actor=gm, name="The hall", colour="#4a6741")
    services.scene_show(scene=scene, actor=gm)
    for who in ("ann", "bob"):
        services.token_place(scene=scene, character=characters[who], actor=gm)
    services.token_place(scene=scene, character=characters["npc"], actor=gm, hidden=True)
    # a drawing of Ann's, and one on the GM's layer (only the GM's page draws it: gm-only)
    drawings.drawing_add(scene=scene, actor=ann, shape="line", points=[[10, 10], [90, 90]], colour="#112233", width=3)
    drawings.drawing_add(scene=scene, actor=gm, shape="rect", points=[[20, 20], [60, 60]], colour="#445566",
                         width=3, layer="gm")
    services.scene_create(table=table, actor=gm, name="The cellar", colour="#333333")  # one not shown
    return Seated(table, {"gm": gm, "ann": ann, "bob": bob, "watcher": watcher}, characters)


def under_way(seated: Seated, system: str) -> None:
    clients = {who: seated.client(who) for who in WHO}
    for who, command, data in SETUPS[system].under_way(seated.characters):
        answer = clients[who].post(reverse("table_command", args=[seated.table.pk, command]), data, **HTMX)
        assert answer.status_code == 200, (command, answer.content.decode()[:300])
        assert 'role="alert"></p>' in answer.content.decode(), (command, answer.content.decode()[:300])


def drawn_page(seated: Seated, who: str, monkeypatch: pytest.MonkeyPatch) -> tuple[str, Seat, str]:
    """The table page as the templates drew it for ``who`` (before the pass over the HTML), the
    seat it was drawn for, and the page sent."""
    seen: list[tuple[str, Seat]] = []

    def watched(html: str, seat: Seat) -> str:
        seen.append((html, seat))
        return marks.checked(html, seat)

    with monkeypatch.context() as patched:
        patched.setattr(table_views, "checked", watched)
        answer = seated.client(who).get(reverse("table", args=[seated.table.pk]))
    assert answer.status_code == 200
    assert len(seen) == 1
    return seen[0][0], seen[0][1], answer.content.decode()


@pytest.mark.parametrize("going", [False, True], ids=["calm", "under_way"])
@pytest.mark.parametrize("system", list(SETUPS))
def test_each_seat_is_drawn_only_what_it_may_see_and_use(db: None, system: str, going: bool,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    seated = seated_table(system)
    if going:
        under_way(seated, system)
    members = seated.members
    for who in WHO:
        html, seat, sent = drawn_page(seated, who, monkeypatch)
        assert seat == seat_of(members[who])
        assert marks.strip(html, seat) == html, f"{who}'s page draws what {who} may not use"
        assert sent == html
    gm_html = drawn_page(seated, "gm", monkeypatch)[0]
    ann_html = drawn_page(seated, "ann", monkeypatch)[0]
    watcher_html = drawn_page(seated, "watcher", monkeypatch)[0]
    # what each seat keeps is drawn: the check above is not met by an empty page
    assert 'class="gm-only' in gm_html and "is-hidden" in gm_html
    assert f'class="edit-link" data-owner="{members["ann"].pk}"' in ann_html
    assert f'class="edit-link" data-owner="{members["bob"].pk}"' not in ann_html
    assert 'class="player-only small"' in ann_html  # Claim Spare
    bob_deals = f'<div class="dealer-tools" data-dealers="{members["bob"].pk}">'  # the Fortunes, Bob deals
    assert bob_deals not in ann_html and bob_deals in drawn_page(seated, "bob", monkeypatch)[0]
    assert "hx-post" not in watcher_html and 'class="card-tools' not in watcher_html
    assert "is-hidden" not in ann_html + watcher_html


@pytest.mark.parametrize("system", list(SETUPS))
def test_the_drawn_view_is_the_html_pass_over_the_page_drawn_for_no_seat(db: None, system: str) -> None:
    """The templates with a seat draw, byte for byte, what the pass over the HTML leaves of the
    page drawn without one (as a context without ``seat`` still is: every element kept)."""
    seated = seated_table(system)
    under_way(seated, system)
    for who in WHO:
        member = seated.members[who]
        request = RequestFactory().get(reverse("table", args=[seated.table.pk]))
        context = _table_context(request, seated.table, member)
        seat = context["seat"]
        unseated = render_to_string(TABLE, {k: v for k, v in context.items() if k != "seat"})
        drawn = render_to_string(TABLE, context)
        if who != "gm":
            assert unseated != drawn
        assert marks.strip(unseated, seat) == drawn, who
