"""An NPC's sheet is the GM's (issue 21; the decided reading: "an NPC's sheet is the GM's unless the GM
shows it (a table setting, on by default): other seats see its name and what the rules make
public ... Odds that depend on a secret figure are shown to the GM alone"). The panel showed every
seat the Ghoul's Defence, Willpower and Speed, its pools and their odds, and the log carried them."""

from __future__ import annotations

import json
import re
from typing import Any

from games.contract import GM_SEAT, Seat
from games.harsh_light import SYSTEM, audiences
from games.harsh_light.panel import view
from tests.unit.harsh_light.conftest import Table, player, sheet

ANN = player("c1", member=2)
PLAYER = Seat("player", member=2, controls=frozenset({"c1"}), hidden=frozenset({"c2"}))
SPECTATOR = Seat("spectator", hidden=frozenset({"c2"}))
# The Ghoul's figures, each a number no other figure of these tables comes to.
GHOUL = sheet("Ghoul", strength=9, wits=8, dexterity=8, composure=7, resolve=6, skills={"Brawl": 8},
              defence=13, speed=44, willpower=17, blood_potency=6, npc=True)
# Defence (26 dodging), Speed, Willpower dots and points left, initiative total, pools and totals
FIGURES = {"13", "26", "44", "17", "16", "19", "15", "21", "18"}


def table() -> Table:
    return Table(c1=sheet("Ann", strength=3, skills={"Brawl": 2}), c2=dict(GHOUL))


def numbers(blob: Any) -> set[str]:
    """Every whole number in what a seat is sent, steps (the log's own count) and the drawings of
    card suits aside."""
    text = re.sub(r'"step": \d+|"glyph": "[^"]*"', "", json.dumps(blob))
    return set(re.findall(r"(?<![\d.])\d+(?![\d.])", text))


def test_a_seat_that_may_not_see_the_npc_s_sheet_gets_none_of_its_figures() -> None:
    t = table()
    t.send({"type": "roll_initiative", "characters": ["c1", "c2"]}, [3, 4])  # Ann 4 + 3 = 7; Ghoul 15 + 4
    assert t.state["acting"] == "c2"
    t.send({"type": "willpower", "combatant": "c2", "use": "power"})  # 17 dots, 16 points left
    t.pull("c2", [5], attribute="strength", skill="brawl", target="c1", resist="defence")  # 17 - 2 + 5
    t.send({"type": "move", "combatant": "c2"})
    t.send({"type": "end_turn"})
    t.send({"type": "set_up_pull", "combatant": "c1", "attribute": "strength", "skill": "brawl",
            "target": "c2", "resist": "defence"}, actor=ANN)
    for seat in (PLAYER, SPECTATOR):
        seen = t.seen(seat)
        assert numbers(seen) & FIGURES == set(), seat
        ghoul = next(p for p in seen["order"] if p["id"] == "c2")
        assert not ghoul["figures"] and "defence" not in ghoul and "speed" not in ghoul
        assert ghoul["willpower_spent"]  # the act is everyone's
        [ready] = seen["prepared"]
        assert ready["odds"] is None and ready["pool"] is None
        # Ann took the Ghoul's 5 successes in bashing: 5 of 7 boxes, -1 (issue 22), hers to see
        assert ready["pool_words"] == "Strength 3 + Brawl 2 - wound penalty 1 - Ghoul's Defence (the GM's)"
        assert "The odds depend on Ghoul's figures, which are the GM's" in ready["gm_line"]
        attack, initiative = seen["recent"][0], seen["recent"][1]
        assert attack["cards"][0]["id"] == "ten:S:5" and attack["successes"] == 5 and attack["secret"]
        assert "pool" not in attack and attack["total"] is None and attack["outcome"].startswith("5 successes")
        assert initiative["name"] == "Ghoul" and initiative["outcome"] == "initiative" and initiative["secret"]
    gm = t.seen(GM_SEAT)
    assert numbers(gm) >= {"13", "44", "17", "16", "19"}  # Defence, Speed, dots, points, initiative
    [ready] = gm["prepared"]
    assert ready["pool"]["size"] == 5 - 1 - 13 and ready["odds"]["dramatic"] > 0  # her wounds: -1
    # Ann's own figures stay hers to see
    ann = next(p for p in t.seen(PLAYER)["order"] if p["id"] == "c1")
    assert ann["figures"] and ann["defence"] == 2


class Watched(Table):
    """A table whose every command is followed by a look at the panel of a player and of a
    spectator: neither ever holds a figure of the Ghoul's."""

    def send(self, *args: Any, **kwargs: Any) -> list[dict[str, Any]]:
        events = super().send(*args, **kwargs)
        for seat in (PLAYER, SPECTATOR):
            assert numbers(self.seen(seat)) & FIGURES == set(), (seat, events[-1]["type"])
        return events


def test_an_npc_s_figures_go_in_the_gm_s_part_of_each_event() -> None:
    """The log is every seat's: a public payload or line holds no NPC figure; the GM's line adds
    them. The panel of a player and of a spectator holds none after any command."""
    t = Watched(c1=sheet("Ann", strength=3, skills={"Brawl": 2}), c2=dict(GHOUL))
    t.send({"type": "roll_initiative", "characters": ["c1", "c2"]}, [3, 4])
    t.send({"type": "willpower", "combatant": "c2", "use": "power", "note": "rage"})
    t.send({"type": "dodge", "combatant": "c2"})
    t.send({"type": "move", "combatant": "c2"})
    t.send({"type": "end_turn"})
    t.send({"type": "set_up_pull", "combatant": "c1", "attribute": "strength", "skill": "brawl",
            "target": "c2", "resist": "defence"}, actor=ANN)
    t.pull("c1", [10, 9], actor=ANN, set_up=True)
    t.send({"type": "end_combat"})
    t.send({"type": "contest_start", "supernatural": True, "sides": [
        {"combatant": "c1", "attribute": "resolve"}, {"combatant": "c2", "attribute": "composure"}]})
    t.send({"type": "contest_pull", "contest": "k1", "combatant": "c2"}, [2])
    [contest] = t.seen(PLAYER)["contests"]  # the Ghoul has pulled this round, Ann not yet
    assert contest["sides"][1]["pulled"]["successes"] == 3 and contest["sides"][1]["pulled"]["secret"]
    t.send({"type": "extended_start", "combatant": "c2", "attribute": "strength", "skill": "brawl", "needed": 50})
    t.send({"type": "extended_pull", "extended": "x2"}, [1])
    kinds = set()
    for event, line in zip(t.log, t.lines):
        seen = SYSTEM.visibility(event)
        assert seen.audience == "everyone"  # no event is the GM's alone: no sheet is copied into the log
        public = {k: v for k, v in event.items() if k not in seen.private}
        assert numbers(public) & FIGURES == set() and numbers(line) & FIGURES == set(), (event, line)
        assert audiences.RECKONED_GM not in public  # what the move reckoned of the Ghoul's figures
        if set(event.get("gm_figures") or ()) - {audiences.RECKONED_GM}:  # a figure of the line's own
            kinds.add(event["type"])
            assert seen.private_audience == "gm" and seen.private_note.startswith("(GM: ")
    assert kinds == {"order_set", "willpower_spent", "dodged", "moved", "pull_set_up", "pulled", "contest_pulled",
                     "extended_pulled"}
    # the lines as everyone reads them, and what the GM's adds
    by_type = {e["type"]: (e, line) for e, line in zip(t.log, t.lines)}
    order, line = by_type["order_set"]
    assert line.startswith("Initiative: Ann 4 + Three of Spades = 7; Ghoul pulls Four of Spades.")
    assert SYSTEM.visibility(order).private_note == "(GM: Ghoul 15 + 4 = 19.)"
    assert by_type["willpower_spent"][1] == "Ghoul spends a Willpower point on a power (rage)."
    assert SYSTEM.visibility(by_type["willpower_spent"][0]).private_note == "(GM: 16 points left.)"
    assert by_type["dodged"][1] == "Ghoul dodges: Defence doubled until Ghoul's next turn."
    assert by_type["moved"][1] == "Ghoul moves up to its Speed."
    pulled, line = by_type["pulled"]
    assert line == ("Ann attacks Ghoul in melee: Ten of Spades and Nine of Spades (ten-again) + pool Strength 3 + "
                    "Brawl 2 - Ghoul's Defence (the GM's): no successes: a miss.")
    assert SYSTEM.visibility(pulled).private_note == (
        "(GM: pool -21 (Strength 3 + Brawl 2 - Ghoul's Defence 26), total -2.)")
    contest_line = by_type["contest_pulled"][1]
    assert contest_line == "Ghoul's pull for a contest, round 1: Two of Spades + the GM's pool: 3 successes."
    # the state keeps every record whole, for the GM's panel
    assert t.state["recent"][-1]["pool"]["size"] == 9 + 8 and t.state["recent"][-1]["total"] == 18


def test_pools_and_figures_of_a_player_s_character_stay_everyone_s() -> None:
    """Only an NPC's figures are the GM's: Ann's pull against Bob, a player's character, is whole
    in the log and in every seat's panel."""
    t = Table(c1=sheet("Ann", strength=3, skills={"Brawl": 2}), c2=sheet("Bob", wits=3, dexterity=3))
    event = next(e for e in t.send({"type": "pull", "combatant": "c1", "attribute": "strength", "skill": "brawl",
                                    "target": "c2", "resist": "defence"}, [6], actor=ANN) if e["type"] == "pulled")
    assert "figures" not in event and event["record"]["total"] == 8 and SYSTEM.visibility(event).private == {}
    assert t.seen(Seat("spectator"))["recent"][0]["total"] == 8


def test_a_ranged_attack_on_an_npc_meets_none_of_its_figures_and_is_shown_whole() -> None:
    """Seed: "Defence usually doesn't apply against most ranged attacks": the pool holds no NPC
    figure, so the player sees its odds."""
    t = table()
    t.send({"type": "set_up_pull", "combatant": "c1", "attribute": "dexterity", "target": "c2",
            "resist": "defence", "attack": "ranged"}, actor=ANN)
    [ready] = t.seen(PLAYER)["prepared"]
    assert ready["odds"] is not None and not ready["gm_line"] and ready["pool"]["size"] == 2
    # a Defence of 0 reads as any other: the sign of a resisting part tells nothing
    assert audiences.pool_words({"parts": [["Wits", 2], ["Bob's Defence", 0]]}, (1,)) == \
        "Wits 2 - Bob's Defence (the GM's)"


def test_a_pull_kept_from_before_shows_nothing_of_a_pool_that_met_an_npc() -> None:
    """A table's state from before this reading holds records that do not say which parts of
    the pool were the target's: a seat that may not see the target's sheet gets none of it."""
    t = table()
    t.pull("c1", [6], actor=ANN, attribute="strength", skill="brawl", target="c2", resist="defence")
    old = {k: v for k, v in t.state["recent"][-1].items() if k != "target_figures"}
    [shown] = view({**t.state, "recent": [old]}, PLAYER)["recent"]
    assert shown["secret"] and shown["pool_words"] == "" and shown["total"] is None
    assert numbers(shown) & FIGURES == set()


def test_an_npc_s_pull_that_its_pool_alone_would_have_won_says_so_to_the_gm_alone() -> None:
    """Seed: "If something only takes a single success to achieve, and your pool is 7 or above,
    then you will accomplish the task automatically, without needing to pull a card". Whether the
    pool alone reaches the success is counted from the pool, the GM's figure for an NPC: a pull
    made anyway shows everyone its cards and successes, not that flag; one taken without a pull
    shows itself."""
    from games.harsh_light.rules import resolve
    from games.harsh_light.audiences import split_record, whole

    pulled = {**resolve(9, [4]).to_dict(), "combatant": "c3"}
    assert pulled["automatic"] and "automatic success" in pulled["rules"]
    shown, figures = split_record(pulled, own=True)
    assert shown["automatic"] is False and "automatic success" not in shown["rules"]
    assert "9" not in str({k: v for k, v in shown.items() if k not in ("values",)})
    assert whole(shown, figures)["rules"] == pulled["rules"] and whole(shown, figures)["automatic"]
    taken = {**resolve(9, []).to_dict(), "combatant": "c3"}
    shown, _ = split_record(taken, own=True)
    assert shown["automatic"] and "automatic success" in shown["rules"]
