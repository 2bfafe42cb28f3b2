"""Crowded fights and a whole campaign never lock for lack of cards (the decided
reading for 000: "a fight never locks for lack of cards ... when hands would leave fewer than
ten cards to draw, the GM is offered a second Minor Arcana for that fight"). Reading, where the
README is silent: hands too big for two decks (six fighters at Body 20 / Physical 20 hold 30
cards each, and each hand comes whole from one deck) take a third Minor Arcana and more,
offered the same way."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from games.contract import DeckView, Seat
from games.core.cards_port import StackedCards
from games.core.engine import RuleError
from games.core.fights import winner
from games.shadows import deck
from games.shadows.edges import roster_now
from games.shadows.panel import view
from tests.unit.shadows.kit import ANN_MEMBER, BOB_MEMBER, GM, MAJORS, Table, character, of_type

OWNERS = [ANN_MEMBER, BOB_MEMBER, None, None, None, None]
AXE = {"name": "Axe", "type": "physical", "modifier": "H2", "fumble": 3, "critical": "swords", "modern": False,
       "ap": 1, "material": "steel"}


def every_deck(seed: int, count: int) -> StackedCards:
    rnd = random.Random(seed)
    out = {deck.MAJOR: list(MAJORS)}
    for name in deck.MINORS[:count]:
        tokens = deck.minor_tokens()
        rnd.shuffle(tokens)
        out[name] = tokens
    return StackedCards(out)


def fighter(i: int, **sheet: Any) -> dict[str, Any]:
    return character(f"c{i + 1}", f"F{i + 1}", OWNERS[i], npc=OWNERS[i] is None,
                     **{"quickness": 10, "health": 60, "life": 60, **sheet})


def conserved(table: Table) -> None:
    """Every deck's cards, each once: the draw pile, the discard, the play area or a hand."""
    for name, full in [(n, deck.minor_tokens()) for n in deck.MINORS if n in table.cards.decks] + [
            (deck.MAJOR, list(MAJORS))]:
        out = [tok for (d, tok), w in table.cards._where.items() if d == name and w[2] in ("hand", "play")]
        assert Counter(deck.bare(t) for t in table.cards.decks[name] + table.cards.discards[name] + out) \
            == Counter(full), name


def test_six_fighters_at_the_sheets_maximum_take_more_decks_and_fight() -> None:
    people = [fighter(i, body=20, physical=20) for i in range(6)]
    short = Table(every_deck(1, 2))
    short.send(GM, "start_combat", combatants=people)
    for p in people:
        short.send(GM, "declare_focus", combatant=p["id"], focus="physical")
    with pytest.raises(RuleError, match="bring out a third Minor Arcana"):
        short.send(GM, "deal")
    at_table = tuple(DeckView(name=n) for n in deck.MINORS[:2])
    assert view(short.state, Seat("gm", decks=at_table))["combat"]["next_deck"]["name"] == "Third Minor Arcana"
    assert view(short.state, Seat("player", member=ANN_MEMBER))["combat"]["next_deck"] is None
    table = Table(every_deck(1, len(deck.MINORS)))
    table.send(GM, "start_combat", combatants=people)
    for p in people:
        table.send(GM, "declare_focus", combatant=p["id"], focus="physical")
    dealt = table.send(GM, "deal")
    assert len({e["deck"] for e in dealt}) == 6 and all(e["count"] == 30 for e in dealt)
    conserved(table)


def over(table: Table) -> bool:
    return winner(roster_now(table.state))[0]


def _fight(table: Table, rnd: random.Random, people: list[dict[str, Any]]) -> None:
    """One fight, played as a table would at random: foci, a deal, rounds of attacks (with dodges,
    counters as Active Dodges, checks from the hand), until one side stands alone or five rounds."""
    table.send(GM, "start_combat", combatants=people)
    for _ in range(5):
        fight = table.state["combat"]
        standing = [cid for cid, p in fight["combatants"].items() if not p["fallen"]]
        if len(standing) < 2 or over(table):
            break
        for cid in standing:
            table.send(GM, "declare_focus", combatant=cid, focus=rnd.choice(["physical", "mental", "spiritual"]))
        table.send(GM, "deal")  # never refused: the decks are at the table (the GM brought them out)
        for cid in list(table.state["combat"]["order"]):
            if over(table):  # one side stands: nobody attacks, the GM ends the fight (issue 33)
                break
            me = table.state["combat"]["combatants"][cid]
            foes = [c for c, p in table.state["combat"]["combatants"].items() if c != cid and not p["fallen"]]
            if me["fallen"] or not me["dealt"] or not me["hand"] or not foes or me["ap"] < 1:
                continue
            target = rnd.choice(foes)
            table.send(GM, "attack", combatant=cid, target=target, weapon="Axe", cards=[rnd.choice(me["hand"])])
            if table.state["combat"]["pending"]:
                them = table.state["combat"]["combatants"][target]
                if them["ap"] >= 1 and rnd.random() < 0.3:
                    table.send(GM, "counter", character=target, target=cid, suits=["cups", "wands"])
                cards = them["hand"][:1] if them["hand"] and them["ap"] >= 1 and rnd.random() < 0.5 else []
                table.send(GM, "defend", combatant=target, cards=cards)
            conserved(table)
        if over(table):
            break
        table.send(GM, "new_round")
    table.send(GM, "end_combat")
    conserved(table)


def test_a_seeded_campaign_of_sessions_and_twenty_four_fights_never_locks_and_conserves_every_card() -> None:
    """Four sessions; between fights, checks (Queens earn fate cards, fumbles guides), fate cards
    called on and approved or refused, opposed actions; twenty-four fights of two to six, some at
    the sheet's maximum figures: no refusal for lack of cards, and every card conserved."""
    rnd = random.Random(2525)
    table = Table(every_deck(25, len(deck.MINORS)))
    table.send(GM, "set_weapons", weapons=[AXE])
    fights = 0
    for session in range(4):
        for _ in range(6):
            n = rnd.randint(2, 6)
            big = rnd.random() < 0.3
            people = [fighter(i, body=20 if big else rnd.randint(2, 12), physical=20 if big else rnd.randint(2, 12),
                              mind=rnd.randint(2, 12), mental=rnd.randint(2, 12), spirit=rnd.randint(2, 12),
                              emotional=rnd.randint(2, 12), quickness=rnd.randint(2, 16)) for i in range(n)]
            _fight(table, rnd, people)
            fights += 1
            for _ in range(4):
                who = fighter(rnd.randint(0, 5))
                events = table.send(GM, "check", character=who, skill="", attribute="mind",
                                    complexity=rnd.choice(["mundane", "normal", "absurd"]), cards=rnd.choice([1, 3]))
                for guide in of_type(events, "guide_drawn"):
                    table.send(GM, rnd.choice(["show_guide", "return_guide"]), guide=str(guide["id"]))
                conserved(table)
            for cid, held in list(table.state["held"].items()):
                if held and rnd.random() < 0.5:
                    [spent] = table.send(GM, "spend_arcana", combatant=cid, card=held[0])
                    table.send(GM, "judge_spend", spend=spent["id"], verdict=rnd.choice(["approve", "refuse"]))
            table.send(GM, "opposed", sides=[{"character": fighter(0), "skill": "", "attribute": "mind"},
                                             {"character": fighter(1), "skill": "", "attribute": "mind"},
                                             {"character": fighter(2), "skill": "", "attribute": "mind"}])
            conserved(table)
        keep = {cid: held[0] for cid, held in table.state["held"].items() if held}
        table.close_session(keep=dict(list(keep.items())[:1]))
        conserved(table)
        assert sum(len(h) for h in table.state["held"].values()) <= 1
    assert fights == 24
