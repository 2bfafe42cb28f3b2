"""The platform is generic over a system's registration (games/contract.py): every command a
system registers is reachable at ``tables/<id>/commands/<name>/``, its checks at
``checks/<name>/`` and its pages at ``games/<key>/<slug>/``; whatever is not registered is a
404, never a 500; and what the registration says (who may send a command, the panel's lens,
the log line, each event's audience) is what the platform does."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.template.loader import get_template
from django.test import Client
from django.urls import reverse

from games.core.cards_port import Cards
from games import registry
from games.contract import CheckRun, Member, Panel, Seat, Visibility
from games.core.engine import Turn
from tabletop import selectors, services
from tabletop.feed import panels, frames as framing
from tabletop.models import Event, ProcedureState, Role
from tabletop.feed import seat as seats
from tabletop.feed.seat import GM, SPECTATOR
from tabletop.selectors import combatant_id, events_for, viewer_of
from tests.support.frames import envelope_of, logged, seat_frame

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def dc(db: None) -> dict[str, Any]:
    gm_user = get_user_model().objects.create_user("host", password="a long host password")
    table = services.table_create(gm=gm_user, name="Demon City", system="demon_city")
    gm = table.members.select_related("user").get(role=Role.GM)
    seat = lambda role, name: services.membership_join(  # noqa: E731
        table=table, user=services.guest_user_create(), role=role, display_name=name)
    ann, bob, watcher = seat(Role.PLAYER, "Ann"), seat(Role.PLAYER, "Bob"), seat(Role.SPECTATOR, "")
    alfie = services.character_create(table=table, actor=ann, name="Alfie",
                                      sheet={"agility": 2, "toughness": 3, "hand_to_hand": 4, "side": "players"})
    demon = services.character_create(table=table, actor=gm, name="Demon", npc=True,
                                      sheet={"agility": 3, "toughness": 1, "hand_to_hand": 6, "side": "demons"})
    clients = {}
    for name, member in (("gm", gm), ("ann", ann), ("bob", bob), ("watcher", watcher)):
        clients[name] = Client(raise_request_exception=False)
        clients[name].force_login(member.user)
    return {"table": table, "gm": gm, "ann": ann, "bob": bob, "watcher": watcher,
            "alfie": alfie, "demon": demon, "clients": clients}


def url(dc: dict[str, Any], command: str) -> str:
    return reverse("table_command", args=[dc["table"].pk, command])


def fight(dc: dict[str, Any]) -> None:
    services.procedure_command(table=dc["table"], actor=dc["gm"], rng=random.Random(3), command={
        "type": "start", "combatants": [combatant_id(c) for c in (dc["alfie"], dc["demon"])]})


def log(dc: dict[str, Any]) -> list[tuple[int, str]]:
    return list(Event.objects.filter(table=dc["table"]).values_list("seq", "kind"))


def test_the_gm_marks_a_combatant_unaware_through_the_web(dc) -> None:
    """set_condition had no route (the view kept its own command list); now every registered
    command has one."""
    fight(dc)
    alfie = combatant_id(dc["alfie"])
    page = dc["clients"]["gm"].get(reverse("table", args=[dc["table"].pk])).content.decode()
    assert f'hx-post="{url(dc, "set_condition")}"' in page and '<option value="unaware">' in page
    before = log(dc)
    refused = dc["clients"]["ann"].post(url(dc, "set_condition"), {"combatant": alfie, "field": "unaware",
                                                                   "value": "yes"}, **HTMX)
    assert refused.status_code == 400 and 'id="rounds-notice"' in refused.content.decode()
    assert log(dc) == before
    done = dc["clients"]["gm"].post(url(dc, "set_condition"), {"combatant": alfie, "field": "unaware",
                                                               "value": "yes"}, **HTMX)
    assert done.status_code == 200
    state = ProcedureState.objects.get(table=dc["table"]).state
    assert state["combatants"][alfie]["unaware"] is True
    assert Event.objects.filter(table=dc["table"], kind="demon_city.condition_set").count() == 1
    bad = dc["clients"]["gm"].post(url(dc, "set_condition"), {"combatant": alfie, "field": "unaware",
                                                              "value": "perhaps"}, **HTMX)
    assert bad.status_code == 400 and "yes or no" in bad.content.decode()


@pytest.mark.parametrize("command", [c.name for c in registry.get("demon_city").commands])
def test_every_registered_command_is_reachable(dc, command: str) -> None:
    """Reaching the engine is enough: it may refuse (400) what the fight's phase does not allow."""
    fight(dc)
    data = {"combatant": combatant_id(dc["alfie"]), "characters": [str(dc["alfie"].pk)]}
    response = dc["clients"]["gm"].post(url(dc, command), data, **HTMX)
    assert response.status_code in (200, 400), response.content[:300]
    assert 'id="rounds-notice"' in response.content.decode()


@pytest.mark.parametrize("path", [
    "/tables/{dc}/commands/explode/", "/tables/{ff}/commands/start/", "/tables/{dc}/checks/nope/",
    "/tables/{ff}/checks/task/", "/games/nope/odds/", "/games/demon_city/nope/",
    "/games/freeform/odds/",
])
def test_what_is_not_registered_is_a_404(dc, path: str) -> None:
    ff = services.table_create(gm=dc["gm"].user, name="Loose", system="freeform")
    method = "get" if path.startswith("/games/") else "post"
    client = dc["clients"]["gm"]
    response = getattr(client, method)(path.format(dc=dc["table"].pk, ff=ff.pk), **HTMX)
    assert response.status_code == 404


def test_a_player_acts_only_for_the_characters_they_control(dc) -> None:
    fight(dc)
    before = log(dc)
    bob = dc["clients"]["bob"]
    announce = {"combatant": combatant_id(dc["alfie"]), "kind": "melee", "target": combatant_id(dc["demon"])}
    assert bob.post(url(dc, "announce"), announce, **HTMX).status_code == 403
    task = reverse("table_check", args=[dc["table"].pk, "task"])
    assert bob.post(task, {"character": dc["alfie"].pk, "target_number": "3"}, **HTMX).status_code == 403
    assert log(dc) == before
    assert dc["clients"]["ann"].post(url(dc, "announce"), announce, **HTMX).status_code == 200


def test_every_template_a_registration_names_exists() -> None:
    for game in registry.SYSTEMS.values():
        names = [p.template for p in game.pages] + [c.notice for c in game.checks]
        if game.panel is not None:
            names += [game.panel.template, game.panel.notice]
        for name in names:
            get_template(name)
        for line in game.log_lines.values():
            framing._log_template(line)


def test_the_page_draws_each_viewers_lens_of_the_panel(dc, monkeypatch) -> None:
    game = registry.get("demon_city")
    assert game.panel is not None
    seen: list[str] = []

    def view(state: Any, seat: Seat) -> dict[str, Any]:
        seen.append((seat.role, seat.member))
        return game.panel.view(state, seat)  # type: ignore[union-attr]

    monkeypatch.setitem(registry.SYSTEMS, "demon_city", replace(game, panel=replace(game.panel, view=view)))
    for who in ("gm", "ann", "watcher"):
        assert dc["clients"][who].get(reverse("table", args=[dc["table"].pk])).status_code == 200
    assert seen == [("gm", None), ("player", dc["ann"].pk), ("spectator", None)]
    seen.clear()
    fight(dc)
    # issue 21: every seat its own view, live too (an event carried the spectator's to everyone)
    assert sorted(seen, key=str) == sorted([("gm", None), ("spectator", None), ("player", dc["ann"].pk),
                                            ("player", dc["bob"].pk)], key=str)


def test_the_engine_and_a_check_get_the_member(dc, monkeypatch) -> None:
    game = registry.get("demon_city")
    assert game.engine is not None
    members: list[Member] = []
    runs: list[CheckRun] = []
    announce = game.engine.move("announce")
    assert announce is not None

    def handle(state: Any, args: Any, turn: Turn) -> Any:
        members.append(turn.member)
        return announce.handle(state, args, turn)

    (task,) = game.checks

    def run(check: CheckRun) -> Any:
        runs.append(check)
        return task.run(check)

    moves = tuple(replace(m, handle=handle) if m.name == "announce" else m for m in game.engine.moves)
    monkeypatch.setitem(registry.SYSTEMS, "demon_city", replace(
        game, engine=replace(game.engine, moves=moves), checks=(replace(task, run=run),)))
    fight(dc)
    ann = dc["ann"]
    dc["clients"]["ann"].post(url(dc, "announce"), {"combatant": combatant_id(dc["alfie"]), "kind": "defend"},
                              **HTMX)
    assert members[-1] == Member(id=ann.pk, name="Ann", is_gm=False, controls=(combatant_id(dc["alfie"]),))
    task_url = reverse("table_check", args=[dc["table"].pk, "task"])
    assert dc["clients"]["ann"].post(task_url, {"character": dc["alfie"].pk, "target_number": "3"},
                                     **HTMX).status_code == 200
    assert runs[-1].member.id == ann.pk and runs[-1].member.name == "Ann" and isinstance(runs[-1].cards, Cards)
    assert runs[-1].characters[dc["alfie"].pk].sheet["hand_to_hand"] == 4


def test_each_event_goes_to_the_audience_the_system_gives_it(dc, monkeypatch) -> None:
    """A system that hides a roll says so in its registration; the platform logs it for the
    owner of the combatant it names and the GM, with the private part taken out of the payload."""
    game = registry.get("demon_city")
    alfie = combatant_id(dc["alfie"])

    def secret_roll(event: Any) -> Visibility:
        return Visibility(audience="owner", owner=alfie, private={"roll": event["roll"]},
                          private_summary="Alfie's secret roll")

    audiences = {**game.audiences, "task_rolled": secret_roll}
    monkeypatch.setitem(registry.SYSTEMS, "demon_city", replace(game, audiences=audiences))
    gm = dc["clients"]["gm"]
    task_url = reverse("table_check", args=[dc["table"].pk, "task"])
    assert gm.post(task_url, {"character": dc["alfie"].pk, "target_number": "3"}, **HTMX).status_code == 200
    event = Event.objects.get(table=dc["table"], kind="demon_city.task_rolled")
    assert event.audience == "owner" and event.owner_id == dc["ann"].pk and event.actor_id == dc["gm"].pk
    assert "roll" not in event.payload["task"] and "roll" in event.private
    seen_by = {who: [s.event.pk for s in events_for(viewer_of(dc[who]), dc["table"].pk)]
               for who in ("ann", "bob", "watcher")}
    assert event.pk in seen_by["ann"] and event.pk not in seen_by["bob"] + seen_by["watcher"]


def test_a_system_names_its_own_log_lines() -> None:
    """The catalogue reads each kind's log line off its registration (``GameSystem.log_lines``):
    a system's own line where it names one, the summary alone where it names none."""
    from tabletop.feed import catalogue

    game = registry.get("demon_city")
    assert catalogue.kind_of("demon_city.task_rolled").line == "log/games/demon_city/task_rolled.html"
    assert "announced" not in game.log_lines
    assert catalogue.kind_of("demon_city.announced").line == catalogue.DEFAULT_LINE
    for key, game in registry.SYSTEMS.items():
        for type_, line in game.log_lines.items():
            assert catalogue.kind_of(f"{key}.{type_}").line == line


def test_a_systems_panel_without_its_own_template_names_is_not_guessed(dc, monkeypatch) -> None:
    """The table page includes what the registration names, not games/<key>/panel.html."""
    game = registry.get("demon_city")
    assert game.panel is not None
    moved = Panel(view=game.panel.view, template="games/demon_city/panel.html#task_box",
                  notice="games/demon_city/panel.html#task_notice")
    monkeypatch.setitem(registry.SYSTEMS, "demon_city", replace(game, panel=moved))
    page = dc["clients"]["gm"].get(reverse("table", args=[dc["table"].pk])).content.decode()
    assert 'class="task-box"' in page and 'id="rounds-panel"' not in page


def test_a_character_made_renamed_or_claimed_redraws_the_panel(dc) -> None:
    """The platform adds the table's characters and who controls each to every panel (a
    form's "who", a button only a character's player sees): a character's event redraws it, so
    a GM whose page was open before the players made their characters can pick them."""
    gm = dc["gm"]
    with logged() as events:
        betty = services.character_create(table=dc["table"], actor=dc["bob"], name="Betty", sheet={"agility": 5})
    [made] = [e for e in events if e.kind == "character.created"]
    assert "panel" not in made.payload  # never stored: every reader of the log would get it
    for seat in (GM, SPECTATOR, seats.Seat("player", dc["ann"].pk)):
        frame = seat_frame(made, seat)
        assert frame is not None and re.search(r'<section id="rounds-panel"[^>]*hx-swap-oob="true"', frame)
        assert 'id="turn-banner"' in frame
        # the GM's form to start Action Rounds offers Betty; no other seat receives that form
        assert (f'value="{betty.pk}" checked> Betty' in frame) == (seat == GM)
    spare = services.character_create(table=dc["table"], actor=gm, name="Spare", sheet={}, for_players=True)
    with logged() as events:
        services.character_claim(character=spare, actor=dc["ann"])
    [claimed] = [e for e in events if e.kind == "character.claimed"]
    [ann_view] = [v for seat, v in envelope_of(claimed).redraw.views.items() if seat.key == f"p{dc['ann'].pk}"]
    assert ann_view["controllers"][combatant_id(spare)] == dc["ann"].pk
    with logged() as events:
        services.character_update(character=spare, actor=dc["ann"], name="Sparky", sheet={})
    [renamed] = [e for e in events if e.kind == "character.updated"]
    assert "Sparky" in (seat_frame(renamed, GM) or "")


def test_a_panel_shows_what_its_system_makes_of_each_character(dc, monkeypatch) -> None:
    """``Panel.character_view``: a panel whose forms need the sheets (a Persona's skills) gets
    what its system makes of every character at the table, in the procedure or not, on the
    page and in each event's redraw; without one, a character is its id, cid and name."""
    game = registry.get("demon_city")
    assert game.panel is not None
    page = reverse("table", args=[dc["table"].pk])
    # Demon City draws one now (its task form offers each character's own skills): take it away
    unseen = replace(game.panel, character_view=None)
    monkeypatch.setitem(registry.SYSTEMS, "demon_city", replace(game, panel=unseen))
    assert "view" not in panels.current(dc["table"], dc["gm"])["characters"][0]
    seen = replace(game.panel, character_view=lambda c: {"agility": c.sheet["agility"], "owner": c.owner})
    monkeypatch.setitem(registry.SYSTEMS, "demon_city", replace(game, panel=seen))
    shown = panels.current(dc["table"], dc["gm"])
    assert [c["view"] for c in shown["characters"]] == [{"agility": 2, "owner": dc["ann"].pk},
                                                        {"agility": 3, "owner": None}]
    # the NPC's sheet is the GM's (the table's setting, on by default): no other seat is shown it
    assert [("view" in c) for c in panels.current(dc["table"], dc["watcher"])["characters"]] == [True, False]
    assert dc["clients"]["watcher"].get(page).status_code == 200
    with logged() as events:
        fight(dc)
    event = events[-1]
    assert "panel" not in event.payload
    assert [c["view"]["agility"] for c in envelope_of(event).redraw.views[GM]["characters"]] == [2, 3]


def test_the_gm_adds_someone_to_a_fight_in_progress_from_the_panel(dc) -> None:
    """add_combatant had a route and no control (found by the contract kit): the GM's panel now
    offers each character outside the fight, and no other seat receives the form."""
    services.procedure_command(table=dc["table"], actor=dc["gm"], rng=random.Random(3), command={
        "type": "start", "combatants": [combatant_id(dc["alfie"])]})
    page = reverse("table", args=[dc["table"].pk])
    gm_page = dc["clients"]["gm"].get(page).content.decode()
    form = gm_page[gm_page.index('id="join-fight"'):]
    form = form[:form.index("</select>")]
    assert f'<option value="{dc["demon"].pk}">Demon</option>' in form and "Alfie" not in form
    assert 'id="join-fight"' not in dc["clients"]["ann"].get(page).content.decode()
    assert dc["clients"]["gm"].post(url(dc, "add_combatant"), {"characters": dc["demon"].pk}, **HTMX).status_code == 200
    assert combatant_id(dc["demon"]) in ProcedureState.objects.get(table=dc["table"]).state["combatants"]
    assert 'id="join-fight"' not in dc["clients"]["gm"].get(page).content.decode()  # nobody is left out


def test_a_panel_that_reads_a_deck_is_handed_what_anyone_may_know_of_it(dc, monkeypatch) -> None:
    """Issue 24: "the characters, deck counts and other facts a rule needs handed to it under the
    lock ... so no state mirrors platform data": a panel that names a deck (``Panel.decks``) reads
    its counts from the seat, never its draw pile's order."""
    game = registry.get("demon_city")
    seen: list[Seat] = []

    def view(state: Any, seat: Seat) -> Any:
        seen.append(seat)
        return game.panel.view(state, seat)  # type: ignore[union-attr]

    monkeypatch.setitem(registry.SYSTEMS, "demon_city", replace(
        game, panel=replace(game.panel, view=view, decks=("Fate", "Gone"))))
    gm = dc["table"].members.get(role=Role.GM)
    deck = services.deck_create(table=dc["table"], actor=gm, kind="ten_value", rng=random.Random(3), name="Fate")
    drawn = services.pile_draw(deck=deck, actor=gm, count=2)
    services.card_play(table=dc["table"], actor=gm, deck_id=deck.pk, card_id=drawn[0].removesuffix("/r"))
    for who in ("ann", "watcher"):
        assert dc["clients"][who].get(reverse("table", args=[dc["table"].pk])).status_code == 200
        fate = seen[-1].deck("Fate")
        assert fate is not None and seen[-1].deck("Gone") is None
        assert fate.draw == 38 and len(fate.unseen) == 39 and list(fate.unseen) == sorted(fate.unseen)
        assert drawn[0].removesuffix("/r") not in fate.unseen and fate.discard == ()
    # a panel that reads the rules' decks is handed them too, by their names
    monkeypatch.setitem(registry.SYSTEMS, "demon_city", replace(
        game, panel=replace(game.panel, view=view, rule_decks=True)))
    ruled = services.deck_create(table=dc["table"], actor=gm, kind="tarot", rng=random.Random(4), name="Omens")
    ruled.rules = True
    ruled.save(update_fields=["rules"])
    assert dc["clients"]["ann"].get(reverse("table", args=[dc["table"].pk])).status_code == 200
    assert seen[-1].deck("Omens") is not None and len(seen[-1].deck("Omens").unseen) == 78
    assert seen[-1].deck("Fate") is None


def test_a_card_moved_by_hand_redraws_a_panel_that_reads_its_deck(dc, monkeypatch) -> None:
    """Issue 26: "Odds that follow every deck change: a draw, recall or shuffle made through the
    cards panel updates the pool odds at once": a card event at a table whose panel reads a deck
    carries each seat's panel, drawn from the deck as it is after the move."""
    game = registry.get("demon_city")

    def view(state: Any, seat: Seat) -> Any:
        fate = seat.deck("Fate")
        return {**game.panel.view(state, seat), "fate_left": fate.draw if fate else None}  # type: ignore[union-attr]

    template = "games/demon_city/panel.html#panel"
    gm = dc["table"].members.get(role=Role.GM)
    deck = services.deck_create(table=dc["table"], actor=gm, kind="ten_value", rng=random.Random(3), name="Fate")
    monkeypatch.setitem(registry.SYSTEMS, "demon_city", replace(
        game, panel=replace(game.panel, view=view, decks=("Fate",))))
    with logged() as events:
        services.pile_draw(deck=deck, actor=gm, count=3)
    [drawn] = [e for e in events if e.kind == "cards.drawn"]
    redraw = envelope_of(drawn).redraw
    assert redraw is not None and redraw.template == template
    assert {view["fate_left"] for view in redraw.views.values()} == {37}
    monkeypatch.setitem(registry.SYSTEMS, "demon_city", game)  # a panel that reads no deck: no redraw
    with logged() as events:
        services.pile_draw(deck=deck, actor=gm, count=1)
    assert envelope_of(events[-1]).redraw is None
