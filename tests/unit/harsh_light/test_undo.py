"""The Storyteller's undo at a Harsh Light table (undo.py). Issue 35: "Undo for every system: the
GM takes back the last step, as the others do". The step is taken back by folding the log again
without it; what it wrote on the sheets (Willpower, Health, Beats) goes back as it was; a card
pulled is a card pulled: it stays on the discard pile, and a pull made again is a new card."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from games.contract import GM_ONLY, PUBLIC, SPECTATOR_SEAT
from games.core import clock as time
from games.core.cards_port import StackedCards
from games.core.engine import UNDONE, NotYourMove, RuleError
from games.harsh_light import DECK, ENGINE, SYSTEM, health, undo
from games.harsh_light import sheet as sh
from tests.unit.harsh_light.conftest import Table, player, sheet, tokens
from tests.unit.harsh_light.test_campaign import close

ANN = player("c1", member=2)
ALL = [f"ten:{s}:{v}" for v in range(1, 11) for s in "SHDC"]


def port(*top: int, seed: int | None = None) -> StackedCards:
    """The whole deck, with these values on top (or shuffled by ``seed``)."""
    first = tokens(*top)
    rest = [t for t in ALL if t not in first]
    if seed is not None:
        random.Random(seed).shuffle(rest)
    return StackedCards({DECK: first + rest})


def where(cards: StackedCards) -> dict[str, list[str]]:
    """Every card of the deck by where it lies: the draw pile, the discard pile, elsewhere."""
    lying = {t: w for (d, t), (_, _, w, _) in cards._where.items() if d == DECK}  # noqa: SLF001
    elsewhere = [t for t, w in lying.items() if w != "discard"]
    return {"draw": list(cards.decks[DECK]), "discard": list(cards.discards[DECK]), "elsewhere": elsewhere}


def conserved(cards: StackedCards) -> None:
    """Every card stays in exactly one place: the draw pile or the discard pile, none left in play."""
    lies = where(cards)
    assert lies["elsewhere"] == []
    assert sorted(lies["draw"] + lies["discard"]) == sorted(ALL)


def kept(sheets: dict[str, dict[str, Any]]) -> dict[str, tuple[Any, ...]]:
    """What the rules write on each sheet, as the rules read it."""
    out = {}
    for cid, given in sheets.items():
        read = sh.read({k: v for k, v in given.items() if k not in ("name", "npc")})
        out[cid] = (health.of(read).counts(), bool(read["unconscious"]), sh.willpower_points(read),
                    read["beats"], read["experiences"])
    return out


def fighters() -> Table:
    """Ann (Willpower 6) and Bob, who has no Willpower point left (no answer awaited), and a Ghoul."""
    return Table(c1=sheet("Ann", strength=3, resolve=3, composure=3, skills={"Brawl": 2}),
                 c2=sheet("Bob", willpower_points=0), c3=sheet("Ghoul", npc=True, resolve=3, composure=2))


def test_the_gm_takes_back_the_last_step_and_the_sheets_go_back_as_they_were() -> None:
    """Issue 35: "Undo for every system ... the GM takes back the last step, as the others do"."""
    t = fighters()
    cards = port(9, 4, 6)
    t.pull("c2", cards, attribute="wits")  # a step before, which stays
    state, sheets = copy.deepcopy(t.state), copy.deepcopy(t.sheets)
    t.pull("c1", cards, attribute="strength", skill="brawl", target="c2", resist="defence", willpower=True)
    assert t.sheets["c1"]["willpower_points"] == 5 and t.sheets["c2"]["bashing"] > 0
    pulled = list(t.state["recent"][-1]["cards"])
    [event] = t.send({"type": "undo"}, cards)
    assert event["type"] == UNDONE and event["restore"] == {"c1": {"willpower_points": 6},
                                                             "c2": {"aggravated": 0, "lethal": 0, "bashing": 0,
                                                                    "unconscious": False}}
    assert t.state == {**state, "step": t.state["step"]}
    assert kept(t.sheets) == kept(sheets)
    assert ENGINE.fold(json.loads(json.dumps(t.log))) == t.state
    # a card pulled is a card pulled: it stays on the discard pile
    assert set(pulled) <= set(cards.discards[DECK])
    conserved(cards)
    assert t.lines[-1] == (
        "The Storyteller takes back the last step (Ann spends a Willpower point on +3 to the pool; 5 points left). "
        "The card it pulled (Four of Spades) stays on the discard pile: a pull made again is a new card. "
        "The sheets of Ann and Bob are as they were before it.")


def test_a_pull_made_again_is_a_new_card() -> None:
    """The card a step taken back pulled does not come off the deck again: the next one does."""
    t = fighters()
    cards = port(2, 8)
    first = t.pull("c1", cards, attribute="wits")
    t.send({"type": "undo"}, cards)
    again = t.pull("c1", cards, attribute="wits")
    assert first["cards"] == ["ten:S:2"] and again["cards"] == ["ten:S:8"]
    conserved(cards)


def test_undo_steps_back_one_at_a_time_and_then_refuses() -> None:
    t = fighters()
    t.send({"type": "willpower", "combatant": "c1", "use": "power"})
    t.send({"type": "end_turn"})
    t.send({"type": "willpower", "combatant": "c1", "use": "power"})
    assert t.sheets["c1"]["willpower_points"] == 4
    t.send({"type": "undo"})
    assert t.sheets["c1"]["willpower_points"] == 5 and t.status("c1")["willpower_spent"] is False
    t.send({"type": "undo"})
    assert t.sheets["c1"]["willpower_points"] == 5 and t.status("c1")["willpower_spent"] is True
    t.send({"type": "undo"})
    assert t.sheets["c1"]["willpower_points"] == 6
    before = copy.deepcopy(t.state)
    with pytest.raises(RuleError, match="There is no step to take back."):
        t.send({"type": "undo"})
    assert t.state == before
    assert ENGINE.fold(t.log) == t.state


def test_only_the_gm_takes_a_step_back() -> None:
    t = fighters()
    t.send({"type": "willpower", "combatant": "c1", "use": "power"})
    with pytest.raises(NotYourMove, match="Only the GM can take back the last step"):
        t.send({"type": "undo"}, actor=ANN)


def test_time_taken_back_takes_back_its_healing_and_willpower() -> None:
    """The clock's night ("one point back after a night's rest", the decided reading) taken back:
    the wounds, the Willpower and the nights of rest counted are as they were."""
    t = Table(c1=sheet("Ann", lethal=1, bashing=2, willpower_points=1))
    sheets, state = copy.deepcopy(t.sheets), copy.deepcopy(t.state)
    t.send({"type": "pass_time", "span": "night"})
    assert t.sheets["c1"]["willpower_points"] == 2 and t.state["rest"] == {"c1": 1}
    t.send({"type": "undo"})
    assert kept(t.sheets) == kept(sheets) and t.state["rest"] == {}
    assert time.now(t.state) == time.now(state)


def test_beats_taken_back_with_the_step_that_gave_them() -> None:
    """"Beats as the World of Darkness games count them (a Dramatic Failure, a session's end, a
    Storyteller's award); five Beats make an Experience": a step taken back takes its Beats back."""
    t = Table(c1=sheet("Ann", beats=4, experiences=1))
    t.send({"type": "pull", "combatant": "c1", "attribute": "wits", "modifier": -2}, [1])  # a Dramatic Failure
    assert (t.sheets["c1"]["beats"], t.sheets["c1"]["experiences"]) == (0, 2)
    t.send({"type": "undo"})
    assert (t.sheets["c1"]["beats"], t.sheets["c1"]["experiences"]) == (4, 1)
    close(t, award=["1"])
    assert (t.sheets["c1"]["beats"], t.sheets["c1"]["experiences"]) == (1, 2)
    t.send({"type": "undo"})
    assert (t.sheets["c1"]["beats"], t.sheets["c1"]["experiences"]) == (4, 1)


def test_an_npcs_willpower_put_back_is_the_gms_figure() -> None:
    """The decided reading: "an NPC's sheet is the GM's unless the GM shows it": what the Ghoul's
    Willpower was is in the GM's part, of the step and of its undo; the line names none of it."""
    t = fighters()
    [spent] = t.send({"type": "willpower", "combatant": "c3", "use": "power"})
    assert "was" not in spent and spent["was_gm"] == {"c3": {"willpower_points": 5}}
    assert "was_gm" in SYSTEM.visibility(spent).private
    [event] = t.send({"type": "undo"})
    seen = SYSTEM.visibility(event)
    assert "restore" not in event and seen.private == {"restore_gm": {"c3": {"willpower_points": 5}}}
    assert seen.private_note == "" and "5" not in t.lines[-1]
    assert t.sheets["c3"]["willpower_points"] == 5


def test_the_undo_of_a_step_only_the_gm_saw_is_the_gms() -> None:
    """"A condition on a secret NPC is the GM's unless shown": so is taking it back."""
    t = fighters()
    t.send({"type": "add_condition", "character": "3", "name": "Frenzied", "effect": "dice", "amount": 2})
    [event] = t.send({"type": "undo"})
    assert SYSTEM.visibility(event) == GM_ONLY and time.conditions(t.state) == []
    t.send({"type": "add_condition", "character": "1", "name": "Shaken", "effect": "dice", "amount": -1})
    [event] = t.send({"type": "undo"})
    assert SYSTEM.visibility(event) == PUBLIC


def test_a_step_that_did_not_record_what_it_overwrote_is_not_taken_back() -> None:
    """A step logged before moves recorded what they overwrite cannot put the sheet back: the
    undo says so and changes nothing."""
    t = fighters()
    t.send({"type": "willpower", "combatant": "c1", "use": "power"})
    t.log[-1].pop(undo.WAS)
    before = copy.deepcopy(t.state)
    with pytest.raises(RuleError, match="correct the sheet by hand"):
        t.send({"type": "undo"})
    assert t.state == before


def test_the_panel_names_the_step_the_undo_takes_back() -> None:
    """The panel's "Undo last step" names the step as everyone read it (the template draws the
    button for the GM alone); nothing to take back, no button."""
    t = fighters()
    assert t.view(SPECTATOR_SEAT)["undo"] == ""
    t.send({"type": "willpower", "combatant": "c3", "use": "power"})
    assert t.view(SPECTATOR_SEAT)["undo"] == "Ghoul spends a Willpower point on a power."


# A seeded game with undos.


def step(t: Table, rnd: random.Random, cards: StackedCards) -> dict[str, Any]:
    """One move the table might make, chosen at random."""
    who, other = rnd.sample(["c1", "c2", "c3"], 2)
    if t.state["combat"] and t.state["acting"] and rnd.random() < 0.8:  # mostly the one whose action it is
        who = t.state["acting"]
        other = rnd.choice([c for c in ("c1", "c2", "c3") if c != who])
    waiting = t.state.get("reaction")
    if waiting:
        return {"type": "answer", "combatant": waiting["target"], "willpower": rnd.random() < 0.5}
    pulls = [
        {"type": "pull", "combatant": who, "attribute": "wits", "modifier": rnd.randint(-4, 2),
         "willpower": rnd.random() < 0.4},
        {"type": "pull", "combatant": who, "attribute": "strength", "skill": "brawl", "target": other,
         "resist": "defence", "willpower": rnd.random() < 0.3},
    ]
    return rnd.choice([
        {"type": "undo"}, {"type": "undo"}, *pulls, *pulls, *pulls,
        {"type": "willpower", "combatant": who, "use": "power"},
        {"type": "harm", "combatant": who, "points": rnd.randint(1, 3), "kind": rnd.choice(health.KINDS)},
        {"type": "heal", "combatant": who, "points": rnd.randint(1, 2)},
        {"type": "pass_time", "span": rnd.choice(["scene", "night", "week"])},
        {"type": "end_turn"},
        {"type": "set_order", "order": ["c1", "c2", "c3"]},
        {"type": "roll_initiative", "characters": ["c1", "c2", "c3"]},
        {"type": "end_combat"},
        {"type": "close"},
    ])


@pytest.mark.parametrize("seed", range(4))
def test_a_seeded_game_with_undos_keeps_every_card_in_one_place_and_folds_back(seed: int) -> None:
    """Issue 35's undo over a long game: after every move and every undo, every card lies in
    exactly one place, the log folds back to the state, and an undo leaves the sheets as they were
    before the step it takes back."""
    rnd = random.Random(seed)
    t = Table(c1=sheet("Ann", strength=3, stamina=3, resolve=3, composure=3, skills={"Brawl": 2}),
              c2=sheet("Bob", stamina=3, resolve=2, composure=3, dexterity=3),
              c3=sheet("Ghoul", npc=True, strength=3, stamina=3, resolve=3, composure=2, skills={"Brawl": 2}))
    t.answer = None  # the answers are the game's own moves
    cards = port(seed=seed)
    cards.draw(DECK, 30, to="discard")  # a deck well used: it goes round, its discard shuffled back in
    before: dict[int, dict[str, tuple[Any, ...]]] = {}  # the sheets before each step
    undone = 0
    for _ in range(140):
        command = step(t, rnd, cards)
        sheets, state = kept(t.sheets), copy.deepcopy(t.state)
        try:
            events = close(t) if command["type"] == "close" else t.send(command, cards)
        except RuleError:
            assert t.state == state and kept(t.sheets) == sheets
            continue
        if not events:
            continue
        if events[0]["type"] == UNDONE:
            undone += 1
            assert kept(t.sheets) == before[events[0]["undoes_step"]], command
        else:
            before[events[0]["step"]] = sheets
        conserved(cards)
        if events[0]["type"] == UNDONE or len(t.log) % 8 == 0:
            assert ENGINE.fold(json.loads(json.dumps(t.log))) == t.state
    assert ENGINE.fold(json.loads(json.dumps(t.log))) == t.state
    assert undone > 10 and len(cards.placed) > len(ALL)  # ten cards left: the discard was shuffled back in
