"""The contract kit, run over every registered system (issue 21): what a system declares, the
table enforces, and every system is tested the same way, so a sixth gets it free.

- A random campaign: seeded random play from each seat's own panel (the controls in the HTML
  that seat is sent, filled as a person would), hundreds of steps across fights and sessions:
  no 500, a refusal changes nothing, cards conserved, no dead end (whoever the turn names has
  something to do), the log folds back into the state, and no seat but the GM's receives, in
  any byte (page, frames, replay, exports), a sample NPC's hidden sheet or a card held face down
  by someone else and never shown.
- A fuzz of every command and check: the wrong seat, a spectator, a stranger, another's
  character, hostile values in each field: a clear refusal that changes nothing, never a 500.
- Players' own card verbs on the decks the rules draw from, by HTTP and by act frame: refused.
"""

from __future__ import annotations

import json
import random
import re
import secrets
from collections import Counter
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games import registry
from games.core.cards import deck_kind
from tabletop.feed import panels, frames as framing
from tabletop.feed.seat import seat_of
from tabletop.live import socket_actions
from tabletop.models import CardPlacement, Deck, Event, PileKind
from tabletop.feed.seat import GM, Seat
from tabletop.selectors import events_for, viewer_of
from tests.support.frames import logged, seat_frame
from tests.support.kit import (
    SENTINEL, Control, KitTable, Seat, conserved, controls_in, fill, fold, make_table, samples, snapshot, stored_state,
)

pytestmark = pytest.mark.django_db

SYSTEMS = list(registry.SYSTEMS)
STEPS = 240
# what the platform answers when a rule asks for cards the table cannot give (services/procedure.py)
JAMMED = re.compile(r"Not enough cards for that")
HOSTILE = ["", "-1", "0", "9" * 40, "x" * 5000, "<script>alert(1)</script>", "\x00", "c999999", "1.5"]


def page_seat(seat: Seat) -> Seat:
    return seat_of(seat.member)


def controls_of(kt: KitTable, seat: Seat) -> list[Control]:
    return controls_in(kt.panel_html(seat), kt.table.pk)


def turn_holders(kt: KitTable) -> list[Seat]:
    """The seats whose banner says "Your turn": every one the step waits for."""
    return [seat for seat in (kt.gm, *kt.players)
            if (panels.turn_view(panels.current(kt.table, seat.member), page_seat(seat)) or {}).get("mine")]


def campaign(kt: KitTable, seed: int, steps: int) -> tuple[Counter[str], set[str], list[Event]]:
    """Random play from each seat's own panel. Returns the controls done (by name), the
    controls seen offered, and the events logged (with their redraws, as the feed gets them).
    The table's own dice and shuffles come from the same seed (``system_rng`` draws from
    ``secrets.SystemRandom``, replaced for the campaign), so a failing campaign plays again."""
    rnd = random.Random(seed)
    table_rng = random.Random(seed + 1)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(secrets, "SystemRandom", lambda: table_rng)
        return _play(kt, rnd, steps)


def _play(kt: KitTable, rnd: random.Random, steps: int) -> tuple[Counter[str], set[str], list[Event]]:
    done: Counter[str] = Counter()
    offered: set[str] = set()
    table = kt.table
    with logged() as events:
        for step in range(steps):
            holders = turn_holders(kt)
            seats = [kt.gm, *kt.players]
            seat = rnd.choice(holders) if holders and rnd.random() < 0.6 else rnd.choice(seats)
            controls = controls_of(kt, seat)
            offered |= {f"{seat.role}:{c.name}" for c in controls}
            if seat in holders and step % 5 == 0:
                assert controls, f"{kt.game.key}: the turn names {seat.name}, whose panel offers nothing"
            if not controls:
                continue
            # a GM brings out the decks the rules ask for first, as at a real table
            # and tries what it has never done before, which a new state offers
            weights = [(10 if not done[c.key] else 0.2) if c.url.endswith("/decks/new/")
                       else 3 if not done[c.key] else 1 / (1 + done[c.key]) for c in controls]
            control = rnd.choices(controls, weights=weights, k=1)[0]
            data = fill(control, rnd, kt.hands())
            before = snapshot(table)
            answer = seat.client.post(control.url, data, HTTP_HX_REQUEST="true")
            status = answer.status_code
            assert status < 500, f"{kt.game.key} step {step}: {seat.name} {control.url} {data} -> {status}"
            if status >= 400:
                assert snapshot(table) == before, f"{kt.game.key}: a refused {control.name} changed the table"
                said = answer.content.decode()
                assert not JAMMED.search(said), f"{kt.game.key} step {step}: a rule jammed for lack of cards: {said}"
            else:
                done[control.key] += 1
            if step % 20 == 0:
                assert conserved(table) == [], f"{kt.game.key} step {step}"
    return done, offered, list(events)


OOB = re.compile(r'<[a-z]+[^>]*\bid="([^"]+)"[^>]*\bhx-swap-oob="(?:true|outerHTML|innerHTML)"[^>]*>|'
                 r'<[a-z]+[^>]*\bhx-swap-oob="(?:true|outerHTML|innerHTML)"[^>]*\bid="([^"]+)"[^>]*>')


def oob_targets(frame: str) -> set[str]:
    """The ids a frame swaps out of band into elements the page must already hold (an item
    upserted into a list, or one deleted, needs none)."""
    found = set()
    for match in OOB.finditer(frame):
        if "data-upsert-into" in match.group(0):
            continue
        found.add(match.group(1) or match.group(2))
    return found


def test_every_frame_swaps_into_what_its_seat_s_page_holds_for_every_system() -> None:
    """Issue 23: "No console errors (htmx:oobErrorNoTarget #hand-count-... during Shadows
    combat)": each element a frame swaps in by id is on the page of the seat it is sent to."""
    for system in SYSTEMS:
        kt = make_table(system, f"o-{system}")
        _, _, events = campaign(kt, seed=77, steps=80)
        for seat in kt.seats:
            page = seat.client.get(reverse("table", args=[kt.table.pk])).content.decode()
            ids = set(re.findall(r'\bid="([^"]+)"', page))
            for event in events[-40:]:
                missing = oob_targets(seat_frame(event, page_seat(seat)) or "") - ids
                assert not missing, f"{system}: {seat.name}'s page has no {sorted(missing)} for {event.kind}"


def replay_bytes(kt: KitTable, seat: Seat) -> str:
    """What a reconnect from the start sends the seat: every event it sees, then its panel."""
    viewer = viewer_of(seat.member)
    frames = [framing.frame_for(s.event, s.reading, page_seat(seat)) for s in events_for(viewer, kt.table.pk)]
    return "".join(frames) + panels.current_frame(kt.table, seat.member)


def bytes_of(kt: KitTable, seat: Seat, events: list[Event]) -> str:
    """Everything the seat was or could be sent: live frames, a replay, its page, its exports."""
    live = [seat_frame(e, page_seat(seat)) or "" for e in events]
    pages = [seat.client.get(reverse("table", args=[kt.table.pk])).content.decode()]
    for fmt in ("json", "md"):
        pages.append(b"".join(seat.client.get(reverse("export", args=[kt.table.pk, fmt])).streaming_content).decode())
    return "".join(live) + replay_bytes(kt, seat) + "".join(pages)


def card_ids_in(text: str, ids: list[str]) -> set[str]:
    return {card for card in ids if re.search(re.escape(card) + r"(?![0-9])", text)}


def never_shown_hand_cards(kt: KitTable, events: list[Event]) -> dict[int, set[str]]:
    """The cards each hand holds now that no public part of any event ever named."""
    public = json.dumps([e.payload for e in events if e.audience == "everyone"]) + json.dumps(
        [e.payload for e in Event.objects.filter(table=kt.table, audience="everyone")])
    held: dict[int, set[str]] = {}
    for deck in Deck.objects.filter(table=kt.table):
        ids = [c.id for c in deck_kind(deck.kind).factory()]
        shown = card_ids_in(public, ids)
        for owner, card in CardPlacement.objects.filter(deck=deck, pile__kind=PileKind.HAND).values_list(
                "pile__owner_id", "card_id"):
            if card not in shown:
                held.setdefault(owner, set()).add(card)
    return held


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("system", SYSTEMS)
def test_a_random_campaign_played_from_each_seat_s_own_panel(system: str, seed: int) -> None:
    kt = make_table(system, f"c-{system}")
    done, offered, events = campaign(kt, seed=seed * 1000 + sum(map(ord, system)), steps=STEPS)
    game = kt.game
    assert conserved(kt.table) == []
    # the log folds back into the state it left
    assert fold(kt.table) == stored_state(kt.table), f"{system}: the log does not replay to the state"
    # every command a panel offers is offered to a seat that may send it
    for command in game.commands:
        roles = {name.split(":")[0] for name in offered if name.split(":")[1] == command.name}
        if command.sender == "gm":
            assert roles <= {"gm"}, f"{system}: {command.name} is the GM's, yet offered to {roles}"
    if game.commands:
        assert sum(done.values()) >= STEPS // 6, f"{system}: too little was done: {dict(done)}"
    # nothing hidden reaches a seat that may not see it
    everything = {seat.name: bytes_of(kt, seat, events) for seat in kt.seats}
    marked = any(SENTINEL.lower() in json.dumps(dict(s.sheet)).lower() for s in samples(game) if s.npc)
    if marked:
        assert SENTINEL.lower() in everything["gm"].lower()
    for seat in (*kt.players, kt.watcher):
        if marked:
            assert SENTINEL.lower() not in everything[seat.name].lower(), \
                f"{system}: {seat.name} received an NPC's hidden sheet"
    hidden = never_shown_hand_cards(kt, events)
    for holder, cards in hidden.items():
        for seat in (*kt.players, kt.watcher):
            if seat.member.pk == holder:
                continue
            leaked = card_ids_in(everything[seat.name], sorted(cards))
            assert not leaked, f"{system}: {seat.name} received {leaked}, held face down by member {holder}"


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_command_and_check_has_a_control_in_the_system_s_own_templates(system: str) -> None:
    """Every registered command and check is reachable from the panel: its templates post to it
    (Demon City's add_combatant had a route and no control). Who is offered it, when, is what
    the campaign checks (a GM's command is never offered to another seat)."""
    from django.template.loader import get_template

    game = registry.get(system)
    if game.panel is None:
        assert not game.commands and not game.checks
        return
    source = get_template(game.panel.template.split("#")[0]).template.source
    posted = set(re.findall(r"url 'table_command' table_id '(\w+)'", source))
    # the clock's moves (games/core/clock.py) are the campaign box's, drawn by the platform
    campaign = get_template("tabletop/campaign.html").template.source
    posted |= set(re.findall(r"url 'campaign_command' tid '(\w+)'", campaign)) if game.engine and game.engine.clock else set()
    # the GM's award of experience (games/core/growth.py) is the campaign box's too, drawn with the
    # close fields (games/core/growth.html, which a system's own close fields include)
    if game.engine is not None and game.engine.awards is not None:
        awards = get_template("games/core/growth.html").template.source
        posted |= set(re.findall(r"url 'campaign_command' tid '(\w+)'", awards))
    checked = set(re.findall(r"url 'table_check' table_id '(\w+)'", source))
    assert {c.name for c in game.commands} <= posted, f"{system}: no control for {sorted({c.name for c in game.commands} - posted)}"
    assert {c.name for c in game.checks} <= checked, f"{system}: no control for {sorted({c.name for c in game.checks} - checked)}"


# The fuzz


def _plausible(kt: KitTable, rnd: random.Random) -> dict[str, dict[str, Any]]:
    """A filled submission of each command and check the GM's panel offers now, by url."""
    return {c.url: fill(c, rnd, kt.hands()) for c in controls_of(kt, kt.gm)}


def _routes(kt: KitTable) -> list[str]:
    t = kt.table.pk
    return ([reverse("table_command", args=[t, c.name]) for c in kt.game.commands]
            + [reverse("table_check", args=[t, c.name]) for c in kt.game.checks])


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_command_and_check_refuses_bad_input_and_the_wrong_seat_and_changes_nothing(system: str) -> None:
    kt = make_table(system, f"f-{system}")
    rnd = random.Random(21)
    campaign(kt, seed=5, steps=40)  # into the thick of it
    plausible = _plausible(kt, rnd)
    stranger = Client(raise_request_exception=False)
    stranger.force_login(get_user_model().objects.create_user("kit-stranger", password="a long stranger pw 1"))
    t = kt.table.pk
    assert kt.post(kt.gm, f"/tables/{t}/commands/no_such_command/", {}) == 404
    assert kt.post(kt.gm, f"/tables/{t}/checks/no_such_check/", {}) == 404
    others = {s.member.pk: s for s in kt.players}
    characters = list(kt.table.characters.order_by("pk"))
    for url in _routes(kt):
        data = plausible.get(url, {})
        for client, name in ((kt.watcher.client, "spectator"), (stranger, "stranger")):
            before = snapshot(kt.table)
            status = client.post(url, data, HTTP_HX_REQUEST="true").status_code
            assert status in (403, 404), f"{system}: a {name} posting {url} got {status}"
            assert snapshot(kt.table) == before
        # each field hostile in turn, by the GM and by a player
        for seat in (kt.gm, kt.players[0]):
            for key in list(data) or ["x"]:
                for bad in HOSTILE:
                    before = snapshot(kt.table)
                    status = kt.post(seat, url, {**data, key: bad})
                    assert status < 500, f"{system}: {seat.name} {url} {key}={bad!r} -> {status}"
                    if status >= 400:
                        assert snapshot(kt.table) == before, f"{system}: a refused {url} changed the table"
        # a player acting for a character they do not play
        for key in [k for k in data if k in ("combatant", "character", "who")]:
            ann = kt.players[0]
            for character in characters:
                if character.owner_id == ann.member.pk:
                    continue
                value = f"c{character.pk}" if str(data[key]).startswith("c") else str(character.pk)
                before = snapshot(kt.table)
                status = kt.post(ann, url, {**data, key: value})
                assert status in (400, 403, 404, 409), \
                    f"{system}: Ann acted through {url} for {character.name} ({status})"
                assert snapshot(kt.table) == before
    assert others  # two players were seated


@pytest.mark.parametrize("system", [s for s in SYSTEMS if registry.get(s).rule_decks])
def test_players_own_card_verbs_on_a_rule_deck_are_refused_by_http_and_by_act_frame(system: str) -> None:
    kt = make_table(system, f"d-{system}")
    campaign(kt, seed=9, steps=60)  # the rules bring out their decks and move their cards
    decks = list(Deck.objects.filter(table=kt.table, rules=True))
    assert decks, f"{system}'s panel brought out none of the decks its rules draw from"
    for deck in decks:
        for seat in kt.players:
            for action, args in (("deck.draw", {"count": "1", "to": "hand"}), ("deck.shuffle", {}),
                                 ("deck.recall", {}), ("deck.reshuffle_discard", {}),
                                 ("deck.peek", {"count": "2"}),
                                 ("deck.deal", {"count": "1", "to": str(seat.member.pk)})):
                before = snapshot(kt.table)
                request = socket_actions.Request("r1", action, {"deck": str(deck.pk), **args})
                checked = socket_actions.check(request, seat.member)
                if isinstance(checked, socket_actions.Outcome):
                    outcome = checked
                else:
                    outcome = socket_actions.perform(socket_actions.Job("r1", checked[0], checked[1], seat.member))
                assert outcome.code == "not-allowed", (system, deck.name, action, outcome)
                assert snapshot(kt.table) == before
                status = kt.post(seat, reverse("deck_action", args=[kt.table.pk, action.split(".")[1]]),
                                 {"deck": deck.pk, **args})
                assert status == 403 and snapshot(kt.table) == before
        for card_id, pile_kind in CardPlacement.objects.filter(deck=deck).exclude(
                pile__kind__in=[PileKind.DRAW, PileKind.DISCARD]).values_list("card_id", "pile__kind")[:4]:
            for seat in kt.players:
                for action in ("card.play", "card.discard", "card.return_top"):
                    before = snapshot(kt.table)
                    request = socket_actions.Request("r2", action, {"deck": str(deck.pk), "card": card_id})
                    checked = socket_actions.check(request, seat.member)
                    assert not isinstance(checked, socket_actions.Outcome)
                    outcome = socket_actions.perform(socket_actions.Job("r2", checked[0], checked[1], seat.member))
                    assert outcome.code in ("not-allowed", "invalid"), (system, action, pile_kind, outcome)
                    assert snapshot(kt.table) == before
