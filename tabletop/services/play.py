"""Free dice and chat."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction

from games.core.dice import NotationError, roll_notation
from games.core.rng import Rng
from tabletop.models import Audience, Table, Event, Membership, Role
from tabletop.permissions import Verb
from tabletop.services.base import ServiceError, append, lock_member

ROLL_MODES = {"public": "Public", "gm": "To the GM only", "blind": "Blind (only the GM sees it)"}



def dice_roll(*, table: Table, actor: Membership, notation: str, mode: str, rng: Rng) -> Event:
    """Rolls free notation. Public: everyone sees it. To the GM: the roller and the GM.
    Blind: the roller sees that they rolled, only the GM sees the result."""
    if mode not in ROLL_MODES:
        raise ServiceError("Choose public, to the GM only, or blind.", field="mode")
    if len(notation) > settings.TABLETOP_MAX_NOTATION_CHARS:
        raise ServiceError(
            f"Dice notation is at most {settings.TABLETOP_MAX_NOTATION_CHARS} characters.",
            field="notation",
        )
    try:
        result = roll_notation(notation, rng, max_dice=settings.TABLETOP_MAX_DICE)
    except NotationError as exc:
        raise ServiceError(str(exc), field="notation") from None
    with transaction.atomic():
        locked, me = lock_member(table.pk, actor, Verb.ROLL)
        if me.role == Role.GM and mode == "blind":
            mode = "gm"  # a GM's blind roll is simply their own secret roll
        said = f"{me.display_name} rolls {result.notation}"
        outcome = f"{said}: {result.total}  [{result.detail}]"
        if mode == "public":
            return append(
                locked, "dice.rolled", actor=me, summary=outcome,
                payload={"mode": mode, "roll": result.as_dict()},
            ).event
        if mode == "gm":
            return append(
                locked, "dice.rolled", actor=me, audience=Audience.OWNER,
                summary=f"{said} for the GM.", private_summary=f"{outcome} (GM only)",
                payload={"mode": mode, "notation": result.notation},
                private={"roll": result.as_dict()}, private_audience=Audience.OWNER,
            ).event
        return append(
            locked, "dice.rolled", actor=me, audience=Audience.OWNER,
            summary=f"{said} blind; only the GM sees the result.",
            private_summary=f"{outcome} (blind)",
            payload={"mode": mode, "notation": result.notation},
            private={"roll": result.as_dict()}, private_audience=Audience.GM,
        ).event


def chat_post(*, table: Table, actor: Membership, text: str) -> Event:
    body = (text or "").strip()
    if not body:
        raise ServiceError("Type a message first.", field="text")
    limit = settings.TABLETOP_MAX_MESSAGE_CHARS
    if len(body) > limit:
        raise ServiceError(f"A message is at most {limit} characters.", field="text")
    with transaction.atomic():
        locked, me = lock_member(table.pk, actor, Verb.CHAT)
        return append(
            locked, "chat.posted", actor=me, summary=f"{me.display_name}: {body}",
            payload={"text": body},
        ).event
