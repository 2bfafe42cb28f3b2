"""The only writer. Each function is one transaction: lock the table row, check,
change, append Events with the table's next seq, and broadcast after commit."""

from __future__ import annotations

from tabletop.services.base import Conflict, NotAllowed, NotFound, ServiceError
from tabletop.services.cards import (
    card_discard,
    card_pass,
    card_play,
    card_return,
    pile_deal,
    pile_draw,
)
from tabletop.services.characters import character_claim, character_create, character_update, table_npc_sheets
from tabletop.services.decks import (
    deck_configure,
    deck_create,
    deck_discard_reshuffle,
    deck_peek,
    deck_recall,
    deck_reorder,
    deck_shuffle,
)
from tabletop.services.members import (
    table_create,
    table_regenerate_link,
    guest_user_create,
    membership_join,
    membership_remove,
    membership_rename,
    membership_replace_seat_link,
    presence_connect,
    presence_disconnect,
    process_heartbeat,
)
from tabletop.services.play import ROLL_MODES, chat_post, dice_roll
from tabletop.services.procedure import check_roll, procedure_command
from tabletop.services.requests import request_approve, request_refuse, request_withdraw, table_sheet_approvals
from tabletop.services.npcs import (
    bestiary_forget, bestiary_save, character_return, characters_retire, npc_add, npc_copy, npc_reset,
)
from tabletop.services.sessions import session_close, session_open
from tabletop.services.scenes import (
    character_portrait, scene_create, scene_delete, scene_show, token_move, token_place, token_visibility,
)
from tabletop.services.grid import grid_set, token_remove, token_style

__all__ = [
    "ROLL_MODES", "Conflict", "NotAllowed", "NotFound", "ServiceError",
    "table_create", "table_regenerate_link", "character_claim", "character_create",
    "character_update", "chat_post", "dice_roll", "guest_user_create", "membership_join",
    "membership_remove", "membership_rename", "membership_replace_seat_link", "presence_connect", "presence_disconnect", "process_heartbeat",
    "card_discard", "card_pass", "card_play", "card_return", "pile_deal", "pile_draw",
    "deck_configure", "deck_create", "deck_discard_reshuffle", "deck_peek", "deck_recall",
    "deck_reorder", "deck_shuffle", "procedure_command", "check_roll", "table_npc_sheets",
    "character_portrait", "scene_create", "scene_delete", "scene_show", "token_move", "token_place",
    "token_visibility", "session_open", "session_close",
    "request_approve", "request_refuse", "request_withdraw", "table_sheet_approvals",
    "bestiary_forget", "bestiary_save", "character_return", "characters_retire", "npc_add", "npc_copy", "npc_reset",
    "grid_set", "token_remove", "token_style",
]
