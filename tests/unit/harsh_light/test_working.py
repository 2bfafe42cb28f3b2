"""Each log line unfolds to its working (issue 23): the pull's arithmetic, the damage's boxes, the
comparison that decided, and the rule applied in the seed's words."""

from __future__ import annotations

from typing import Any

from games.contract import Working
from games.harsh_light import SYSTEM
from games.harsh_light import working as w
from tests.unit.harsh_light.conftest import Table, player, sheet
from tests.unit.harsh_light.test_secrecy import FIGURES, GHOUL, numbers

ANN, BOB = player("c1", member=2), player("c2", member=3, name="Bo")


def worked(t: Table, kind: str) -> tuple[Working, str]:
    """The working and the line of the last event of ``kind``."""
    i = max(i for i, e in enumerate(t.log) if e["type"] == kind)
    made = SYSTEM.engine.working(t.log[i], t.state)
    assert made is not None
    return made, t.lines[i]


def duel() -> Table:
    return Table(c1=sheet("Ann", strength=3, dexterity=3, skills={"Brawl": 2, "Firearms": 2}, weapon="Knife",
                          weapon_damage=1),
                 c2=sheet("Bob", defence=2))


def test_a_pull_shows_its_pool_its_card_its_total_and_the_successes_it_reaches() -> None:
    """Seed: "When you pull a card and add your pool, you get your first success at a total of eight
    (for example, a pull of three + a pool of five), and every three points above eight is another
    success." The seed's own example: a pull of three and a pool of five."""
    t = duel()
    t.pull("c1", [3], attribute="dexterity", skill="firearms")
    made, line = worked(t, "pulled")
    assert line == "Ann pulls Dexterity + Firearms: Three of Spades + pool 5 = 8, 1 success: it succeeds."
    assert made.steps == ("Dexterity 3", "+ Firearms 2", "= pool 5", "+ Three of Spades: 3",
                          "= total 8, which reaches 8: 1 success", "1 success needed: it succeeds")
    assert made.rule == w.SUCCESSES and made.source == "Basic Rules"
    assert "a pull of three + a pool of five" in made.rule


def test_a_ten_pulls_a_second_card_and_both_count() -> None:
    """Seed: "A pull of 10 (or, with certain powers and/or equipment, even 8 or 9) allows you pull a
    second card, adding both cards to your pool for your total.\""""
    t = duel()
    t.pull("c1", [10, 1], attribute="dexterity", skill="firearms")
    made, _ = worked(t, "pulled")
    assert made.steps[3:6] == ("+ Ten of Spades: 10 (ten-again: a second card)", "+ Ace of Spades: 1",
                               "= total 16, which reaches 14: 3 successes")
    assert made.rule.startswith(w.AGAIN) and w.SUCCESSES in made.rule


def test_an_ace_on_a_pool_of_nothing_is_a_dramatic_failure() -> None:
    """Seed: "If you pull a 1 while using a pool of 0 or less, you have Dramatically Failed!\""""
    t = Table(c1=sheet("Ann", intelligence=1))
    t.pull("c1", [1], attribute="intelligence", modifier=-2, reason="in the dark")
    made, line = worked(t, "pulled")
    assert line == "Ann pulls Intelligence: Ace of Spades + pool -1 = 0, a Dramatic Failure."
    assert made.steps == ("Intelligence 1", "- in the dark 2", "= pool -1", "+ Ace of Spades: 1",
                          "= total 0, which is under 8: no successes", "an Ace on a pool of -1: a Dramatic Failure",
                          "1 success needed: it fails")
    assert made.rule == w.DRAMATIC


def test_an_automatic_success_says_what_the_worst_card_would_make() -> None:
    """Seed: "If something only takes a single success to achieve, and your pool is 7 or above, then
    you will accomplish the task automatically, without needing to pull a card\""""
    t = Table(c1=sheet("Ann", dexterity=4, skills={"Athletics": 3}))
    t.pull("c1", attribute="dexterity", skill="athletics", no_pull=True)
    made, _ = worked(t, "pulled")
    assert made.steps[3:] == ("the lowest card, an Ace, would make 8: 1 success without a pull",
                              "1 success needed: it succeeds")
    assert made.rule == w.AUTOMATIC


def test_an_attack_subtracts_the_defence_and_its_damage_counts_its_boxes() -> None:
    """Seed: "Resisted rolls are where you subtract an opponent's pool from your roll – generally
    either Defence or a Resistance trait (Resolve, Stamina, or Composure)." The damage is our reading
    (the seed is silent): successes plus the weapon's bonus."""
    t = duel()
    t.pull("c1", [9], attribute="strength", skill="brawl", target="c2", resist="defence", weapon="sheet")
    made, line = worked(t, "pulled")
    assert line == "Ann attacks Bob in melee with Strength + Brawl: Nine of Spades + pool 3 = 12, 2 successes: a hit."
    assert made.steps == ("Strength 3", "+ Brawl 2", "- Bob's Defence 2", "= pool 3", "+ Nine of Spades: 9",
                          "= total 12, which reaches 11: 2 successes", "1 success needed: a hit")
    assert made.rule == w.RESISTED and made.source == "Action Types: Resisted"
    made, line = worked(t, "damaged")
    assert line.startswith("Bob takes 3 lethal from Ann's attack (2 successes, Knife +1)")
    assert made.steps == ("2 successes on the attack", "+ Knife 1", "= 3 lethal", "Health now X X X · · · · (7 boxes)")
    assert made.rule.startswith(w.DAMAGE) and "the rules are silent" in made.source


def test_willpower_a_dodge_and_a_move_quote_their_rules() -> None:
    """Seed: "Spending a point of Willpower adds 3 to your pool for a pull ... You may only spend one
    Willpower per turn"; "give up your attack to double your Defence until your next turn (known as a
    Dodge move)"; "All characters may move their Speed in steps as a reflexive action once per turn"."""
    t = Table(c1=sheet("Ann", dexterity=3, composure=3), c2=sheet("Bob", dexterity=2, composure=2, defence=2))
    t.send({"type": "roll_initiative", "characters": ["c1", "c2"]}, [2, 9])
    made, _ = worked(t, "order_set")
    assert made.steps == ("Ann: Dexterity + Composure 6 + Two of Spades 2 = 8",
                          "Bob: Dexterity + Composure 4 + Nine of Spades 9 = 13", "highest first: Bob, Ann")
    t.send({"type": "willpower", "combatant": "c2", "use": "resist"}, actor=BOB)
    made, _ = worked(t, "willpower_spent")
    assert made.steps[0] == "Bob spends 1 Willpower: +2 against the next resisted test" and made.rule == w.WILLPOWER
    t.send({"type": "dodge", "combatant": "c2"}, actor=BOB)
    made, _ = worked(t, "dodged")
    assert made.steps == ("Defence 2 × 2 = 4", "until the next turn") and made.rule == w.DODGE
    t.send({"type": "move", "combatant": "c2"}, actor=BOB)
    made, _ = worked(t, "moved")
    assert made.rule == w.MOVE


def test_an_extended_pull_adds_its_successes_to_those_gathered() -> None:
    """Seed: "The player pulls cards until they have accumulated however many successes are needed\""""
    t = Table(c1=sheet("Ann", dexterity=3, skills={"Larceny": 2}))
    t.send({"type": "extended_start", "combatant": "c1", "attribute": "dexterity", "skill": "larceny",
            "needed": 5, "unit": "combat round", "label": "picking the lock"})
    [action] = t.state["extended"]
    t.send({"type": "extended_pull", "extended": action}, [6], actor=ANN)
    t.send({"type": "extended_pull", "extended": action}, [10, 1], actor=ANN)
    made, line = worked(t, "extended_pulled")
    assert line.endswith("5 of 5 gathered. Done!")
    assert made.steps[-1] == "2 gathered + 3 = 5 of 5: done" and made.rule.startswith(w.EXTENDED)


def test_a_contest_round_compares_successes() -> None:
    """Seed: "Both pull a card, add their pools and compare successes, with the higher number of
    successes winning.\""""
    t = Table(c1=sheet("Ann", dexterity=2), c2=sheet("Bob", dexterity=2, skills={"Athletics": 3}))
    t.send({"type": "contest_start", "label": "a race", "needed": 0, "sides": [
        {"combatant": "c1", "attribute": "dexterity", "skill": "athletics"},
        {"combatant": "c2", "attribute": "dexterity", "skill": "athletics"}]})
    t.send({"type": "contest_pull", "contest": "k1", "combatant": "c1"}, [6], actor=ANN)
    t.send({"type": "contest_pull", "contest": "k1", "combatant": "c2"}, [7], actor=BOB)
    made, _ = worked(t, "contest_round")
    assert made.steps[-1] == "Bob wins" and made.rule == w.CONTESTED


def test_a_fainting_pull_cites_our_reading() -> None:
    """Our reading of the World of Darkness (the seed is silent): bashing in the last box calls for a
    Stamina pull, no wound penalty; failing it, the character falls unconscious."""
    t = Table(c1=sheet("Ann", strength=5, skills={"Brawl": 5}), c2=sheet("Bob", defence=0))
    t.pull("c1", [10, 6], attribute="strength", skill="brawl", target="c2", resist="defence")
    made, line = worked(t, "consciousness_pulled")
    assert made.steps[0] == "Stamina 2" and made.rule == w.CONSCIOUS
    assert line.endswith("Bob falls unconscious.") or line.endswith("Bob stays conscious.")


def test_a_working_with_an_npc_s_figure_is_the_gm_s_twin_of_a_public_one() -> None:
    """The decided reading: "an NPC's sheet is the GM's unless the GM shows it". The platform stores a
    working in the public payload, and a declared one's private twin with the GM's part: so no
    working that goes in the payload names a figure of the Ghoul's, and those that do are the
    private twins of events with a GM's part."""
    t = Table(c1=sheet("Ann", strength=3, skills={"Brawl": 2}), c2=dict(GHOUL))
    t.send({"type": "roll_initiative", "characters": ["c1", "c2"]}, [3, 4])
    t.send({"type": "dodge", "combatant": "c2"})
    t.send({"type": "end_turn"})
    t.pull("c1", [10, 9], actor=ANN, attribute="strength", skill="brawl", target="c2", resist="defence")
    t.send({"type": "end_combat"})
    t.pull("c1", [9], actor=ANN, attribute="strength", skill="brawl", target="c2", resist="defence",
           attack="ranged")
    t.send({"type": "contest_start", "sides": [
        {"combatant": "c1", "attribute": "resolve"}, {"combatant": "c2", "attribute": "composure"}]})
    t.send({"type": "contest_pull", "contest": "k1", "combatant": "c2"}, [2])
    t.send({"type": "contest_pull", "contest": "k1", "combatant": "c1"}, [9], actor=ANN)
    public: list[Any] = []
    for event in t.log:
        made = SYSTEM.engine.working(event, t.state)
        if made is None:
            continue
        seen = SYSTEM.visibility(event)
        assert numbers(made.data()) & FIGURES == set(), (event["type"], made)  # what goes in the payload
        if seen.private or seen.private_note:
            assert made.private is not None and made.private.steps != made.steps, (event["type"], made)
        else:
            assert made.private is None, event["type"]
            public.append(event["type"])
    assert {"damaged", "contest_round", "pulled"} <= set(public)
    secret = [e for e in t.log if e["type"] in ("dodged", "order_set")]
    assert secret and all(SYSTEM.visibility(e).private for e in secret)
