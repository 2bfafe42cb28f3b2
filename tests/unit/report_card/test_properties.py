"""Property tests over random sequences of checks with stacked, shuffled decks.

Issue 14: "Hypothesis: over random check sequences, every card is in exactly one place and
each deck's draw + discard + play counts stay 78." Issue 21: nobody tidies the play area any
more; the rules put each card they are done with on its deck's discard pile, so only the open
check's cards lie face up, and a long sequence never runs a deck dry.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.contract import SPECTATOR_SEAT
from games.core.cards import orient, tarot
from games.core.cards_port import StackedCards
from games.core.engine import RuleError
from games.report_card import ENGINE
from games.report_card.draws import deck_title, on_the_table
from games.report_card.panel import view
from games.report_card.rules import RANKS
from games.report_card.skills import SKILL
from games.report_card.state import drawable, last, status
from tests.unit.report_card.conftest import Table
from tests.unit.report_card.helpers import GM, player, report

PEOPLE = {"c1": report("Marieta", 7, corruption=2), "c2": report("Jo", 8, abilities=("wise",), a_plus="LAW",
                                                                  f_skill="ART", major=10),
          "c3": report("Unclaimed", None, abilities=("strong",), a_plus="GYM", f_skill="SCI", major=16)}
ACTORS = {"c1": player(7, "c1"), "c2": player(8, "c2"), "c3": GM}
DECKS = {cid: deck_title(person["name"]) for cid, person in PEOPLE.items()}
FULL = sorted(c.id for c in tarot())


class Tabled:
    """Stacked decks plus the play area, followed from the port's moves, so each card's place is
    known."""

    def __init__(self, seed: int) -> None:
        rng = random.Random(seed)
        decks = {}
        for cid in PEOPLE:
            cards = tarot()
            rng.shuffle(cards)
            decks[DECKS[cid]] = [c.token for c in orient(cards, rng)]
        self.cards = StackedCards(decks)
        self.play: dict[str, list[str]] = {name: [] for name in decks}
        self.seen = 0

    def note(self) -> None:
        for deck, token, where, _ in self.cards.placed[self.seen:]:
            assert where in ("play", "discard")  # a check draws face up; the rules discard
            if where == "play":
                self.play[deck].append(token)
            else:
                self.play[deck].remove(token)
        self.seen = len(self.cards.placed)

    def assert_conserved(self) -> None:
        for deck, pile in self.cards.decks.items():
            places = [pile, self.cards.discards[deck], self.play[deck]]
            ids = [t.split("/")[0] for where in places for t in where]
            assert sum(map(len, places)) == 78
            assert sorted(ids) == FULL  # every card in exactly one place

    def assert_only_the_open_check_lies_face_up(self, state: dict[str, Any]) -> None:
        """The play area holds the open check's cards still in use, and nothing else."""
        check = state["check"]
        expected = Counter((DECKS[p["cid"]], t) for p in (check["parts"] if check else ())
                           for t in on_the_table(last(p)))
        assert Counter((d, t) for d, tokens in self.play.items() for t in tokens) == expected


def command(data: st.DataObject, state: dict[str, Any],
            people: dict[str, dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A command that may or may not be allowed, and who sends it."""
    check = state["check"]
    pick = lambda s: data.draw(st.sampled_from(s))  # noqa: E731
    if check is None:
        kind = pick(["call_check", "call_check", "call_group", "new_day", "help"])
        base = {"skill": pick(list(SKILL)), "rank": pick(RANKS), "task": pick(["door", "room", "lever", "file"]),
                "repeat": data.draw(st.booleans()), "hold": data.draw(st.booleans())}
        if kind == "call_check":
            return {"type": kind, "character": pick(list(PEOPLE)), "bonus": data.draw(st.booleans()),
                    "penalty": data.draw(st.booleans()), **base}, GM
        if kind == "help":
            main, helper = data.draw(st.permutations(list(PEOPLE)))[:2]
            return {"type": "call_check", "character": main, "helper": helper, "helper_skill": pick(list(SKILL)),
                    "helper_rank": pick(RANKS), "bonus": data.draw(st.booleans()), **base}, GM
        if kind == "call_group":
            members = data.draw(st.lists(st.sampled_from(list(PEOPLE)), min_size=2, max_size=3, unique=True))
            return {"type": kind, "mode": pick(["only_one", "everyone"]), "characters": members,
                    "bonus": data.draw(st.lists(st.sampled_from(members), max_size=2)),
                    "penalty": data.draw(st.lists(st.sampled_from(members), max_size=2)), **base}, GM
        return {"type": "new_day"}, GM
    part = pick(check["parts"])
    cid = part["cid"]
    kind = pick(["draw", "draw", "pick", "retry", "accept", "retry", "close", "rechoose"])
    actor = pick([ACTORS[cid], GM])
    if kind == "pick":
        return {"type": kind, "character": cid, "index": pick([0, 1])}, actor
    if kind == "rechoose":
        return {"type": kind, "character": cid, "a_plus": people[cid]["a_plus"], "f_skill": pick(list(SKILL))}, actor
    return {"type": kind, "character": cid}, actor if kind != "close" else GM


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), data=st.data(), steps=st.integers(1, 40))
def test_every_card_stays_in_exactly_one_place(seed: int, data: st.DataObject, steps: int) -> None:
    table = Tabled(seed)
    # the sheets, as written back
    played = Table({cid: dict(person) for cid, person in PEOPLE.items()}, auto_draw=False)
    played.cards = table.cards
    for _ in range(steps):
        sent, actor = command(data, played.state, played.people)
        before = len(table.cards.placed)
        try:
            events = played.send(sent, actor)
        except RuleError:
            assert len(table.cards.placed) == before, "a refusal drew a card"
            continue
        state = played.state
        assert all(played.lines[-len(events):])
        table.note()
        table.assert_conserved()
        table.assert_only_the_open_check_lies_face_up(state)
        # every card a step drew is in its events, in the order it came off, and nothing else
        drawn = [(e["deck"], t) for e in events if e["type"] == "drawn"
                 for t in [d["card"] for d in e["attempt"]["draws"]]
                 + [d["second"] for d in e["attempt"]["draws"] if d["second"]]]
        assert Counter(drawn) == Counter((d, t) for d, t, to, _ in table.cards.placed[before:] if to == "play")
        # and every card the rules put on a discard pile is named in them too
        thrown = [(DECKS[e["cid"]], t) for e in events if e["type"] in ("drawn", "picked")
                  for t in e.get("discarded", ())]
        thrown += [(DECKS[cid], t) for e in events if e["type"] == "check_closed"
                   for cid, tokens in e.get("discarded", {}).items() for t in tokens]
        assert Counter(thrown) == Counter((d, t) for d, t, to, _ in table.cards.placed[before:] if to == "discard")
        assert view(state, SPECTATOR_SEAT)["day"] == state["day"]
        if state["check"] is not None:  # an open check always waits for someone
            assert drawable(state["check"]) or any(status(p) in ("picking", "failed")
                                                   for p in state["check"]["parts"])
        assert "decks" not in state  # the view counts the decks as the table hands them over
    replayed = ENGINE.fold(json.loads(json.dumps(played.log)))  # as the platform stores them
    assert replayed == played.state == json.loads(json.dumps(played.state))
