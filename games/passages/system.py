"""Passages' registration: everything the platform needs, and nothing it must guess.

Every roll in Passages is made in the open, so every event goes to everyone and the panel
is the same through every lens.
"""

from __future__ import annotations

from games.passages.samples import SAMPLES
from games.contract import GameSystem, Panel, Procedure, public, same_for_everyone
from games.passages import table, web
from games.passages.errors import RuleError
from games.passages.events import EVENT_TYPES, apply
from games.passages.narrate import summary
from games.passages.procedure import decide
from games.passages.state import new_state

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
    procedure=Procedure(
        new_state=new_state,
        decide=decide,
        apply=apply,
        summary=summary,
        error=RuleError,
        writeback=table.writeback,
        events=EVENT_TYPES,
    ),
    commands=web.COMMANDS,
    checks=(web.CHECK_ROLL,),
    pages=(web.ODDS,),
    panel=Panel(view=same_for_everyone(table.panel), template=f"{PANEL}#panel", notice=f"{PANEL}#notice",
                character_view=table.character_view),
    log_lines={},  # every event reads as its summary (log/events/default.html)
    audiences=public(*EVENT_TYPES, web.CHECK_ROLL.event),  # every roll is made in the open
    rule_error=RuleError,
    samples=SAMPLES,
)
