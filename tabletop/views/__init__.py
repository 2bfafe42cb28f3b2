"""Thin views: parse the request, call one service or selector, render.

Forms post with htmx and get their own partial back (with an inline error and a 4xx
status when refused); without JavaScript they post normally and are redirected.
"""

from __future__ import annotations

from tabletop.views.accounts import signup, home, table_create
from tabletop.views.table import table, roll, chat, link_regenerate, link_qr, join, watch
from tabletop.views.exports import export
from tabletop.views.people import (
    member_rename, member_remove, character_new, character_edit, character_claim, character_growth, npc_sheets,
)
from tabletop.views.cards import deck_create, deck_action, card_action, request_action
from tabletop.views.npcs import bestiary_action, npc_action
from tabletop.views.fog import fog_action
from tabletop.views.systems import game_page, table_check, table_command
from tabletop.views.sessions import campaign_command, session_close, session_open, session_recap
from tabletop.views.seats import leave, seat, seat_link, seat_link_replace
from tabletop.views.scenes import (
    character_portrait, scene_action, scene_create, scene_tools, table_image, token_move, token_place,
    token_visibility,
)
from tabletop.views.scenes import scene_grid, token_remove, token_style

__all__ = [
    "bestiary_action", "npc_action",
    "fog_action",
    "campaign_command", "session_close", "session_open", "session_recap",
    "table_create",
    "card_action",
    "request_action",
    "character_claim",
    "character_growth",
    "character_edit",
    "character_new",
    "chat",
    "deck_action",
    "deck_create",
    "export",
    "game_page",
    "home",
    "join",
    "leave",
    "link_qr",
    "link_regenerate",
    "npc_sheets",
    "member_remove",
    "member_rename",
    "roll",
    "seat",
    "seat_link",
    "seat_link_replace",
    "signup",
    "table",
    "table_check",
    "table_command",
    "watch",
    "character_portrait",
    "scene_action",
    "scene_create",
    "scene_tools",
    "table_image",
    "token_move",
    "token_place",
    "token_visibility",
    "scene_grid", "token_remove", "token_style",
]
