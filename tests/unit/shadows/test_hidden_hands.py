"""Whole combat rounds driven at random: every card is conserved, and no card in a hand
reaches a public event, a summary, or a player's or spectator's panel before it is played.

Seed: "in combat, only the GM and the particular player will see their own card draws, due
to how players will "play cards from their hand""."""

from __future__ import annotations

from games.contract import Seat

import json
import random
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core.engine import RuleError
from games.shadows import deck
from games.shadows.audiences import audience
from games.shadows.narrate import summary
from games.shadows.panel import hand_of, view
from games.shadows.state import standing
from tests.unit.shadows.kit import ANN, BOB, GM, Table, ann, bob, orc, stacked

SMALL = {"body": 3, "physical": 2, "mind": 3, "mental": 2, "spirit": 3, "emotional": 2}
PEOPLE = [ann(**SMALL, quickness=6), bob(**SMALL, quickness=9), orc(**SMALL, quickness=4)]
SENDER = {"c1": ANN, "c2": BOB, "c3": GM}


class Round:
    """A table where every event is checked the moment it happens."""

    def __init__(self, seed: int) -> None:
        self.table = Table(stacked(seed=seed))
        self.table.rng = self.rng = random.Random(seed)
        self.cards = self.table.cards
        self.events: list[dict[str, Any]] = []
        self.round_began = 0

    @property
    def state(self) -> dict[str, Any]:
        return self.table.state

    def send(self, actor: dict[str, Any], kind: str, *, conserve: bool = True, **command: Any) -> bool:
        before = json.dumps(self.state, sort_keys=True)
        try:
            events = self.table.send(actor, kind, **command)
        except RuleError:
            assert json.dumps(self.state, sort_keys=True) == before, "a refusal changed the state"
            return False
        # each event as it happened: the state it left, folded one by one again
        state = json.loads(before)
        for event in events:
            state = self.table.play.engine.apply(state, event)
            self.check_hidden(event, state)
            self.events.append(event)
        if conserve:
            self.check_conserved()
        return True

    def this_round(self, panel: dict[str, Any]) -> dict[str, Any]:
        """The panel less the checks of earlier rounds: a card shown then was gathered and
        shuffled back, and may be in a hand now without anything having leaked."""
        return {**panel, "checks": [c for c in panel["checks"] if c["id"] >= self.round_began]}

    def secret(self, state: dict[str, Any]) -> set[str]:
        """The cards in hands now: a card discarded for a redeal lies face up on the
        discard pile, so it is no secret any more."""
        fight = state.get("combat") or {}
        return {c for p in (fight.get("combatants") or {}).values() for c in p["hand"]}

    def check_hidden(self, event: dict[str, Any], state: dict[str, Any]) -> None:
        seen = audience(event)
        public = {k: v for k, v in event.items() if k not in seen.private}
        text = "\n".join([json.dumps(public), summary(event, state),
                          *(json.dumps(self.this_round(view(state, Seat(lens)))) for lens in ("spectator", "player"))])
        secret = self.secret(state)
        if not secret:
            return
        words = [re.escape(token) + r"(?![0-9])" for token in secret]
        words += [re.escape(deck.name(token)) for token in secret]
        found = re.search("|".join(words), text)
        assert found is None, f"{found.group(0)} leaks in {event['type']}"
        if event["type"] in ("hand_dealt", "redealt"):
            assert seen.owner == event["combatant"] and seen.private_audience == "owner"

    def check_conserved(self) -> None:
        """Every Minor Arcana card is in exactly one place at the table (draw pile, discard
        pile, play area, a hand), and the engine's hands are exactly the table's hand piles:
        a card played from a hand has left the table's hand too."""
        fight = self.state.get("combat")
        if not fight:
            return
        where = {tok: (to, holder) for (d, tok), (_, _, to, holder) in self.cards._where.items()
                 if d == deck.MINOR}
        lying = [tok for tok, (to, _) in where.items() if to in ("hand", "play")]
        port = self.cards.decks[deck.MINOR] + self.cards.discards[deck.MINOR] + lying
        assert sorted(port) == sorted(deck.minor_tokens()), "a card was lost or doubled"
        for holder in {p["holder"] for p in fight["combatants"].values() if p["dealt"]}:
            engine = [c for p in fight["combatants"].values() if p["dealt"] and p["holder"] == holder
                      for c in p["hand"]]
            assert sorted(self.cards.held(deck.MINOR, holder)) == sorted(engine), "a hand disagrees"
        # a card played lies face up while its attack waits, then on the discard (so that the
        # draw pile refills from it), never back in a hand
        lying_up = [tok for tok, (to, _) in where.items() if to == "play"]
        waiting = (fight.get("pending") or {}).get("cards", [])
        assert sorted(lying_up) == sorted(waiting), "the play area disagrees"
        assert not set(fight["played"]) & {c for p in fight["combatants"].values() for c in p["hand"]}

    def start_round(self, first: bool, seed: int) -> None:
        if first:
            assert self.send(GM, "start_combat", combatants=PEOPLE)
        else:
            # The GM starts the next round: the engine gathers every card back (the cards
            # port's gather); a fresh stacked order stands for the new shuffle.
            assert self.send(GM, "new_round", conserve=False)
            assert ("Minor Arcana", "*", "gathered", None) in self.cards.placed
            self.cards.restack(deck.MINOR, stacked(seed=seed).decks[deck.MINOR])
            self.check_conserved()
        self.round_began = self.state["next_id"]
        up = [p for p in PEOPLE if standing(self.state["combat"]["combatants"][p["id"]])]
        for person in PEOPLE:
            focus = self.rng.choice(["physical", "mental", "spiritual"])
            # whoever is down or dead declares nothing and is dealt nothing
            assert self.send(SENDER[person["id"]], "declare_focus", combatant=person["id"], focus=focus) \
                == (person in up)
        assert self.send(GM, "deal") == bool(up)


def play(table: Round, move: int, pick: int) -> None:
    fight = table.state["combat"]
    rng = random.Random(pick)
    people = fight["combatants"]
    if move == 0 and not fight["pending"]:
        cid = rng.choice(list(people))
        hand = people[cid]["hand"]
        if not hand:
            return
        cards = rng.sample(hand, min(len(hand), rng.randint(1, 2)))
        target = rng.choice([c for c in people if c != cid])
        table.send(SENDER[cid], "attack", combatant=cid, target=target, weapon=rng.choice(["Sword", "Mana bolt", "Soul lash", "Handgun"]),
                   cards=cards, ap=rng.randint(1, len(cards)), skill="melee" if rng.random() < 0.5 else "")
    elif move == 1 and fight["pending"]:
        cid = fight["pending"]["target"]
        hand = people[cid]["hand"]
        cards = rng.sample(hand, min(len(hand), rng.randint(0, fight["pending"]["ap"])))
        table.send(SENDER[cid], "defend", combatant=cid, cards=cards)
    elif move == 2:
        cid = rng.choice(list(people))
        hand = people[cid]["hand"]
        if hand:
            table.send(SENDER[cid], "redeal", combatant=cid, cards=rng.sample(hand, min(len(hand), rng.randint(1, 3))))
    elif move == 3:
        cid = rng.choice(list(people))
        hand = people[cid]["hand"]
        table.send(SENDER[cid], "check", character=PEOPLE[int(cid[1]) - 1], skill="stealth", attribute="quickness",
                   complexity="normal", cards=1, from_hand=rng.sample(hand, 1) if hand and rng.random() < 0.5 else [])
    elif move == 4 and fight["pending"]:
        table.send(GM, "set_cover", cover=rng.choice([0, 5, 10]))
    elif move == 5:
        # a wrong sender, a card from someone else's hand: refused, nothing changes
        cid = rng.choice(list(people))
        other = next(c for c in people if c != cid)
        if people[other]["hand"] and not fight["pending"]:
            table.send(SENDER[cid], "attack", combatant=cid, target=other, weapon="Sword",
                       cards=[people[other]["hand"][0]])


moves = st.lists(st.tuples(st.integers(0, 6), st.integers(0, 10_000)), min_size=4, max_size=30)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.lists(moves, min_size=1, max_size=3))
def test_cards_are_conserved_and_hands_stay_hidden_across_whole_rounds(seed: int, rounds: list) -> None:
    table = Round(seed)
    for number, round_moves in enumerate(rounds):
        if number:
            fight = table.state["combat"]
            if fight["pending"]:
                table.send(GM, "defend", combatant=fight["pending"]["target"], cards=[])
        table.start_round(number == 0, seed + number)
        for move, pick in round_moves:
            if move == 6:
                continue
            play(table, move, pick)
    assert table.send(GM, "end_combat")


def test_each_player_sees_only_their_own_hand() -> None:
    table = Round(7)
    table.start_round(True, 7)
    fight = table.state["combat"]["combatants"]
    mine = hand_of(table.state, ANN["member"])
    assert [h["combatant"] for h in mine] == ["c1"]
    assert [c["token"] for c in mine[0]["cards"]] == fight["c1"]["hand"]
    gm = hand_of(table.state, GM["member"])
    assert [h["combatant"] for h in gm] == ["c3"]  # the NPC's hand is the GM's
    for lens in ("player", "spectator"):
        panel = view(table.state, Seat(lens))
        assert all("hand" not in row for row in panel["combat"]["combatants"])
        assert [row["hand_count"] for row in panel["combat"]["combatants"]] == [4, 4, 4]
    # No lens lists a hand: the table's hand panels show them. The GM's alone names the
    # NPC's cards (all NPCs' hands lie in the GM's one pile).
    gm_rows = view(table.state, Seat("gm"))["combat"]["combatants"]
    assert all("hand" not in row for row in gm_rows)
    assert [row.get("npc_cards") for row in gm_rows if row["npc"]] == [
        [deck.name(t) for t in fight["c3"]["hand"]]]
