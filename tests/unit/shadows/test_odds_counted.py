"""Odds that do not mislead (the project's rule: "Odds shown before a draw are exact and computed from the
cards actually left in that deck when its composition is public ... never from a count that lets
a viewer subtract a card held face down")."""

from __future__ import annotations

from games.contract import DeckView, Seat
from games.shadows import deck
from games.shadows.faces import pct
from games.shadows.panel import view
from tests.unit.shadows.kit import ANN, Table, ann, bob, stacked, t

ACES = [t(f"{s}1") for s in "CPSW"]


def _prepared(table: Table) -> None:
    table.send(ANN, "prepare_check", character=ann(), skill="stealth", attribute="mind", complexity="normal")


def test_with_every_ace_on_the_discard_a_check_cannot_fumble() -> None:
    """The issue: "the panel shows a 7.1 % fumble chance with all four Aces on the discard"."""
    table = Table()
    _prepared(table)
    rest = tuple(sorted(c for c in deck.minor_tokens() if c not in ACES))
    seat = Seat("player", member=2, controls=frozenset({"c1"}),
                decks=(DeckView(name=deck.MINOR, unseen=rest, draw=len(rest), discard=tuple(ACES)),))
    [entry] = view(table.state, seat)["prepared"]
    assert [row["fumble"] for row in entry["odds"]] == ["0", "0"]
    assert "52 cards of the Minor Arcana" in entry["counted_from"]
    fresh = view(table.state, Seat("player", member=2, controls=frozenset({"c1"})))["prepared"][0]
    assert fresh["odds"][0]["fumble"] == "7.1" and "fresh" in fresh["counted_from"]


def test_in_a_fight_a_player_counts_out_only_the_hand_they_hold() -> None:
    """In a fight, "from what the viewer may know": the cards not face up, less the hand the
    seat holds (every hand, for the GM)."""
    table = Table(stacked(["C1", "P1", "S1", "W1"]))
    table.fight(ann(body=4, physical=0), bob(body=1, physical=0))
    aces_ann = [c for c in table.hand("c1") if c in ACES]
    aces_bob = [c for c in table.hand("c2") if c in ACES]
    assert len(aces_ann) + len(aces_bob) == 4 and aces_ann
    _prepared(table)
    unseen = tuple(sorted(deck.minor_tokens()))  # nothing face up yet: the draw pile and both hands
    decks_ = (DeckView(name=deck.MINOR, unseen=unseen, draw=51, discard=()),)

    def fumble(seat: Seat) -> tuple[str, str]:
        entry = view(table.state, seat)["prepared"][0]
        return entry["odds"][0]["fumble"], entry["counted_from"]

    ann_seat = Seat("player", member=2, controls=frozenset({"c1"}), decks=decks_)
    spectator = Seat("spectator", decks=decks_)
    gm = Seat("gm", decks=decks_)
    # Ann holds Aces: she counts them out; a spectator cannot; the GM sees the draw pile, Ace-less
    assert fumble(spectator)[0] == "7.1"
    assert fumble(ann_seat)[0] == pct((4 - len(aces_ann)) / (56 - 4))
    assert "hands you do not hold" in fumble(ann_seat)[1]
    assert fumble(gm) == ("0", "Counted from the 51 cards of the Minor Arcana not face up (the draw pile).")
