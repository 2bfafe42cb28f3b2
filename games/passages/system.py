"""Passages' registration: everything the platform needs, and nothing it must guess.

Every roll in Passages is made in the open, so every event goes to everyone and every seat's
panel shows every roll and every track; an NPC's figures (behind the Director's screen, the
table's setting) are the Director's alone, in the panel (``panel.view``) and in the log
(``screen``: a Director's part of the events that hold them).
"""

from __future__ import annotations

from games.contract import GameSystem, Panel, Procedure, legacy_engine
from games.passages import screen, table, web
from games.passages.unfold import working
from games.passages.samples import SAMPLES
from games.passages.errors import RuleError
from games.passages.events import EVENT_TYPES, apply
from games.passages.narrate import summary
from games.passages.state import new_state, npcs

PANEL = "games/passages/panel.html"


SYSTEM = GameSystem(
    key="passages",
    name="Passages (NycosRPG)",
    blurb="Percentile checks with Double Up and Double Down; contests and fights that wear down "
          "Wounds and Fatigue.",
    available=True,
    sheet_fields=table.FIELDS,
    clean_sheet=table.clean_sheet,
    derived=table.derived,
    glance=table.glance,
    engine=legacy_engine(Procedure(
        new_state=new_state,
        decide=screen.decide,
        apply=apply,
        summary=lambda event, state: summary(event, state, npcs(state)),  # the line everyone reads
        error=RuleError,
        writeback=table.writeback,
        working=working,  # the arithmetic and the seed's rule under each line that has them
        events=EVENT_TYPES,
    ), web.COMMANDS),
    checks=(web.CHECK_ROLL,),
    pages=(web.ODDS,),
    panel=Panel(view=table.view, template=f"{PANEL}#panel", notice=f"{PANEL}#notice",
                character_view=table.character_view),
    log_lines={},  # every event reads as its summary (log/events/default.html)
    audiences=screen.audiences(web.CHECK_ROLL.event),  # every roll is made in the open; NPCs' figures aside
    rule_error=RuleError,
    samples=SAMPLES,
)
