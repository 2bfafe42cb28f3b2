"""Issue 21's findings for Harsh Light, through the routes a player, a spectator and the GM have:
the odds give away no card held face down, an NPC's figures reach the GM alone, the rule deck
cycles through a long session, and the Willpower points the rules keep still flow."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from django.urls import reverse

from games.harsh_light import working as w
from tabletop import services
from tabletop.feed import panels
from tabletop.models import CardPlacement, Event, PileKind, SheetRequest
from tests.integration.test_harsh_light_table import (  # noqa: F401 (hl is a fixture)
    HTMX, bring_out_deck, cid, hl, last, ok, post, state, tens_last,
)


def page(hl: dict[str, Any], who: str) -> str:
    answer = hl["clients"][who].get(reverse("table", args=[hl["table"].pk]))
    assert answer.status_code == 200
    return answer.content.decode()


def export(hl: dict[str, Any], who: str) -> dict[str, Any]:
    answer = hl["clients"][who].get(reverse("export", args=[hl["table"].pk, "json"]))
    assert answer.status_code == 200
    return json.loads(b"".join(answer.streaming_content))


def panel_of(text: str) -> str:
    start = text.index('<section id="harsh_light-panel"')
    return text[start:text.index("</section>", start)]


def odds_shown(text: str) -> list[str]:
    """The odds tables and the deck line of a page's panel, as a player reads them."""
    panel = panel_of(text)
    return re.findall(r'<p class="deck-line small">.*?</p>', panel) + re.findall(r"<table class=\"odds.*?</table>",
                                                                                  panel, re.S)


def test_cards_the_gm_draws_face_down_change_no_count_or_odds_anyone_is_shown(hl) -> None:
    """The project's rule: odds "never from a count that lets a viewer subtract a card held face down".
    Harsh Light published the draw pile's count by value: the forty, less the cards face up, less
    that count, named the cards the GM held."""
    deck = bring_out_deck(hl)
    alfie = hl["alfie"]
    ok(hl, "ann", "set_up_pull", combatant=alfie.pk, attribute="intelligence", skill="academics", modifier="-7")
    before = {who: odds_shown(page(hl, who)) for who in ("ann", "watcher")}
    counted = panels.current(hl["table"], hl["ann"])["deck_left"]  # the deck as the table hands every seat
    assert counted == [4] * 10 and len(before["ann"]) == 2
    answer = hl["clients"]["gm"].post(reverse("deck_action", args=[hl["table"].pk, "draw"]),
                                      {"deck": deck.pk, "count": 5, "to": "hand"}, **HTMX)
    assert answer.status_code == 200  # the GM acts by hand on the rule deck
    assert CardPlacement.objects.filter(deck=deck, pile__kind=PileKind.HAND).count() == 5
    ok(hl, "ann", "set_up_pull", combatant=alfie.pk, attribute="intelligence", skill="academics", modifier="-7")
    assert panels.current(hl["table"], hl["ann"])["deck_left"] == counted
    for who in ("ann", "watcher"):
        assert odds_shown(page(hl, who)) == before[who], who
    assert "40 cards not lying face up: the draw pile and any cards held in hands" in before["ann"][0]
    # the cards pulled lie face up: they, and only they, come off the count
    ok(hl, "ann", "pull", combatant=cid(alfie), set_up="1")
    faces = CardPlacement.objects.filter(deck=deck, pile__kind=PileKind.DISCARD).count()
    assert panels.current(hl["table"], hl["ann"])["deck_count"] == 40 - faces and faces in (1, 2)


# An NPC whose every figure is a number nothing else at this table comes to.
REVENANT = {"strength": 10, "dexterity": 10, "wits": 10, "composure": 9, "resolve": 9, "stamina": 8,
            "skills": "Brawl: 9", "defence": 19, "speed": 77, "willpower": 18, "blood_potency": 6}
# Defence, Speed, Willpower dots and points left, Strength + Brawl and its initiative modifier (19
# both), and what a total comes to from them (initiative, its attack, the contest, the extended
# pull): no figure of Alfie's or Betty's, no card, no count of successes comes to any of these.
SECRET = {"19", "77", "18", "17", *map(str, range(20, 30))}


def numbers(text: str) -> set[str]:
    return set(re.findall(r"(?<![\d.:])\d+(?![\d.:%])", text))


def text_of(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style)\b.*?</\1>", "", markup, flags=re.S)))


# The seed's rules a line's working quotes (working.py), longest first: the seed's own words, the same
# at every table, never a sheet's figure (though one has a number: "(20+ on your test)").
QUOTED = sorted((v for k, v in vars(w).items() if k.isupper() and isinstance(v, str)), key=len, reverse=True)


def unquoted(text: str) -> str:
    """``text`` less the seed's rules it quotes; every step, line and figure stays in."""
    for rule in QUOTED:
        text = text.replace(rule, " ")
    return text


def revenant_lines(markup: str) -> list[str]:
    """Each line of a page's text that names the Revenant, with the lines round it (but the deck's
    count, which may come to anything, and the seed's rules a working quotes)."""
    lines = [" ".join(line.split()) for line in unquoted(text_of(markup)).splitlines()]
    lines = ["" if "not lying face up" in line else line for line in lines]
    return [" ".join(lines[max(0, i - 1):i + 2]) for i, line in enumerate(lines) if "Revenant" in line]


def leaks(blob: Any, r: str) -> list[str]:
    """The figures of combatant ``r`` a payload holds: in what it did (a pull's pool and total, its
    Willpower points, Defence, Speed, Again) or what was done to it (an attack's pool and total
    that met its traits), or its initiative's modifier and total."""
    found: list[str] = []
    if isinstance(blob, dict):
        if blob.get("combatant") == r or (blob.get("target") == r and blob.get("target_figures") != []):
            found += [k for k in ("total", "points_left", "defence", "speed", "again", "figures") if k in blob]
            if isinstance(blob.get("pool"), dict) and "size" in blob["pool"]:
                found.append("pool")
        if isinstance(blob.get(r), dict):
            found += [f"{r}.{k}" for k in ("modifier", "total") if k in blob[r]]
        for value in blob.values():
            found += leaks(value, r)
    elif isinstance(blob, list):
        for value in blob:
            found += leaks(value, r)
    return found


def fight_with_the_revenant(hl: dict[str, Any]) -> Any:
    revenant = services.character_create(table=hl["table"], actor=hl["gm"], name="Revenant", npc=True,
                                         sheet=REVENANT)
    r, alfie, betty = cid(revenant), hl["alfie"], hl["betty"]
    # no pull of Alfie's or Betty's comes to a total as high as the Revenant's figures (SECRET),
    # which a Ten and another card could
    tens_last(hl, bring_out_deck(hl))
    ok(hl, "gm", "roll_initiative", characters=[alfie.pk, betty.pk, revenant.pk])
    for turn in (1, 2):
        for _ in range(3):
            acting = state(hl)["acting"]
            if acting == r and turn == 1:
                ok(hl, "gm", "willpower", combatant=r, use="power")
                ok(hl, "gm", "pull", combatant=r, attribute="strength", skill="brawl", target=alfie.pk,
                   resist="defence", attack="melee")
                ok(hl, "gm", "move", combatant=r)
                # the blow lands (issue 22: Health); healed at once, for this test is about the
                # Revenant's figures, not Alfie's fall
                ok(hl, "gm", "heal", combatant=alfie.pk, points="40")
            elif acting == r:
                ok(hl, "gm", "dodge", combatant=r)
            elif acting == cid(alfie):
                ok(hl, "ann", "set_up_pull", combatant=alfie.pk, attribute="strength", skill="brawl",
                   target=revenant.pk, resist="defence", attack="melee")
                ok(hl, "ann", "pull", combatant=cid(alfie), set_up="1")
            ok(hl, "gm", "end_turn")
    ok(hl, "gm", "end_combat")
    ok(hl, "gm", "contest_start", combatant_a=alfie.pk, attribute_a="resolve", combatant_b=revenant.pk,
       attribute_b="composure", supernatural="1", needed="9")
    ok(hl, "ann", "contest_pull", contest="k1", combatant=alfie.pk)
    ok(hl, "gm", "contest_pull", contest="k1", combatant=revenant.pk)
    ok(hl, "gm", "extended_start", combatant=revenant.pk, attribute="strength", skill="brawl", needed="50")
    ok(hl, "gm", "extended_pull", extended="x2")
    ok(hl, "ann", "set_up_pull", combatant=alfie.pk, attribute="strength", skill="brawl", target=revenant.pk,
       resist="defence", attack="thrown")
    return revenant


def test_an_npc_s_figures_reach_the_gm_alone_in_the_page_and_the_export(hl) -> None:
    """The decided reading: "an NPC's sheet is the GM's unless the GM shows it (a table setting, on by
    default): other seats see its name and what the rules make public (a total, a track) and
    nothing more. Odds that depend on a secret figure are shown to the GM alone." The panel showed
    every seat an NPC's Defence, Willpower and Speed, its pools and odds, and the log its pools."""
    revenant = fight_with_the_revenant(hl)
    for who in ("ann", "watcher"):
        text = page(hl, who)
        card = text[text.index(f'<article id="character-{revenant.pk}"'):]
        card = card[:card.index("</article>")]
        assert "Its sheet is the GM's." in card and not numbers(text_of(card)) & SECRET, who
        lines = revenant_lines(text)
        assert len(lines) > 5 and [line for line in lines if numbers(line) & SECRET] == [], who
        row = re.search(r'<li class="combatant[^"]*" data-combatant="c%d">.*?</li>' % revenant.pk, text, re.S)
        assert row and not numbers(text_of(row.group(0))) & SECRET and "Defence" not in row.group(0), who
        panel = text_of(panel_of(text))
        assert "its other figures are the GM's" in text_of(row.group(0)), who
        assert "The odds depend on Revenant's figures, which are the GM's" in panel, who
        assert "Revenant's pool and its odds are the GM's" in panel, who  # the extended action
        rows = export(hl, who)["events"]
        assert not any(row["kind"] == "harsh_light.sheet_read" or "private" in row for row in rows
                       if row["kind"].startswith("harsh_light.")), who
        r = cid(revenant)
        for row in rows:
            if "Revenant" not in json.dumps(row):
                continue
            assert leaks(row["data"], r) == [], (who, row)
            assert not numbers(row["summary"]) & SECRET, (who, row["summary"])
            if row["kind"].startswith("character."):
                assert '"strength"' not in json.dumps(row["data"]), (who, row)
    # the GM sees every figure: on the page and in the GM's own export
    gm = page(hl, "gm")
    row = re.search(r'<li class="combatant[^"]*" data-combatant="c%d">.*?</li>' % revenant.pk, gm, re.S)
    assert row and "Defence <strong>19</strong>" in row.group(0) and "Willpower 17 of 18" in row.group(0)
    private = [r["private"] for r in export(hl, "gm")["events"] if "private" in r and r["kind"].startswith("harsh_light.")]
    assert any(p.get("figures", {}).get("pool", {}).get("size") == 19 for p in private)  # Strength 10 + Brawl 9
    assert any(p.get("points_left") == 17 for p in private)
    ready = next(p for p in panels.current(hl["table"], hl["gm"])["prepared"] if p["id"] == cid(hl["alfie"]))
    assert ready["odds"] is not None and ready["pool"]["size"] < 0  # Alfie's 7 less the Revenant's Defence


def test_three_hundred_pulls_never_run_the_rule_deck_dry(hl) -> None:
    """The project's rule: "A rule's cards go where the rule says when it is done with them (usually the
    discard), so decks cycle; no rule may dead-end for lack of cards." The GM holds all but three
    cards of the deck, two Tens and a Five, so the draw pile empties every few pulls: each pull,
    extended pull, contest pull and initiative card comes off it, and the discard pile is
    shuffled back in, never with a card a pull still holds."""
    deck = bring_out_deck(hl)
    everything = services.deck_peek(deck=deck, actor=hl["gm"], count=40)
    kept = ["ten:S:10", "ten:H:10", "ten:S:5"]
    services.deck_reorder(deck=deck, actor=hl["gm"], order=[c for c in everything if c not in kept] + kept)
    for count in (20, 17):
        assert hl["clients"]["gm"].post(reverse("deck_action", args=[hl["table"].pk, "draw"]),
                                        {"deck": deck.pk, "count": count, "to": "hand"}, **HTMX).status_code == 200
    alfie, betty = hl["alfie"], hl["betty"]
    weak = {"modifier": "-12"}  # a success needs two Tens: no extended action or contest ends early
    pulls = 0
    while pulls < 300:
        if not any(not x["done"] for x in state(hl)["extended"].values()):
            ok(hl, "gm", "extended_start", combatant=alfie.pk, attribute="wits", needed="50", **weak)
        if not any(not k["done"] for k in state(hl)["contests"].values()):
            ok(hl, "gm", "contest_start", combatant_a=alfie.pk, attribute_a="wits", modifier_a="-12",
               combatant_b=betty.pk, attribute_b="wits", modifier_b="-12", needed="50")
        x = next(x for x in state(hl)["extended"].values() if not x["done"])
        k = next(k for k in state(hl)["contests"].values() if not k["done"])
        step = pulls % 5
        if step == 0:
            ok(hl, "ann", "pull", combatant=alfie.pk, attribute="wits", **weak)
        elif step == 1:
            ok(hl, "ann", "extended_pull", extended=x["id"], combatant=alfie.pk)
        elif step == 2:
            ok(hl, "ann", "contest_pull", contest=k["id"], combatant=alfie.pk)
        elif step == 3:
            ok(hl, "bob", "contest_pull", contest=k["id"], combatant=betty.pk)
        else:
            ok(hl, "gm", "roll_initiative", characters=[alfie.pk, betty.pk])
            ok(hl, "gm", "end_combat")
        pulls += 1
        for record in state(hl)["recent"][-2:]:
            assert len(set(record["cards"])) == len(record["cards"]), record
        placed = CardPlacement.objects.filter(deck=deck)
        assert placed.count() == 40 and placed.filter(pile__kind=PileKind.HAND).count() == 37
        assert not placed.filter(pile__kind=PileKind.PLAY).exists()
    reshuffles = Event.objects.filter(table=hl["table"], summary__contains="shuffled back into").count()
    assert reshuffles > 50


def test_willpower_points_are_the_rules_and_the_gm_s_and_still_flow(hl) -> None:
    """Issue 21: "willpower_points" is kept (SheetField.rules): a spent point goes back on the sheet,
    the player's own sheet edits still save (that field as the rules left it), the player cannot
    restore a point by hand, and the GM can, which the next pull reads."""
    bring_out_deck(hl)
    betty = hl["betty"]
    ok(hl, "bob", "willpower", combatant=betty.pk, use="power")
    betty.refresh_from_db()
    assert betty.sheet["willpower_points"] == 3
    edit = reverse("character_edit", args=[hl["table"].pk, betty.pk])
    form = hl["clients"]["bob"].get(edit).content.decode()
    field = re.search(r'<input[^>]*name="sheet_willpower_points"[^>]*>', form)
    assert field and "disabled" in field.group(0) and 'value="3"' in field.group(0)
    posted = {"name": "Betty", "version": betty.version, "sheet_strength": "3", "sheet_dexterity": "3",
              "sheet_wits": "3", "sheet_resolve": "2", "sheet_composure": "2", "sheet_skills": "Brawl: 3",
              "sheet_again": "10", "sheet_willpower_points": "4"}  # a disabled field posted anyway
    answer = hl["clients"]["bob"].post(edit, posted)
    assert answer.status_code in (200, 302)
    betty.refresh_from_db()  # in play: Brawl 3 waits for the Storyteller (issue 36), Willpower as the rules left it
    assert betty.sheet["skills"] == {"Brawl": 2} and betty.sheet["willpower_points"] == 3
    assert SheetRequest.objects.get(character=betty, status="open").sheet == {"skills": {"Brawl": 3}}
    with pytest.raises(services.NotAllowed, match="Willpower points left is the rules' to change"):
        services.character_update(character=betty, actor=hl["bob"], name="Betty",
                                  sheet={**betty.sheet, "willpower_points": 4})
    services.character_update(character=betty, actor=hl["gm"], name="Betty", sheet={**betty.sheet,
                                                                                    "willpower_points": 1})
    ok(hl, "gm", "end_turn")  # a new turn outside combat: Willpower may be spent again
    ok(hl, "bob", "willpower", combatant=betty.pk, use="power")
    betty.refresh_from_db()
    assert betty.sheet["willpower_points"] == 0 and "0 points left" in last("willpower_spent").summary
    answer = post(hl, "bob", "willpower", combatant=betty.pk, use="power")
    assert answer.status_code == 400 and "already spent a Willpower point this turn" in answer.content.decode()
    # a player making a character starts it full: what they type in the field is not theirs to set
    made = hl["clients"]["ann"].post(reverse("character_new", args=[hl["table"].pk]),
                                     {"name": "Cora", "sheet_resolve": "3", "sheet_composure": "3",
                                      "sheet_again": "10", "sheet_willpower_points": "1"})
    assert made.status_code in (200, 302)
    cora = hl["table"].characters.get(name="Cora")
    assert cora.sheet["willpower_points"] is None and cora.owner_id == hl["ann"].pk
    ok(hl, "ann", "willpower", combatant=cora.pk, use="power")
    cora.refresh_from_db()
    assert cora.sheet["willpower_points"] == 5  # six dots, full, one spent
