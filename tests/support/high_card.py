"""High Card: a game system that exists only for the tests, to prove the seam's cards port.

Its one check draws the top card of the table's deck called "Fate" face up and succeeds when
the card's value reaches the difficulty; its one command ("duel") deals a card to each of two
characters' players face down and says who holds the higher, so hidden cards go through a
procedure's private part. It is pure Python, like any system: the tests register it for the
length of a test (tests/integration/test_high_card.py).

It is a system in one module: its top-level names carry the roles a package's files would
(docs/adding-a-system.md, "One module"): ``SYSTEM``, ``MOVES``, ``new_state``, ``FOLDS``, its
``RuleError``, ``summary``, ``view``, ``SHEET`` and ``SAMPLES``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import (
    PUBLIC, Check, CheckRun, GameSystem, Panel, Sample, Seat, Sheet, Table, Visibility, Working,
)
from games.core.cards import card_by_id
from games.core.engine import Engine, Move, RuleError, Turn
from games.forms import Form, value


class HighCardError(RuleError):
    pass


def parse_draw(form: Form, table: Table) -> dict[str, Any]:
    character = table.character(value(form, "character"))
    if character is None:
        raise HighCardError("Choose a character.")
    try:
        difficulty = int(value(form, "difficulty"))
    except ValueError:
        raise HighCardError("The difficulty is a whole number.") from None
    if not 1 <= difficulty <= 10:
        raise HighCardError("The difficulty is from 1 to 10.")
    return {"character": character.id, "difficulty": difficulty}


def run_draw(run: CheckRun) -> tuple[dict[str, Any], str]:
    [card] = run.cards.draw("Fate", 1, to="play")
    difficulty = int(run.args["difficulty"])
    success = card.card.value >= difficulty
    name = run.characters[int(run.args["character"])].name
    line = f"{name} draws {card.card.name} against {difficulty}: {'success' if success else 'failure'}."
    return {"card": card.token, "difficulty": difficulty, "success": success}, line


RULE = "A card whose value reaches the difficulty succeeds."


def draw_working(data: Mapping[str, Any]) -> Working:
    card = card_by_id(data["card"])
    return Working(steps=(f"{card.name}: {card.value}",
                          f"against {data['difficulty']}: {'success' if data['success'] else 'failure'}"),
                   rule=RULE, source="High Card, the one rule")


DUEL_RULE = "The higher card wins the duel."


def working(event: Mapping[str, Any], state: Mapping[str, Any]) -> Working | None:
    """A dealt card's working names it: undeclared, the platform keeps it with the private
    part. The duel's is declared public (no card named), its private twin naming both cards."""
    if event["type"] == "dealt":
        return Working(steps=(f"dealt {card_by_id(event['card']).name}",), rule="Each duellist is dealt one card.")
    return Working(steps=("both cards compared face down",), rule=DUEL_RULE,
                   private=Working(steps=tuple(f"{cid} holds {card_by_id(t).name}" for cid, t in event["cards"].items()),
                                   rule=DUEL_RULE))


def parse_duel(form: Form, table: Table) -> dict[str, Any]:
    chosen = table.chosen(form.get("characters", ()))
    if len(chosen) != 2:
        raise HighCardError("Choose two characters.")
    return {"duelists": [c.cid for c in chosen]}


def new_state() -> dict[str, Any]:
    return {"duels": 0}


def duel(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[dict[str, Any]]:
    """Each duellist's player is dealt a card face down; the higher wins. Who plays them is read
    under the lock (``turn.characters``), not taken from the form."""
    assert turn.cards is not None
    players = {cid: turn.character(cid) for cid in args["duelists"]}
    if any(c is None or c.owner is None for c in players.values()):
        raise HighCardError("Choose two characters that players play.")
    events = []
    drawn = {}
    for cid, character in players.items():
        [card] = turn.cards.draw("Fate", 1, to="hand", holder=character.owner)
        drawn[cid] = card
        events.append({"type": "dealt", "combatant": cid, "card": card.token})
    high = max(drawn, key=lambda cid: drawn[cid].card.value)
    events.append({"type": "duel_won", "combatant": high, "cards": {c: d.token for c, d in drawn.items()}})
    return events


def won(state: dict[str, Any], event: dict[str, Any]) -> None:
    state["duels"] += 1


MOVES = (Move("duel", "Call a duel", parse_duel, duel),)
FOLDS = {"dealt": lambda state, event: None, "duel_won": won}


def summary(event: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    if event["type"] == "dealt":
        return "A card is dealt face down for the duel."
    return "The duel is decided."


def dealt(event: Mapping[str, Any]) -> Visibility:
    """A dealt card is its holder's and the GM's."""
    return Visibility(owner=event["combatant"], private={"card": event["card"]},
                      private_summary=f"You are dealt {event['card']}.")


def duel_won(event: Mapping[str, Any]) -> Visibility:
    """Who won is public, the cards are not."""
    return Visibility(private={"cards": event["cards"]}, private_audience="gm")


AUDIENCES = {"dealt": dealt, "duel_won": duel_won, "drew": PUBLIC}  # the check's card lies face up


def view(state: Mapping[str, Any], seat: Seat) -> dict[str, Any]:
    """Every seat's panel: how many duels were fought."""
    return dict(state)


SHEET = Sheet(clean=lambda sheet: dict(sheet))
SAMPLES = (Sample("Hero", {}), Sample("Foe", {}, npc=True))


SYSTEM = GameSystem(
    key="high_card",
    name="High Card",
    blurb="A test system: one card against a difficulty.",
    sheet=SHEET,
    engine=Engine(new_state=new_state, moves=MOVES, folds=FOLDS, summary=summary, working=working),
    checks=(Check("draw", "Draw against a difficulty", parse_draw, run_draw, event="drew",
                  notice="tabletop/cards.html#cards_notice", working=draw_working),),
    panel=Panel(view=view, template="tabletop/cards.html#cards_notice",
                notice="tabletop/cards.html#cards_notice"),
    audiences=AUDIENCES,
    rule_decks=("Fate",),
    samples=SAMPLES,
)
