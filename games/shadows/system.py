"""Shadows of Humanity's registration: everything the platform needs, and nothing it must
guess. Hidden combat hands make it the one system whose events carry private parts
(``audiences.AUDIENCES``) and whose panel differs by seat (``panel.view``)."""

from __future__ import annotations

from games.shadows.samples import SAMPLES
from games.contract import GameSystem, Panel, Procedure, legacy_engine
from games.shadows import deck, odds_page, web
from games.core.engine import RuleError
from games.shadows.events import EVENT_TYPES, apply
from games.shadows.narrate import summary
from games.shadows.procedure import decide
from games.shadows.state import new_state
from games.shadows.sheet import FIELDS, clean_sheet, derived, glance, npc_glance, standing
from games.shadows.writeback import writeback
from games.shadows.audiences import AUDIENCES
from games.shadows.panel import view
from games.shadows.working import working

PANEL = "games/shadows/panel.html"

SYSTEM = GameSystem(
    key="shadows",
    name="Shadows of Humanity",
    blurb="Tarot draws and Action Points; hidden hands in combat.",
    available=True,
    sheet_fields=FIELDS,
    clean_sheet=clean_sheet,
    derived=derived,
    glance=glance,
    npc_glance=npc_glance,  # the antagonists' tracks are the GM's too (audiences.py)
    # combat hands, checks, damage and fate come off these; the second Minor Arcana serves a big fight
    rule_decks=(deck.MINOR, deck.MAJOR, deck.MINOR_2),
    engine=legacy_engine(Procedure(
        new_state=new_state,
        decide=decide,
        apply=apply,
        summary=summary,
        error=RuleError,
        writeback=writeback,
        uses_cards=True,
        events=EVENT_TYPES,
        working=working,  # each line's arithmetic and the seed's rule, unfolded under it
    ), web.COMMANDS),
    checks=(),
    pages=(odds_page.ODDS,),
    # the GM's view holds the GM's secrets (a fumble's guide, a Major Critical's effect, a
    # multi-draw margin, the critical tables, which card each NPC holds)
    panel=Panel(view=view, template=f"{PANEL}#panel", notice=f"{PANEL}#notice",
                character_view=standing),  # who is down or dead: the next fight's form leaves them out
    log_lines={},  # every event reads as its summary (log/events/default.html)
    audiences=AUDIENCES,
    samples=SAMPLES,
)
