"""A game system's moves and checks are actions of the one action table (tabletop/actions.py:
``move.<name>``, ``check.<name>``), taken through both of its doors: posted to the system's
routes (tabletop/views/systems.py) and sent as an act frame on the table's socket. The same
input, at two tables set alike, logs the same lines; a refusal is the same refusal at both
doors and changes nothing; every action a table takes is reachable through both."""

from __future__ import annotations

import html
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import resolve

from games import registry
from tabletop import actions, services, views
from tabletop.models import Character, Event, Membership, ProcedureState, Table
from tabletop.services import characters
from tabletop.views.base import POST_ONLY, posted_at, socket_paths
from tabletop.views.designed import sheet_action
from tests.support.party import seat_four

pytestmark = pytest.mark.django_db(transaction=True)
HTMX = {"HTTP_HX_REQUEST": "true"}
Args = dict[str, str | list[str]]


@dataclass
class Party:
    table: Table
    gm: Membership
    ann: Membership
    bob: Membership
    watcher: Membership
    chars: dict[str, Character]

    def cid(self, name: str) -> str:
        return f"c{self.chars[name].pk}"


# Report Card: Marieta is Ann's, Jo is Bob's. Demon City: Alfie is Ann's, Betty Bob's, the Demon the GM's.
SHEETS: dict[str, list[tuple[str, str, dict[str, Any]]]] = {
    "report_card": [
        ("ann", "Marieta", {"fast": "on", "clever": "on", "a_plus": "FREE", "f_skill": "GYM", "major": "17"}),
        ("bob", "Jo", {"wise": "on", "a_plus": "LAW", "f_skill": "ART", "major": "The Hierophant"}),
    ],
    "demon_city": [
        ("ann", "Alfie", {"agility": 2, "toughness": 3, "hand_to_hand": 4, "side": "players"}),
        ("bob", "Betty", {"agility": 5, "toughness": 2, "firearms": 5, "side": "players"}),
        ("gm", "Demon", {"agility": 3, "toughness": 1, "hand_to_hand": 6, "side": "demons"}),
    ],
}


def seat(system: str, tag: str) -> Party:
    """A table of ``system`` with its GM, two players and a spectator, and its characters."""
    table, gm, ann, bob, watcher = seat_four(f"{system}-{tag}", system, "Both doors")
    members = {"gm": gm, "ann": ann, "bob": bob}
    chars = {name: services.character_create(table=table, actor=members[who], name=name, sheet=sheet,
                                             npc=who == "gm")
             for who, name, sheet in SHEETS.get(system, [])}
    return Party(table, gm, ann, bob, watcher, chars)


def post(party: Party, member: Membership, name: str, args: Args) -> tuple[int, str]:
    client = Client()
    client.force_login(member.user)
    response = client.post(posted_at(name, party.table.pk), args, **HTMX)
    return response.status_code, html.unescape(response.content.decode())


def answer(frame: str) -> dict[str, str]:
    attrs = dict(re.findall(r'data-([a-z]+)="([^"]*)"', frame))
    attrs["text"] = html.unescape(re.sub(r"<[^>]+>", "", frame)).strip()
    return attrs


async def act(connect: Any, party: Party, member: Membership, name: str, args: Args) -> dict[str, str]:
    socket = await connect(party.table, member, resume=None)
    await socket.send({"type": "act", "ref": "r1", "action": name, "args": args})
    got = answer((await socket.until('data-ref="r1"'))[-1])
    await socket.close()
    return got


def lines(party: Party, since: int = 0) -> list[tuple[str, str, str, str, str]]:
    """The lines logged after ``since``, in terms that do not depend on rows' ids."""
    names = {m.pk: m.display_name for m in party.table.members.all()}
    return [(e.kind, names.get(e.actor_id, ""), e.audience, e.summary, e.private_summary)
            for e in Event.objects.filter(table=party.table, seq__gt=since).order_by("seq")]


def snapshot(party: Party) -> tuple[Any, ...]:
    row = ProcedureState.objects.filter(table=party.table).first()
    return (row.state if row else None, lines(party))


def last_seq(party: Party) -> int:
    return Event.objects.filter(table=party.table).order_by("-seq").values_list("seq", flat=True).first() or 0


def run(p: Party, name: str, form: dict[str, list[str]]) -> None:
    """The GM takes a move as the page posts it."""
    action = actions.lookup(name, p.table.system)
    assert action is not None
    actions.take(action, p.gm, form)


def call_check(p: Party) -> None:
    """The GM calls a Report Card check for Marieta: her player draws next."""
    run(p, "move.call_check", {"character": [str(p.chars["Marieta"].pk)], "skill": ["LAW"], "rank": ["medium"],
                               "task": ["search the office"]})


def start_rounds(p: Party) -> None:
    """Demon City's Action Rounds: Alfie (Agility 2) announces first."""
    run(p, "move.start", {"characters": [str(p.chars[n].pk) for n in ("Alfie", "Betty", "Demon")]})


@dataclass(frozen=True)
class Case:
    system: str
    name: str
    who: str
    args: Callable[[Party], Args]
    setup: Callable[[Party], None] = lambda p: None


DONE = {
    "report_card call": Case("report_card", "move.call_check", "gm", lambda p: {
        "character": str(p.chars["Marieta"].pk), "skill": "LAW", "rank": "medium", "task": "search the office"}),
    "report_card draw": Case("report_card", "move.draw", "ann", lambda p: {"character": p.cid("Marieta")},
                             setup=call_check),
    # a field sent more than once goes as a list on the socket, as a form posts it again
    "demon_city start": Case("demon_city", "move.start", "gm", lambda p: {
        "characters": [str(p.chars[n].pk) for n in ("Alfie", "Betty", "Demon")]}),
    "demon_city task": Case("demon_city", "check.task", "gm", lambda p: {
        "character": str(p.chars["Alfie"].pk), "stat": "agility", "opponent": str(p.chars["Betty"].pk),
        "opponent_stat": "agility", "opponent_situation": ["the high ground", "a head start"]}),
}


@pytest.fixture
def same_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both doors draw the same numbers, from decks shuffled alike (Report Card's own decks,
    shuffled as each character is made)."""
    monkeypatch.setattr(actions, "system_rng", lambda: random.Random(99))
    monkeypatch.setattr(characters, "system_rng", lambda: random.Random(98))


@pytest.mark.parametrize("case", sorted(DONE))
async def test_a_system_action_logs_the_same_through_a_post_and_an_act_frame(connect, same_dice, case) -> None:
    c = DONE[case]
    sync = database_sync_to_async
    by_post, by_frame = await sync(seat)(c.system, "post"), await sync(seat)(c.system, "frame")
    await sync(c.setup)(by_post)
    await sync(c.setup)(by_frame)
    post_mark, frame_mark = await sync(last_seq)(by_post), await sync(last_seq)(by_frame)

    status, body = await sync(post)(by_post, getattr(by_post, c.who), c.name, await sync(c.args)(by_post))
    assert status == 200, body
    done = await act(connect, by_frame, getattr(by_frame, c.who), c.name, await sync(c.args)(by_frame))
    assert done["outcome"] == "done", done

    logged = await sync(lines)(by_post, post_mark)
    assert any(kind.startswith(f"{c.system}.") for kind, *_ in logged)
    assert await sync(lines)(by_frame, frame_mark) == logged
    # the answer names the actor's position of the action's last line
    last = await sync(lambda: Event.objects.filter(table=by_frame.table).latest("seq"))()
    assert done["seq"] == last.position(gm=c.who == "gm")


REFUSED = {
    # Bob may not draw for Ann's character: the rules refuse the sender
    "report_card not his character": (Case("report_card", "move.draw", "bob", lambda p: {"character": p.cid("Marieta")},
                                           setup=call_check), 403, "not-allowed"),
    # the slowest announces first: Betty (Agility 5) cannot go before Alfie
    "demon_city out of turn": (Case("demon_city", "move.announce", "bob", lambda p: {
        "combatant": p.cid("Betty"), "kind": "shoot", "target": p.cid("Demon")}, setup=start_rounds),
        400, "invalid"),
    # the system's parser refuses the form
    "demon_city task without a difficulty": (Case("demon_city", "check.task", "ann", lambda p: {
        "character": str(p.chars["Alfie"].pk), "stat": "agility"}), 400, "invalid"),
    # a spectator is refused before anything is read
    "report_card spectator": (Case("report_card", "move.call_check", "watcher", lambda p: {
        "character": str(p.chars["Marieta"].pk), "skill": "LAW", "rank": "medium", "task": "x"}), 403, "not-allowed"),
    "demon_city spectator": (Case("demon_city", "check.task", "watcher", lambda p: {
        "character": str(p.chars["Alfie"].pk), "stat": "agility", "target_number": "3"}), 403, "not-allowed"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
async def test_a_system_action_s_refusal_is_the_same_through_both_doors_and_changes_nothing(connect, case) -> None:
    c, status, code = REFUSED[case]
    sync = database_sync_to_async
    party = await sync(seat)(c.system, "one")
    await sync(c.setup)(party)
    before = await sync(snapshot)(party)
    member = getattr(party, c.who)
    got, body = await sync(post)(party, member, c.name, await sync(c.args)(party))
    refused = await act(connect, party, member, c.name, await sync(c.args)(party))
    assert (got, refused["outcome"], refused["error"]) == (status, "refused", code), (body, refused)
    assert refused["text"]
    if c.who != "watcher":  # the same words (a seat's refusal at the POST is the 403 page)
        assert refused["text"] in body, (refused, body)
    assert await sync(snapshot)(party) == before


@pytest.mark.parametrize(("system", "name", "words"), [
    ("report_card", "move.fly", "There is no such command at this table."),
    ("report_card", "check.fly", "There is no such check at this table."),
    ("report_card", "move.announce", "There is no such command at this table."),  # Demon City's, not this game's
    ("freeform", "move.call_check", "There is no such command at this table."),  # a game without moves
])
async def test_a_move_the_table_s_game_lacks_is_refused_at_both_doors_with_a_clear_error(
        connect, system, name, words) -> None:
    sync = database_sync_to_async
    party = await sync(seat)(system, "one")
    before = await sync(snapshot)(party)
    kind, _, rest = name.partition(".")

    def post_it() -> tuple[int, str]:
        client = Client()
        client.force_login(party.gm.user)
        route = {"move": "commands", "check": "checks"}[kind]
        response = client.post(f"/tables/{party.table.pk}/{route}/{rest}/", {"character": "1"}, **HTMX)
        return response.status_code, html.unescape(response.content.decode())

    status, body = await sync(post_it)()
    assert status == 404 and words in body
    refused = await act(connect, party, party.gm, name, {"character": "1"})
    assert (refused["outcome"], refused["error"], refused["text"]) == ("refused", "unknown-action", words)
    assert await sync(snapshot)(party) == before


def named_by_the_page(paths: dict[str, str | None], path: str) -> str | None:
    """The action the page's script reads for a path it would post to (static/js/tabletop.js:
    actionAt): the path's own, else its kind's prefix and the rest of the path."""
    if path in paths:
        return paths[path]
    head, _, rest = path.removesuffix("/").rpartition("/")
    prefix = paths.get(head + "/")
    return prefix + rest if prefix and rest and path.endswith("/") else None


@pytest.mark.parametrize("system", ["shadows", "demon_city"])
def test_the_page_sends_every_action_of_its_table_but_a_peek_as_an_act_frame_by_the_path_it_posts_to(
        db, system) -> None:
    party = seat(system, "one")
    paths = socket_paths(party.table)
    names = actions.table_actions(system)
    assert any(n.startswith(actions.MOVE) for n in names)
    views_of = {"move": views.table_command, "check": views.table_check, "deck": views.deck_action,
                "card": views.card_action, "npc": views.npc_action, "bestiary": views.bestiary_action,
                "request": views.request_action, "fog": views.fog_action, "sheet": sheet_action}
    for name in names:
        path = posted_at(name, party.table.pk)
        assert named_by_the_page(paths, path) == (None if name in POST_ONLY else name), path
        view = {"dice.roll": views.roll, "chat.post": views.chat, "deck.create": views.deck_create,
                "session.open": views.session_open, "session.close": views.session_close}.get(name)
        assert resolve(path).func == (view or views_of[name.partition(".")[0]]), (path, name)
    for other in (f"/tables/{party.table.pk}/characters/new/", f"/tables/{party.table.pk}/npc-sheets/",
                  f"/tables/{party.table.pk}/sheet-design/", f"/tables/{party.table.pk}/sheets/new/"):
        assert named_by_the_page(paths, other) is None  # not an action: posted
    # the page names kinds, not each move: a player's page names none of the GM's
    assert not any(str(name).startswith(actions.MOVE) and name != actions.MOVE for name in paths.values())


@pytest.mark.parametrize("system", sorted(registry.SYSTEMS))
async def test_every_action_a_table_takes_is_reachable_through_both_doors(connect, system) -> None:
    """Each action of the table, its game's moves and checks included, posted with nothing and
    sent with nothing: each door finds it (whatever it then says of the empty input)."""
    sync = database_sync_to_async
    party = await sync(seat)(system, "one")
    names = sorted(actions.table_actions(system))
    game = registry.get(system)
    assert len(names) == len(actions.ACTIONS) + len(game.commands) + len(game.checks)
    for name in names:
        status, body = await sync(post)(party, party.gm, name, {})
        assert not (status == 404 and actions.unknown(name) in body), (name, status)
        assert status < 500, (name, status)
    socket = await connect(party.table, party.gm, resume=None)
    for i, name in enumerate(names):
        await socket.send({"type": "act", "ref": f"r{i}", "action": name, "args": {}})
        got = answer((await socket.until(f'data-ref="r{i}"'))[-1])
        assert got.get("error") != "unknown-action", (name, got)
    await socket.close()
