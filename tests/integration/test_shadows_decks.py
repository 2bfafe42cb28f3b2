"""Shadows of Humanity's decks at a table never run dry: the rules put every card back where it
belongs, and every card of the Tarot (56 Minor Arcana and 22 Major Arcana) is conserved.

Seeds README, decided readings: "a rule that needs a card when the draw pile is empty reshuffles
the discard under a new seal (hands stay in hands)"; the project's rule: "A rule's cards go where the
rule says when it is done with them (usually the discard), so decks cycle; no rule may dead-end
for lack of cards"."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.shadows import deck as sh_deck
from tabletop.models import CardPlacement, Event, PileKind
from tests.integration.test_shadows_table import (  # noqa: F401 (sh is a fixture)
    HTMX, cid, ok, post, session, sh, snapshot, stack, state,
)


def _cards_of(sh: dict[str, Any], which: str) -> list[tuple[str, str, int | None]]:
    return list(CardPlacement.objects.filter(deck=sh[which]).values_list("card_id", "pile__kind", "pile__owner"))


def major_conserved(sh: dict[str, Any]) -> None:
    """All 22 Major Arcana cards, each once; in each member's hand exactly what the rules say
    they hold: a character's kept cards in its player's hand, unshown guides in the GM's."""
    cards = _cards_of(sh, "major")
    assert sorted(c for c, _, _ in cards) == sorted(f"tarot:major:{n}" for n in range(22))
    now = state(sh)
    expected = {sh["ann"].pk: now["held"].get(cid(sh["alma"]), []), sh["bob"].pk: now["held"].get(cid(sh["bram"]), []),
                sh["gm"].pk: [g["card"] for g in now["guides"] if g["card"] and not g["shown"]]}
    for member, tokens in expected.items():
        held = sorted(c for c, kind, owner in cards if kind == PileKind.HAND and owner == member)
        assert held == sorted(sh_deck.bare(t) for t in tokens), member
    assert not [c for c, kind, _ in cards if kind not in (PileKind.DRAW, PileKind.DISCARD, PileKind.HAND)]


def minor_conserved(sh: dict[str, Any]) -> None:
    assert sorted(c for c, _, _ in _cards_of(sh, "minor")) == sorted(sh_deck.minor_tokens())


def test_a_long_evening_of_queens_and_fumbles_never_runs_a_deck_dry(sh, monkeypatch) -> None:
    """Sixty checks, forty of them on a stacked Queen or Ace (a Major Arcana each, 40 > 22), the
    last twenty on whatever comes (60 cards: the Minor Arcana's discard comes back), fate cards
    spent, guides shown, put back or left, and four session ends: no command is refused for lack
    of cards, and every card of the Tarot is conserved after each step. Seed: on a Queen "the
    character can also draw a card from the Major Arcana deck"; on a fumble "the GM draws a
    Major Arcana card, which is then used as a guide"."""
    from tabletop import actions as systems

    rng = random.Random(2121)
    monkeypatch.setattr(systems, "system_rng", lambda: rng)  # every shuffle of the evening, seeded
    people = (("ann", sh["alma"]), ("bob", sh["bram"]))
    assert session(sh, "gm", "open").status_code == 200
    for i in range(60):
        who, character = people[(i // 2) % 2]
        me = cid(character)
        stacked = i < 40
        if stacked:
            stack(sh, ["C13" if i % 2 == 0 else "W1"])  # the GM's own Recall and reorder, logged
        complexity = "mundane" if i % 2 == 0 else "normal"
        ok(sh, who, "prepare_check", character=character.pk, skill="", attribute="mind", complexity=complexity)
        ok(sh, who, "check", combatant=me, prepared="1", cards="1" if stacked else "3")
        for waiting in [g for g in state(sh)["guides"] if g["card"] is None]:
            # a player's fumble: the GM draws its guide at once, or when a card comes back
            drawn = post(sh, "gm", "draw_guide", guide=str(waiting["id"]))
            assert drawn.status_code == 200 or "Every Major Arcana card is out" in drawn.content.decode()
        held = state(sh)["held"].get(me, [])
        if held and i % 4 == 0:  # every other Queen's card is called on at once
            ok(sh, who, "spend_arcana", combatant=me, card=held[0])
            # "pending GM's approval": the GM approves most, refuses some (the card stays held)
            [waiting] = state(sh)["spending"].values()
            ok(sh, "gm", "judge_spend", spend=str(waiting["id"]), verdict="refuse" if i % 12 == 0 else "approve")
        out = [g for g in state(sh)["guides"] if g["card"] and not g["shown"]]
        if out and i % 6 == 1:
            ok(sh, "gm", "show_guide", guide=str(out[-1]["id"]))
        elif out and i % 6 == 3:
            ok(sh, "gm", "return_guide", guide=str(out[-1]["id"]))
        if i % 15 == 14:
            kept = state(sh)["held"].get(cid(sh["alma"]), [])
            closed = session(sh, "gm", "close", **({f"keep_{sh['alma'].pk}": kept[0]} if kept else {}))
            assert closed.status_code == 200, closed.content.decode()[:400]
            assert session(sh, "gm", "open").status_code == 200
        major_conserved(sh)
        minor_conserved(sh)
    drawn = Event.objects.filter(table=sh["table"], kind="cards.drawn", payload__rule=True)
    # into the GM's hand, how many is the GM's (an NPC's hand lies there): in the private part
    assert sum(e.payload.get("count") or e.private["count"] for e in drawn if e.payload["deck"] == sh["major"].pk) >= 40
    assert len(state(sh)["checks"]) == 12  # the panel's last few, every check made
    refills = Event.objects.filter(table=sh["table"], summary__contains="The draw pile ran out")
    assert refills.exists()  # the Minor Arcana's discard came back under a new seal
    assert not Event.objects.filter(table=sh["table"], summary__contains="Not enough cards").exists()


AXE = "Axe | physical | H2 | 3 | swords | muscle | 1 | steel"


def both_conserved(sh: dict[str, Any], second: Any) -> None:
    """Each Minor Arcana's 56 cards, each once; each member's hand pile of each deck is what the
    rules say the hands dealt from that deck hold."""
    fight = state(sh)["combat"]
    for row in (sh["minor"], second):
        cards = list(CardPlacement.objects.filter(deck=row).values_list("card_id", "pile__kind", "pile__owner"))
        assert sorted(c for c, _, _ in cards) == sorted(sh_deck.minor_tokens()), row.name
        for member in (sh["ann"], sh["bob"], sh["gm"]):
            engine = [c for p in fight["combatants"].values() if p["dealt"] and p["holder"] == member.pk
                      and p.get("deck", sh_deck.MINOR) == row.name for c in p["hand"]]
            table = [c for c, kind, owner in cards if kind == PileKind.HAND and owner == member.pk]
            assert sorted(table) == sorted(engine), (row.name, member.display_name)


@pytest.mark.parametrize(("count", "body", "physical"), [(4, 9, 9), (5, 8, 8)])
def test_a_fight_too_big_for_one_minor_arcana_is_offered_a_second_and_plays_through(sh, monkeypatch, count, body,
                                                                                     physical) -> None:
    """Seeds README: "when hands would leave fewer than ten cards to draw, the GM is offered a
    second Minor Arcana for that fight". Four fighters at Body 9 / Physical 9 would take all 56
    cards, five at Body 8 / Physical 8 sixty: the deal waits, saying why, and changes nothing; the
    GM's panel (alone) offers the deck; brought out, it is a rule deck, the deal spreads the hands
    over both, every attack of the round resolves with its H2 damage and any critical drawn, and
    the next round gathers both. No command is refused for lack of cards."""
    from django.urls import reverse

    from tabletop import services
    from tabletop.models import Deck
    from tabletop import actions as systems

    rng = random.Random(count)
    monkeypatch.setattr(systems, "system_rng", lambda: rng)  # the deal's shuffles, seeded
    players = [("ann", sh["ann"]), ("bob", sh["bob"]), ("gm", sh["gm"]), ("gm", sh["gm"]), ("gm", sh["gm"])]
    people = []
    for i in range(count):
        who, member = players[i]
        made = services.character_create(table=sh["table"], actor=member, name=f"Fighter {i + 1}", npc=who == "gm",
                                         sheet={"body": body, "physical": physical, "quickness": 6 - i,
                                                "health": 80, "life": 80})
        people.append((who, made))
    ok(sh, "gm", "set_weapons", table=AXE)
    ok(sh, "gm", "start_combat", characters=[c.pk for _, c in people])
    for who, c in people:
        ok(sh, who, "declare_focus", combatant=cid(c), focus="physical")
    before = snapshot(sh)
    refused = post(sh, "gm", "deal")
    assert refused.status_code == 400 and "bring out a second Minor Arcana for this fight" in refused.content.decode()
    assert snapshot(sh) == before
    page = {who: sh["clients"][who].get(reverse("table", args=[sh["table"].pk])).content.decode() for who in ("gm", "ann")}
    assert 'id="shadows-second-deck"' in page["gm"] and 'id="shadows-second-deck"' not in page["ann"]
    made = sh["clients"]["gm"].post(reverse("deck_create", args=[sh["table"].pk]),
                                    {"kind": "minor_arcana", "name": "Second Minor Arcana"}, **HTMX)
    assert made.status_code == 200
    second = Deck.objects.get(table=sh["table"], name="Second Minor Arcana")
    assert second.rules  # the rules' deck: players' own card verbs are refused on it
    ok(sh, "gm", "deal")
    assert state(sh)["combat"]["decks"] == ["Minor Arcana", "Second Minor Arcana"]
    both_conserved(sh, second)
    order = state(sh)["combat"]["order"]
    by_cid = {cid(c): who for who, c in people}
    resolved = 0
    for i, me in enumerate(order):
        hand = state(sh)["combat"]["combatants"][me]["hand"]
        lead = next((c for c in hand if sh_deck.is_face(c)), next((c for c in hand if sh_deck.value(c) > 3), hand[0]))
        target = order[(i + 1) % len(order)]
        ok(sh, by_cid[me], "attack", combatant=me, target=target, weapon="Axe", cards=[lead])
        if state(sh)["combat"]["pending"]:
            ok(sh, by_cid[target], "defend", combatant=target)
            resolved += 1
        both_conserved(sh, second)
    hits = [e.payload["event"] for e in Event.objects.filter(table=sh["table"], kind="shadows.attack_resolved")]
    assert len(hits) == resolved and all(len(h["modifier"]["cards"]) == 2 for h in hits if h["hit"])
    # a face card against Defence 6 or less and no dodge: a hit and its critical chain, drawn
    assert any(h["chain"] for h in hits)
    ok(sh, "gm", "new_round")
    for row in (sh["minor"], second):
        assert CardPlacement.objects.filter(deck=row, pile__kind=PileKind.DRAW).count() == 56
    assert not Event.objects.filter(table=sh["table"], summary__contains="Not enough cards").exists()
