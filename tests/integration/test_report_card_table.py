"""Report Card at a table (issue 14, "Live at the table"): every command posted through the
generic routes as the page posts it, the cards real (each player character's own sealed Tarot,
counts, conservation, ``cards.drawn`` under a seal), every refusal a 4xx that changes nothing.

Seed 004: "Skill checks are resolved by having the player draw the top card from their decks."
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.core.cards import tarot
from games.report_card import odds
from games.report_card.reading import percents
from tabletop import services
from tabletop.feed import panels
from tabletop.models import CardPlacement, Deck, Event, PileKind, ProcedureState, Role, ShuffleCommitment

HTMX = {"HTTP_HX_REQUEST": "true"}
FULL = sorted(c.id for c in tarot())
# Marieta is Fast and Clever, A+ FREE, F GYM, her own card the Star; Jo is Wise, A+ LAW, F ART.
MARIETA = {"fast": "on", "clever": "on", "a_plus": "FREE", "f_skill": "GYM", "major": "17"}
JO = {"wise": "on", "a_plus": "LAW", "f_skill": "ART", "major": "The Hierophant"}


@pytest.fixture
def school(db) -> dict[str, Any]:
    users = get_user_model()
    gm_user = users.objects.create_user("teacher", password="a long teacher password")
    table = services.table_create(gm=gm_user, name="Paradise Lua High", system="report_card")
    gm = table.members.select_related("user").get(role=Role.GM)
    ann, bob = (services.membership_join(table=table, user=services.guest_user_create(), role=Role.PLAYER,
                                         display_name=name) for name in ("Ann", "Bob"))
    watcher = services.membership_join(table=table, user=services.guest_user_create(), role=Role.SPECTATOR)
    marieta = services.character_create(table=table, actor=ann, name="Marieta", sheet=MARIETA)
    jo = services.character_create(table=table, actor=bob, name="Jo", sheet=JO)
    clients = {}
    for key, member in (("gm", gm), ("ann", ann), ("bob", bob), ("watcher", watcher)):
        clients[key] = Client()
        clients[key].force_login(member.user)
    return {"table": table, "gm": gm, "ann": ann, "bob": bob, "watcher": watcher, "marieta": marieta,
            "jo": jo, "clients": clients}


def post(s: dict[str, Any], who: str, command: str, data: dict[str, Any] | None = None) -> tuple[int, str]:
    response = s["clients"][who].post(reverse("table_command", args=[s["table"].pk, command]), data or {}, **HTMX)
    return response.status_code, response.content.decode()


def cid(character) -> str:
    return f"c{character.pk}"


def state(s: dict[str, Any]) -> dict[str, Any]:
    return ProcedureState.objects.get(table=s["table"]).state


def deck_of(s: dict[str, Any], character) -> Deck:
    return Deck.objects.get(table=s["table"], name=f"{character.name}'s Tarot")


def on_top(deck: Deck, card_id: str) -> None:
    """Puts a card of the draw pile on its top, as a stacked deck would lie."""
    draw = CardPlacement.objects.filter(deck=deck, pile__kind=PileKind.DRAW)
    top = min(draw.values_list("position", flat=True))
    draw.filter(card_id=card_id).update(position=top - 1)


def piles(deck: Deck) -> Counter[str]:
    return Counter(CardPlacement.objects.filter(deck=deck).values_list("pile__kind", flat=True))


def snapshot(s: dict[str, Any]) -> tuple[Any, ...]:
    """Everything a command could change: the procedure's state, the log, where every card lies."""
    row = ProcedureState.objects.filter(table=s["table"]).first()
    return (row.state if row else None,
            list(Event.objects.filter(table=s["table"]).values_list("seq", "kind")),
            sorted(CardPlacement.objects.filter(deck__table=s["table"]).values_list("deck_id", "card_id", "pile_id")))


def call(s: dict[str, Any], who: str = "gm", character=None, **fields: Any) -> tuple[int, str]:
    data = {"character": (character or s["marieta"]).pk, "skill": "LAW", "rank": "medium",
            "task": "search the office for the file", **fields}
    return post(s, who, "call_check", data)


def drawn_tokens(s: dict[str, Any]) -> list[str]:
    """Every token the checks drew, from their own events, in order."""
    tokens = []
    for event in Event.objects.filter(table=s["table"], kind="report_card.drawn").order_by("seq"):
        for d in event.payload["event"]["attempt"]["draws"]:
            tokens += [d["card"]] + ([d["second"]] if d["second"] else [])
    return tokens


def assert_conserved(deck: Deck) -> None:
    """Every card of the deck in exactly one place, 78 in all."""
    assert sorted(CardPlacement.objects.filter(deck=deck).values_list("card_id", flat=True)) == FULL


def verify(event: Event) -> None:
    """What the Verify button checks: the drawn cards lay where the sealed order put them."""
    seal = ShuffleCommitment.objects.get(pk=event.payload["commitment"])
    start = event.payload["start"]
    assert seal.order[start:start + len(event.payload["cards"])] == event.payload["cards"]


# Each player character's own deck


def test_each_player_character_gets_its_own_sealed_tarot_named_after_it(school) -> None:
    """Issue 14: "each player character gets its own full 78-card Tarot deck, created and
    shuffled (committed) when the character is made"."""
    for character, owner in ((school["marieta"], school["ann"]), (school["jo"], school["bob"])):
        deck = deck_of(school, character)
        assert deck.kind == "tarot" and deck.owner_id == owner.pk
        assert piles(deck) == {PileKind.DRAW: 78}
        assert ShuffleCommitment.objects.filter(deck=deck).count() == 1
    npc = services.character_create(table=school["table"], actor=school["gm"], name="Principal", npc=True,
                                    sheet=JO)
    assert not Deck.objects.filter(table=school["table"], name__startswith="Principal").exists()
    status, body = call(school, character=npc)
    assert status == 400 and "NPC" in body


def test_the_sheet_form_refuses_what_the_seed_forbids(school) -> None:
    """Seed: "They can only choose a Skill if they have at least one of the associated
    Abilities"; "A player must fail 1 skill"."""
    url = reverse("character_new", args=[school["table"].pk])
    before = snapshot(school)
    page = school["clients"]["ann"].post(url, {"name": "Cleo", "sheet_a_plus": "SCI", "sheet_f_skill": "GYM",
                                               "sheet_strong": "on", "sheet_major": "3"}).content.decode()
    assert "SCI needs a character who is Clever or Charming" in page
    page = school["clients"]["ann"].post(url, {"name": "Cleo", "sheet_a_plus": "GYM", "sheet_f_skill": "",
                                               "sheet_strong": "on", "sheet_major": "3"}).content.decode()
    assert "Choose your F skill" in page
    assert snapshot(school) == before


# A check, called and drawn


def test_a_called_check_waits_for_its_player_to_draw_with_the_odds_from_the_cards_not_yet_face_up(school) -> None:
    """Issue 14: "Odds before the draw: beside the check, the exact chance of success,
    critical success and critical failure, computed from the cards actually left in that
    player's deck". Issue 21: counted from the cards not yet face up (the draw pile and any
    card held face down), so no figure moves with what a player holds (the project's rule: "never from
    a count that lets a viewer subtract a card held face down")."""
    deck = deck_of(school, school["marieta"])
    # The GM has dealt Ann three cards of her deck by hand (a player cannot take them herself):
    # nothing lies face up, so every figure is a fresh deck's, whatever she holds.
    services.pile_deal(deck=deck, actor=school["gm"], count=3, to=[school["ann"]])
    held = list(CardPlacement.objects.filter(deck=deck, pile__kind=PileKind.HAND).values_list("card_id", flat=True))
    assert call(school)[0] == 200
    assert piles(deck)[PileKind.DRAW] == 75  # calling draws nothing
    exact = odds.by_rank(FULL, own_major="tarot:major:17")
    called = Event.objects.get(table=school["table"], kind="report_card.check_called")
    # issue 26: the view counts the odds from the deck as the table has it; no copy in the log
    assert "decks" not in called.payload["event"] and "decks" not in state(school)
    assert called.summary == ("The GM calls a check for 'search the office for the file': Marieta (LAW, Medium).")
    # no public payload lists a deck's cards: a card in Ann's hand stays hers alone
    public = json.dumps([e.payload for e in Event.objects.filter(table=school["table"], kind__startswith="report_card.")])
    assert not any(token.split("/")[0] in public for token in held)
    panel = panels.current(called.table, None)
    assert panel["turn"] == {"combatant": cid(school["marieta"]), "gm": False, "says": "Marieta draws",
                             "prompt": "draw Marieta's card", "waiting": [cid(school["marieta"])],
                             "prompts": {cid(school["marieta"]): "draw Marieta's card"}}
    part = panel["check"]["parts"][0]
    assert part["may_draw"] and part["odds"]["unseen"] == 78 and not part["odds"]["fresh"]
    assert part["odds"]["chances"] == percents(exact["medium"])
    for who in ("ann", "bob", "watcher"):
        page = school["clients"][who].get(reverse("table", args=[school["table"].pk])).content.decode()
        line = page[page.index('data-odds-for="'):]
        line = line[: line.index("</p>")]
        assert "the 78 cards of Marieta&#x27;s Tarot not yet face up" in line
        assert f"succeeds {part['odds']['chances']['succeeds']}%" in line
        assert "Cards not yet face up: " in page and "Marieta&#x27;s Tarot 78" in page
        draw = f'data-controller="{school["ann"].pk}" hx-post="{reverse("table_command", args=[school["table"].pk, "draw"])}"'
        assert (draw in page) == (who == "ann")


def test_the_player_draws_the_top_card_of_their_own_deck_face_up_and_it_verifies(school) -> None:
    """Seed: "Skill checks are resolved by having the player draw the top card from their
    decks." Issue 14: the card "leaves the deck's draw pile ... lands where the rule says ...
    and is covered by the deck's shuffle commitment"."""
    deck, other = deck_of(school, school["marieta"]), deck_of(school, school["jo"])
    assert call(school, rank="automatic")[0] == 200
    before = snapshot(school)
    assert post(school, "bob", "draw", {"character": cid(school["marieta"])})[0] == 403  # not his character
    assert post(school, "watcher", "draw", {"character": cid(school["marieta"])})[0] == 403
    assert snapshot(school) == before
    assert post(school, "ann", "draw", {"character": cid(school["marieta"])})[0] == 200
    [token] = drawn_tokens(school)
    # the check closed at once (Automatic): its card went face up onto the deck's discard pile
    assert piles(deck) == {PileKind.DRAW: 77, PileKind.DISCARD: 1} and piles(other) == {PileKind.DRAW: 78}
    assert CardPlacement.objects.get(deck=deck, card_id=token.split("/")[0]).pile.kind == PileKind.DISCARD
    [thrown] = Event.objects.filter(table=school["table"], kind="card.discarded")
    assert thrown.payload["cards"] == [token] and thrown.audience == "everyone"
    assert_conserved(deck)
    [moved] = Event.objects.filter(table=school["table"], kind="cards.drawn")
    assert moved.payload["cards"] == [token] and moved.payload["counts"]["decks"][str(deck.pk)]["draw"] == 77
    assert moved.summary.startswith("For Marieta's draw, 1 card comes off Marieta's Tarot face up: ")
    verify(moved)
    closed = Event.objects.get(table=school["table"], kind="report_card.check_closed")
    assert closed.payload["event"]["outcome"] in ("success", "critical_success")  # Automatic cannot fail
    assert [d["unseen"] for d in panels.current(school["table"], None)["decks"] if d["deck"] == deck.name] == [77]
    assert "'c" not in " ".join(Event.objects.filter(table=school["table"]).values_list("summary", flat=True))


def test_a_character_renamed_mid_check_still_draws_from_its_own_deck(school) -> None:
    """Seed: "Skill checks are resolved by having the player draw the top card from their
    decks". A renamed character's deck takes the new name; the check called before finds it by
    the name the character has now, draws from it and, closed, discards to it."""
    assert call(school, rank="impossible", skill="SCI")[0] == 200
    services.character_update(character=school["marieta"], actor=school["gm"], name="Mari", sheet=MARIETA)
    deck = Deck.objects.get(table=school["table"], name="Mari's Tarot")
    on_top(deck, "tarot:cups:5")  # no Wheel of Fortune, which would draw a second card
    assert post(school, "ann", "draw", {"character": cid(school["marieta"])})[0] == 200
    drawn = Event.objects.filter(table=school["table"], kind="report_card.drawn").latest("seq").payload["event"]
    assert drawn["deck"] == "Mari's Tarot" and piles(deck)[PileKind.DRAW] == 77
    assert post(school, "gm", "close")[0] == 200
    assert piles(deck) == {PileKind.DRAW: 77, PileKind.DISCARD: 1} and state(school)["check"] is None
    assert_conserved(deck)


def test_with_a_bonus_only_the_player_chooses_the_card_to_keep(school) -> None:
    """Seed: "While they have Bonus, they draw two cards and use whichever of the two cards
    they would prefer." Issue 14: "The choice is an enforced step (only that person can make it)"."""
    assert call(school, bonus="on")[0] == 200
    assert post(school, "gm", "draw", {"character": cid(school["marieta"])})[0] == 200  # the GM may draw for her
    assert len(drawn_tokens(school)) >= 2
    keep = f'class="small player-only controller-only" data-controller="{school["ann"].pk}"'
    pages = {who: school["clients"][who].get(reverse("table", args=[school["table"].pk])).content.decode()
             for who in ("ann", "gm", "bob")}
    assert pages["ann"].count(keep) == 2  # offered to Ann alone, in her bytes alone
    assert keep not in pages["gm"] + pages["bob"] and "Give this one" not in pages["gm"]
    before = snapshot(school)
    status, body = post(school, "gm", "pick", {"character": cid(school["marieta"]), "index": "0"})
    assert status == 400 and "Marieta&#x27;s player chooses" in body and 'id="report_card-notice"' in body
    assert post(school, "bob", "pick", {"character": cid(school["marieta"]), "index": "0"})[0] == 403
    assert post(school, "watcher", "pick", {"character": cid(school["marieta"]), "index": "0"})[0] == 403
    status, body = post(school, "ann", "pick", {"character": cid(school["marieta"]), "index": "7"})
    assert status == 400 and "one of the two cards" in body
    assert snapshot(school) == before
    assert post(school, "ann", "pick", {"character": cid(school["marieta"]), "index": "1"})[0] == 200
    picked = Event.objects.get(table=school["table"], kind="report_card.picked")
    assert picked.payload["event"]["by"] == "player" and picked.summary.startswith("Marieta keeps ")


def test_with_a_penalty_only_the_gm_chooses_the_worse_card(school) -> None:
    """Seed: "While they have Penalty, they draw two cards and use whichever card the GM
    decides is the worse of the two"."""
    assert call(school, penalty="on")[0] == 200
    assert post(school, "ann", "draw", {"character": cid(school["marieta"])})[0] == 200
    panel = panels.current(school["table"], None)
    assert panel["turn"]["gm"] and panel["turn"]["combatant"] is None
    pick = 'class="small gm-only" hx-post="' + reverse("table_command", args=[school["table"].pk, "pick"])
    page = school["clients"]["ann"].get(reverse("table", args=[school["table"].pk])).content.decode()
    assert pick not in page and "Keep this one" not in page  # offered to the GM alone, in its bytes alone
    assert school["clients"]["gm"].get(reverse("table", args=[school["table"].pk])).content.decode().count(pick) == 2
    before = snapshot(school)
    status, body = post(school, "ann", "pick", {"character": cid(school["marieta"]), "index": "0"})
    assert status == 400 and "the GM chooses the worse card" in body
    assert snapshot(school) == before
    assert post(school, "gm", "pick", {"character": cid(school["marieta"]), "index": "0"})[0] == 200
    assert Event.objects.get(table=school["table"], kind="report_card.picked").summary.startswith("The GM gives Marieta")


def test_a_failure_is_retried_by_its_player_for_a_corruption_point_one_rank_easier(school) -> None:
    """Seed: "The player can take 1 Corruption Point to retry the check. Each time the player
    attempts to re-try the check, it becomes one step easier"."""
    deck = deck_of(school, school["marieta"])
    assert call(school, rank="impossible", skill="SCI")[0] == 200  # Impossible: it cannot succeed
    assert post(school, "ann", "draw", {"character": cid(school["marieta"])})[0] == 200
    part = state(school)["check"]["parts"][0]
    assert part["attempts"][0]["outcome"] in ("failure", "critical_failure")
    retry_url = reverse("table_command", args=[school["table"].pk, "retry"])
    button = f'class="player-only controller-only" data-controller="{school["ann"].pk}" hx-post="{retry_url}"'
    pages = {who: school["clients"][who].get(reverse("table", args=[school["table"].pk])).content.decode()
             for who in ("ann", "bob", "gm")}
    # Ann's alone: the GM may not decide it for her, and Bob is no part of it
    assert button in pages["ann"] and button not in pages["bob"] and button not in pages["gm"]
    before = snapshot(school)
    status, body = post(school, "gm", "retry", {"character": cid(school["marieta"])})
    assert status == 400 and "Only Marieta&#x27;s player decides to retry" in body
    assert post(school, "bob", "retry", {"character": cid(school["marieta"])})[0] == 403
    assert snapshot(school) == before
    drawn_before = len(drawn_tokens(school))
    assert post(school, "ann", "retry", {"character": cid(school["marieta"])})[0] == 200
    retried = Event.objects.get(table=school["table"], kind="report_card.retried")
    assert retried.summary == "Marieta takes a Corruption Point (1 of 3) to retry at Unlikely, one rank easier."
    assert len(drawn_tokens(school)) > drawn_before
    school["marieta"].refresh_from_db()
    assert school["marieta"].sheet["corruption"] == 1  # on her Report Card
    assert Event.objects.filter(table=school["table"], kind="character.updated").exists()
    assert_conserved(deck)
    if state(school)["check"] is not None:  # the Unlikely retry failed too: the failure stands
        assert post(school, "ann", "accept", {"character": cid(school["marieta"])})[0] == 200
    assert state(school)["check"] is None
    # Seed: "Skill Checks for a specific thing cannot be made more than once per Day";
    # The decided reading 004: the GM picks the earlier check from the Day's list.
    earlier = state(school)["today"][0]["check"]
    page = school["clients"]["gm"].get(reverse("table", args=[school["table"].pk])).content.decode()
    assert f'<option value="{earlier}">search the office for the file (Marieta, ' in page
    status, body = call(school, rank="impossible", skill="SCI", task="the office again", same_as=str(earlier))
    assert status == 400 and "cannot be made again until a new Day" in body
    assert post(school, "gm", "new_day")[0] == 200
    assert call(school, rank="impossible", skill="SCI")[0] == 200


def test_the_gm_holds_the_rank_and_closes_a_check(school) -> None:
    """Seed: "At the GM's discretion, a check can remain at its current difficulty level
    during a retry"."""
    assert call(school, rank="impossible")[0] == 200
    assert post(school, "ann", "hold", {"hold": "1"})[0] == 400
    assert post(school, "gm", "hold", {"hold": "1"})[0] == 200
    assert post(school, "ann", "draw", {"character": cid(school["marieta"])})[0] == 200
    assert post(school, "ann", "retry", {"character": cid(school["marieta"])})[0] == 200
    assert state(school)["check"]["parts"][0]["attempts"][-1]["rank"] == "impossible"
    assert post(school, "ann", "close")[0] == 400
    assert post(school, "gm", "close")[0] == 200
    # a really shuffled deck may give the Tower, the Devil or Death: a Critical Failure
    assert state(school)["check"] is None
    assert state(school)["history"][-1]["outcome"] in ("failure", "critical_failure")


def test_a_helper_draws_first_and_grants_bonus_or_penalty(school) -> None:
    """Seed: "If the helping player ... succeed[s] at whatever they're doing, grant the player
    making the check Bonus. If they fail at whatever they're doing to help, grant the player
    making the check Penalty."."""
    status, _ = call(school, helper=school["jo"].pk, helper_skill="SHOP", helper_rank="automatic",
                     helper_task="distract the janitor")
    assert status == 200
    before = snapshot(school)
    status, body = post(school, "ann", "draw", {"character": cid(school["marieta"])})
    assert status == 400 and "draws once Jo&#x27;s help is settled" in body
    assert snapshot(school) == before
    assert post(school, "bob", "draw", {"character": cid(school["jo"])})[0] == 200  # Automatic: Jo succeeds
    assert post(school, "ann", "draw", {"character": cid(school["marieta"])})[0] == 200
    drawn = Event.objects.filter(table=school["table"], kind="report_card.drawn").latest("seq").payload["event"]
    assert drawn["help"] == "bonus" and len(drawn["attempt"]["draws"]) == 2


def test_a_group_check_has_everyone_draw_from_their_own_deck(school) -> None:
    """Seed: "everybody making a skill check together"; "If no player succeeds, the whole task
    fails"."""
    form = {"characters": [school["marieta"].pk, school["jo"].pk], "mode": "only_one", "skill": "LAW",
            "rank": "impossible", "task": "search the gym"}
    assert post(school, "ann", "call_group", form)[0] == 400  # the GM's
    assert post(school, "gm", "call_group", form)[0] == 200
    panel = panels.current(school["table"], None)
    assert panel["turn"]["says"] == "Marieta and Jo draw"
    for character in (school["marieta"], school["jo"]):  # the decks are really shuffled: no critical
        on_top(deck_of(school, character), "tarot:cups:5")
    for who, character in (("bob", school["jo"]), ("ann", school["marieta"])):
        assert post(school, who, "draw", {"character": cid(character)})[0] == 200
    for character in (school["marieta"], school["jo"]):
        assert piles(deck_of(school, character))[PileKind.PLAY] == 1
    for who, character in (("ann", school["marieta"]), ("bob", school["jo"])):
        assert post(school, who, "accept", {"character": cid(character)})[0] == 200
    closed = Event.objects.get(table=school["table"], kind="report_card.check_closed")
    assert closed.summary == "The check for 'search the gym' ends: failure; nobody succeeded, so the whole task fails."


def test_the_group_form_has_the_single_forms_options(school) -> None:
    """Issue 26: "the group form has the single form's options (hold, repeat, Inconsequential)"."""
    page = school["clients"]["gm"].get(reverse("table", args=[school["table"].pk])).content.decode()
    form = page[page.index('id="report_card-group"'):]
    form = form[: form.index("</form>")]
    for name in ("inconsequential", "hold", "repeat"):
        assert f'name="{name}"' in form, name
    sent = {"characters": [school["marieta"].pk, school["jo"].pk], "mode": "everyone", "skill": "LAW",
            "rank": "hard", "task": "sneak past", "inconsequential": "1", "hold": "1"}
    assert post(school, "gm", "call_group", sent)[0] == 200
    check = state(school)["check"]
    assert check["inconsequential"] and check["hold"]


def test_the_forms_offer_two_helpers_and_a_group_helper_says_whom_it_helps(school) -> None:
    """Issue 26: "more than one helper where the GM allows; helpers on group checks". Every
    field of a helper's row is sent, so an empty row ("nobody") keeps the rows in line."""
    page = school["clients"]["gm"].get(reverse("table", args=[school["table"].pk])).content.decode()
    for form_id in ("report_card-call", "report_card-group"):
        form = page[page.index(f'id="{form_id}"'):]
        form = form[: form.index("</form>")]
        assert form.count('name="helper"') == 2 and form.count('name="helper_rank"') == 2, form_id
    assert page.count('name="helps"') == 2
    sam = services.character_create(table=school["table"], actor=school["gm"], name="Sam",
                                    sheet={"strong": "on", "a_plus": "GYM", "f_skill": "SCI", "major": "8"})
    sent = {"characters": [school["marieta"].pk, school["jo"].pk], "mode": "only_one", "skill": "LAW",
            "rank": "easy", "task": "search the gym", "helper": ["", str(sam.pk)], "helps": ["", str(school["jo"].pk)],
            "helper_skill": ["LAW", "GYM"], "helper_rank": ["easy", "trivial"], "helper_task": ["", "lift the mats"]}
    assert post(school, "gm", "call_group", sent)[0] == 200
    [helper] = [p for p in state(school)["check"]["parts"] if p["role"] == "helper"]
    assert (helper["cid"], helper["helps"], helper["skill"], helper["task"]) == (
        cid(sam), cid(school["jo"]), "GYM", "lift the mats")


def test_the_wheels_second_card_shows_its_meaning_too(school) -> None:
    """Seed: "If the GM is able to, they're also encouraged to tie the drawn Tarot card's meaning
    to the result"; with the Wheel of Fortune the second card decides, so its meaning is shown
    beside the Wheel's (issue 26)."""
    from games.report_card.meanings import meaning

    deck = deck_of(school, school["marieta"])
    on_top(deck, "tarot:swords:9")
    on_top(deck, "tarot:major:10")
    assert call(school, rank="medium")[0] == 200
    assert post(school, "ann", "draw", {"character": cid(school["marieta"])})[0] == 200
    page = school["clients"]["watcher"].get(reverse("table", args=[school["table"].pk])).content.decode()
    shown = [line for line in page.split("\n") if 'class="small muted meaning"' in line]
    second = meaning("tarot:swords:9")["meaning"]
    assert any(line.strip().startswith('<p class="small muted meaning">then Nine of Swords') and second in line
               for line in shown), shown


def test_players_call_their_own_checks_only_when_the_gm_allows(school) -> None:
    """Issue 14: "the GM (or the player, if the GM allows) calls a check"."""
    status, body = call(school, who="ann")
    assert status == 400 and "Only the GM calls checks" in body
    assert post(school, "ann", "allow_player_calls", {"allowed": "1"})[0] == 400
    assert post(school, "gm", "allow_player_calls", {"allowed": "1"})[0] == 200
    assert call(school, who="ann", character=school["jo"])[0] == 403  # not her character
    assert call(school, who="ann", bonus="1")[0] == 200
    page = school["clients"]["ann"].get(reverse("table", args=[school["table"].pk])).content.decode()
    assert "Report Card" in page and 'id="report_card-panel"' in page
    # Issue 26: the GM approves the difficulty and any Bonus before the draw; only the GM is
    # offered the approval, and nobody may draw before it.
    assert "the GM approves the difficulty and any Bonus or Penalty before the card is drawn" in page
    approve = reverse("table_command", args=[school["table"].pk, "approve"])
    assert approve not in page and 'data-controller' not in page[page.index("open-check"):page.index("awaiting")]
    gm_page = school["clients"]["gm"].get(reverse("table", args=[school["table"].pk])).content.decode()
    assert approve in gm_page
    before = snapshot(school)
    assert post(school, "ann", "draw", {"character": cid(school["marieta"])})[0] == 400
    assert post(school, "ann", "approve", {"rank": "trivial", "bonus": "1"})[0] == 400
    assert snapshot(school) == before
    assert post(school, "gm", "approve", {"rank": "hard"})[0] == 200
    part = state(school)["check"]["parts"][0]
    assert (part["base_rank"], part["bonus"]) == ("hard", False)
    assert post(school, "ann", "draw", {"character": cid(school["marieta"])})[0] == 200


def test_an_inconsequential_check_can_be_granted_without_a_draw(school) -> None:
    """Seed: for an Inconsequential check the GM "can even skip the check itself and grant
    automatic failure or success"."""
    assert call(school, inconsequential="on", grant="success")[0] == 200
    assert drawn_tokens(school) == [] and not Event.objects.filter(kind="cards.drawn").exists()
    closed = Event.objects.get(table=school["table"], kind="report_card.check_closed")
    assert closed.payload["event"]["outcome"] == "success"


def test_three_corruption_points_let_the_player_choose_a_new_a_plus_and_f(school) -> None:
    """Seed: "When all three of the Corruption Circles are filled, you may gain a new Skill,
    and fail a new skill"."""
    status, body = post(school, "ann", "rechoose", {"character": cid(school["marieta"]), "a_plus": "ART",
                                                    "f_skill": "SCI"})
    assert status == 400 and "0 of 3 now" in body
    services.character_update(character=school["marieta"], actor=school["gm"], name="Marieta",
                              sheet={**MARIETA, "corruption": "3"})
    assert post(school, "bob", "rechoose", {"character": cid(school["marieta"]), "a_plus": "ART",
                                            "f_skill": "SCI"})[0] == 403
    assert post(school, "ann", "rechoose", {"character": cid(school["marieta"]), "a_plus": "ART",
                                            "f_skill": "SCI"})[0] == 200
    school["marieta"].refresh_from_db()
    assert (school["marieta"].sheet["a_plus"], school["marieta"].sheet["f_skill"],
            school["marieta"].sheet["corruption"]) == ("ART", "SCI", 0)


# Refusals


@pytest.mark.parametrize(("who", "command", "data", "status", "says"), [
    ("gm", "call_check", {"skill": "LAW", "rank": "medium", "task": "x"}, 400, "Choose a character"),
    ("gm", "call_check", {"character": "{m}", "skill": "DECEPTION", "rank": "medium", "task": "x"}, 400,
     "is not a skill"),
    ("gm", "call_check", {"character": "{m}", "skill": "LAW", "rank": "tricky", "task": "x"}, 400,
     "is not a difficulty"),
    ("gm", "call_check", {"character": "{m}", "skill": "LAW", "rank": "easy", "task": " "}, 400,
     "Say what the check is for"),
    ("gm", "call_check", {"character": "99999999999999999999", "skill": "LAW", "rank": "easy", "task": "x"}, 400,
     "Choose a character"),
    ("gm", "call_group", {"characters": ["{m}"], "mode": "only_one", "skill": "LAW", "rank": "easy",
                          "task": "x"}, 400, "at least two"),
    ("gm", "call_group", {"characters": ["{m}", "{j}"], "mode": "whoever", "skill": "LAW", "rank": "easy",
                          "task": "x"}, 400, "only one needs to succeed"),
    ("gm", "draw", {"character": "{mc}"}, 400, "No check is open"),
    ("ann", "draw", {}, 400, "Choose a character"),
    ("gm", "pick", {"character": "{mc}", "index": "left"}, 400, "one of the two cards"),
    ("gm", "retry", {"character": "{mc}"}, 400, "No check is open"),
    ("gm", "close", {}, 400, "No check is open"),
    ("watcher", "call_check", {"character": "{m}", "skill": "LAW", "rank": "easy", "task": "x"}, 403, ""),
    ("watcher", "new_day", {}, 403, ""),
    ("ann", "new_day", {}, 400, "Only the GM"),
    ("bob", "call_check", {"character": "{m}", "skill": "LAW", "rank": "easy", "task": "x"}, 403, ""),
])
def test_every_refusal_is_a_4xx_in_the_notice_and_changes_nothing(school, who, command, data, status, says) -> None:
    ids = {"{m}": str(school["marieta"].pk), "{j}": str(school["jo"].pk), "{mc}": cid(school["marieta"])}
    data = {k: ([ids.get(x, x) for x in v] if isinstance(v, list) else ids.get(v, v)) for k, v in data.items()}
    before = snapshot(school)
    got, body = post(school, who, command, data)
    assert got == status, body[:300]
    assert says in body
    if status == 400:
        assert body.startswith('<p id="report_card-notice"') and "'c" not in body
    assert snapshot(school) == before


def test_a_card_is_drawn_only_once_and_out_of_turn_is_refused(school) -> None:
    assert call(school)[0] == 200
    assert post(school, "ann", "pick", {"character": cid(school["marieta"]), "index": "0"})[0] == 400
    assert post(school, "ann", "retry", {"character": cid(school["marieta"])})[0] == 400
    assert post(school, "ann", "draw", {"character": cid(school["marieta"])})[0] == 200
    before = snapshot(school)
    if state(school)["check"] is not None:
        status, body = post(school, "ann", "draw", {"character": cid(school["marieta"])})
        assert status == 400 and "has drawn already" in body
    else:
        status, body = post(school, "ann", "draw", {"character": cid(school["marieta"])})
        assert status == 400 and "No check is open" in body
    still_open = state(school)["check"] is not None
    status, body = call(school, task="another thing")
    assert status == (400 if still_open else 200)
    if still_open:
        assert "still open" in body
        assert snapshot(school) == before


def test_unknown_commands_and_a_closed_route_are_404(school) -> None:
    assert post(school, "gm", "explode")[0] == 404
    url = reverse("table_check", args=[school["table"].pk, "draw"])
    assert school["clients"]["gm"].post(url, {}, **HTMX).status_code == 404


# What everyone sees


def test_every_report_card_event_is_public_and_carries_no_hidden_card(school) -> None:
    """Every card a check draws lies face up: each event goes to everyone. A card a player
    holds stays hidden: nothing of Report Card's lists a deck's contents."""
    deck = deck_of(school, school["marieta"])
    services.pile_deal(deck=deck, actor=school["gm"], count=5, to=[school["ann"]])
    held = list(CardPlacement.objects.filter(deck=deck, pile__kind=PileKind.HAND).values_list("card_id", flat=True))
    call(school, bonus="on")
    post(school, "ann", "draw", {"character": cid(school["marieta"])})
    post(school, "ann", "pick", {"character": cid(school["marieta"]), "index": "0"})
    events = Event.objects.filter(table=school["table"], kind__startswith="report_card.")
    assert events.count() >= 3
    for event in events:
        assert event.audience == "everyone" and not event.private
        text = json.dumps(event.payload)
        # a whole token, not a prefix: "tarot:cups:1" is no part of "tarot:cups:12"
        assert not any(re.search(rf'"{re.escape(h)}(/\w+)?"', text) for h in held), event.kind
    assert set(held).isdisjoint(drawn_tokens(school))


def test_the_odds_page_shows_every_rank_in_a_table_and_a_chart() -> None:
    """Issue 14: "on a page of its own for a fresh deck per rank with and without
    Bonus/Penalty (table and SVG chart)"."""
    page = Client().get(reverse("game_page", args=["report_card", "odds"]) + "?major=17&edge=bonus").content.decode()
    assert "<svg" in page and 'class="seg-critical_success"' in page and "<table" in page
    row = page[page.index('<th scope="row">Medium</th>'):]
    row = row[: row.index("</tr>")]
    cells = re.findall(r"<td>([\d.]+)</td>", row)
    assert len(cells) == 12
    chances = odds.check("medium", own_major="tarot:major:17")
    assert float(cells[1]) == pytest.approx(chances.success * 100, abs=0.05)
    assert '<option value="17" selected>' in page


@pytest.mark.django_db(transaction=True)
async def test_every_step_reaches_a_spectator_live(school, connect) -> None:
    socket = await connect(school["table"], school["watcher"])
    await database_sync_to_async(call)(school, rank="automatic")
    await database_sync_to_async(post)(school, "ann", "draw", {"character": cid(school["marieta"])})
    received = "".join(await socket.until("ends:"))
    # the panel comes with the last line, or after a replay's lines
    received += await socket.seen('id="report_card-panel"')
    assert re.search(r'<section id="report_card-panel"[^>]*hx-swap-oob="true"', received)
    assert re.search(r"comes off Marieta&#(39|x27);s Tarot face up", received)
    assert 'id="deck-counts-' in received
    await socket.close()


def test_odd_forms_to_every_move_are_refused_never_a_500(school) -> None:
    """No request may answer 500: a seeded run of odd values (the new helper rows, whom they
    help, the Day's earlier check, an approval) to every move, from each seat."""
    import random

    from games.report_card import SYSTEM

    rng = random.Random(26)
    junk = ["", " ", "x", "-1", "0", "99999999999", "c1", "c99", "1e3", "trivial", "LAW", "on", "\u00e9\u0000",
            str(school["marieta"].pk), str(school["jo"].pk), cid(school["marieta"]), "a" * 200]
    keys = ["character", "characters", "helper", "helps", "helper_skill", "helper_rank", "helper_task", "same_as",
            "skill", "rank", "task", "mode", "bonus", "penalty", "index", "grant", "hold", "allowed", "a_plus",
            "f_skill", "inconsequential", "repeat"]
    moves = [m.name for m in SYSTEM.commands]
    assert {"approve", "call_check", "call_group"} <= set(moves)
    for _ in range(150):
        chosen = rng.sample(keys, rng.randrange(1, 9))
        form = {k: [rng.choice(junk) for _ in range(rng.randrange(1, 4))] for k in chosen}
        who = rng.choice(["gm", "ann", "watcher"])
        status, body = post(school, who, rng.choice(moves), form)
        assert status < 500, (who, form, body[:300])
    for deck in (deck_of(school, school["marieta"]), deck_of(school, school["jo"])):
        assert_conserved(deck)
