"""A character's growth, as one seat may read it (issue 36: "A character's growth is a history
anyone entitled to the sheet can read (what rose, when, why)"): the lines of the reader's own log
that grew it: its making, the experience or Beats its system's rules gave it, the rises approved
(its system's growth kinds, ``Growth.kinds``), and every request of its player the GM approved.
Each line is one the reader reads in the log already, so the history holds nothing new."""

from __future__ import annotations

from dataclasses import dataclass

from games import registry
from tabletop.feed.seat import event_reading
from tabletop.models import Character, Event, Membership, Table
from tabletop.selectors import SeenEvent, cids_named, combatant_id, viewer_of

PLATFORM_KINDS = ("character.created", "character.request_approved")


@dataclass(frozen=True)
class Step:
    when: str  # the date it happened
    line: str  # the log's line, as the reader reads it


def kinds(table: Table) -> set[str]:
    game = registry.get(table.system)
    own = game.growth.kinds if game.growth is not None else ()
    return {*PLATFORM_KINDS, *(f"{game.key}.{kind}" for kind in own)}


def _about(seen: SeenEvent, character: Character) -> bool:
    event = seen.event
    if event.kind in PLATFORM_KINDS:
        shown = event.payload.get("character")
        return isinstance(shown, dict) and shown.get("id") == character.pk
    return bool(cids_named([event.payload, seen.private or {}], {combatant_id(character)}))


def history(table: Table, me: Membership, character: Character) -> list[Step]:
    """The growth of ``character`` that ``me`` reads, oldest first."""
    viewer = viewer_of(me)
    steps = []
    for event in Event.objects.filter(table=table, kind__in=kinds(table)).order_by("seq"):
        reading = event_reading(viewer, event)
        if reading is None:
            continue
        seen = SeenEvent(event, reading)
        if _about(seen, character):
            steps.append(Step(when=event.created.date().isoformat(), line=seen.summary))
    return steps
