"""Harsh Light at a table (issue 15): every command posted through the generic routes as the
page posts it, each refusal answered 4xx in the notice with nothing changed, real cards from
the table's deck (counted, conserved, logged under their seal), and nothing hidden in a public
payload.

Seed 002: "instead of rolling multiple dice to determine successes, you pull a single card value
from 1-10 and add your pool to that number".
"""

from __future__ import annotations

import html
import json
import random
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.core.cards import card_by_id
from games.harsh_light import DECK, odds, rules
from games.harsh_light.odds import counts_of
from tabletop import services
from tabletop.feed import panels
from tabletop.models import CardPlacement, Character, Event, PileKind, ProcedureState, Role, ShuffleCommitment
from tabletop.selectors import combatant_id, events_for, procedure_state, viewer_of

HTMX = {"HTTP_HX_REQUEST": "true"}
NOTICE = 'id="harsh_light-notice"'


@pytest.fixture
def hl(db) -> dict[str, Any]:
    users = get_user_model()
    gm_user = users.objects.create_user("storyteller", password="a long gm password 1")
    table = services.table_create(gm=gm_user, name="Harsh Light", system="harsh_light")
    gm = table.members.select_related("user").get(role=Role.GM)
    ann, bob = (services.membership_join(table=table, user=services.guest_user_create(), role=Role.PLAYER,
                                         display_name=name) for name in ("Ann", "Bob"))
    watcher = services.membership_join(table=table, user=services.guest_user_create(), role=Role.SPECTATOR)
    alfie = services.character_create(table=table, actor=ann, name="Alfie", sheet={
        "strength": 4, "dexterity": 3, "wits": 2, "intelligence": 3, "resolve": 2, "composure": 2,
        "skills": "Brawl: 3\nLarceny: 3\nAcademics: 3"})
    betty = services.character_create(table=table, actor=bob, name="Betty", sheet={
        "strength": 3, "dexterity": 3, "wits": 3, "resolve": 2, "composure": 2, "skills": "Brawl: 2"})
    ghoul = services.character_create(table=table, actor=gm, name="Ghoul", npc=True, sheet={
        "strength": 3, "dexterity": 3, "wits": 3, "skills": "Brawl: 2"})
    clients = {}
    for who, member in (("gm", gm), ("ann", ann), ("bob", bob), ("watcher", watcher)):
        clients[who] = Client()
        clients[who].force_login(member.user)
    return {"table": table, "gm": gm, "ann": ann, "bob": bob, "watcher": watcher,
            "alfie": alfie, "betty": betty, "ghoul": ghoul, "clients": clients}


def post(hl, who: str, command: str, **data: Any):
    return hl["clients"][who].post(reverse("table_command", args=[hl["table"].pk, command]), data, **HTMX)


def ok(hl, who: str, command: str, hold: bool = False, **data: Any) -> None:
    """A move that is taken; a pull that waits for its target's answer (Willpower for +2) is made
    at once, the Storyteller moving on, unless the test ``hold``s it."""
    answer = post(hl, who, command, **data)
    assert answer.status_code == 200, answer.content.decode()
    assert answer.content.decode() == f'<p {NOTICE} class="form-error" role="alert"></p>'
    waiting = (procedure_state(hl["table"]) or {}).get("reaction")
    if waiting and not hold:
        ok(hl, "gm", "answer", combatant=waiting["target"])


def refused(hl, who: str, command: str, status: int, words: str, **data: Any) -> None:
    """Refused in the notice line (never a page), with a clear message, and nothing changed."""
    before = snapshot(hl)
    answer = post(hl, who, command, **data)
    text = html.unescape(answer.content.decode())
    assert answer.status_code == status, text
    if who != "watcher":  # a spectator has no controls: the platform answers its 403 as for any role
        assert text.startswith(f"<p {NOTICE}") and "<html" not in text
    assert words in text, text
    assert not re.search(r"\bc\d+\b", text), text  # plain words: no combatant ids
    assert snapshot(hl) == before


def snapshot(hl) -> tuple:
    row = ProcedureState.objects.filter(table=hl["table"]).first()
    return (row.state if row else None, list(Event.objects.filter(table=hl["table"]).values_list("seq", "kind")),
            [c.sheet for c in Character.objects.filter(table=hl["table"]).order_by("pk")],
            list(CardPlacement.objects.filter(deck__table=hl["table"]).values_list("card_id", "pile_id", "position")))


def state(hl) -> dict[str, Any]:
    """The table's procedure state (a new one before its first move)."""
    return procedure_state(hl["table"])


def cid(character) -> str:
    return combatant_id(character)


def bring_out_deck(hl):
    """The panel's GM button: the ordinary deck route (the panel reads the deck as it is: no
    count to ask for)."""
    answer = hl["clients"]["gm"].post(reverse("deck_create", args=[hl["table"].pk]),
                                      {"kind": "ten_value", "name": DECK}, **HTMX)
    assert answer.status_code == 200
    return hl["table"].decks.get(name=DECK)


def tens_last(hl, deck) -> None:
    """The GM's hand on the rule deck: its Tens to the bottom, so no pull takes a second card and a
    test's totals stay in the bounds it counts on (the deck is shuffled unseeded)."""
    dealt = services.deck_peek(deck=deck, actor=hl["gm"], count=40)
    services.deck_reorder(deck=deck, actor=hl["gm"], order=sorted(dealt, key=lambda card: card.endswith(":10")))


def verify_drawn(event: Event) -> None:
    """What the Verify button checks: the drawn cards lay where the sealed order put them."""
    seal = ShuffleCommitment.objects.get(pk=event.payload["commitment"])
    start = event.payload["start"]
    assert seal.order[start:start + len(event.payload["cards"])] == event.payload["cards"]


def last(kind: str) -> Event:
    return Event.objects.filter(kind=f"harsh_light.{kind}").order_by("-seq").first()


def gm_view(hl) -> dict[str, Any]:
    """The panel as the GM's page draws it (every figure, NPCs' too)."""
    return panels.current(hl["table"], hl["gm"])


def figures(event: Event) -> dict[str, Any]:
    """A pull's record whole: its public part with the GM's figures (an NPC's) put back."""
    return {**event.payload["event"]["record"], **(event.private or {}).get("figures", {})}


def attack(hl, who: str, attacker, target, skill: str = "brawl") -> None:
    ok(hl, who, "set_up_pull", combatant=attacker.pk, attribute="strength", skill=skill, target=target.pk,
       resist="defence", attack="melee")
    ok(hl, who, "pull", combatant=cid(attacker), set_up="1")


def test_the_page_draws_the_panel_and_the_gm_is_offered_the_deck(hl) -> None:
    """Each seat gets the panel; the GM's button makes the 40-card deck under the engine's name
    through the ordinary deck route; players' controls carry their member id."""
    for who in ("gm", "ann", "watcher"):
        page = hl["clients"][who].get(reverse("table", args=[hl["table"].pk])).content.decode()
        assert '<section id="harsh_light-panel" class="rounds' in page and NOTICE in page
        assert f"No {DECK} deck at this table yet" in page
    page = hl["clients"]["gm"].get(reverse("table", args=[hl["table"].pk])).content.decode()
    button = re.search(r'<div class="gm-only button-row">\s*<button[^>]*>Bring out the Harsh Light deck', page)
    assert button and f'hx-post="{reverse("deck_create", args=[hl["table"].pk])}"' in button.group(0)
    assert '"kind": "ten_value", "name": "Harsh Light"' in button.group(0)
    setup = re.search(r'<details class="controller-only pull-setup" data-controller="(\d+)"[^>]*>\s*'
                      r'<summary>Set up a pull for Alfie', page)
    assert setup and int(setup.group(1)) == hl["ann"].pk
    deck = bring_out_deck(hl)
    assert CardPlacement.objects.filter(deck=deck, pile__kind=PileKind.DRAW).count() == 40
    page = hl["clients"]["ann"].get(reverse("table", args=[hl["table"].pk])).content.decode()
    assert "The Harsh Light deck: 40 cards not lying face up: the draw pile and any cards held in hands." in page
    assert "Bring out the Harsh Light deck" not in page


def test_the_first_pull_without_a_deck_says_how_to_bring_one_out(hl) -> None:
    ok(hl, "ann", "set_up_pull", combatant=hl["alfie"].pk, attribute="wits")
    refused(hl, "ann", "pull", 400, 'The GM brings one out: the button "Bring out the Harsh Light deck"',
            combatant=cid(hl["alfie"]), set_up="1")
    bring_out_deck(hl)
    ok(hl, "ann", "pull", combatant=cid(hl["alfie"]), set_up="1")
    assert last("pulled").payload["event"]["record"]["cards"]


def test_a_pull_is_shown_with_its_odds_from_the_draw_pile_then_takes_a_real_card(hl) -> None:
    """The issue: "Odds before the pull: the exact chance of 0, 1, 2 ... successes and of a
    Dramatic Failure for this pool, from the cards actually left in the deck"."""
    deck = bring_out_deck(hl)
    services.pile_draw(deck=deck, actor=hl["gm"], count=6, to="play")  # six cards off the top
    ok(hl, "ann", "set_up_pull", combatant=hl["alfie"].pk, attribute="intelligence", skill="academics",
       modifier="-7", reason="in the dark")
    pile = list(CardPlacement.objects.filter(deck=deck, pile__kind=PileKind.DRAW).values_list("card_id", flat=True))
    assert len(pile) == 34 and panels.current(hl["table"], None)["deck_left"] == list(counts_of(pile))
    [ready] = panels.current(last("pull_set_up").table, None)["prepared"]
    exact = odds.exact_from_counts(-1, counts_of(pile))
    assert ready["pool"]["size"] == -1 and ready["odds"]["dramatic"] == odds.percent(exact.dramatic) > 0
    assert [c["percent"] for c in ready["odds"]["cells"][:5]] == [odds.percent(exact.successes.get(k, 0))
                                                                  for k in range(5)]
    assert "pool -1 (Intelligence 3 + Academics 3 - in the dark 7)" in last("pull_set_up").summary
    ok(hl, "ann", "pull", combatant=cid(hl["alfie"]), set_up="1")
    drawn = [e for e in Event.objects.filter(table=hl["table"], kind="cards.drawn").order_by("seq")
             if e.payload.get("rule")]  # the pull's, not the GM's six
    tokens = [t for e in drawn for t in e.payload["cards"]]
    assert 1 <= len(tokens) <= 2
    for event in drawn:
        verify_drawn(event)
        assert event.payload["deck"] == deck.pk and event.audience == "everyone"
    record = last("pulled").payload["event"]["record"]
    assert record["cards"] == tokens and record["values"] == [card_by_id(t).value for t in tokens]
    assert record["total"] == -1 + sum(record["values"])
    assert record["dramatic"] == (record["values"][0] == 1)
    assert CardPlacement.objects.filter(deck=deck).count() == 40  # conserved
    assert CardPlacement.objects.filter(deck=deck, pile__kind=PileKind.DRAW).count() == 34 - len(tokens)
    assert set(CardPlacement.objects.filter(deck=deck, card_id__in=tokens).values_list("pile__kind", flat=True)) \
        == {PileKind.DISCARD}
    assert panels.current(hl["table"], None)["deck_count"] == 34 - len(tokens)


def test_a_resisted_attack_lowers_defence_and_the_turn_order_is_enforced(hl) -> None:
    """Seed: "Nearly all attack rolls will be resisted by Defence"; "Each attack on an enemy lowers
    their Defence by 1 until their next action"; "In combat, you get one instant action per turn"."""
    tens_last(hl, bring_out_deck(hl))  # two blows of two successes at most: the Ghoul's 6 boxes hold them
    alfie, betty, ghoul = hl["alfie"], hl["betty"], hl["ghoul"]
    ok(hl, "gm", "set_order", order=[alfie.pk, betty.pk, ghoul.pk])
    assert state(hl)["acting"] == cid(alfie)
    assert panels.current(last("order_set").table, None)["turn"]["says"] == "Alfie acts"
    refused(hl, "bob", "set_up_pull", 400, "It is Alfie's action, not Betty's",
            combatant=betty.pk, attribute="strength")
    refused(hl, "bob", "set_up_pull", 403, "You act only for the characters you control",
            combatant=alfie.pk, attribute="strength")
    refused(hl, "bob", "end_turn", 403, "You act only for the characters you control")
    refused(hl, "watcher", "set_up_pull", 403, "a spectator sees the play but does not act",
            combatant=alfie.pk, attribute="strength")
    refused(hl, "ann", "set_order", 400, "Only the GM can set the turn order", order=[alfie.pk])
    attack(hl, "ann", alfie, ghoul)
    ghoul_row = next(p for p in gm_view(hl)["order"] if p["id"] == cid(ghoul))
    ghoul_sheet = next(c for c in gm_view(hl)["characters"] if c["cid"] == cid(ghoul))["view"]
    assert (ghoul_row["defence"], ghoul_sheet["defence"]) == (2, 3)  # as it stands, and the sheet's
    record = figures(last("pulled"))
    assert record["pool"]["parts"][-1] == ["Ghoul's Defence", -3] and record["kind"] == "resisted"
    refused(hl, "ann", "set_up_pull", 400, "Alfie has already taken an instant action this turn",
            combatant=alfie.pk, attribute="strength")
    ok(hl, "ann", "end_turn", combatant=cid(alfie))
    attack(hl, "bob", betty, ghoul)
    ghoul_row = next(p for p in gm_view(hl)["order"] if p["id"] == cid(ghoul))
    assert ghoul_row["defence"] == 1
    assert figures(last("pulled"))["pool"]["parts"][-1] == ["Ghoul's Defence", -2]
    ok(hl, "bob", "end_turn", combatant=cid(betty))  # the page's button names the acting character
    assert panels.current(last("turn_ended").table, None)["turn"]["says"] == "Ghoul acts"
    ok(hl, "gm", "dodge", combatant=cid(ghoul))
    ghoul_row = next(p for p in gm_view(hl)["order"] if p["id"] == cid(ghoul))
    assert ghoul_row["defence"] == 6 and "dodging: Defence doubled" in ghoul_row["notes"]
    ok(hl, "gm", "end_turn")
    assert state(hl)["turn"] == 2 and state(hl)["acting"] == cid(alfie)
    ok(hl, "gm", "end_combat")
    assert not state(hl)["combat"]


def test_willpower_once_a_turn_and_back_on_the_sheet(hl) -> None:
    """Seed: "You may only spend one Willpower per turn (including Willpower spent to activate
    powers)"; the issue: "the sheet's Willpower dots drop"."""
    bring_out_deck(hl)
    betty = hl["betty"]
    ok(hl, "gm", "set_order", order=[hl["alfie"].pk, betty.pk])
    ok(hl, "bob", "willpower", combatant=betty.pk, use="resist")
    betty.refresh_from_db()
    assert betty.sheet["willpower_points"] == 3  # Resolve 2 + Composure 2, one spent
    updated = Event.objects.filter(table=hl["table"], kind="character.updated").order_by("-seq").first()
    assert updated.payload["character"]["id"] == betty.pk
    assert [t for t in updated.payload["character"]["glance"]["tracks"] if t["label"] == "Willpower"][0]["now"] == 3
    refused(hl, "bob", "willpower", 400, "Betty has already spent a Willpower point this turn",
            combatant=betty.pk, use="power")
    refused(hl, "ann", "willpower", 403, "You act only for the characters you control", combatant=betty.pk)
    # Spent to resist, it counts against the next resisted test: Alfie's attack meets +2.
    attack(hl, "ann", hl["alfie"], betty)
    assert last("pulled").payload["event"]["record"]["pool"]["parts"][-2:] == [
        ["Betty's Defence", -3], ["Betty's Willpower", -2]]


def test_an_extended_action_gathers_successes_until_it_is_done(hl) -> None:
    """Seed: "The player pulls cards until they have accumulated however many successes are
    needed (perhaps five to pick a simple lock ...)"."""
    deck = bring_out_deck(hl)
    alfie = hl["alfie"]
    ok(hl, "gm", "extended_start", combatant=alfie.pk, attribute="dexterity", skill="larceny", needed="5",
       unit="turn", label="picking the lock")
    refused(hl, "bob", "extended_pull", 403, "You act only for the characters you control", extended="x1")
    # the page's form names the action's character, as the core checks the sender plays it
    refused(hl, "ann", "extended_pull", 400, "There is no such extended action", extended="x9", combatant=alfie.pk)
    refused(hl, "ann", "extended_stop", 400, "Only the GM can stop the extended action", extended="x1")
    gathered = 0
    for number in range(1, 21):
        ok(hl, "ann", "extended_pull", extended="x1", combatant=alfie.pk)
        event = last("extended_pulled").payload["event"]
        record = event["record"]
        assert record["number"] == number and record["total"] == 6 + sum(record["values"])
        gathered += 0 if record["dramatic"] else record["successes"]
        assert event["gathered"] == gathered
        if event["done"]:
            break
    [shown] = panels.current(last("extended_pulled").table, None)["extended"]
    assert shown["done"] and shown["gathered"] >= 5 and len(shown["pulls"]) == number
    refused(hl, "ann", "extended_pull", 400, "That extended action is over", extended="x1", combatant=alfie.pk)
    assert CardPlacement.objects.filter(deck=deck).count() == 40


def test_a_contest_each_pulls_for_their_own_side_and_the_higher_successes_win(hl) -> None:
    """Seed: "Both pull a card, add their pools and compare successes, with the higher number of
    successes winning"."""
    bring_out_deck(hl)
    alfie, betty = hl["alfie"], hl["betty"]
    ok(hl, "gm", "contest_start", combatant_a=alfie.pk, attribute_a="wits", combatant_b=betty.pk,
       attribute_b="wits", label="a staring match")
    for _ in range(12):
        refused(hl, "bob", "contest_pull", 403, "You act only for the characters you control",
                contest="k1", combatant=alfie.pk)
        ok(hl, "ann", "contest_pull", contest="k1", combatant=alfie.pk)
        refused(hl, "ann", "contest_pull", 400, "Alfie has pulled this round; the other side pulls now",
                contest="k1", combatant=alfie.pk)
        ok(hl, "bob", "contest_pull", contest="k1", combatant=betty.pk)
        judged = last("contest_round").payload["event"]
        a, b = judged["successes"][cid(alfie)], judged["successes"][cid(betty)]
        assert judged["winner"] == (None if a == b else cid(alfie) if a > b else cid(betty))
        if judged["done"]:
            break
    assert "wins the contest" in last("contest_round").summary


def test_malformed_and_unknown_values_are_refused_in_the_notice(hl) -> None:
    bring_out_deck(hl)
    alfie = hl["alfie"].pk
    refused(hl, "ann", "set_up_pull", 400, "A modifier is a whole number", combatant=alfie,
            attribute="wits", modifier="lots")
    refused(hl, "ann", "set_up_pull", 400, "Choose an Attribute", combatant=alfie, attribute="charisma")
    refused(hl, "ann", "set_up_pull", 400, "There is no Skill called", combatant=alfie, attribute="wits",
            skill="juggling")
    refused(hl, "ann", "set_up_pull", 400, "resisted by Defence, Resolve, Stamina or Composure",
            combatant=alfie, attribute="wits", target=hl["ghoul"].pk, resist="luck")
    refused(hl, "ann", "set_up_pull", 400, "An attack is in melee, thrown, ranged",
            combatant=alfie, attribute="strength", target=hl["ghoul"].pk, resist="defence", attack="psychic")
    refused(hl, "ann", "set_up_pull", 400, "An action is instant, reflexive (the Storyteller's call), talking or "
            "resisting", combatant=alfie, attribute="wits", action="eventually")
    refused(hl, "ann", "set_up_pull", 400, "Again is 10, 9 or 8", combatant=alfie, attribute="wits", again="7")
    refused(hl, "ann", "set_up_pull", 400, "The successes needed is from 1 to 50", combatant=alfie,
            attribute="wits", needed="99")
    refused(hl, "ann", "set_up_pull", 400, "Choose a character", combatant="99999999999", attribute="wits")
    refused(hl, "ann", "willpower", 400, "Willpower outside a pull is spent to resist or on a power",
            combatant=alfie, use="luck")
    refused(hl, "gm", "set_order", 400, "Choose the characters in the fight", order=["x", ""])
    refused(hl, "gm", "contest_start", 400, "A character does not contest itself",
            combatant_a=alfie, attribute_a="wits", combatant_b=alfie, attribute_b="wits")
    refused(hl, "ann", "pull", 400, "Alfie has no pull set up", combatant=alfie, set_up="1")
    assert post(hl, "gm", "explode").status_code == 404


def test_no_hidden_thing_in_any_public_payload(hl) -> None:
    """Only cards already pulled appear in what everyone sees (never the deck's order), and no
    sheet is copied into the log, for anyone: the rules read it from the table at each move."""
    bring_out_deck(hl)
    ok(hl, "gm", "roll_initiative", characters=[hl["alfie"].pk, hl["betty"].pk, hl["ghoul"].pk])
    acting = state(hl)["acting"]
    who = {cid(hl["alfie"]): "ann", cid(hl["betty"]): "bob", cid(hl["ghoul"]): "gm"}[acting]
    ok(hl, who, "set_up_pull", combatant=acting, attribute="wits")
    ok(hl, who, "pull", combatant=acting, set_up="1")
    drawn = {t for e in Event.objects.filter(kind="cards.drawn") for t in e.payload["cards"]}
    assert len(drawn) >= 4
    for viewer in ("watcher", "ann"):
        seen = events_for(viewer_of(hl[viewer]), hl["table"].pk)
        public = json.dumps([s.event.payload for s in seen if s.event.kind.startswith("harsh_light.")])
        assert set(re.findall(r"ten:[SHDC]:\d+", public)) <= drawn
        assert not any(s.event.kind == "harsh_light.sheet_read" for s in seen)
        assert '"sheets"' not in public
    gm_seen = [s.event.kind for s in events_for(viewer_of(hl["gm"]), hl["table"].pk)]
    assert "harsh_light.sheet_read" not in gm_seen and "harsh_light.pulled" in gm_seen


def test_the_odds_page_has_a_table_and_a_chart() -> None:
    """The issue: "a page with a table and an SVG chart of pools -3 to 15 on a fresh deck (10-,
    9- and 8-again)"; the success table: "8: 1 success. 11: 2 successes. 14: 3 ...". """
    page = Client().get(reverse("game_page", args=["harsh_light", "odds"]) + "?again=9").content.decode()
    assert "<svg" in page and page.count("<polyline") == 6 and "9-again" in page
    rows = re.findall(r'<tr><th scope="row">(-?\d+)</th>', page)
    assert rows == [str(p) for p in range(-3, 16)]
    seven = page[page.index('<th scope="row">7</th>'):]
    cells = re.findall(r"<td>([\d.]+)</td>", seven[: seven.index("</tr>")])
    assert float(cells[-2]) == 100.0  # pool 7: the worst card reaches 8, a success
    assert rules.successes(8) == 1 and rules.successes(20) == 5


@pytest.mark.django_db(transaction=True)
async def test_every_pull_reaches_a_spectator_live(hl, connect) -> None:
    socket = await connect(hl["table"], hl["watcher"])
    rng = random.Random(3)
    await database_sync_to_async(services.deck_create)(table=hl["table"], actor=hl["gm"], kind="ten_value",
                                                       name=DECK, rng=rng)
    run = database_sync_to_async(services.procedure_command)
    for command in ({"type": "set_up_pull", "attribute": "wits"}, {"type": "pull", "set_up": True}):
        await run(table=hl["table"], actor=hl["ann"], rng=rng, command={**command, "combatant": cid(hl["alfie"])})
    ready = await socket.seen("Alfie is about to pull")
    pulled = await socket.seen("Latest pulls")
    assert re.search(r'<section id="harsh_light-panel"[^>]*hx-swap-oob="true"', pulled)
    assert 'class="card-face' in pulled and "Pool <strong>2</strong> = Wits 2" in ready
    await socket.close()
