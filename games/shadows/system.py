"""Shadows of Humanity's registration: everything the platform needs, and nothing it must
guess. Hidden combat hands make it the one system whose events carry private parts
(``visibility.audience``) and whose panel differs by lens (``visibility.view``)."""

from __future__ import annotations

from games.shadows.samples import SAMPLES
from games.contract import GameSystem, Panel, Procedure, Sheet, legacy_engine
from games.shadows import deck, odds_page, web
from games.shadows.errors import RuleError
from games.shadows.events import EVENT_TYPES, apply
from games.shadows.narrate import summary
from games.shadows.procedure import decide
from games.shadows.sheet import FIELDS, clean_sheet, derived
from games.shadows.state import new_state
from games.shadows.table import glance, npc_glance, standing, writeback
from games.shadows.visibility import AUDIENCES, view
from games.shadows.working import working

PANEL = "games/shadows/panel.html"

SYSTEM = GameSystem(
    key="shadows",
    name="Shadows of Humanity",
    blurb="Tarot draws and Action Points; hidden hands in combat.",
    available=True,
    # the antagonists' tracks are the GM's too (visibility.py)
    sheet=Sheet(FIELDS, clean_sheet, derived, glance, npc_glance),
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
    rule_error=RuleError,
    samples=SAMPLES,
)
