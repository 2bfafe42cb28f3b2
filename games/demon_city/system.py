"""Demon City's registration: everything the platform needs, and nothing it must guess.

Every die is public in Demon City, so every event goes to everyone and every seat's panel
shows every die; an NPC's figures (behind the GM's screen, the table's setting) are the GM's
alone, in the panel (``panel.view``) and in the log (``audiences``: a GM's part of the events
that hold them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Fights, GameSystem, Panel
from games.core.engine import Engine, Turn, Undo
from games.core.growth import AWARDS
from games.demon_city import audiences, edges, narrate, panel, rounds, sheet, writeback
from games.demon_city.healing import CLOCK
from games.demon_city.events import FOLDS
from games.demon_city.fight import undo_says
from games.demon_city.growth import GROWTH
from games.demon_city.moves import MOVES, TASK
from games.demon_city.odds import ODDS
from games.demon_city.samples import SAMPLES
from games.demon_city.state import new_state
from games.demon_city.working import working

PANEL = "games/demon_city/panel.html"


def settle(state: Mapping[str, Any], events: list[dict[str, Any]], turn: Turn) -> list[dict[str, Any]]:
    """A move's events as they are logged: the round's stamps and changed pools
    (``rounds.settle``), then the GM's part of each that holds an NPC's figures
    (``audiences.screen``)."""
    return audiences.screen(state, rounds.settle(state, events, turn))


ENGINE = Engine(
    new_state=new_state,
    moves=MOVES,
    folds=FOLDS,
    summary=narrate.line,  # the line everyone reads; the GM's is in the event's GM's part
    writeback=writeback.writeback,  # Toughness and injuries go back on the sheets as they happen
    working=working,  # the dice and the seed's rule under each line that has them
    undo=Undo(label="Undo the last step", nothing="Nothing to undo.", says=undo_says, line=narrate.line),
    settle=settle,
    step_line=narrate.step_line,
    # time heals kept Injury results; a lasting condition may cost Lost Dice (``healing``)
    clock=CLOCK,
    # the experience the Host awards (games/core/growth.py); what it buys: growth.py
    awards=AWARDS,
)

SYSTEM = GameSystem(
    key="demon_city", name="Demon City",
    blurb="d10 pools where the best die counts; slow-motion Action Rounds and Clashes.",
    # the sheet: its fields, their cleaning, what a page derives and the card shows
    sheet=sheet.SHEET,
    engine=ENGINE, checks=(TASK,), pages=(ODDS,), samples=SAMPLES,
    panel=Panel(view=panel.view, template=f"{PANEL}#panel", notice=f"{PANEL}#rounds_notice",
                character_view=sheet.character_view),  # the task form's skills
    # a task's dice drawn as dice under its summary; every other event reads as its summary
    log_lines={TASK.event: "log/games/demon_city/task_rolled.html"},
    audiences=audiences.AUDIENCES,  # every die is public; NPCs' figures are the GM's
    # sides and who is out (out of the fight, dead, gone): once one side stands, the GM ends it
    fights=Fights(roster=edges.roster, end="end"),
    # what the experience the Host awards buys, at the table's costs (growth.py)
    growth=GROWTH,
)
