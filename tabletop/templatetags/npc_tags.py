"""``{% npc_desk table me as desk %}``: the GM's NPC tools beside the characters (the retired
list, the GM's bestiary for the table's system), read where they are drawn, so the table's view
need not know of them (tabletop/npcs.html)."""

from __future__ import annotations

from typing import Any

from django import template

from tabletop.models import Membership, Table
from tabletop.selectors.npcs import npc_desk as read

register = template.Library()


@register.simple_tag
def npc_desk(table: Table, me: Membership) -> dict[str, Any]:
    return read(table, me.user_id)
