"""Report Card's registration: everything the platform needs, and nothing it must guess.

Every card a check draws lies face up (in the play area, then on the discard pile), so every
event goes to everyone and the panel is the same through every lens. Each player character is
made with its own Tarot deck (``web.decks``), named after it, which its checks draw from: a
deck the rules own (``DeckSpec.rules``, the default), so its player has no card verb on it and
the GM acts on it by hand, logged.
"""

from __future__ import annotations

from games.report_card.samples import SAMPLES
from games.contract import GameSystem, Panel, Procedure, legacy_engine, public, same_for_everyone
from games.report_card import table, web
from games.report_card.errors import RuleError
from games.report_card.events import EVENT_TYPES, apply
from games.report_card.narrate import summary
from games.report_card.procedure import decide
from games.report_card.sheet import FIELDS, clean_sheet, derived
from games.report_card.state import new_state
from games.report_card.working import working

PANEL = "games/report_card/panel.html"


SYSTEM = GameSystem(
    key="report_card",
    name="Report Card",
    blurb="A Tarot deck for every player: draw a card against the difficulty, A+ and F skills.",
    available=True,
    sheet_fields=FIELDS,
    clean_sheet=clean_sheet,
    derived=derived,
    glance=table.glance,
    character_decks=web.decks,
    engine=legacy_engine(Procedure(new_state=new_state, decide=decide, apply=apply, summary=summary, error=RuleError,
                        writeback=table.writeback, uses_cards=True, events=EVENT_TYPES,
                        working=working), web.COMMANDS),  # each line's card against its rank, and the rule (working.py)
    pages=(web.ODDS,),
    panel=Panel(view=same_for_everyone(table.panel), template=f"{PANEL}#panel", notice=f"{PANEL}#notice"),
    log_lines={},  # every event reads as its summary (log/events/default.html)
    audiences=public(*EVENT_TYPES),  # every card a check draws lies face up
    rule_error=RuleError,
    samples=SAMPLES,
)
