"""The Harsh Light deck is a rule deck: the odds count no figure that gives away a card held face
down, and a pull's cards go to the discard pile so the deck cycles, never handing a pull the same
card twice (issue 21)."""

from __future__ import annotations

from games.contract import Seat
from games.core.cards import OrientedCard
from games.core.cards_port import Destination, StackedCards
from games.harsh_light import DECK, odds
from tests.unit.harsh_light.conftest import GM, Table, sheet, stacked, tokens


def test_cards_the_gm_holds_face_down_change_no_count_and_no_odds() -> None:
    """The project's rule: odds are "never from a count that lets a viewer subtract a card held face down".
    The count by value of the draw pile, taken from the forty less the cards lying face up, gave
    away the values of the cards in the Storyteller's hand."""
    t = Table(c1=sheet("Ann"))
    port = stacked(10, 10, 1, 1, 1)
    t.send({"type": "set_up_pull", "combatant": "c1", "attribute": "wits"}, port)
    before = t.view(Seat("player"))
    port.draw(DECK, 5, to="hand", holder=1)  # the GM takes two Tens and three Aces, face down
    t.send({"type": "set_up_pull", "combatant": "c1", "attribute": "wits", "modifier": 0}, port)
    after = t.view(Seat("player"))  # the deck as the platform hands every seat (Seat.decks)
    assert after["deck_left"] == [4] * 10 and sum(after["deck_left"]) == 40
    assert after["deck_left"] == before["deck_left"] and after["prepared"][0]["odds"] == before["prepared"][0]["odds"]
    assert "not lying face up: the draw pile and any cards held in hands" in after["deck_line"]
    # a card laid face up is everyone's to count out
    port.play(DECK, "ten:S:10", holder=1)
    assert t.view(Seat("player"))["deck_left"][9] == 3


def test_with_the_draw_pile_empty_the_odds_count_the_discard_the_next_pull_shuffles_in() -> None:
    """An empty draw pile is refilled from the discard pile (the project's rule for rule decks): the next pull comes from
    those cards, which lie face up, and the panel says so."""
    t = Table(c1=sheet("Ann"))
    port = StackedCards({DECK: tokens(2, 3)})
    port.draw(DECK, 1, to="hand", holder=1)  # the Two, held face down
    t.send({"type": "pull", "combatant": "c1", "attribute": "wits"}, port)  # the Three
    seen = t.view(Seat("spectator"))
    assert seen["deck_left"] == [0, 0, 1, 0, 0, 0, 0, 0, 0, 0]
    assert seen["deck_line"].startswith("The draw pile is empty: the next pull shuffles the discard pile back in")


class Reshuffling(StackedCards):
    """A port whose refill shuffles the discard pile so the card discarded last lies on top: a
    shuffle a real table can deal."""

    def draw(self, deck: str, count: int = 1, *, to: Destination = "play",
             holder: int | None = None) -> list[OrientedCard]:
        if len(self.decks[deck]) < count:
            self.discards[deck].reverse()
        return super().draw(deck, count, to=to, holder=holder)


def test_a_pull_never_holds_the_same_card_twice_when_its_second_card_reshuffles_the_discard() -> None:
    """Seed: "A pull of 10 ... allows you pull a second card, adding both cards". The first card
    went to the discard pile before the second was drawn; with the draw pile empty, the discard
    was shuffled back in, that card with it, and the pull could add the same Ten twice."""
    t = Table(c1=sheet("Ann"))
    port = Reshuffling({DECK: tokens(4, 10)})
    t.pull("c1", port, actor=GM, attribute="wits")  # the Four: the Ten is the last card in the pile
    record = t.pull("c1", port, actor=GM, attribute="wits")
    assert record["cards"] == tokens(10, 4) and record["total"] == 2 + 14
    # both cards end on the discard pile: the deck cycles, nothing is left in the play area
    assert sorted(port.discards[DECK]) == sorted(tokens(4, 10)) and port.decks[DECK] == []
    assert port.unseen(DECK) == [] and len(port.left(DECK)) == 2


def test_every_kind_of_pull_leaves_its_cards_on_the_discard_and_the_deck_cycles() -> None:
    """No rule may dead-end for lack of cards: pulls, extended actions, contests and initiative,
    many times round a deck of three cards, each card conserved."""
    t = Table(c1=sheet("Ann"), c2=sheet("Bob"))
    port = Reshuffling({DECK: tokens(5, 10, 10)})
    weak = {"attribute": "wits", "modifier": -9}  # at most 2 successes a pull: neither reaches 50
    t.send({"type": "extended_start", "combatant": "c1", "needed": 50, **weak})
    t.send({"type": "contest_start", "needed": 50, "sides": [{"combatant": "c1", **weak},
                                                             {"combatant": "c2", **weak}]})
    for _ in range(15):
        records = [t.pull("c1", port, **weak), t.send({"type": "extended_pull", "extended": "x1"}, port)[-1]["record"]]
        for cid in ("c1", "c2"):
            records.append(next(e for e in t.send({"type": "contest_pull", "contest": "k2", "combatant": cid}, port)
                                if e["type"] == "contest_pulled")["record"])
        records += t.send({"type": "roll_initiative", "characters": ["c1", "c2"]}, port)[-1]["records"]
        t.send({"type": "end_combat"}, port)
        for record in records:
            assert len(set(record["cards"])) == len(record["cards"])
        assert sorted(port.decks[DECK] + port.discards[DECK]) == sorted(tokens(5, 10, 10))
        assert t.view(Seat())["deck_count"] == len(port.decks[DECK] or port.discards[DECK])
    assert not t.state["extended"]["x1"]["done"] and not t.state["contests"]["k2"]["done"]
    assert odds.counts_of(port.left(DECK)) == (0, 0, 0, 0, 1, 0, 0, 0, 0, 2)
