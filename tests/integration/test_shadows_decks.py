"""Shadows of Humanity's decks at a table never run dry: the rules put every card back where it
belongs, and every card of the Tarot (56 Minor Arcana and 22 Major Arcana) is conserved.

Seeds README, decided readings: "a rule that needs a card when the draw pile is empty reshuffles
the discard under a new seal (hands stay in hands)"; DESIGN.md: "A rule's cards go where the
rule says when it is done with them (usually the discard), so decks cycle; no rule may dead-end
for lack of cards"."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.shadows import deck as sh_deck
from tabletop.models import CardPlacement, Event, PileKind
from tests.integration.test_shadows_table import (  # noqa: F401 (sh is a fixture)
    BLADE, cid, ok, sh, stack, state,
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
    from tabletop.views import systems

    rng = random.Random(2121)
    monkeypatch.setattr(systems, "system_rng", lambda: rng)  # every shuffle of the evening, seeded
    ok(sh, "gm", "set_weapons", table=BLADE)  # the GM is seated: a guide is drawn at once
    people = (("ann", sh["alma"]), ("bob", sh["bram"]))
    for i in range(60):
        who, character = people[(i // 2) % 2]
        me = cid(character)
        stacked = i < 40
        if stacked:
            stack(sh, ["C13" if i % 2 == 0 else "W1"])  # the GM's own Recall and reorder, logged
        complexity = "mundane" if i % 2 == 0 else "normal"
        ok(sh, who, "prepare_check", character=character.pk, skill="", attribute="mind", complexity=complexity)
        ok(sh, who, "check", combatant=me, prepared="1", cards="1" if stacked else "3")
        held = state(sh)["held"].get(me, [])
        if held and i % 4 == 0:  # every other Queen's card is called on at once
            ok(sh, who, "spend_arcana", combatant=me, card=held[0])
        out = [g for g in state(sh)["guides"] if g["card"] and not g["shown"]]
        if out and i % 6 == 1:
            ok(sh, "gm", "show_guide", guide=str(out[-1]["id"]))
        elif out and i % 6 == 3:
            ok(sh, "gm", "return_guide", guide=str(out[-1]["id"]))
        if i % 15 == 14:
            kept = state(sh)["held"].get(cid(sh["alma"]), [])
            ok(sh, "gm", "end_session", **({f"keep_{sh['alma'].pk}": kept[0]} if kept else {}))
        major_conserved(sh)
        minor_conserved(sh)
    drawn = Event.objects.filter(table=sh["table"], kind="cards.drawn", payload__rule=True)
    assert sum(e.payload["count"] for e in drawn if e.payload["deck"] == sh["major"].pk) >= 40
    assert len(state(sh)["checks"]) == 12  # the panel's last few, every check made
    refills = Event.objects.filter(table=sh["table"], summary__contains="The draw pile ran out")
    assert refills.exists()  # the Minor Arcana's discard came back under a new seal
    assert not Event.objects.filter(table=sh["table"], summary__contains="Not enough cards").exists()
