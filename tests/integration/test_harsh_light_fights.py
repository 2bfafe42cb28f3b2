"""Harsh Light's fights that end (issue 22), through the routes as the page posts them: what a pull
is headed with, Health on the character card and the panel for every seat, harm and healing by the
Storyteller, and an NPC's track everyone watches while its other figures stay the GM's.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.harsh_light import DECK
from tabletop import services
from tabletop.models import Character, Event, ProcedureState, Role
from tabletop.selectors import combatant_id, procedure_state

HTMX = {"HTTP_HX_REQUEST": "true"}
NOTICE = 'id="harsh_light-notice"'
# Every field the page's pull form sends, as it sends them untouched: the attack kind's select
# holds "melee" whether or not the pull is an attack.
FORM = {"modifier": "0", "reason": "", "needed": "1", "action": "instant", "label": "", "target": "",
        "resist": "defence", "attack": "melee", "again": "", "skill": "", "weapon": "", "damage_bonus": "0",
        "damage": ""}


@pytest.fixture
def hl(db) -> dict[str, Any]:
    users = get_user_model()
    table = services.table_create(gm=users.objects.create_user("st22", password="a long gm password 1"),
                                  name="Harsh Light", system="harsh_light")
    gm = table.members.select_related("user").get(role=Role.GM)
    ann, bob = (services.membership_join(table=table, user=services.guest_user_create(), role=Role.PLAYER,
                                         display_name=name) for name in ("Ann", "Bob"))
    watcher = services.membership_join(table=table, user=services.guest_user_create(), role=Role.SPECTATOR)
    alfie = services.character_create(table=table, actor=ann, name="Alfie", sheet={
        "strength": 4, "dexterity": 3, "wits": 2, "stamina": 2, "composure": 2, "skills": "Brawl: 3",
        "weapon": "Knife", "weapon_damage": 1})
    betty = services.character_create(table=table, actor=bob, name="Betty", sheet={
        "strength": 3, "dexterity": 3, "wits": 3, "composure": 2, "skills": "Brawl: 2"})
    ghoul = services.character_create(table=table, actor=gm, name="Ghoul", npc=True, sheet={
        "strength": 3, "dexterity": 3, "wits": 3, "stamina": 3, "skills": "Brawl: 2", "weapon": "Zqxv cleaver",
        "weapon_damage": 2})
    clients = {}
    for who, member in (("gm", gm), ("ann", ann), ("bob", bob), ("watcher", watcher)):
        clients[who] = Client()
        clients[who].force_login(member.user)
    answer = clients["gm"].post(reverse("deck_create", args=[table.pk]), {"kind": "ten_value", "name": DECK}, **HTMX)
    assert answer.status_code == 200
    return {"table": table, "gm": gm, "ann": ann, "bob": bob, "watcher": watcher, "alfie": alfie,
            "betty": betty, "ghoul": ghoul, "clients": clients}


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


def page(hl, who: str) -> str:
    return html.unescape(hl["clients"][who].get(reverse("table", args=[hl["table"].pk])).content.decode())


def last(kind: str) -> Event:
    return Event.objects.filter(kind=f"harsh_light.{kind}").order_by("-seq").first()


def state(hl) -> dict[str, Any]:
    return ProcedureState.objects.get(table=hl["table"]).state


def cid(character: Character) -> str:
    return combatant_id(character)


def heading(text: str) -> str:
    found = re.search(r'<h3 id="prepared-c\d+-h">(.*?)</h3>', text, re.S)
    assert found, text
    return re.sub(r"<[^>]+>", "", found.group(1))


# 3. Only an attack says its attack kind.


def test_a_pull_that_is_no_attack_is_not_headed_in_melee(hl) -> None:
    """The page's form always sends the attack kind's select ("melee"); a plain pull, or one
    resisted by Composure, is no attack (seed: "Nearly all attack rolls will be resisted by
    Defence"): its heading, its log lines and the pull made say nothing of melee."""
    ok(hl, "ann", "set_up_pull", **FORM, combatant=hl["alfie"].pk, attribute="wits")
    for who in ("gm", "ann", "watcher"):
        assert heading(page(hl, who)) == "Alfie is about to pull: a pull"
    assert last("pull_set_up").summary.startswith("Alfie sets up a pull: pool 2 (Wits 2)")
    ok(hl, "ann", "pull", combatant=cid(hl["alfie"]), set_up="1")
    assert "melee" not in last("pulled").summary and last("pulled").summary.startswith("Alfie pulls Wits: ")

    ok(hl, "ann", "set_up_pull", **{**FORM, "target": str(hl["betty"].pk), "resist": "composure"},
       combatant=hl["alfie"].pk, attribute="presence")
    for who in ("gm", "ann", "bob", "watcher"):
        assert heading(page(hl, who)) == "Alfie is about to pull: a pull against Betty"
    assert "melee" not in last("pull_set_up").summary and "an attack" not in last("pull_set_up").summary
    ok(hl, "ann", "pull", combatant=cid(hl["alfie"]), set_up="1")
    assert "melee" not in last("pulled").summary

    # An attack still says so.
    ok(hl, "ann", "set_up_pull", **{**FORM, "target": str(hl["betty"].pk), "skill": "brawl"},
       combatant=hl["alfie"].pk, attribute="strength")
    assert heading(page(hl, "bob")) == "Alfie is about to pull: an attack against Betty, in melee"
    assert "sets up an attack against Betty" in last("pull_set_up").summary


# 1. Health: a fight that ends.


def stack(hl, *values: int) -> None:
    """The GM lays cards of these values on top of the Harsh Light deck, in order."""
    deck = hl["table"].decks.get(name=DECK)
    cards = services.deck_peek(deck=deck, actor=hl["gm"], count=40)
    top: list[str] = []
    for v in values:
        top.append(next(c for c in cards if c.endswith(f":{v}") and c not in top))
    services.deck_reorder(deck=deck, actor=hl["gm"], order=top + [c for c in cards if c not in top])


def attack(hl, who: str, attacker: Character, target: Character, **form: str) -> None:
    ok(hl, who, "set_up_pull", **{**FORM, "target": str(target.pk), "skill": "brawl", **form},
       combatant=attacker.pk, attribute="strength")
    ok(hl, who, "pull", combatant=cid(attacker), set_up="1")


def card_of(text: str, character: Character) -> str:
    card = text[text.index(f'<article id="character-{character.pk}"'):]
    return card[:card.index("</article>")]


def row_of(text: str, character: Character) -> str:
    found = re.search(r'<li class="combatant[^"]*" data-combatant="%s">.*?</li>' % cid(character), text, re.S)
    assert found, text
    return found.group(0)


def test_a_hit_marks_the_target_s_health_on_every_seat_s_card_and_panel(hl) -> None:
    """Issue 22: damage "equal to the attack's successes (plus a weapon's damage bonus where the
    sheet gives one)", lethal for weapons; Health on the character card and on the panel."""
    stack(hl, 9)
    attack(hl, "ann", hl["alfie"], hl["betty"], weapon="sheet")  # 4 + 3 - Defence 3 + 9 = 13: 2, + Knife 1
    hl["betty"].refresh_from_db()
    assert {k: hl["betty"].sheet[k] for k in ("bashing", "lethal", "aggravated")} == \
        {"bashing": 0, "lethal": 3, "aggravated": 0}
    assert last("damaged").summary == ("Betty takes 3 lethal from Alfie's attack (2 successes, Knife +1): "
                                       "Health X X X · · · (3 lethal of 6).")  # Stamina 1 + Size 5
    assert last("damaged").audience == "everyone"
    for who in ("gm", "ann", "bob", "watcher"):
        text = page(hl, who)
        card = card_of(text, hl["betty"])
        assert 'aria-label="Health 3 of 6"' in card and "X X X · · ·" in card, who
        assert "Health: 3 lethal of 6." in row_of(text, hl["betty"]), who
        assert "→ 3 lethal to Betty" in re.sub(r"<[^>]+>", "", text), who


def test_an_npc_s_health_is_everyone_s_and_its_other_figures_the_gm_s(hl) -> None:
    """Issue 22: "show an NPC's Health track to all while keeping its other figures the GM's"."""
    stack(hl, 9)
    attack(hl, "ann", hl["alfie"], hl["ghoul"])  # unarmed: 4 + 3 - 3 + 9 = 13, 2 bashing
    for who in ("ann", "bob", "watcher"):
        text = page(hl, who)
        card = card_of(text, hl["ghoul"])
        assert 'aria-label="Health 6 of 8"' in card and "/ / · · · · · ·" in card, who
        assert "Its sheet is the GM's." in card and "Defence" not in card and "Willpower" not in card, who
        row = row_of(text, hl["ghoul"])
        assert "Health: 2 bashing of 8." in row and "its other figures are the GM's" in row, who
    gm = card_of(page(hl, "gm"), hl["ghoul"])
    assert "Defence" in gm and "Zqxv cleaver +2" in gm


def test_an_npc_s_weapon_is_the_gm_s_though_its_blow_is_everyone_s(hl) -> None:
    stack(hl, 9)
    attack(hl, "gm", hl["ghoul"], hl["alfie"], weapon="sheet")  # 3 + 2 - 2 + 9 = 12: 2, + the cleaver's 2
    hit = last("damaged")
    assert hit.summary == ("Alfie takes 4 lethal from Ghoul's attack (2 successes, more from its weapon, the GM's "
                           "figure): Health X X X X · · · (4 lethal of 7).")
    assert "weapon" not in hit.payload["event"] and hit.private["weapon"]["name"] == "Zqxv cleaver"
    for who in ("ann", "bob", "watcher"):
        assert "Zqxv" not in page(hl, who), who
        answer = hl["clients"][who].get(reverse("export", args=[hl["table"].pk, "json"]))
        exported = b"".join(answer.streaming_content).decode()
        assert "Zqxv" not in exported and "4 lethal from Ghoul" in exported, who
    assert "(GM: Zqxv cleaver +2.)" in page(hl, "gm")


def test_the_wounds_are_the_rules_and_the_gm_s_to_change(hl) -> None:
    """Issue 22: "Health is a rule-owned sheet field ("kept")"."""
    alfie = hl["alfie"]
    with pytest.raises(services.NotAllowed, match="Lethal wounds is the rules"):
        services.character_update(character=alfie, actor=hl["ann"], name="Alfie", sheet={**alfie.sheet, "lethal": 3})
    with pytest.raises(services.NotAllowed, match="Unconscious is the rules"):
        services.character_update(character=alfie, actor=hl["ann"], name="Alfie",
                                  sheet={**alfie.sheet, "unconscious": True})
    # before play, Size is the player's within what a new character may have (a grown human is 5)
    services.character_update(character=alfie, actor=hl["ann"], name="Alfie", sheet={**alfie.sheet, "size": 4})
    alfie.refresh_from_db()
    services.character_update(character=alfie, actor=hl["gm"], name="Alfie", sheet={**alfie.sheet, "lethal": 2})
    alfie.refresh_from_db()
    assert alfie.sheet["lethal"] == 2 and alfie.sheet["size"] == 4


def test_the_storyteller_harms_and_heals_and_nobody_else_does(hl) -> None:
    betty = hl["betty"]
    answer = post(hl, "bob", "harm", combatant=betty.pk, points="2", kind="bashing")
    assert answer.status_code == 400 and "Only the GM can deal harm" in html.unescape(answer.content.decode())
    assert post(hl, "watcher", "heal", combatant=betty.pk, points="1").status_code == 403
    ok(hl, "gm", "harm", combatant=betty.pk, points="3", kind="", reason="a fall")
    assert last("damaged").summary == ("The Storyteller deals Betty 3 lethal (a fall): "
                                       "Health X X X · · · (3 lethal of 6).")
    answer = post(hl, "gm", "heal", combatant=betty.pk, points="1", kind="aggravated")
    assert answer.status_code == 400 and "Betty has no aggravated wounds to heal" in html.unescape(
        answer.content.decode())
    ok(hl, "gm", "heal", combatant=betty.pk, points="1", kind="")
    betty.refresh_from_db()
    assert betty.sheet["lethal"] == 2
    assert last("healed").summary.startswith("The Storyteller heals 1 box of Betty's wounds: Health X X ·")


def test_an_unconscious_character_is_offered_nothing_and_its_turn_passes(hl) -> None:
    """Issue 22: "a character unconscious or dead takes no turn and is not offered actions (the GM
    may still correct the track)"; the rulebook's Stamina roll when bashing fills the last box."""
    betty = hl["betty"]
    stack(hl, 1)  # Betty's Stamina 1 and an Ace: 2, no success
    ok(hl, "gm", "harm", combatant=betty.pk, points="6", kind="bashing", reason="a beating")
    assert last("consciousness_pulled").summary.endswith("Betty falls unconscious.")
    ok(hl, "gm", "set_order", order=[hl["alfie"].pk, betty.pk, hl["ghoul"].pk])
    ok(hl, "ann", "end_turn", combatant=cid(hl["alfie"]))
    assert state(hl)["acting"] == cid(hl["ghoul"])
    assert last("turn_ended").summary == "Betty is unconscious: no action. Ghoul acts."
    text = page(hl, "bob")
    assert "Set up a pull for Betty" not in text and "for Betty</span></button>" not in text
    row = row_of(text, betty)
    assert 'class="combatant is-out"' in row and "unconscious" in row and "<button" not in row
    for who in ("gm", "ann", "bob", "watcher"):
        card = card_of(page(hl, who), betty)
        assert "character is-out" in card and '<span class="tag">Unconscious</span>' in card, who
    answer = post(hl, "bob", "willpower", combatant=betty.pk, use="resist")
    assert answer.status_code == 400 and "Betty is unconscious: no Willpower" in html.unescape(
        answer.content.decode())
    ok(hl, "gm", "heal", combatant=betty.pk, points="1")  # the GM still corrects the track: she comes to
    assert "Betty comes to." in last("healed").summary
    assert "Set up a pull for Betty" in page(hl, "bob")


def test_a_defender_spends_willpower_when_attacked_from_its_own_panel(hl) -> None:
    """Seed: "spending a Willpower for +2 Defence can be a lifesaver in emergencies". Alfie's
    attack on Betty waits: Bob alone is offered the point on his page (the GM may move on; Ann
    and a spectator are offered neither), Bob spends it, and the pull meets Defence + 2."""
    alfie, betty = hl["alfie"], hl["betty"]
    ok(hl, "gm", "set_order", order=[alfie.pk, betty.pk])
    stack(hl, 6)
    ok(hl, "ann", "set_up_pull", **{**FORM, "target": str(betty.pk), "skill": "brawl"},
       combatant=alfie.pk, attribute="strength")
    ok(hl, "ann", "pull", hold=True, combatant=cid(alfie), set_up="1")
    assert state(hl)["reaction"]["target"] == cid(betty) and last("pulled") is None
    spend, move_on = "Spend Willpower: +2 Defence", "Move on: pull without Betty's Willpower"
    texts = {who: page(hl, who) for who in ("gm", "ann", "bob", "watcher")}
    assert spend in texts["bob"] and move_on not in texts["bob"]
    assert move_on in texts["gm"] and spend not in texts["gm"]
    assert spend not in texts["ann"] + texts["watcher"] and move_on not in texts["ann"] + texts["watcher"]
    assert "Betty may answer before the card" in texts["watcher"]
    refused = post(hl, "ann", "answer", combatant=betty.pk, willpower="1")
    assert refused.status_code == 403
    ok(hl, "bob", "answer", combatant=betty.pk, willpower="1")
    record = state(hl)["recent"][-1]
    assert record["pool"]["parts"][-2:] == [["Betty's Defence", -3], ["Betty's Willpower", -2]]
    betty.refresh_from_db()
    assert betty.sheet["willpower_points"] == 2 and state(hl)["reaction"] is None  # of Resolve 1 + Composure 2
    assert last("reaction_answered").summary == "Betty answers Alfie's pull with Willpower: +2 Defence."


def test_a_player_is_offered_the_listed_reflexive_kinds_and_the_storyteller_the_call(hl) -> None:
    """Seed: "Reflexive: ... Examples include talking, activating simple powers, or resisting an
    opponent's power": a player's pull form offers those; "reflexive" itself is the Storyteller's
    call, offered to the GM alone and refused from a player."""
    call = "reflexive: the Storyteller's call"
    assert call in page(hl, "gm") and "reflexive: talking" in page(hl, "ann")
    assert call not in page(hl, "ann") and call not in page(hl, "bob")
    answer = post(hl, "ann", "set_up_pull", **{**FORM, "action": "reflexive"}, combatant=hl["alfie"].pk, attribute="wits")
    assert answer.status_code == 400 and "the Storyteller's call" in html.unescape(answer.content.decode())


def test_the_storyteller_s_options_are_on_the_panel(hl) -> None:
    """The decided reading: the untrained penalty "is a table option the Storyteller turns on, off by
    default"; an extended action's "limit of pulls and whether a Dramatic Failure loses the
    successes gathered" are set when it starts; its pulls and a contest's take the choices a simple
    pull has; a plain number resists a pull from the pull form."""
    alfie, betty = hl["alfie"], hl["betty"]
    gm = page(hl, "gm")
    assert 'aria-label="The table\'s options"' in gm and 'name="limit"' in gm and 'name="lose"' in gm
    assert 'name="resist_value"' in page(hl, "ann") and "The table's options" not in page(hl, "ann")
    ok(hl, "gm", "set_options", untrained="1")
    assert "The Storyteller's option: an untrained Skill costs" in page(hl, "watcher")
    ok(hl, "ann", "pull", **{**FORM, "resist_value": "2", "skill": "occult"}, combatant=alfie.pk, attribute="wits")
    assert state(hl)["recent"][-1]["pool"]["parts"][-2:] == [["untrained Mental Skill", -3], ["resistance", -2]]
    ok(hl, "gm", "extended_start", combatant=alfie.pk, attribute="wits", needed="5", limit="2", lose="1",
       label="the safe", unit="turn", modifier="0")
    assert state(hl)["extended"]["x1"]["limit"] == 2 and state(hl)["extended"]["x1"]["lose"] is True
    text = page(hl, "ann")
    assert "at most 2 pulls (0 made); a Dramatic Failure loses the successes gathered" in text
    assert "This pull: a modifier, again, an automatic success" in text
    ok(hl, "gm", "contest_start", combatant_a=alfie.pk, attribute_a="wits", combatant_b=betty.pk,
       attribute_b="wits", modifier_a="0", modifier_b="0", needed="")
    ok(hl, "bob", "contest_pull", contest="k2", combatant=betty.pk, modifier="-1", reason="dazzled")
    assert state(hl)["contests"]["k2"]["pulled"][cid(betty)]["pool"]["parts"][-1] == ["dazzled", -1]


def test_a_card_moved_by_hand_changes_the_pool_odds_at_once(hl) -> None:
    """The issue: "a draw, recall or shuffle made through the cards panel updates the pool odds at
    once": the GM draws three 10s face up by hand; the card event carries every seat's panel,
    whose odds count the 37 cards left, without "Count the deck again"."""
    from games.harsh_light import odds
    from tests.support.frames import envelope_of, logged

    alfie = hl["alfie"]
    ok(hl, "ann", "set_up_pull", **{**FORM, "skill": "academics", "modifier": "5"}, combatant=alfie.pk,
       attribute="wits")
    stack(hl, 10, 10, 10)
    with logged() as events:
        services.pile_draw(deck=hl["table"].decks.get(name=DECK), actor=hl["gm"], count=3, to="play")
    [drawn] = [e for e in events if e.kind == "cards.drawn"]
    views = list(envelope_of(drawn).redraw.views.values())
    left = odds.Counted((4,) * 9 + (1,))
    expected = odds.percent(odds.exact_from_counts(7, left.counts).exceptional)
    assert {v["deck_count"] for v in views} == {37} and len(views) == 4
    assert {v["prepared"][0]["odds"]["exceptional"] for v in views} == {expected}
    assert expected != odds.percent(odds.pull_exact(7).exceptional)
