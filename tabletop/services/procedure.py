"""A system's table procedure (Demon City's Action Rounds), driven through its engine.

The engine decides and applies; this only locks, says who the actor controls, and logs
each engine event as an Event with the table's next seq.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games import registry
from games.core.rng import Rng
from tabletop.models import Campaign, Character, Event, Membership, ProcedureState, Role
from tabletop.permissions import Verb
from tabletop.selectors import character_data, combatant_id, panel_for
from tabletop.services.base import ServiceError, append, lock_seat


def procedure_command(
    *, campaign: Campaign, actor: Membership, command: dict[str, Any], rng: Rng
) -> list[Event]:
    """Runs one command of the campaign's procedure; a rule refusal changes nothing."""
    game = registry.get(campaign.system)
    if game.procedure is None:
        raise ServiceError(f"{game.name} has no table procedure.")
    proc = game.procedure
    with transaction.atomic():
        locked, me = lock_seat(campaign.pk, actor, Verb.ROLL)
        row, _ = ProcedureState.objects.get_or_create(
            campaign=locked, defaults={"state": proc.new_state()}
        )
        owned = Character.objects.filter(campaign=locked, owner=me).order_by("pk")
        who = {"is_gm": me.role == Role.GM, "controls": [combatant_id(c) for c in owned]}
        state = row.state
        try:
            happened = proc.decide(state, {**command, "actor": who}, rng)
        except proc.error as exc:
            raise ServiceError(_named(str(exc), state)) from None
        logged = []
        for event in happened:
            state = proc.apply(state, event)
            panel = panel_for(locked, state)
            logged.append(
                append(
                    locked, f"{game.key}.{event['type']}", actor=me,
                    summary=proc.summary(event, state),
                    payload={"event": event, "panel": panel},
                )
            )
            if proc.writeback is not None:
                _write_back(locked, me, proc.writeback(event, state))
        row.state = state
        row.save(update_fields=["state", "updated"])
    return logged


def _named(message: str, state: dict[str, Any]) -> str:
    """Engine messages name combatants by id; the table knows them by name."""
    for cid, data in state.get("combatants", {}).items():
        if data.get("name"):
            message = message.replace(f"'{cid}'", data["name"])
    return message


def _write_back(campaign: Campaign, me: Membership, changes: dict[str, dict[str, Any]]) -> None:
    """Puts what the procedure left on each character (Toughness, injuries) on its sheet."""
    for character in Character.objects.filter(campaign=campaign).order_by("pk"):
        update = changes.get(combatant_id(character))
        if not update or all(character.sheet.get(k) == v for k, v in update.items()):
            continue
        character.sheet = {**character.sheet, **update}
        character.version += 1
        character.save(update_fields=["sheet", "version"])
        append(campaign, "character.updated", actor=me,
               summary=f"{character.name}'s sheet keeps what the fight left.",
               payload={"character": character_data(character)})
