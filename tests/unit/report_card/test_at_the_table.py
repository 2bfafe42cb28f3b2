"""What the table needs of the engine: a check called first and drawn by its player, the deck
read for the odds before each draw, whose turn it is, the character card at a glance and each
character's own deck."""

from __future__ import annotations

from typing import Any

import pytest

from games.contract import SPECTATOR_SEAT, Character, Glance
from games.contract import Table as Table_
from games.core.cards import tarot
from games.core.engine import NotYourMove
from games.report_card import SYSTEM, odds
from games.report_card.draws import deck_title
from games.report_card.errors import BadInput, NotNow
from games.report_card.panel import view
from games.report_card.reading import percents
from games.report_card.rules import RANKS
from games.report_card.sheet import glance
from tests.unit.report_card.conftest import Table, read_id
from tests.unit.report_card.helpers import report
from tests.unit.report_card.helpers import GM, card, player

MARIETA, JO = player(7, "c1"), player(8, "c2")


def test_a_called_check_draws_nothing_until_the_player_draws(two: dict[str, Any]) -> None:
    """Seed: "Skill checks are resolved by having the player draw the top card from their
    decks": the GM calls the check, then the player draws."""
    table = Table(two, {"c1": ["KC"]}, auto_draw=False)
    [called] = table.call("c1", "LAW", "medium")
    assert called["type"] == "check_called" and table.cards.placed == []
    assert view(table.state, SPECTATOR_SEAT)["turn"] == {"combatant": "c1", "gm": False, "says": "Marieta draws",
                                          "prompt": "draw Marieta's card", "waiting": ["c1"],
                                          "prompts": {"c1": "draw Marieta's card"}}
    with pytest.raises(NotYourMove, match="only for the characters you control"):
        table.send({"type": "draw", "character": "c1"}, JO)
    assert table.cards.placed == []
    [drawn, closed] = table.send({"type": "draw", "character": "c1"}, MARIETA)
    assert drawn["attempt"]["draws"][0]["card"] == card("KC") and closed["outcome"] == "success"
    with pytest.raises(NotNow, match="No check is open"):
        table.send({"type": "draw", "character": "c1"}, MARIETA)


def test_a_card_is_drawn_once_and_the_main_check_after_its_help(two: dict[str, Any]) -> None:
    """Seed, "One Player Helps Another": the helper's result grants the main check Bonus or
    Penalty, so the helper draws first."""
    table = Table(two, {"c1": ["2C", "3C"], "c2": ["KC"]}, auto_draw=False)
    table.call("c1", "LAW", "hard", helper="c2", helper_skill="LAW", helper_rank="easy")
    with pytest.raises(NotNow, match="Marieta draws once Jo's help is settled"):
        table.send({"type": "draw", "character": "c1"}, MARIETA)
    table.send({"type": "draw", "character": "c2"}, JO)
    with pytest.raises(NotNow, match="Jo has drawn already"):
        table.send({"type": "draw", "character": "c2"}, JO)
    [drawn] = table.send({"type": "draw", "character": "c1"}, GM)  # the GM may draw for anyone
    assert drawn["help"] == "bonus" and [d["card"] for d in drawn["attempt"]["draws"]] == [card("2C"), card("3C")]


def test_a_group_check_waits_for_every_member_to_draw(two: dict[str, Any]) -> None:
    """Seed: "whichever player draws the highest card succeeds 'the most'": nobody's result
    counts until everyone has drawn."""
    table = Table(two, {"c1": ["KC"], "c2": ["QC"]}, auto_draw=False)
    table.send({"type": "call_group", "mode": "only_one", "characters": ["c1", "c2"], "skill": "LAW",
                "rank": "medium", "task": "search the room"})
    assert view(table.state, SPECTATOR_SEAT)["turn"]["says"] == "Marieta and Jo draw"
    table.send({"type": "draw", "character": "c2"}, JO)
    assert table.state["check"] is not None
    [_, closed] = table.send({"type": "draw", "character": "c1"}, MARIETA)
    assert closed["winners"] == ["c1"] and closed["reason"] == "highest"


def test_the_odds_before_each_draw_are_counted_from_the_deck_the_seat_is_handed(two: dict[str, Any]) -> None:
    """Issue 14: the odds before the draw are "computed from the cards actually left in that
    player's deck". Issue 26: the view counts them from the deck as the table hands it to the
    seat (``Panel.rule_decks``); no state or event keeps a copy of the deck's count or odds."""
    left = [card("KC"), card("2C"), card("3C"), card("M17")]
    table = Table(two, {"c1": left}, fill=False, auto_draw=False)
    [called] = table.call("c1", "LAW", "medium", bonus=True)
    assert "decks" not in called and "decks" not in table.state
    exact = odds.from_cards(left, "medium", own_major="tarot:major:17", bonus=True)
    part = view(table.state, table.seat())["check"]["parts"][0]
    assert part["odds"]["chances"] == percents(exact) and part["odds"]["unseen"] == 4
    assert part["odds"]["deck"] == deck_title("Marieta") and not part["odds"]["fresh"]
    [drawn] = table.send({"type": "draw", "character": "c1"}, MARIETA)
    assert "reading" not in drawn
    # Two cards left, with Bonus: the next draw needs both, so the odds say so.
    [picked] = table.send({"type": "pick", "character": "c1", "index": 1}, MARIETA)  # the Two of Cups: a failure
    assert "reading" not in picked
    part = view(table.state, table.seat())["check"]["parts"][0]
    assert part["status"] == "failed" and part["odds"]["unseen"] == 2 and part["next_rank"] == "Easy"
    after = odds.from_cards([card("3C"), card("M17")], "easy", own_major="tarot:major:17", bonus=True,
                            discard=[card("KC")], pile_size=2)
    assert part["odds"]["chances"] == percents(after)


def test_the_odds_follow_a_change_the_gm_makes_to_the_deck_by_hand(two: dict[str, Any]) -> None:
    """Issue 26: the odds follow every deck change, not only the rules' draws. The GM lays the
    Sun and the World of Marieta's deck face up by hand after the check is called: the odds of
    her draw drop at once, counted from the 76 cards still not face up."""
    table = Table(two, {"c1": ["M19", "M21"]}, auto_draw=False)
    table.call("c1", "LAW", "unlikely")
    before = view(table.state, table.seat())["check"]["parts"][0]["odds"]
    assert before["unseen"] == 78
    table.cards.draw(deck_title("Marieta"), 2, to="play")
    after = view(table.state, table.seat())["check"]["parts"][0]["odds"]
    rest = [c.id for c in tarot() if c.id not in (card("M19"), card("M21"))]
    assert after["unseen"] == 76
    assert after["chances"] == percents(odds.from_cards(rest, "unlikely", own_major="tarot:major:17"))
    assert after["chances"]["succeeds"] < before["chances"]["succeeds"]


def test_a_seat_handed_no_such_deck_sees_the_odds_of_a_fresh_one(two: dict[str, Any]) -> None:
    table = Table(two, auto_draw=False)
    table.call("c1", "LAW", "medium")
    shown = view(table.state, SPECTATOR_SEAT)["check"]["parts"][0]["odds"]
    assert shown["fresh"] and shown["chances"] == percents(odds.check("medium", own_major="tarot:major:17"))


def test_a_deck_too_short_for_the_draw_gives_no_odds(two: dict[str, Any]) -> None:
    table = Table(two, {"c1": ["KC"]}, fill=False, auto_draw=False)
    table.call("c1", "LAW", "medium", bonus=True)
    assert view(table.state, table.seat())["check"]["parts"][0]["odds"]["chances"] is None


def test_the_deck_line_lists_every_characters_deck_before_any_check(two: dict[str, Any]) -> None:
    """Issue 26: "the deck line lists every character's deck from the start"."""
    table = Table(two, auto_draw=False)
    shown = view(table.state, table.seat())["decks"]
    assert shown == [{"deck": deck_title("Jo"), "unseen": 78}, {"deck": deck_title("Marieta"), "unseen": 78}]


def test_whose_turn_follows_the_choice_the_rules_give(two: dict[str, Any]) -> None:
    """Seed: with Bonus the player chooses, with Penalty "the GM decides"; "The player can take
    1 Corruption Point to retry the check"."""
    table = Table(two, {"c1": ["2C", "3C", "KC", "2S"]})
    assert view(table.state, SPECTATOR_SEAT)["turn"] is None
    table.call("c1", "LAW", "medium", bonus=True)
    assert view(table.state, SPECTATOR_SEAT)["turn"]["prompt"] == "choose which of Marieta's two cards to keep (Bonus)"
    table.send({"type": "pick", "character": "c1", "index": 0}, MARIETA)
    turn = view(table.state, SPECTATOR_SEAT)["turn"]
    assert turn["combatant"] == "c1" and turn["says"] == "Marieta failed and may retry"
    table.send({"type": "accept", "character": "c1"}, MARIETA)
    table.call("c1", "LAW", "medium", task="climb", penalty=True)
    assert view(table.state, SPECTATOR_SEAT)["turn"] == {"combatant": None, "gm": True,
                                          "says": "The GM chooses the worse of Marieta's two cards",
                                          "prompt": "choose the worse of Marieta's two cards (Penalty)"}


def test_the_character_card_shows_the_report_card_at_a_glance() -> None:
    sheet = {"fast": True, "clever": True, "a_plus": "FREE", "f_skill": "GYM", "corruption": 3, "major": 17}
    seen = glance(sheet)
    assert dict(seen.stats) == {"A+": "FREE", "F": "GYM", "Own card": "The Star (17)", "Abilities": "Fast, Clever"}
    assert seen.tracks == (("Corruption", 3, 3),) and seen.tags == ("New A+ and F due",)
    assert glance({"a_plus": "nope"}) == Glance() and SYSTEM.glance is glance


def test_each_player_character_has_its_own_tarot_named_after_it() -> None:
    """Issue 14: "each player character gets its own full 78-card Tarot deck"."""
    hero = Character(12, "c12", "Marieta", {}, owner=7)
    [spec] = SYSTEM.character_decks(hero)
    assert (spec.name, spec.kind, spec.allow_reversed) == ("Marieta's Tarot", "tarot", False)
    assert SYSTEM.character_decks(Character(13, "c13", "Principal", {}, owner=None, is_npc=True)) == ()
    long = deck_title("A" * 60)
    assert len(long) == 60 and long.endswith("'s Tarot") and deck_title("  Jo   Anne ") == "Jo Anne's Tarot"


def test_an_npc_is_refused_a_check_by_name() -> None:
    """Seed: "Skill checks are resolved by having the player draw the top card from their
    decks": an NPC has no deck, and the GM decides what it does."""
    table = Table({"c12": report("Marieta", 7), "c14": {**report("Principal", None), "npc": True}})
    with pytest.raises(BadInput, match="Principal is an NPC"):
        table.call("c14", "LAW", "easy", task="x")
    assert table.log == [] and table.cards.placed == []
    facts = Table_(characters=tuple(table.characters().values()), read_id=read_id)
    call = SYSTEM.command("call_check")
    assert call is not None
    args = call.parse({"character": ["c12"], "skill": ["LAW"], "rank": ["easy"], "task": ["x"]}, facts)
    assert args["character"] == "c12"  # the panel's buttons post the combatant id, a select the id
    called = table.call("c12", "LAW", "easy", task="x")[0]
    assert called["check"]["parts"][0]["deck"] == "Marieta's Tarot"


def test_the_odds_of_every_rank_at_once_are_each_rank_s_own() -> None:
    deck = [c.id for c in tarot()][5:]
    for edge in ({}, {"bonus": True}, {"penalty": True}):
        every = odds.by_rank(deck, own_major="tarot:major:3", **edge)
        for rank in RANKS:
            one = odds.from_cards(deck, rank, own_major="tarot:major:3", **edge)
            assert every[rank].succeeds == pytest.approx(one.succeeds, abs=1e-12)
            assert every[rank].critical_failure == pytest.approx(one.critical_failure, abs=1e-12)
