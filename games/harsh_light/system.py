"""Harsh Light's registration: everything the platform needs, and nothing it must guess.

Every pulled card lies face up, so every event goes to everyone; an NPC's figures in it are the
Storyteller's (secrecy.py), as is the note that a sheet was read. The panel is drawn for each
seat (panel.view): a seat that may not see an NPC's sheet sees none of its figures.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import GameSystem, Glance, Panel, Procedure
from games.harsh_light.samples import SAMPLES
from games.harsh_light import panel, sheet, web
from games.harsh_light.errors import RuleError
from games.harsh_light.events import EVENT_TYPES, apply
from games.harsh_light.narrate import summary
from games.harsh_light.procedure import decide
from games.harsh_light.secrecy import AUDIENCES
from games.harsh_light.state import DECK, new_state

PANEL = "games/harsh_light/panel.html"


def writeback(event: Mapping[str, Any], state: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Seed: spending Willpower; the issue: "the sheet's Willpower dots drop". The points left go
    back on the sheet at once, so the character card and the next command read them."""
    if event.get("type") != "willpower_spent":
        return {}
    return {event["combatant"]: {"willpower_points": event["points_left"]}}


def npc_glance(glance: Glance) -> Glance:
    """An NPC's card, for the seats that may not see its sheet: its name alone. Its one track is
    Willpower, a figure of its sheet (points left of its dots), not harm the table watches."""
    return Glance()


SYSTEM = GameSystem(
    key="harsh_light",
    name="Harsh Light",
    blurb="One card plus a pool of Attribute + Skill; ten-again, Willpower and Defence.",
    available=True,
    sheet_fields=sheet.FIELDS,
    clean_sheet=sheet.clean_sheet,
    glance=sheet.glance,  # the card shows Defence, Speed, Willpower...: no derived line repeating them
    npc_glance=npc_glance,
    rule_decks=(DECK,),  # every pull comes off it
    procedure=Procedure(new_state=new_state, decide=decide, apply=apply, summary=summary,
                        error=RuleError, writeback=writeback, uses_cards=True, events=EVENT_TYPES),
    commands=web.COMMANDS,
    pages=(web.ODDS,),
    panel=Panel(view=panel.view, template=f"{PANEL}#panel", notice=f"{PANEL}#notice"),
    log_lines={},  # every event reads as its summary (log/events/default.html)
    audiences=AUDIENCES,
    rule_error=RuleError,
    samples=SAMPLES,
)
