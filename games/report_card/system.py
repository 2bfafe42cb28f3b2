"""Report Card's registration: everything the platform needs, and nothing it must guess.

Every card a check draws lies face up (in the play area, then on the discard pile), so every
event goes to everyone and the panel is the same for every seat. Each player character is made
with its own Tarot deck (``draws.decks``), named after it, which its checks draw from: a deck
the rules own (``DeckSpec.rules``, the default), so its player has no card verb on it and the
GM acts on it by hand, logged. The panel reads every such deck as the table has it now
(``Panel.rule_decks``): the odds before a draw are counted in the view, never kept in the state.
"""

from __future__ import annotations

from games.contract import GameSystem, Panel, public
from games.core.engine import UNDONE, Engine, Undo
from games.core.growth import AWARDS
from games.report_card import campaign, draws, odds, panel, sheet
from games.report_card.events import FOLDS
from games.report_card.growth import GROWTH
from games.report_card.moves import MOVES
from games.report_card.narrate import summary
from games.report_card.samples import SAMPLES
from games.report_card.state import new_state
from games.report_card.working import working
from games.report_card.writeback import writeback

PANEL = "games/report_card/panel.html"

# each line's working is its card against its rank, and the rule in the seed's words (working.py);
# the clock's night is a new Day, its conditions give a lasting Bonus or Penalty, and the GM's
# undo sends the cards a step drew to the discard (campaign.py)
ENGINE = Engine(new_state=new_state, moves=MOVES, folds=FOLDS, summary=summary, writeback=writeback,
                working=working, clock=campaign.CLOCK, settle=campaign.settle, step_line=campaign.step_line,
                undo=Undo(label="Take back the last step", nothing="There is nothing to take back.",
                          line=campaign.undo_line),
                awards=AWARDS)  # the experience the GM awards (games/core/growth.py)

SYSTEM = GameSystem(
    key="report_card",
    name="Report Card",
    blurb="A Tarot deck for every player: draw a card against the difficulty, A+ and F skills.",
    sheet=sheet.SHEET,
    character_decks=draws.decks,
    engine=ENGINE,
    pages=(odds.ODDS,),
    panel=Panel(view=panel.view, template=f"{PANEL}#panel", notice=f"{PANEL}#notice",
                character_view=panel.character_view, rule_decks=True),
    log_lines={},  # every event reads as its summary (log/events/default.html)
    audiences=public(*FOLDS, UNDONE),  # every card a check draws lies face up
    samples=SAMPLES,
    # what the experience the GM awards buys, at the table's costs (growth.py)
    growth=GROWTH,
)
