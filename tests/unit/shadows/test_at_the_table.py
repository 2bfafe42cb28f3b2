"""The engine at a table: hands are the table's hand piles (a card played leaves them through
the cards port, a new round gathers them back), a check set up before its draw shows its odds,
an attack lined up shows each card's chance, whose turn it is, and the character card.

Seed: "only the GM and the particular player will see their own card draws, due to how
players will "play cards from their hand" as a way to modify their strategy"."""

from __future__ import annotations

from games.contract import Seat

import pytest

from games.core.engine import NotYourMove
from games.shadows import deck, odds
from games.shadows.errors import GMOnly, NotInHand, WrongStep
from games.shadows.faces import chance
from games.shadows.panel import view
from games.shadows.sheet import clean_sheet, glance
from games.shadows.state import next_to_act
from games.shadows.writeback import writeback
from tests.unit.shadows.kit import ANN, ANN_MEMBER, BOB, GM, GM_MEMBER, Table, ann, of_type, orc, stacked, t

ANN_HAND = ["S12", "C3", "P10", "W1", "S5", "C11", "P2", "S14"]
ORC_HAND = ["C12", "P6", "W9", "S3", "C4", "P8", "W2", "S7"]
BLADE = {"name": "Blade", "type": "physical", "modifier": "0", "fumble": 3, "critical": "cups",
         "modern": False, "ap": 1, "material": "steel"}


def fight(after: list[str] = ()) -> Table:
    table = Table(stacked(ANN_HAND + ORC_HAND + list(after)))
    table.send(GM, "set_weapons", weapons=[BLADE])
    table.fight(ann(), orc())
    return table


def where(table: Table, short: str) -> str:
    """Where the table holds a card now: "hand", "play", "discard" or "deck"."""
    token = t(short)
    placed = table.cards._where.get((deck.MINOR, token))
    return placed[2] if placed else "deck"


def test_a_card_played_in_an_attack_or_a_dodge_leaves_the_tables_hand_face_up() -> None:
    """Seed: players "play cards from their hand"; an attack card "played from the
    attacker's hand", a dodge "the use of one card ... from their hand". The attack's card lies
    face up while the attack waits; once it resolves, it and the dodge go to the discard (the decided
    reading: "a rule that needs a card when the draw pile is empty reshuffles the discard")."""
    table = fight()
    assert sorted(table.cards.held(deck.MINOR, ANN_MEMBER)) == sorted(table.hand("c1"))
    table.send(ANN, "attack", combatant="c1", target="c3", weapon="Blade", cards=[t("S5")], skill="melee")
    assert where(table, "S5") == "play" and t("S5") not in table.cards.held(deck.MINOR, ANN_MEMBER)
    table.send(GM, "defend", combatant="c3", cards=[t("P6")])
    assert where(table, "P6") == where(table, "S5") == "discard"
    assert t("P6") not in table.cards.held(deck.MINOR, GM_MEMBER)
    assert sorted(table.cards.held(deck.MINOR, GM_MEMBER)) == sorted(table.hand("c3"))


def test_a_redeal_discards_through_the_table_then_deals_new_cards_into_the_hand() -> None:
    """Seed: "forego their first AP of action and instead discard and be re-dealt up to three
    cards"."""
    table = fight(["C9", "C10"])
    [event] = table.send(ANN, "redeal", combatant="c1", cards=[t("W1"), t("P2")])
    assert table.cards.discards[deck.MINOR] == [t("W1"), t("P2")]
    assert event["drawn"] == [t("C9"), t("C10")]
    assert sorted(table.cards.held(deck.MINOR, ANN_MEMBER)) == sorted(table.hand("c1"))


def test_a_card_no_longer_in_the_tables_hand_is_refused() -> None:
    """The table's piles are the hands' truth: a card Ann laid down with the card tools is
    not in her hand for the rules either."""
    table = fight()
    table.cards.play(deck.MINOR, t("S14"), holder=ANN_MEMBER)  # the table's own Play button
    with pytest.raises(NotInHand, match="no longer in Ann's hand at the table"):
        table.send(ANN, "attack", combatant="c1", target="c3", weapon="Blade", cards=[t("S14")], skill="melee")


def test_a_check_in_a_round_plays_its_card_from_the_tables_hand() -> None:
    table = fight(["P4"])
    table.send(ANN, "check", character=ann(), skill="stealth", attribute="quickness", complexity="mundane",
               cards=1, from_hand=[t("S5")])
    assert where(table, "S5") == "discard" and sorted(table.cards.held(deck.MINOR, ANN_MEMBER)) == sorted(table.hand("c1"))


def test_a_new_round_and_the_end_of_combat_gather_every_card_back() -> None:
    """Seed: "combat is handled by the GM shuffling the Minor Arcana and dealing"."""
    table = fight()
    table.send(ANN, "attack", combatant="c1", target="c3", weapon="Blade", cards=[t("S5")], skill="melee")
    table.send(GM, "defend", combatant="c3", cards=[])
    [started] = table.send(GM, "new_round")
    assert started["gathered"] and table.cards.held(deck.MINOR, ANN_MEMBER) == []
    assert len(table.cards.left(deck.MINOR, with_discard=False)) == 56
    for who, cid in ((ANN, "c1"), (GM, "c3")):
        table.send(who, "declare_focus", combatant=cid, focus="physical")
    table.send(GM, "deal")
    assert len(table.cards.held(deck.MINOR, ANN_MEMBER)) == 8
    table.send(GM, "end_combat")
    assert table.cards.held(deck.MINOR, ANN_MEMBER) == [] and table.cards.held(deck.MINOR, GM_MEMBER) == []


def test_a_check_set_up_first_shows_the_odds_of_one_card_and_of_three() -> None:
    """Seed: "drawing either a single card or three cards (must be decided before any the
    process is started)"; issue 16: "the exact chance of each band with one card and with
    three (so the player can choose)"."""
    table = Table(stacked(["C9", "S2", "W10"]))
    [ready] = table.send(ANN, "prepare_check", character=ann(), combatant="c1", skill="stealth",
                         attribute="quickness", complexity="hard")
    assert ready["total"] == 4 + 5 and "inputs" in ready
    [shown] = view(table.state, Seat("player"))["prepared"]
    assert "inputs" not in shown and shown["complexity_label"] == "Hard"
    exact = {n: odds.all_or_nothing(9, "hard", cards=n) for n in (1, 3)}
    for row in shown["odds"]:
        assert row["success"] == f"{exact[row['cards']].success * 100:.1f}"
        assert row["fumble"] == f"{exact[row['cards']].fumble * 100:.1f}"
    assert view(table.state, Seat("spectator"))["turn"]["combatant"] == "c1"
    with pytest.raises(NotYourMove):
        table.send(BOB, "check", combatant="c1", prepared=True, cards=1)
    [made, *_] = table.send(ANN, "check", combatant="c1", prepared=True, cards=3)
    assert made["cards"] == [t("C9"), t("S2"), t("W10")] and made["drawn"] == 9 and made["total"] == 18
    assert made["prepared"] == ready["id"] and table.state["prepared"] == {}
    with pytest.raises(WrongStep):
        table.send(ANN, "check", combatant="c1", prepared=True, cards=1)


def test_only_the_gm_sets_up_a_modifier_and_the_player_may_then_draw_with_it() -> None:
    table = Table()
    with pytest.raises(GMOnly):
        table.send(ANN, "prepare_check", character=ann(), combatant="c1", skill="", attribute="mind",
                   complexity="normal", modifier=5)
    table.send(GM, "prepare_check", character=ann(), combatant="c1", skill="", attribute="mind",
               complexity="normal", modifier=5)
    [made, *_] = table.send(ANN, "check", combatant="c1", prepared=True, cards=1)
    assert made["modifier"] == 5


def test_a_check_set_up_can_be_called_off_by_its_player_or_the_gm() -> None:
    table = Table()
    table.send(ANN, "prepare_check", character=ann(), combatant="c1", skill="", attribute="mind")
    with pytest.raises(NotYourMove):
        table.send(BOB, "cancel_check", combatant="c1")
    table.send(GM, "cancel_check", combatant="c1")
    assert table.state["prepared"] == {} and table.cards.placed == []


def test_an_attack_lined_up_shows_each_cards_chance_to_get_through() -> None:
    """Issue 16: "for an attack, given the card chosen from the hand, the chance the damage
    gets through"; seed: damage is dealt when the attack "is positive" after Defence."""
    table = fight()
    [aimed] = table.send(ANN, "aim", combatant="c1", target="c3", weapon="Blade", skill="melee")
    assert table.person("c1")["ap"] == 8 and table.cards.placed[-1][2] == "hand"  # nothing spent or drawn
    [aim] = view(table.state, Seat("player", member=2, controls=frozenset({"c1"})))["combat"]["aims"]
    assert view(table.state, Seat("spectator"))["combat"]["aims"] == []  # an aim is its player's (issue 25)
    assert aim["defence"] == 5 and aim["dodge_cards"] == 1 and aim["target_hand"] == 8
    mine = set(table.person("c1")["hand"])  # not in the target's hand: its player holds them (issue 25)
    unseen = [c for c in deck.minor_tokens() if c not in mine]
    for row in aim["odds"]:
        card = f"tarot:swords:{row['value']}"
        exact = odds.attack_through(card, 6, 5, defender_hand=8, defence_cards=1, unseen=unseen).hit
        assert row["chance"] == chance(exact)
    with pytest.raises(NotYourMove):
        table.send(BOB, "aim", combatant="c1", target="c3", weapon="Blade")
    table.send(ANN, "attack", combatant="c1", target="c3", weapon="Blade", cards=[t("S5")], skill="melee")
    assert view(table.state, Seat("spectator"))["combat"]["aims"] == [] and aimed["attacker"] == "c1"


def test_without_dodge_cards_a_card_gets_through_exactly_when_it_beats_the_defence() -> None:
    chances = odds.through_by_value(6, 12)
    assert [v for v, p in chances.items() if p == 1.0] == list(range(7, 15))
    assert all(p == 0.0 for v, p in chances.items() if v <= 6)


def test_whose_turn_it_is_through_a_round() -> None:
    """Seed: "those with a higher Quickness attribute value typically ... going first"."""
    table = Table(stacked(ANN_HAND + ORC_HAND))
    table.send(GM, "set_weapons", weapons=[BLADE])
    table.send(GM, "start_combat", combatants=[ann(quickness=9), orc(quickness=2)])
    turn = view(table.state, Seat("spectator"))["turn"]
    # every focus is declared at once: the turn names everyone it waits for (issue 33)
    assert turn["combatant"] == "c1" and turn["says"] == "Ann and Orc choose a focus"
    assert turn["waiting"] == ["c1", "c3"] and turn["prompts"]["c3"] == "choose Orc's focus for this round"
    table.send(ANN, "declare_focus", combatant="c1", focus="physical")
    table.send(GM, "declare_focus", combatant="c3", focus="physical")
    assert view(table.state, Seat("player"))["turn"] == {
        "combatant": None, "gm": True, "says": "The GM shuffles and deals the hands",
        "prompt": "shuffle the Minor Arcana and deal the hands"}
    table.send(GM, "deal")
    assert view(table.state, Seat("player"))["turn"]["says"] == "Ann acts (10 AP left)"
    table.send(ANN, "attack", combatant="c1", target="c3", weapon="Blade", cards=[t("S5")], skill="melee")
    assert view(table.state, Seat("player"))["turn"]["combatant"] == "c3"
    assert "answers Ann's attack" in view(table.state, Seat("player"))["turn"]["says"]
    table.send(GM, "defend", combatant="c3", cards=[])
    [done] = table.send(ANN, "end_turn", combatant="c1")
    assert done["ap"] == 9 and next_to_act(table.state) == "c3"
    with pytest.raises(WrongStep):
        table.send(ANN, "end_turn", combatant="c1")
    table.send(GM, "end_turn", combatant="c3")
    assert view(table.state, Seat("gm"))["turn"]["says"] == "The GM starts the next round"


def test_the_character_card_shows_ap_tracks_now_of_whole_and_tags() -> None:
    table = fight()
    table.send(ANN, "attack", combatant="c1", target="c3", weapon="Blade", cards=[t("S5")], skill="melee")
    table.send(GM, "defend", combatant="c3", cards=[])
    [ended] = table.send(GM, "end_combat")
    sheet = clean_sheet({**orc(vulnerabilities="silver"), **writeback(ended, table.state)["c3"]})
    seen = glance(sheet)
    assert ("Health", 14, 20) in seen.tracks and ("Æssence", 20, 20) in seen.tracks
    assert dict(seen.stats)["AP"] == "8" and dict(seen.stats)["Melee"] == "6"
    assert "Vulnerable: silver" in seen.tags and not seen.out
    down = glance(clean_sheet({"health": 10, "health_now": 0}))
    assert down.out and "Down" in down.tags


def test_no_lens_lists_a_players_hand_and_only_the_gm_names_an_npcs_cards() -> None:
    table = fight()
    for lens in ("gm", "player", "spectator"):
        rows = {r["id"]: r for r in view(table.state, Seat(lens))["combat"]["combatants"]}
        assert "hand" not in rows["c1"] and "npc_cards" not in rows["c1"] and rows["c1"]["hand_count"] == 8
        assert ("npc_cards" in rows["c3"]) == (lens == "gm")


def test_the_log_of_a_round_replays_to_the_same_state() -> None:
    from games.shadows.system import ENGINE

    table = fight(["C9"])
    table.send(ANN, "aim", combatant="c1", target="c3", weapon="Blade", skill="melee")
    table.send(ANN, "attack", combatant="c1", target="c3", weapon="Blade", cards=[t("S12")], skill="melee")
    table.send(GM, "defend", combatant="c3", cards=[t("P6")])
    table.send(ANN, "prepare_check", character=ann(), combatant="c1", skill="", attribute="mind")
    replayed = ENGINE.fold(table.log)
    assert replayed == table.state and of_type(table.log, "attack_aimed")
