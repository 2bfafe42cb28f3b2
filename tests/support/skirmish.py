"""Skirmish: a game system that exists only for the tests, to prove the platform's side of a
fight's edges (games/core/fights.py, ``GameSystem.fights``) apart from any real system's rules.

The GM starts a fight with the characters chosen, knocks one out ("down"), and ends it; sides
are the defaults (PCs and NPCs) or where the GM moved one (``set_side``). Registered for the
length of a test (tests/integration/test_fight_edges.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import PUBLIC, Fights, GameSystem, Panel, Sample, Sheet, Table
from games.core import fights
from games.core.engine import Engine, Move, RuleError, Turn
from games.forms import Form, value


def parse_start(form: Form, table: Table) -> dict[str, Any]:
    chosen = table.chosen(form.get("characters", ()))
    if len(chosen) < 2:
        raise RuleError("Choose at least two characters.")
    return {"fighters": [c.cid for c in chosen]}


def parse_down(form: Form, table: Table) -> dict[str, Any]:
    return {"combatant": value(form, "combatant")}


def start(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[dict[str, Any]]:
    return [{"type": "started", "fighters": args["fighters"]}]


def roster(state: Mapping[str, Any], characters: Mapping[str, Any]) -> list[fights.Fighter]:
    return [fights.Fighter(cid, characters[cid].name, fights.side_of(state, characters[cid]),
                           out=cid in state.get("down", ()), why="down")
            for cid in state.get("fighters", ()) if cid in characters]


def down(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[dict[str, Any]]:
    who = roster(state, turn.characters)
    if fights.find(who, args["combatant"]) is None:
        raise RuleError("Choose someone in the fight.")
    fights.refuse_out(who, args["combatant"], "be knocked down")
    return [{"type": "downed", "combatant": args["combatant"]}]


def end(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[dict[str, Any]]:
    if not state.get("fighters"):
        raise RuleError("There is no fight to end.")
    return [{"type": "ended"}]


def _started(state: dict[str, Any], event: dict[str, Any]) -> None:
    state.update(fighters=list(event["fighters"]), down=[])


def _downed(state: dict[str, Any], event: dict[str, Any]) -> None:
    state["down"].append(event["combatant"])


def _ended(state: dict[str, Any], event: dict[str, Any]) -> None:
    state.update(fighters=[], down=[], sides={})


def summary(event: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    if event["type"] == fights.SIDE_SET:
        return fights.side_line(event)
    return {"started": "A fight starts.", "downed": "Someone goes down.", "ended": "The fight ends."}[event["type"]]


SYSTEM = GameSystem(
    key="skirmish",
    name="Skirmish",
    blurb="A test system: fights that end.",
    sheet=Sheet(clean=lambda sheet: dict(sheet)),
    engine=Engine(new_state=lambda: {"fighters": [], "down": []},
                  moves=(Move("start", "Start a fight", parse_start, start), Move("down", "Knock down", parse_down, down),
                         Move("end", "End the fight", lambda form, table: {}, end), fights.side_move()),
                  folds={"started": _started, "downed": _downed, "ended": _ended, fights.SIDE_SET: fights.fold_side},
                  summary=summary),
    panel=Panel(view=lambda state, seat: {}, template="tabletop/cards.html#cards_notice",
                notice="tabletop/cards.html#cards_notice"),
    fights=Fights(roster=roster, end="end"),
    audiences={"started": PUBLIC, "downed": PUBLIC, "ended": PUBLIC, fights.SIDE_SET: PUBLIC},
    samples=(Sample("Hero", {}), Sample("Foe", {}, npc=True)),
)
