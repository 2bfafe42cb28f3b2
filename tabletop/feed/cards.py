"""Plain data for card templates: faces from tokens, decks with counts, hands a viewer may see.

Everything here is built from the public ``counts`` an event carries (or the same counts
read now) and from hands the viewer is entitled to; nothing reads deck order.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from games.core.cards import OrientedCard
from tabletop.models import Membership, Role
from tabletop.permissions import may_see_hand


@dataclass(frozen=True)
class Face:
    deck: int
    card: Any
    reversed: bool
    token: str
    by: str = ""  # who laid it in the play area
    rules: bool = False  # of a deck the rules draw from: only they and the GM move it

    @property
    def card_id(self) -> str:
        return self.card.id

    @property
    def vals(self) -> str:
        """The card as htmx's ``hx-vals`` sends it with an action."""
        return json.dumps({"deck": str(self.deck), "card": self.card.id})


def face(deck: int, token: str, by: str = "", rules: bool = False) -> Face:
    oriented = OrientedCard.from_token(token)
    return Face(deck=deck, card=oriented.card, reversed=oriented.reversed, token=token, by=by, rules=rules)


def faces(entries: list[dict[str, Any]]) -> list[Face]:
    return [face(int(e["deck"]), e["token"], e.get("by", ""), bool(e.get("rules"))) for e in entries]


def deck_rows(infos: list[dict[str, Any]], counts: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for info in infos:
        c = counts["decks"].get(str(info["id"]), {})
        top = c.get("discard_top")
        rows.append({**info, "draw": c.get("draw", 0), "held": bool(c.get("held")), "discard": c.get("discard", 0),
                     "discard_top": face(info["id"], top) if top else None})
    return rows


def counts_context(counts: dict[str, Any]) -> dict[str, Any]:
    """What the public card panels show, from an event's (or the current) counts."""
    return {
        "counts": counts,
        "deck_counts": [
            {"id": int(deck_id), "draw": c.get("draw", 0), "held": bool(c.get("held")), "discard": c.get("discard", 0),
             "discard_top": face(int(deck_id), c["discard_top"]) if c.get("discard_top") else None}
            for deck_id, c in counts["decks"].items()
        ],
        "hand_counts": {int(k): v for k, v in counts["hands"].items()},
        "play": faces(counts["play"]),
    }


def visible_hands(me: Membership, members: list[Membership], hands: dict[int, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The hands ``me`` may see: their own, or every player's for the GM."""
    shown = []
    for member in members:
        if member.role == Role.SPECTATOR:
            continue
        if may_see_hand(me, member.pk):
            shown.append({"member": member, "cards": faces(hands.get(member.pk, []))})
    return shown
