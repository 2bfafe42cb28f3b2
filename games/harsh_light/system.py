"""Harsh Light's registration: everything the platform needs, and nothing it must guess.

Every pulled card lies face up, so every event goes to everyone; an NPC's figures in it are the
Storyteller's (secrecy.py), as is the note that a sheet was read. The panel is drawn for each
seat (panel.view): a seat that may not see an NPC's sheet sees none of its figures.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import GameSystem, Panel, Procedure, Sheet, legacy_engine
from games.harsh_light.samples import SAMPLES
from games.harsh_light import card, harm, panel, sheet, web
from games.harsh_light.errors import RuleError
from games.harsh_light.events import EVENT_TYPES, apply
from games.harsh_light.narrate import summary
from games.harsh_light.procedure import decide
from games.harsh_light.secrecy import AUDIENCES
from games.harsh_light.state import DECK, new_state
from games.harsh_light.twin import working

PANEL = "games/harsh_light/panel.html"


def writeback(event: Mapping[str, Any], state: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """What the rules keep on the sheet, put back at once so the character card and the next
    command read it: Willpower points left (the issue: "the sheet's Willpower dots drop"), and
    Health's wounds and whether the character is unconscious (issue 22)."""
    kind = event.get("type")
    if kind == "willpower_spent":
        return {event["combatant"]: {"willpower_points": event["points_left"]}}
    if kind in ("damaged", "healed", "consciousness_pulled"):
        return {event["combatant"]: harm.health_of(state, event["combatant"])}
    return {}


SYSTEM = GameSystem(
    key="harsh_light",
    name="Harsh Light",
    blurb="One card plus a pool of Attribute + Skill; ten-again, Willpower and Defence.",
    available=True,
    # the card shows Health, Defence, Speed, Willpower... (no derived line repeating them); an
    # NPC's Health is everyone's, its other figures the GM's
    sheet=Sheet(sheet.FIELDS, sheet.clean_sheet, glance=card.glance, npc_glance=card.npc_glance),
    rule_decks=(DECK,),  # every pull comes off it
    engine=legacy_engine(Procedure(new_state=new_state, decide=decide, apply=apply, summary=summary,
                        error=RuleError, writeback=writeback, uses_cards=True, events=EVENT_TYPES,
                        working=working), web.COMMANDS),  # each line's arithmetic and rule, for every seat (twin.py)
    pages=(web.ODDS,),
    panel=Panel(view=panel.view, template=f"{PANEL}#panel", notice=f"{PANEL}#notice",
                character_view=card.character_view),  # a sheet's weapon, for the attack form
    log_lines={},  # every event reads as its summary (log/events/default.html)
    audiences=AUDIENCES,
    rule_error=RuleError,
    samples=SAMPLES,
)
