"""Passages' registration: everything the platform needs, and nothing it must guess.

Every roll in Passages is made in the open, so every event goes to everyone and every seat's
panel shows every roll and every track; an NPC's figures (behind the Director's screen, the
table's setting) are the Director's alone, in the panel (``panel.view``) and in the log
(``audiences``: a Director's part of the events that hold them, given as each move settles).
"""

from __future__ import annotations

from games.contract import Fights, GameSystem, Panel
from games.core.engine import Engine, Undo
from games.core.growth import Growth, free
from games.passages import panel, sheet
from games.passages.campaign import ADVANCED, CLOCK
from games.passages.audiences import AUDIENCES, settle
from games.passages.events import FOLDS
from games.passages.moves import CHECK_ROLL, MOVES
from games.passages.narrate import public_line, undone_line
from games.passages.odds import ODDS
from games.passages.recovery import sheets_before
from games.passages.samples import SAMPLES
from games.passages.sides import roster
from games.passages.state import new_state
from games.passages.working import working
from games.passages.writeback import writeback

PANEL = "games/passages/panel.html"

# Not in the seed: the Director takes back a slip of the hand (a wrong Declaration), the last
# ten steps, each named by its line as everyone read it; the undo stays in the log, and a roll
# taken back and made again is a new roll, in the log for everyone to see. The undo list names
# each step by its public line (``summary``, the engine's default ``step_line``).
ENGINE = Engine(
    new_state=new_state, moves=MOVES, folds=FOLDS, summary=public_line, writeback=writeback,
    working=working,  # the arithmetic and the seed's rule under each line that has them
    undo=Undo(label="Take back the last step", nothing="There is nothing to take back.", depth=10,
              line=undone_line, says=sheets_before),
    settle=settle,
    # the table's clock: what a scene's end, a night and a week do to the tracks, the lasting
    # Status the rules read, and the marked skills' rise at a session's close (``campaign``)
    clock=CLOCK,
)

SYSTEM = GameSystem(
    key="passages",
    name="Passages (NycosRPG)",
    blurb="Percentile checks with Double Up and Double Down; contests and fights that wear down "
          "Wounds and Fatigue.",
    sheet=sheet.SHEET,
    engine=ENGINE,
    checks=(CHECK_ROLL,),
    pages=(ODDS,),
    panel=Panel(view=panel.view, template=f"{PANEL}#panel", notice=f"{PANEL}#notice",
                character_view=panel.character_view),
    log_lines={},  # every event reads as its summary (log/events/default.html)
    audiences=AUDIENCES,  # every roll is made in the open; NPCs' figures aside
    samples=SAMPLES,
    # who is out of a fight is who is not Combat Eligible (sides.py); "End it" ends the fight
    fights=Fights(roster=roster, end="end"),
    # its characters grow by its own rules alone (the decided reading: "when the session closes the
    # Director approves a rise of each marked skill's BASE"): nothing for sale, the rises its growth
    # events (campaign.py)
    growth=Growth(pool="", unit="", price=free, kinds=(ADVANCED,)),
)
