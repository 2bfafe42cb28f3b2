"""The one table of actions (tabletop/actions.py), through both of its doors: an htmx POST
and an act frame on the table's socket. The same input, at two tables set alike, makes the
same events and leaves the same state; a refusal is the same refusal at both doors, and a
name the table lacks is refused at both."""

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
from django.urls import reverse

from tabletop import actions, services
from tabletop.actions import ACTIONS
from tabletop.models import BestiaryEntry, Table, CardPlacement, Deck, Event, Membership, PileKind, Role
from tabletop.feed.seat import event_reading
from tabletop.selectors import viewer_of
from tests.support.party import seat_four

pytestmark = pytest.mark.django_db(transaction=True)
HTMX = {"HTTP_HX_REQUEST": "true"}


@dataclass
class World:
    """A table with a deck open to players, three cards in each player's hand and one
    discarded, set up alike from the same seed each time."""

    table: Table
    gm: Membership
    ann: Membership
    bob: Membership
    watcher: Membership
    deck: Deck

    def hand(self, member: Membership) -> list[str]:
        return list(CardPlacement.objects.filter(pile__kind=PileKind.HAND, pile__owner=member)
                    .order_by("position").values_list("card_id", flat=True))

    def top(self, count: int) -> list[str]:
        return list(CardPlacement.objects.filter(deck=self.deck, pile__kind=PileKind.DRAW)
                    .order_by("position").values_list("card_id", flat=True)[:count])


def make_world(tag: str, system: str = "freeform") -> World:
    table, gm, ann, bob, watcher = seat_four(tag, system, "Night Shift")
    rng = random.Random(7)
    deck = services.deck_create(table=table, actor=gm, kind="standard", rng=rng, players_may_use=True)
    services.pile_deal(deck=deck, actor=gm, count=3, to=[ann, bob])
    world = World(table, gm, ann, bob, watcher, deck)
    services.card_discard(table=table, actor=bob, deck_id=deck.pk, card_id=world.hand(bob)[-1])
    return world


def ghoul(w: World, *, retired: bool = False, sheet: dict[str, Any] | None = None) -> str:
    """The GM's NPC to copy, field, reset, retire, bring back or save to the bestiary: its id."""
    npc = services.character_create(table=w.table, actor=w.gm, name="Ghoul", sheet=sheet or {}, npc=True)
    if retired:
        services.characters_retire(table=w.table, actor=w.gm, character=npc)
    return str(npc.pk)


def entry(w: World) -> str:
    """An NPC of the GM's bestiary for the table's game: its id."""
    return str(BestiaryEntry.objects.create(owner=w.gm.user, system=w.table.system, name="Ghoul",
                                            sheet={"colour": "#112233"}).pk)


Case = Callable[[World], tuple[Membership, dict[str, str]]]
# Who acts, with what args (strings, as an act frame carries them; the POST sends the same).
CASES: dict[str, Case] = {
    "dice.roll": lambda w: (w.ann, {"notation": "3d6+1", "mode": "public"}),
    "chat.post": lambda w: (w.bob, {"text": "  hello there "}),
    "deck.create": lambda w: (w.gm, {"kind": "tarot", "name": "Spare", "owner": str(w.ann.pk),
                                     "allow_reversed": "on"}),
    "deck.draw": lambda w: (w.ann, {"deck": str(w.deck.pk), "count": "2", "to": "play"}),
    "deck.deal": lambda w: (w.gm, {"deck": str(w.deck.pk), "count": "1", "to": f"{w.bob.pk},{w.ann.pk}"}),
    "deck.shuffle": lambda w: (w.ann, {"deck": str(w.deck.pk)}),
    "deck.reshuffle_discard": lambda w: (w.gm, {"deck": str(w.deck.pk)}),
    "deck.recall": lambda w: (w.gm, {"deck": str(w.deck.pk)}),
    "deck.peek": lambda w: (w.gm, {"deck": str(w.deck.pk), "count": "2"}),
    "deck.reorder": lambda w: (w.gm, {"deck": str(w.deck.pk), "order": ", ".join(reversed(w.top(3)))}),
    "deck.configure": lambda w: (w.gm, {"deck": str(w.deck.pk), "players_may_use": "on", "dealer_name": "bob"}),
    "card.play": lambda w: (w.ann, {"deck": str(w.deck.pk), "card": w.hand(w.ann)[0]}),
    "card.discard": lambda w: (w.ann, {"deck": str(w.deck.pk), "card": w.hand(w.ann)[1]}),
    "card.return_top": lambda w: (w.bob, {"deck": str(w.deck.pk), "card": w.hand(w.bob)[0]}),
    "card.return_bottom": lambda w: (w.gm, {"deck": str(w.deck.pk), "card": w.hand(w.bob)[1]}),
    "card.pass": lambda w: (w.ann, {"deck": str(w.deck.pk), "card": w.hand(w.ann)[2], "to_name": "BOB"}),
    "npc.copy": lambda w: (w.gm, {"character": ghoul(w)}),
    "npc.add": lambda w: (w.gm, {"character": ghoul(w), "count": "3"}),
    # at a table whose sheets keep a track (WORLDS): a Demon City NPC at Current Toughness 1 of 3
    "npc.reset": lambda w: (w.gm, {"character": ghoul(w, sheet={"toughness": 3, "current_toughness": 1})}),
    "npc.retire": lambda w: (w.gm, {"character": ghoul(w)}),
    "npc.return": lambda w: (w.gm, {"character": ghoul(w, retired=True)}),
    "bestiary.save": lambda w: (w.gm, {"character": ghoul(w)}),
    "bestiary.bring": lambda w: (w.gm, {"entry": entry(w), "count": "2"}),
    "bestiary.forget": lambda w: (w.gm, {"entry": entry(w)}),
    "session.open": lambda w: (w.gm, {}),
    # a session to close: opened before the action is taken
    "session.close": lambda w: (services.session_open(table=w.table, actor=w.gm) and w.gm, {}),
    # a request of Ann's for her character, filed before the action is taken
    "request.approve": lambda w: (w.gm, {"request": str(asked(w))}),
    "request.refuse": lambda w: (w.gm, {"request": str(asked(w))}),
    "request.withdraw": lambda w: (w.ann, {"request": str(asked(w))}),
    "request.approvals": lambda w: (w.gm, {}),
    # a Freeform sheet the GM designed, and Ann's character on it (its id)
    "sheet.roll": lambda w: (w.ann, {"character": designed(w), "saved": "0"}),
    "sheet.track": lambda w: (w.ann, {"character": designed(w), "field": "hp", "change": "down"}),
    # the fog of war on a board the GM prepares (covered first, but for its cover)
    "fog.cover_all": lambda w: (w.gm, {"scene": board(w, covered=False)}),
    "fog.clear": lambda w: (w.gm, {"scene": board(w)}),
    "fog.undo": lambda w: (w.gm, {"scene": board(w)}),
    "fog.reveal": lambda w: (w.gm, {"scene": board(w), "shape": "poly", "points": "10,10 300,20 150,400"}),
    "fog.cover": lambda w: (w.gm, {"scene": board(w), "shape": "brush", "points": "10,10 30,40", "r": "12"}),
}


def designed(w: World) -> str:
    """The GM designs the sheet (hit points, Strength, a saved roll reading it); Ann makes Pip on it."""
    from tabletop.services import designed
    designed.design_save(table=w.table, actor=w.gm, design={
        "fields": [{"key": "hp", "label": "HP", "kind": "track", "max": "8"}, {"key": "str", "kind": "number"}],
        "rolls": [{"label": "Hit", "notation": "1d20+@str"}]})
    w.table.refresh_from_db()
    return str(designed.sheet_create(table=w.table, actor=w.ann, name="Pip", values={"str": "2"}).pk)


def board(w: World, *, covered: bool = True) -> str:
    """A board the GM prepares, under fog unless ``covered`` is false: its id."""
    scene = services.scene_create(table=w.table, actor=w.gm, name="Cellar", colour="#222222")
    if covered:
        from tabletop.services import fog
        fog.fog_cover_all(scene=scene, actor=w.gm)
    return str(scene.pk)


def asked(w: World) -> int:
    """Ann's character, and her request to change its stats (as a system that reads them would file it)."""
    from django.db import transaction
    from tabletop.services.base import lock_table
    from tabletop.services.requests import file_request
    pip = services.character_create(table=w.table, actor=w.ann, name="Pip", sheet={"stats": "Grit: 2"})
    with transaction.atomic():
        return file_request(lock_table(w.table.pk), w.ann, pip, {"stats": [["Grit", "3"]]}, reason="in play").pk


# The game of the table an action is tried at, when Freeform's (which keeps no track) will not do.
WORLDS = {"npc.reset": "demon_city"}


def url(w: World, name: str) -> str:
    pk = w.table.pk
    fixed = {"dice.roll": ("roll", [pk]), "chat.post": ("chat", [pk]), "deck.create": ("deck_create", [pk]),
             "session.open": ("session_open", [pk]), "session.close": ("session_close", [pk])}
    kind, _, action = name.partition(".")
    view, args = fixed.get(name, (f"{kind}_action", [pk, action]))
    return reverse(view, args=args)


def post(w: World, member: Membership, name: str, args: dict[str, str]) -> tuple[int, str]:
    client = Client()
    client.force_login(member.user)
    response = client.post(url(w, name), args, **HTMX)
    return response.status_code, response.content.decode()


DIGEST = re.compile(r"[0-9a-f]{12,}")  # a shuffle's seal: its salt comes from the system


def state(w: World, since: int) -> dict[str, Any]:
    """The table as the database holds it, in terms that do not depend on its rows' ids:
    the events logged after ``since`` and where every card lies."""
    names = {m.pk: m.display_name for m in w.table.members.all()}
    events = Event.objects.filter(table=w.table, seq__gt=since).order_by("seq")
    return {
        "events": [(e.kind, names.get(e.actor_id), names.get(e.owner_id), e.audience, e.private_audience,
                    DIGEST.sub("#", e.summary), DIGEST.sub("#", e.private_summary)) for e in events],
        "cards": sorted(CardPlacement.objects.filter(deck__table=w.table).values_list(
            "deck__name", "card_id", "pile__kind", "pile__owner__display_name", "position", "reversed")),
        "decks": sorted(Deck.objects.filter(table=w.table).values_list(
            "name", "kind", "owner__display_name", "dealer__display_name", "players_may_use", "allow_reversed")),
    }


def last_seq(w: World) -> int:
    return Event.objects.filter(table=w.table).order_by("-seq").values_list("seq", flat=True)[0]


def answer(frame: str) -> dict[str, str]:
    attrs = dict(re.findall(r'data-([a-z]+)="([^"]*)"', frame))
    attrs["text"] = html.unescape(re.sub(r"<[^>]+>", "", frame))
    return attrs


async def act(connect: Any, w: World, member: Membership, name: str, args: dict[str, str]) -> dict[str, str]:
    socket = await connect(w.table, member, resume=None)
    await socket.send({"type": "act", "ref": "r1", "action": name, "args": args})
    got = answer((await socket.until('data-ref="r1"'))[-1])
    await socket.close()
    return got


@pytest.fixture
def same_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both doors draw the same numbers: what a roll or a shuffle comes to is compared too."""
    monkeypatch.setattr(actions, "system_rng", lambda: random.Random(99))


def test_every_action_of_the_table_has_a_case_here() -> None:
    assert sorted(CASES) == sorted(ACTIONS)


@pytest.mark.parametrize("name", sorted(ACTIONS))
async def test_an_action_does_the_same_through_a_post_and_an_act_frame(connect, same_dice, name) -> None:
    sync = database_sync_to_async
    system = WORLDS.get(name, "freeform")
    by_post, by_frame = await sync(make_world)("post", system), await sync(make_world)("frame", system)
    assert (await sync(state)(by_post, 0))["cards"] == (await sync(state)(by_frame, 0))["cards"]  # set alike

    member, args = await sync(CASES[name])(by_post)
    post_mark = await sync(last_seq)(by_post)
    status, body = await sync(post)(by_post, member, name, args)
    assert status == (204 if name in ("dice.roll", "chat.post") else 200), body

    actor, frame_args = await sync(CASES[name])(by_frame)
    frame_mark = await sync(last_seq)(by_frame)
    done = await act(connect, by_frame, actor, name, frame_args)
    assert done["outcome"] == "done", done

    after_post = await sync(state)(by_post, post_mark)
    assert after_post["events"], "an action is logged"
    assert await sync(state)(by_frame, frame_mark) == after_post
    # the answer names the last event the action logged that its actor sees, as they number it
    new = await sync(lambda: list(Event.objects.filter(table=by_frame.table, seq__gt=frame_mark)))()
    seen = [e for e in sorted(new, key=lambda e: e.seq) if event_reading(viewer_of(actor), e) is not None]
    assert done["seq"] == seen[-1].position(gm=actor.role == Role.GM)
    if name == "deck.peek":  # the POST's answer shows the GM the cards, ready to reorder
        peeked = await sync(
            lambda: Event.objects.filter(table=by_post.table, kind="deck.peeked").get().private["cards"])()
        assert f'name="order" value="{", ".join(peeked)}"' in body


REFUSALS: list[tuple[str, str, Callable[[World], dict[str, str]], int, str]] = [
    # (who, action, args, the POST's status, the frame's code)
    ("watcher", "deck.draw", lambda w: {"deck": str(w.deck.pk), "count": "1"}, 403, "not-allowed"),
    ("watcher", "chat.post", lambda w: {"text": "hi"}, 403, "not-allowed"),
    ("ann", "deck.peek", lambda w: {"deck": str(w.deck.pk), "count": "1"}, 403, "not-allowed"),
    ("ann", "deck.deal", lambda w: {"deck": str(w.deck.pk), "count": "1", "to": str(w.bob.pk)}, 403, "not-allowed"),
    ("gm", "deck.draw", lambda w: {"deck": "999999", "count": "1"}, 404, "not-found"),
    ("gm", "deck.draw", lambda w: {"deck": str(w.deck.pk), "count": "0"}, 400, "invalid"),
    ("gm", "deck.deal", lambda w: {"deck": str(w.deck.pk), "count": "1", "to": str(w.watcher.pk)}, 400, "invalid"),
    ("gm", "deck.configure", lambda w: {"deck": str(w.deck.pk), "dealer_name": "Zed"}, 400, "invalid"),
    ("ann", "card.play", lambda w: {"deck": str(w.deck.pk), "card": w.hand(w.bob)[0]}, 400, "invalid"),
    ("ann", "card.pass", lambda w: {"deck": str(w.deck.pk), "card": w.hand(w.ann)[0], "to_name": "Nobody"},
     400, "invalid"),
    ("ann", "dice.roll", lambda w: {"notation": "2d6 + banana", "mode": "public"}, 400, "invalid"),
    ("ann", "npc.copy", lambda w: {"character": "1"}, 403, "not-allowed"),
    ("watcher", "bestiary.bring", lambda w: {"entry": "1", "count": "1"}, 403, "not-allowed"),
    ("gm", "npc.add", lambda w: {"character": "1", "count": "21"}, 400, "invalid"),
    ("gm", "npc.retire", lambda w: {"character": "999999"}, 404, "not-found"),
    ("gm", "bestiary.forget", lambda w: {"entry": "999999"}, 404, "not-found"),
]


async def test_a_refusal_is_the_same_through_both_doors_and_changes_nothing(connect) -> None:
    w = await database_sync_to_async(make_world)("one")
    before = await database_sync_to_async(state)(w, 0)
    for who, name, make_args, status, code in REFUSALS:
        member = getattr(w, who)
        args = await database_sync_to_async(make_args)(w)
        got, body = await database_sync_to_async(post)(w, member, name, args)
        refused = await act(connect, w, member, name, args)
        assert (got, refused["outcome"], refused["error"]) == (status, "refused", code), (who, name, body)
        assert refused["text"].strip()
        if status != 403:  # the same words (a seat's refusal at the POST is the 403 page)
            assert refused["text"].strip() in html.unescape(body), (name, refused, body)
    assert await database_sync_to_async(state)(w, 0) == before


@pytest.mark.parametrize(("path", "name"), [("decks/burn", "deck.burn"), ("cards/burn", "card.burn"),
                                            ("decks/create", "deck.create.now")])
async def test_an_action_the_table_lacks_is_refused_at_both_doors(connect, path, name) -> None:
    w = await database_sync_to_async(make_world)("one")
    before = await database_sync_to_async(state)(w, 0)

    def post_it() -> int:
        client = Client()
        client.force_login(w.gm.user)
        return client.post(f"/tables/{w.table.pk}/{path}/", {"deck": str(w.deck.pk)}, **HTMX).status_code

    assert await database_sync_to_async(post_it)() == 404
    refused = await act(connect, w, w.gm, name, {"deck": str(w.deck.pk)})
    assert (refused["outcome"], refused["error"]) == ("refused", "unknown-action")
    assert await database_sync_to_async(state)(w, 0) == before


async def test_a_card_on_the_felt_is_moved_only_by_whoever_played_it_or_the_gm_at_both_doors(connect) -> None:
    """Issue 36: "A card on the felt is moved by whoever played it, by a rule, or by the GM; no
    one else" (a player discarded another's Four of Cups and returned her Three of Wands to the
    top of an open deck, and the next player drew it)."""
    w = await database_sync_to_async(make_world)("one")

    def ann_plays() -> str:
        card = w.hand(w.ann)[0]
        services.card_play(table=w.table, actor=w.ann, deck_id=w.deck.pk, card_id=card)
        return card

    card = await database_sync_to_async(ann_plays)()
    before = await database_sync_to_async(state)(w, 0)
    args = {"deck": str(w.deck.pk), "card": card}
    for name in ("card.discard", "card.return_top", "card.return_bottom"):
        got, body = await database_sync_to_async(post)(w, w.bob, name, args)
        refused = await act(connect, w, w.bob, name, args)
        assert got == 403 and "is Ann's to move" in html.unescape(body), (name, body)
        assert (refused["outcome"], refused["error"]) == ("refused", "not-allowed"), name
        assert "is Ann's to move (or the GM's)" in refused["text"]
        refused = await act(connect, w, w.watcher, name, args)
        assert refused["outcome"] == "refused", name
    assert await database_sync_to_async(state)(w, 0) == before
    done = await act(connect, w, w.ann, "card.return_top", args)
    assert done["outcome"] == "done", done
    assert await database_sync_to_async(w.top)(1) == [card]
