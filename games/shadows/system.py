"""Shadows of Humanity's registration: everything the platform needs, and nothing it must
guess. Hidden combat hands make it the one system whose events carry private parts
(``audiences.AUDIENCES``) and whose panel differs by seat (``panel.view``)."""

from __future__ import annotations

from games.contract import Fights, GameSystem, Panel
from games.core.engine import Engine
from games.core.growth import AWARDS
from games.shadows import deck, edges, sheet
from games.shadows.audiences import AUDIENCES
from games.shadows.campaign import CLOCK
from games.shadows.events import FOLDS
from games.shadows.growth import GROWTH
from games.shadows.moves import MOVES
from games.shadows.narrate import summary
from games.shadows.odds_page import ODDS
from games.shadows.panel import view
from games.shadows.samples import SAMPLES
from games.shadows.state import new_state
from games.shadows.working import working
from games.shadows.writeback import writeback

PANEL = "games/shadows/panel.html"

ENGINE = Engine(
    new_state=new_state,
    moves=MOVES,
    folds=FOLDS,
    summary=summary,  # the line everyone reads; a private part's line is the audience's (audiences.py)
    writeback=writeback,  # tracks and the Major Arcana held go back on the sheets
    working=working,  # each line's arithmetic and the seed's rule, unfolded under it
    # time, recovery, the session's close and the conditions its rules read (campaign.py)
    clock=CLOCK,
    # the experience the GM awards (games/core/growth.py); what it buys: growth.py
    awards=AWARDS,
)

SYSTEM = GameSystem(
    key="shadows",
    name="Shadows of Humanity",
    blurb="Tarot draws and Action Points; hidden hands in combat.",
    sheet=sheet.SHEET,  # the antagonists' tracks are the GM's too (audiences.py)
    # combat hands, checks, damage and fate come off these; the second Minor Arcana serves a big fight
    rule_decks=(deck.MINOR, deck.MAJOR, *deck.EXTRA_MINORS),
    engine=ENGINE,
    pages=(ODDS,),
    # the GM's view holds the GM's secrets (a fumble's guide, a Major Critical's effect, a
    # multi-draw margin, the critical tables, which card each NPC holds)
    # the odds of a draw count the Minor Arcana's cards not face up (panel.counted_from)
    panel=Panel(view=view, template=f"{PANEL}#panel", notice=f"{PANEL}#notice", decks=deck.MINORS,
                character_view=sheet.standing),  # who is down or dead: the next fight's form leaves them out
    log_lines={},  # every event reads as its summary (log/events/default.html)
    audiences=AUDIENCES,
    samples=SAMPLES,
    # sides, and who is out (fallen, or taken out by the GM): the fight reads over once one side stands
    fights=Fights(roster=edges.roster, end="end_combat"),
    # what the experience the GM awards buys, at the table's costs (growth.py)
    growth=GROWTH,
)
