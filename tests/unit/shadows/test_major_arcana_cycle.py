"""Every Major Arcana card goes back where the rules put it, so the deck never runs dry (the decided
reading: "No rule may dead-end for lack of cards"): a card spent, or dropped at a session's end,
goes back into the deck; a fumble's guide when the GM has shown it or is done with it, when
its character draws again, or when the session ends; and should every card be held, a check
still goes on."""

from __future__ import annotations

import pytest

from games.contract import Seat
from games.core.engine import NotYourMove
from games.shadows import deck
from games.shadows.errors import NotInHand, WrongStep
from games.shadows.narrate import summary
from games.shadows.panel import view
from tests.unit.shadows.kit import ANN, BOB, GM, GM_MEMBER, MAJORS, Table, ann, bob, of_type, stacked, t


def _in_deck(table: Table, short: str) -> bool:
    return t(short) in table.cards.decks[deck.MAJOR]


def _queen(table: Table, who: dict = ANN, person: dict | None = None) -> str:
    """A Mundane check on a Queen (the next Minor card): the Major Arcana card it earns."""
    events = table.send(who, "check", character=person or ann(), skill="", attribute="mind",
                        complexity="mundane", cards=1)
    return of_type(events, "major_arcana_kept")[0]["card"]


def _fumble(table: Table, person: dict | None = None) -> list[dict]:
    return table.send(GM, "check", character=person or ann(), skill="", attribute="mind", complexity="normal",
                      cards=1)


def test_a_spent_fate_card_goes_back_into_the_major_arcana() -> None:
    """Seed: "Characters can choose to use the meaning of a Major Arcana card at any time";
    once used, it goes back into the deck, shuffled under a new seal."""
    table = Table(stacked(["C13"], majors=["M16"]))
    card = _queen(table)
    assert card == t("M16") and not _in_deck(table, "M16")
    assert table.cards.held(deck.MAJOR, 2) == [t("M16")]
    [spent] = table.send(ANN, "spend_arcana", combatant="c1", card=card)
    assert not _in_deck(table, "M16")  # pending the GM's approval, still in the hand
    [approved] = table.send(GM, "judge_spend", spend=spent["id"], verdict="approve")
    assert _in_deck(table, "M16") and table.cards.held(deck.MAJOR, 2) == []
    assert table.cards.placed[-1] == (deck.MAJOR, t("M16"), "shuffled in", None)
    assert summary(approved, table.state).endswith("it goes back into the Major Arcana.")


def test_cards_dropped_at_the_sessions_end_go_back_and_the_one_kept_stays() -> None:
    """Seed: "The GM may allow for up to one Major Arcana to be carried over into the next
    session"; the rest are dropped, back into the deck."""
    table = Table(stacked(["C13", "C13"], majors=["M3", "M4"]))
    table.cards.decks[deck.MINOR].insert(1, t("C13"))  # a second Queen (a test's stacking)
    first, second = _queen(table), _queen(table)
    table.close_session(keep={"c1": second})
    assert _in_deck(table, "M3") and not _in_deck(table, "M4")
    assert table.cards.held(deck.MAJOR, 2) == [t("M4")] and table.state["held"] == {"c1": [second]}
    assert first == t("M3")


def test_a_shown_guide_goes_back_at_once_and_stays_in_the_panel() -> None:
    table = Table(stacked(["C1"], majors=["M18"]))
    _fumble(table)
    assert table.cards.held(deck.MAJOR, GM_MEMBER) == [t("M18")]
    [shown] = table.send(GM, "show_guide")
    assert _in_deck(table, "M18") and table.cards.held(deck.MAJOR, GM_MEMBER) == []
    assert view(table.state, Seat("player"))["guides"][0]["card"]["name"] == "The Moon"
    assert "goes back into the Major Arcana" in summary(shown, table.state)


def test_an_unshown_guide_goes_back_unseen_when_the_gm_is_done_with_it() -> None:
    table = Table(stacked(["C1"], majors=["M18"]))
    _fumble(table)
    [back] = table.send(GM, "return_guide")
    assert back == {"type": "guide_returned", "id": back["id"], "combatant": "c1", "step": back["step"]}  # no card
    assert _in_deck(table, "M18") and table.state["guides"] == []
    assert "Moon" not in summary(back, table.state)
    with pytest.raises(WrongStep):
        table.send(GM, "return_guide")


def test_an_unshown_guide_goes_back_when_its_character_draws_again_or_the_session_ends() -> None:
    table = Table(stacked(["C1", "W1", "C5"], majors=["M18", "M19"]))
    _fumble(table)
    _fumble(table, bob())  # Bob's fumble leaves Ann's guide where it is
    assert table.cards.held(deck.MAJOR, GM_MEMBER) == [t("M18"), t("M19")]
    events = table.send(ANN, "check", character=ann(), skill="", attribute="mind", complexity="mundane", cards=1)
    assert events[0]["type"] == "guide_returned" and events[0]["combatant"] == "c1"
    assert _in_deck(table, "M18") and not _in_deck(table, "M19")
    ended = table.close_session(keep={})
    assert [e["type"] for e in ended] == ["guide_returned", "session_ended"]
    assert _in_deck(table, "M19") and table.cards.held(deck.MAJOR, GM_MEMBER) == []


def test_when_every_major_arcana_card_is_held_a_check_still_goes_on() -> None:
    """A Queen with the whole Major Arcana held earns none, and says so; a fumble's guide
    waits for a card to come back (the GM's "draw the guide" says why until then)."""
    table = Table(stacked(["C13"], majors=MAJORS))
    table.cards.draw(deck.MAJOR, len(MAJORS), to="hand", holder=GM_MEMBER)  # the GM takes all, by hand
    assert table.cards.left(deck.MAJOR) == []
    [made] = table.send(GM, "check", character=ann(), skill="", attribute="mind", complexity="mundane", cards=1)
    assert made["queen"] and made["no_major_left"] is True
    assert summary(made, table.state).endswith("every Major Arcana card is held: there is none to draw.")
    table.cards.restack(deck.MINOR, [t("W1")])
    events = table.send(GM, "check", character=bob(), skill="", attribute="mind", complexity="normal", cards=1)
    assert events[-1]["type"] == "guide_pending"
    with pytest.raises(WrongStep, match="Every Major Arcana card is out"):
        table.send(GM, "draw_guide")
    table.cards.shuffle_in(deck.MAJOR, [t("M5")])
    [drawn] = table.send(GM, "draw_guide")
    assert drawn["card"] == t("M5")


def test_bob_calling_on_anns_card_is_refused_and_nothing_goes_back() -> None:
    table = Table(stacked(["C13"], majors=["M2"]))
    card = _queen(table)
    with pytest.raises(NotYourMove):
        table.send(BOB, "spend_arcana", combatant="c1", card=card)
    assert not _in_deck(table, "M2")


def test_a_check_refused_for_a_card_gone_from_the_hand_leaves_the_guide_where_it_is() -> None:
    """A refusal changes nothing: Ann's next check would put her last fumble's guide back, but
    not when it is refused (the card she plays is no longer in her hand at the table)."""
    table = Table(stacked(["C1"], majors=["M18"]))
    _fumble(table)
    table.fight(ann(), bob())
    gone = table.hand("c1")[0]
    table.cards.play(deck.MINOR, gone, holder=2)  # laid down with the table's own card tools
    with pytest.raises(NotInHand):
        table.send(ANN, "check", character=ann(), skill="", attribute="mind", complexity="mundane", cards=1,
                   from_hand=[gone])
    assert table.cards.held(deck.MAJOR, GM_MEMBER) == [t("M18")] and table.state["guides"][0]["card"] == t("M18")
