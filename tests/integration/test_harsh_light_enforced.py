"""Issue 21's findings for Harsh Light, through the routes a player, a spectator and the GM have:
the odds give away no card held face down, and the rule deck cycles through a long session."""

from __future__ import annotations

import re
from typing import Any

from django.urls import reverse

from tabletop import services
from tabletop.models import CardPlacement, Event, PileKind
from tests.integration.test_harsh_light_table import (  # noqa: F401 (hl is a fixture)
    HTMX, bring_out_deck, cid, hl, last, ok, state,
)


def page(hl: dict[str, Any], who: str) -> str:
    answer = hl["clients"][who].get(reverse("table", args=[hl["table"].pk]))
    assert answer.status_code == 200
    return answer.content.decode()


def panel_of(text: str) -> str:
    start = text.index('<section id="harsh_light-panel"')
    return text[start:text.index("</section>", start)]


def odds_shown(text: str) -> list[str]:
    """The odds tables and the deck line of a page's panel, as a player reads them."""
    panel = panel_of(text)
    return re.findall(r'<p class="deck-line small">.*?</p>', panel) + re.findall(r"<table class=\"odds.*?</table>",
                                                                                  panel, re.S)


def test_cards_the_gm_draws_face_down_change_no_count_or_odds_anyone_is_shown(hl) -> None:
    """DESIGN.md: odds "never from a count that lets a viewer subtract a card held face down".
    Harsh Light published the draw pile's count by value: the forty, less the cards face up, less
    that count, named the cards the GM held."""
    deck = bring_out_deck(hl)
    alfie = hl["alfie"]
    ok(hl, "ann", "set_up_pull", combatant=alfie.pk, attribute="intelligence", skill="academics", modifier="-7")
    before = {who: odds_shown(page(hl, who)) for who in ("ann", "watcher")}
    counted = last("deck_counted").payload["event"]["deck_left"]
    assert counted == [4] * 10 and len(before["ann"]) == 2
    answer = hl["clients"]["gm"].post(reverse("deck_action", args=[hl["table"].pk, "draw"]),
                                      {"deck": deck.pk, "count": 5, "to": "hand"}, **HTMX)
    assert answer.status_code == 200  # the GM acts by hand on the rule deck
    assert CardPlacement.objects.filter(deck=deck, pile__kind=PileKind.HAND).count() == 5
    ok(hl, "gm", "count_deck")
    ok(hl, "ann", "set_up_pull", combatant=alfie.pk, attribute="intelligence", skill="academics", modifier="-7")
    assert last("deck_counted").payload["event"]["deck_left"] == counted
    assert state(hl)["deck_left"] == counted
    for who in ("ann", "watcher"):
        assert odds_shown(page(hl, who)) == before[who], who
    assert "40 cards not lying face up: the draw pile and any cards held in hands" in before["ann"][0]
    # the cards pulled lie face up: they, and only they, come off the count
    ok(hl, "ann", "pull", combatant=cid(alfie), set_up="1")
    faces = CardPlacement.objects.filter(deck=deck, pile__kind=PileKind.DISCARD).count()
    assert sum(state(hl)["deck_left"]) == 40 - faces and faces in (1, 2)


def test_three_hundred_pulls_never_run_the_rule_deck_dry(hl) -> None:
    """DESIGN.md: "A rule's cards go where the rule says when it is done with them (usually the
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
            ok(hl, "ann", "extended_pull", extended=x["id"])
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
