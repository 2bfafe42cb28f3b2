"""The odds of a draw are counted from the deck the rule will draw it from. Decided reading for
seed 000: "when hands would leave fewer than ten cards to draw, the GM is offered a second Minor
Arcana for that fight, and the odds follow the real cards": a rule's card comes from the deck with
the most cards left to draw (its draw pile and the discard that refills it), and so do its odds."""

from __future__ import annotations

from games.contract import DeckView, Seat
from games.shadows import deck, decks
from games.shadows.panel import view
from tests.unit.shadows.kit import ANN, ANN_MEMBER, GM, Table, of_type
from tests.unit.shadows.test_two_decks import decks as two_decks
from tests.unit.shadows.test_two_decks import fighters, start


def _seat(table: Table, lens: str, member: int | None) -> Seat:
    shown = tuple(DeckView(name=n, unseen=tuple(table.cards.unseen(n)), draw=len(table.cards.decks[n]),
                           discard=tuple(table.cards.discards[n])) for n in (deck.MINOR, deck.MINOR_2))
    return Seat(lens, member=member, controls=frozenset({"c1"}) if member == ANN_MEMBER else frozenset(),
                decks=shown)


def test_with_two_minor_arcana_the_odds_name_and_count_the_deck_the_rule_draws_from() -> None:
    table = Table(two_decks(4))
    people = fighters(3, 12, 12)  # hands of 18: two decks for the fight
    start(table, people)
    table.send(GM, "deal")
    assert len(table.state["combat"]["decks"]) == 2
    rules = decks.for_rules(table.state, table.cards)
    other = next(n for n in (deck.MINOR, deck.MINOR_2) if n != rules)
    # most of the rules' deck drawn onto its discard: its draw pile is now the shorter one, yet
    # it still has the most cards a draw could give (the discard refills the pile)
    keep = len(table.cards.decks[other]) - 1
    table.cards.draw(rules, len(table.cards.decks[rules]) - keep, to="discard")
    assert len(table.cards.decks[rules]) < len(table.cards.decks[other])
    assert decks.for_rules(table.state, table.cards) == rules
    table.send(ANN, "prepare_check", character=people[0], skill="melee", attribute="body", complexity="normal")
    for seat in (_seat(table, "player", ANN_MEMBER), _seat(table, "gm", None), _seat(table, "spectator", None)):
        [entry] = view(table.state, seat)["prepared"]
        assert f"of the {rules} not face up" in entry["counted_from"], seat.role
        assert f"of the {other} not" not in entry["counted_from"]
    gm = view(table.state, _seat(table, "gm", None))["prepared"][0]
    assert gm["counted_from"] == f"Counted from the {keep} cards of the {rules} not face up (the draw pile)."
    # and the check's card does come from that deck
    before = len(table.cards.discards[rules])
    [made] = of_type(table.send(ANN, "check", character=people[0], prepared=True, cards=1), "check_made")
    assert made["cards"][0] in table.cards.discards[rules][before:]
