"""Demon City's registration: everything the platform needs, and nothing it must guess.

Every die is public in Demon City, so every event goes to everyone and every seat's panel
shows every die; an NPC's figures (behind the GM's screen, the table's setting) are the GM's
alone, in the panel (``panel.view``) and in the log (``screen``: a GM's part of the events
that hold them).
"""

from __future__ import annotations

from games.contract import GameSystem, Panel, Procedure, legacy_engine
from games.demon_city import character_sheet, panel, screen, web, writeback
from games.demon_city.samples import SAMPLES
from games.demon_city.errors import RuleError
from games.demon_city.events import EVENT_TYPES, apply
from games.demon_city.narrate import names_of, summary
from games.demon_city.state import new_state, npcs
from games.demon_city.unfold import working

PANEL = "games/demon_city/panel.html"


SYSTEM = GameSystem(
    key="demon_city",
    name="Demon City",
    blurb="d10 pools where the best die counts; slow-motion Action Rounds and Clashes.",
    available=True,
    sheet_fields=character_sheet.FIELDS,
    clean_sheet=character_sheet.clean_sheet,
    derived=character_sheet.derived,
    glance=character_sheet.glance,
    engine=legacy_engine(Procedure(
        new_state=new_state,
        decide=screen.decide,
        apply=apply,
        summary=lambda event, state: summary(event, names_of(state), npcs(state)),  # the line everyone reads
        error=RuleError,
        writeback=writeback.writeback,
        working=working,  # the dice and the seed's rule under each line that has them
        events=EVENT_TYPES,
    ), web.COMMANDS),
    checks=(web.TASK,),
    pages=(web.ODDS,),
    panel=Panel(view=panel.view, template=f"{PANEL}#panel", notice=f"{PANEL}#rounds_notice",
                character_view=character_sheet.character_view),  # the task form's skills
    # a task's dice drawn as dice under its summary; every other event reads as its summary
    log_lines={web.TASK.event: "log/games/demon_city/task_rolled.html"},
    audiences=screen.audiences(web.TASK.event),  # every die is public; NPCs' figures are the GM's
    rule_error=RuleError,
    samples=SAMPLES,
)
