"""Harsh Light's registration: everything the platform needs, and nothing it must guess.

Every pulled card lies face up, so every event goes to everyone; an NPC's figures in it are the
Storyteller's, in its GM's part (audiences.py). The panel is drawn for each seat (panel.view): a
seat that may not see an NPC's sheet sees none of its figures. The rules read the sheets as the
table holds them at each move (state.in_play); the panel counts the deck as the table hands it.
"""

from __future__ import annotations

from games.contract import Fights, GameSystem, Panel
from games.core import clock as time
from games.core.engine import UNDONE, Engine, Undo
from games.harsh_light import panel, sheet, undo
from games.harsh_light.audiences import audience, clock_audience
from games.harsh_light.campaign import CLOCK
from games.harsh_light.events import FOLDS
from games.harsh_light.growth import GROWTH
from games.harsh_light.moves import MOVES
from games.harsh_light.narrate import summary
from games.harsh_light.odds import ODDS
from games.harsh_light.reckon import settle
from games.harsh_light.roster import roster
from games.harsh_light.samples import SAMPLES
from games.harsh_light.state import DECK, new_state
from games.harsh_light.working import working
from games.harsh_light.writeback import writeback

PANEL = "games/harsh_light/panel.html"

# Each move's events carry what the rules reckon after it, and what they overwrite on the sheets
# (reckon.settle). The clock (campaign.py): time heals and gives Willpower back, a session's close
# gives Beats. The Storyteller takes back the last step (undo.py): the sheets go back as they were,
# and a card pulled is a card pulled: it stays on the discard pile, the deck's seal still records it.
ENGINE = Engine(new_state=new_state, moves=MOVES, folds=FOLDS, summary=summary, writeback=writeback,
                working=working, settle=settle, clock=CLOCK,
                undo=Undo(label="Take back the last step", nothing="There is no step to take back.",
                          line=undo.line))

SYSTEM = GameSystem(
    key="harsh_light", name="Harsh Light", samples=SAMPLES,
    blurb="One card plus a pool of Attribute + Skill; ten-again, Willpower and Defence.",
    # the card shows Health, Defence, Speed, Willpower... (no derived line repeating them); an
    # NPC's Health is everyone's, its other figures the GM's
    sheet=sheet.SHEET,
    rule_decks=(DECK,),  # every pull comes off it
    engine=ENGINE, pages=(ODDS,),
    # the panel counts the odds from the deck as every seat may know it, and shows a sheet's own
    # figures (Willpower, Speed, its weapon for the attack form) to the seats that may see it
    panel=Panel(view=panel.view, template=f"{PANEL}#panel", notice=f"{PANEL}#notice",
                character_view=sheet.character_view, decks=(DECK,)),
    log_lines={},  # every event reads as its summary (log/events/default.html)
    # everyone's, an NPC's figures the GM's; a move to a side (side_set) carries none: everyone's
    # the Storyteller's undo: everyone's, but that of a step only the GM saw (undo.py)
    audiences={kind: clock_audience if kind in time.EVENTS else undo.undo_audience if kind == UNDONE else audience
               for kind in ENGINE.events},
    # who is out: the incapacitated (roster.py); the Storyteller's "End the fight" ends it
    fights=Fights(roster=roster, end="end_combat"),
    # what Experiences buy, at the table's costs (growth.py); Beats are its growth events
    growth=GROWTH,
)
