"""Issue 21: a player's deck is the rules'. The figures everyone sees are counted from the cards
not yet face up, so they never move with a card held face down; and the rules put each card
they are done with on the deck's discard pile, so the deck cycles and never runs dry.

The decided reading 004: "only the rules move its cards (a check's card goes to the discard when
the check closes; an empty draw pile reshuffles the discard under a new seal)".
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.cards import tarot
from games.report_card import odds
from games.contract import SPECTATOR_SEAT
from games.report_card.draws import deck_title
from games.report_card.panel import view
from games.report_card import ENGINE
from games.report_card.reading import percents
from games.report_card.rules import RANKS, edge_of
from tests.unit.report_card.conftest import Table
from tests.unit.report_card.helpers import GM, card, player
from tests.unit.report_card.test_odds import SPECIAL, as_dict, brute

MARIETA = player(7, "c1")
DECK = deck_title("Marieta")


def test_a_card_held_face_down_moves_no_figure_anyone_sees(two: dict[str, Any]) -> None:
    """The project's rule: odds shown before a draw are never "from a count that lets a viewer subtract a
    card held face down". The GM deals Marieta's player three cards of her deck by hand: the
    count and the odds of every rank, with every edge, stay what they were."""
    edges = [None, "bonus", "penalty"]

    def shown(table: Table) -> list[dict[str, Any]]:
        found = []
        for n, edge in enumerate(edges):
            table.state = ENGINE.new_state()
            table.call("c1", "LAW", "medium", task=f"task {n}", bonus=edge == "bonus", penalty=edge == "penalty")
            found.append(view(table.state, table.seat())["check"]["parts"][0]["odds"])
        return found

    table = Table(two, auto_draw=False)
    before = shown(table)
    held = table.cards.draw(DECK, 3, to="hand", holder=7)
    after = shown(table)
    assert after == before and after[0]["unseen"] == 78
    fresh = odds.by_rank([c.id for c in tarot()], own_major="tarot:major:17", bonus=True)
    assert after[1]["chances"] == percents(fresh["medium"])
    assert not any(c.token in str(table.log) for c in held)


def test_the_panel_says_what_the_odds_were_counted_from(two: dict[str, Any]) -> None:
    table = Table(two, auto_draw=False)
    table.cards.draw(DECK, 2, to="hand", holder=7)
    table.call("c1", "LAW", "medium")
    shown = view(table.state, table.seat())
    assert shown["check"]["parts"][0]["odds"]["unseen"] == 78
    assert [d["unseen"] for d in shown["decks"] if d["deck"] == DECK] == [78]
    table.send({"type": "draw", "character": "c1"}, MARIETA)
    assert [d["unseen"] for d in view(table.state, table.seat())["decks"] if d["deck"] == DECK] == [77]


def brute_short(unseen: list[str], pile_size: int, rank: str, own: int | None, edge: str | None,
                discard: list[str]) -> dict[str, Fraction]:
    """Every way the draw pile (any ``pile_size`` of the unseen cards, each as likely) and then the
    discard could give the draw: each subset, each order, as the table would deal it."""
    subsets = list(combinations(unseen, pile_size))
    totals: dict[str, Fraction] = {}
    for subset in subsets:
        for kind, p in brute(list(subset), rank, own, edge, discard).items():
            totals[kind] = totals.get(kind, Fraction(0)) + Fraction(p) / len(subsets)
    return totals


@settings(max_examples=40, deadline=None)
@given(cards=st.lists(st.sampled_from(SPECIAL), min_size=4, max_size=7, unique=True),
       data=st.data(), rank=st.sampled_from(RANKS),
       edge=st.sampled_from([(False, False), (True, False), (False, True)]), own=st.sampled_from([None, 10, 16]))
def test_odds_with_cards_held_agree_with_every_deal_of_the_draw_pile(cards: list[str], data: st.DataObject,
                                                                      rank: str, edge: tuple[bool, bool],
                                                                      own: int | None) -> None:
    """With cards held face down and a short draw pile, the odds are what a player at the table
    could work out: the draw pile is any of the unseen cards, and once it is out the discard
    (cards in hands stay there) comes in."""
    split = data.draw(st.integers(2, len(cards) - 1))
    unseen, discard = cards[:split], cards[split:]
    pile_size = data.draw(st.integers(1, len(unseen)))
    bonus, penalty = edge
    expected = brute_short(unseen, pile_size, rank, own, edge_of(bonus, penalty), discard)
    if sum(expected.values()) < 1:  # some deal runs out of cards: the held ones stay in their hands
        with pytest.raises(odds.NotEnoughCards):
            odds.from_cards_exact(unseen, rank, own_major=own, bonus=bonus, penalty=penalty, discard=discard,
                                  pile_size=pile_size)
        return
    exact = odds.from_cards_exact(unseen, rank, own_major=own, bonus=bonus, penalty=penalty, discard=discard,
                                  pile_size=pile_size)
    assert as_dict(exact) == expected


def test_a_closed_checks_cards_go_to_the_discard_and_stay_on_the_panel(two: dict[str, Any]) -> None:
    """Seeds/README.md, 004: "a check's card goes to the discard when the check closes". The
    panel still shows it as the last check, from the events."""
    table = Table(two, {"c1": ["KC"]})
    [_, drawn, closed] = table.call("c1", "LAW", "medium")
    assert closed["discarded"] == {"c1": [card("KC")]}
    assert table.cards.discards[DECK] == [card("KC")]
    [last] = view(table.state, SPECTATOR_SEAT)["history"][:1]
    assert last["parts"][0]["attempts"][0]["draws"][0]["id"] == card("KC")


def test_a_pick_discards_the_card_not_kept_and_a_retry_the_card_it_replaces(two: dict[str, Any]) -> None:
    """Seed: with Bonus the player uses "whichever of the two cards they would prefer"; the
    other is done with. "The player can take 1 Corruption Point to retry the check": the card
    the retry replaces is done with once the new one is down."""
    table = Table(two, {"c1": ["2C", "3C", "4C", "KC"]}, auto_draw=False)
    table.call("c1", "LAW", "hard", bonus=True)
    table.send({"type": "draw", "character": "c1"}, MARIETA)
    assert table.cards.discards[DECK] == []  # the choice is still to be made
    [picked] = table.send({"type": "pick", "character": "c1", "index": 1}, MARIETA)
    assert picked["discarded"] == [card("2C")] and table.cards.discards[DECK] == [card("2C")]
    assert view(table.state, table.seat())["check"]["parts"][0]["odds"]["unseen"] == 76
    events = table.send({"type": "retry", "character": "c1"}, MARIETA)
    drawn = next(e for e in events if e["type"] == "drawn")
    assert drawn["discarded"] == [card("3C")]
    assert table.cards.discards[DECK][:2] == [card("2C"), card("3C")]


def test_the_gm_closing_a_check_discards_even_an_unchosen_pair(two: dict[str, Any]) -> None:
    table = Table(two, {"c1": ["2C", "M10", "KC"]}, auto_draw=False)
    table.call("c1", "LAW", "hard", penalty=True)
    table.send({"type": "draw", "character": "c1"}, MARIETA)  # the Two, the Wheel and its second card
    [closed] = table.send({"type": "close"}, GM)
    assert closed["reason"] == "unsettled"
    assert closed["discarded"] == {"c1": [card("2C"), card("M10"), card("KC")]}
    assert sorted(table.cards.discards[DECK]) == sorted([card("2C"), card("M10"), card("KC")])


def test_three_hundred_checks_never_run_a_deck_dry(two: dict[str, Any]) -> None:
    """Issue 21: "the 78th check is refused". Every check's card goes back to the discard, so
    the draw pile refills from it again and again; Bonus checks draw two each."""
    table = Table(two)
    for n in range(300):
        table.call("c1", "LAW", "automatic", task=f"task {n}", bonus=n % 3 == 0)
        if table.state["check"] is not None:  # a Bonus: Marieta keeps the first card
            table.send({"type": "pick", "character": "c1", "index": 0}, MARIETA)
        assert table.state["check"] is None
    drawn = table.drawn("c1")
    assert len(drawn) > 3 * 78  # the deck went round more than three times
    assert len(table.cards.decks[DECK]) + len(table.cards.discards[DECK]) == 78


def test_a_log_that_kept_the_decks_readings_still_folds(two: dict[str, Any]) -> None:
    """Before issue 26 a check's events carried its decks' readings (``decks``, ``reading``):
    such a log still folds, and the state keeps no copy of them."""
    table = Table(two, {"c1": ["KC"]}, auto_draw=False)
    table.call("c1", "LAW", "medium")
    table.send({"type": "draw", "character": "c1"}, MARIETA)
    old = [{**e, "decks": {"c1": {"deck": DECK, "left": 61, "odds": {}}}} if e["type"] == "check_called"
           else {**e, "reading": {"deck": DECK, "unseen": 60, "odds": {}}} if e["type"] == "drawn" else e
           for e in table.log]
    assert ENGINE.fold(old) == table.state and "decks" not in table.state
