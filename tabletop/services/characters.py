"""Character sheets: made by players or the GM, edited by their owner or the GM, claimed once."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction

from games import registry
from games.contract import Character as CharacterFacts
from games.sheets import SheetError
from tabletop.models import Audience, Table, Character, Membership, Role
from tabletop.permissions import Verb, can_claim_character, can_edit_character
from games.core.rng import system_rng
from tabletop.feed import panels
from tabletop.selectors import (
    character_data, character_facts, character_shown, deck_data, procedure_state, sheet_is_secret,
)
from tabletop.services.decks import make_deck
from tabletop.services.requests import IN_PLAY, MADE, asked_changes, file_request, must_ask
from tabletop.services.piles import card_event
from tabletop.services.base import (
    Conflict, NotAllowed, NotFound, ServiceError, acting, append, clean_name, lock_table,
)


class SheetErrors(ServiceError):
    """A sheet refused, with every field at fault at once: ``errors`` as (form field, message)."""

    def __init__(self, errors: list[tuple[str, str]]) -> None:
        super().__init__(errors[0][1], field=errors[0][0])
        self.errors = errors


def _sheet(table: Table, data: Mapping[str, Any]) -> dict[str, Any]:
    """The sheet as its system cleans it, or every fault at once: a system's ``clean_sheet``
    names the first field it refuses, so each refused field is set back to its default and the
    sheet cleaned again, until it passes or a fault repeats (issue 23: "form errors at their
    fields, all at once")."""
    game = registry.get(table.system)
    if game.clean_sheet is None:
        return {}
    defaults = {f.key: f.default for f in game.sheet_fields}
    trial, errors = dict(data), []
    for _ in range(len(defaults) + 1):
        try:
            cleaned = game.clean_sheet(trial)
        except SheetError as exc:
            field = f"sheet_{exc.field}" if exc.field in defaults else exc.field
            if any(f == field for f, _ in errors):
                break
            errors.append((field, exc.message))
            if exc.field not in defaults:
                break
            trial[exc.field] = defaults[exc.field]
        else:
            if not errors:
                return cleaned
            break
    raise SheetErrors(errors)


def _keep_the_rules_fields(table: Table, me: Membership, before: Mapping[str, Any] | None,
                           after: Mapping[str, Any]) -> None:
    """A player's sheet may not change what the rules own (SheetField.rules): a track in play,
    Corruption, or, once the character is made, what its player chose then. The GM's may."""
    if me.role == Role.GM:
        return
    making = before is None
    for spec in registry.get(table.system).sheet_fields:
        if spec.player_sets(making=making):
            continue
        try:  # what it holds now; for a character being made, what its default cleans to
            expected = _sheet(table, {**after, spec.key: spec.default} if making else before).get(spec.key)
        except ServiceError:  # a sheet stored before its system tightened a rule: as stored
            expected = spec.default if making else (before or {}).get(spec.key)
        if after.get(spec.key) != expected:
            when = "after the character is made " if spec.rules == "chosen" else ""
            raise NotAllowed(f"{spec.label} is the rules' to change {when}(the GM can): nothing was saved.",
                             field=f"sheet_{spec.key}")


def character_create(
    *,
    table: Table,
    actor: Membership,
    name: str,
    sheet: Mapping[str, Any],
    npc: bool = False,
    for_players: bool = False,
) -> Character:
    """A player makes their own character; the GM makes NPCs or characters for players to claim."""
    with transaction.atomic():
        locked = lock_table(table.pk)
        verb = Verb.NPC_CREATE if (npc or for_players) else Verb.CHARACTER_CREATE
        me = acting(locked, actor, verb)
        owner = None if (npc or for_players or me.role == Role.GM) else me
        cleaned = _sheet(locked, sheet)
        _keep_the_rules_fields(locked, me, None, cleaned)
        cleaned, asked, why = _within_creation(locked, me, cleaned)
        character = Character.objects.create(
            table=locked,
            owner=owner,
            is_npc=npc,
            name=_unique_name(locked, name),
            sheet=cleaned,
        )
        label = "an NPC" if npc else "a character"
        character_event(locked, "character.created", actor=me, summary=f"{me.display_name} made {label}: {character.name}.", character=character)
        _make_its_decks(locked, me, character)
        if asked:
            file_request(locked, me, character, asked, reason=why)
    return character


def _past_creation(locked: Table, me: Membership, character: Character, before: Mapping[str, Any],
                   after: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
    """A player's edit of a character no rule move has used yet: the figures it changes past what a
    new character may have (``Sheet.creation``), to ask of the GM, with why; None when there are
    none. A figure the GM set before (a character made for players) is not asked again."""
    if not must_ask(locked, me, character) or character.in_play:
        return None
    past = [(key, message) for key, message in registry.get(locked.system).sheet.creation(after)
            if after.get(key) != before.get(key)]
    if not past:
        return None
    return {key: after[key] for key, _ in past}, _past_why(past)


def _within_creation(locked: Table, me: Membership, cleaned: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], str]:
    """A player's new sheet within what its system allows at creation (``Sheet.creation``): each
    figure past it set back to its default, and the typed figures to ask the GM for, with why.
    The GM's characters, and every character at a table whose approvals are off, are made as typed."""
    if me.role == Role.GM or not locked.sheet_approvals:
        return cleaned, {}, ""
    game = registry.get(locked.system)
    past = game.sheet.creation(cleaned)
    if not past:
        return cleaned, {}, ""
    defaults = {f.key: f.default for f in game.sheet_fields}
    keys = [key for key, _ in past if key in defaults]
    within = _sheet(locked, {**cleaned, **{key: defaults[key] for key in keys}})
    asked = {key: cleaned[key] for key in keys if cleaned.get(key) != within.get(key)}
    return within, asked, _past_why(past)


def _past_why(past: list[tuple[str, str]]) -> str:
    """Why a request of figures past creation waits: the box says "Waits because the character is <why>."."""
    why = "past what a new character may have: " + " ".join(message for _, message in past)
    return why[:200].rstrip(".")


def _unique_name(locked: Table, name: str, *, but: Character | None = None) -> str:
    """A character's name, cleaned, and no other character's at the table (in any case): the
    log, the turn banner and every "who" list name characters, and a system may name things
    after them (Report Card's "Ann's Tarot"), so two of one name could not be told apart."""
    title = clean_name(name, what="character name", max_length=60)
    others = locked.characters.filter(name__iexact=title)
    if but is not None:
        others = others.exclude(pk=but.pk)
    if others.exists():
        raise ServiceError(f"There is already a character called {title} at this table; "
                           "give this one another name.", field="name")
    return title


def character_event(locked: Table, kind: str, *, actor: Membership, summary: str, character: Character,
                    private_summary: str = "", with_panel: bool = True) -> None:
    """A character's event, with the table's panel when its system has one: the platform adds
    the table's characters and who controls each to every panel (a form's "who", a button only
    a character's player sees), so a character made, renamed or claimed redraws it. An NPC
    whose sheet is secret (Table.npc_sheets_secret) travels whole only in the GM's part;
    ``private_summary`` is then the GM's line (what changed on the sheet). A procedure's own
    write-back leaves the panel out (``with_panel``): its event redraws it already."""
    shown, secret = character_shown(character)
    event = append(locked, kind, actor=actor, summary=summary, payload={"character": shown}, private=secret,
                   private_summary=private_summary if secret else "",
                   private_audience=Audience.GM if secret else Audience.OWNER)
    if with_panel:
        panels.attach([event], locked, procedure_state(locked) or {})


def _make_its_decks(locked: Table, me: Membership, character: Character) -> None:
    """The decks the system gives each character (GameSystem.character_decks), made with it,
    shuffled and sealed, owned by whoever plays it (the table's until someone claims it)."""
    for spec in registry.get(locked.system).character_decks(character_facts(character)):
        make_deck(locked, me, kind=spec.kind, rng=system_rng(), name=spec.name, owner=character.owner,
                  allow_reversed=spec.allow_reversed, rules=spec.rules)


def _hand_over_its_decks(locked: Table, character: Character) -> None:
    """A claimed character's own decks become its new player's."""
    names = [spec.name for spec in registry.get(locked.system).character_decks(character_facts(character))]
    if names:
        locked.decks.filter(name__in=names, owner__isnull=True).update(owner=character.owner)


def _rename_its_decks(locked: Table, me: Membership, before: CharacterFacts, after: CharacterFacts) -> None:
    """A renamed character's own decks take the names the system gives the new name (Report
    Card's "Ann's Tarot"), so its rules still find them by name and the table reads them
    right; refused, changing nothing, if another deck already has such a name."""
    game = registry.get(locked.system)
    pairs = zip((s.name for s in game.character_decks(before)), (s.name for s in game.character_decks(after)))
    for old, new in pairs:
        deck = locked.decks.filter(name=old).first() if old != new else None
        if deck is None:
            continue
        title = clean_name(new, what="deck name", max_length=60)
        if locked.decks.filter(name=title).exclude(pk=deck.pk).exists():
            raise ServiceError(f"There is already a deck called {title} at this table.", field="name")
        deck.name = title
        deck.save(update_fields=["name"])
        card_event(locked, "deck.configured", actor=me, summary=f"{old} is now called {title}.",
                   extra={"deck": deck.pk, "deck_info": deck_data(deck)})


def _under_lock(table: Table, character: Character, actor: Membership) -> tuple[Character, Membership | None]:
    """The character and the actor's membership as they are now, read under the table lock."""
    fresh = Character.objects.filter(pk=character.pk, table=table).first()
    if fresh is None:
        raise NotFound("There is no such character.")
    return fresh, Membership.objects.filter(pk=actor.pk, table=table).first()


def character_update(
    *,
    character: Character,
    actor: Membership,
    name: str,
    sheet: Mapping[str, Any],
    version: int | None = None,
) -> Character:
    """Saves a sheet. ``version`` is the one the editor loaded; an older one means someone
    else saved in between, and the edit is refused rather than silently overwriting."""
    with transaction.atomic():
        locked = lock_table(character.table_id)
        fresh, me = _under_lock(locked, character, actor)
        if not can_edit_character(me, fresh):
            raise NotAllowed("You may edit only your own character.")
        if version is not None and version != fresh.version:
            raise Conflict(f"{fresh.name} was changed by someone else; reload it and try again.")
        before = character_facts(fresh)
        fresh.name = _unique_name(locked, name, but=fresh)
        fresh.sheet = _sheet(locked, sheet)
        asked = asked_changes(locked, fresh, before.sheet, fresh.sheet) if must_ask(locked, me, fresh) else {}
        why = IN_PLAY if fresh.in_play else MADE
        past = _past_creation(locked, me, fresh, before.sheet, {**fresh.sheet, **{k: before.sheet.get(k) for k in asked}})
        if past:  # not yet in play: still within what creation allows, or asked of the GM
            asked, why = {**past[0], **asked}, past[1]
        if asked:  # the rules read the old figures until the GM approves the new
            fresh.sheet = _sheet(locked, {**fresh.sheet, **{k: before.sheet.get(k) for k in asked}})
        _keep_the_rules_fields(locked, me, before.sheet, fresh.sheet)
        fresh.sheet = with_what_the_rules_wrote(locked, before.sheet, fresh.sheet)
        _rename_its_decks(locked, me, before, character_facts(fresh))
        changed = sheet_changes(locked, before, fresh.name, fresh.sheet)
        if asked:
            file_request(locked, me, fresh, asked, reason=why)
            if not changed:
                return fresh
        fresh.version += 1
        fresh.save(update_fields=["name", "sheet", "version"])
        line = f"{me.display_name} changes {before.name}: {changed}." if changed else \
            f"{me.display_name} saves {fresh.name}'s sheet unchanged."
        if sheet_is_secret(fresh):  # the GM's figures: the others learn that the GM's sheet changed
            character_event(locked, "character.updated", actor=me, character=fresh, private_summary=line,
                            summary=f"The GM's sheet of {fresh.name} changes.")
        else:
            character_event(locked, "character.updated", actor=me, summary=line, character=fresh)
    return fresh


def sheet_changes(table: Table, before: CharacterFacts, name: str, after: Mapping[str, Any]) -> str:
    """What a sheet edit changed, old and new, by the sheet's own labels: "Hand-to-Hand 2 → 3;
    Notes changed"; "" when nothing did."""
    parts = [f"name {before.name} → {name}"] if name != before.name else []
    for spec in registry.get(table.system).sheet_fields:
        old, new = before.sheet.get(spec.key, spec.default), after.get(spec.key, spec.default)
        if _blank(old) and _blank(new) or old == new:
            continue
        if spec.kind in ("stats", "skills"):
            parts.append(f"{spec.label}: {_listed_changes(old, new)}")
        elif spec.kind in ("longtext", "colour"):
            parts.append(f"{spec.label} changed")
        else:
            parts.append(f"{spec.label} {_shown(old)} → {_shown(new)}")
    return "; ".join(parts)


def clean_sheet_of(table: Table, data: Mapping[str, Any]) -> dict[str, Any]:
    """A sheet as the table's system cleans it, or a refusal naming every field at fault."""
    return _sheet(table, data)


def with_what_the_rules_wrote(table: Table, before: Mapping[str, Any], cleaned: dict[str, Any]) -> dict[str, Any]:
    """A saved sheet keeps what the rules wrote beside its fields (Demon City's ``dead`` from a
    dead row of the Injury table, a card a rule put in a character's keeping): no form holds
    those, so an edit or an approval must not drop them (cleaning keeps the fields alone)."""
    fields = {spec.key for spec in registry.get(table.system).sheet_fields}
    return {**{k: v for k, v in before.items() if k not in fields}, **cleaned}


def _blank(value: Any) -> bool:
    return value in (None, "", [], {})


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    text = "blank" if _blank(value) else str(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _listed_changes(old: Any, new: Any) -> str:
    """A list of named values (skills, stats) before and after: what was added, dropped, changed."""
    def pairs(value: Any) -> dict[str, str]:
        if isinstance(value, Mapping):
            return {str(k): str(v) for k, v in value.items()}
        return {str(p[0]): str(p[1]) for p in value or [] if isinstance(p, (list, tuple)) and len(p) == 2}
    was, now = pairs(old), pairs(new)
    out = [f"{k} {was[k]} → {now[k]}" for k in now if k in was and was[k] != now[k]]
    out += [f"{k} {now[k]} added" for k in now if k not in was]
    out += [f"{k} dropped" for k in was if k not in now]
    return ", ".join(out) or "reordered"


def character_claim(*, character: Character, actor: Membership) -> Character:
    with transaction.atomic():
        locked = lock_table(character.table_id)
        fresh, me = _under_lock(locked, character, actor)
        if not can_claim_character(me, fresh):
            raise NotAllowed(f"{fresh.name} cannot be claimed.")
        fresh.owner = me
        fresh.version += 1
        fresh.save(update_fields=["owner", "version"])
        _hand_over_its_decks(locked, fresh)
        character_event(locked, "character.claimed", actor=me, summary=f"{me.display_name} now plays {fresh.name}.", character=fresh)
    return fresh


def table_npc_sheets(*, table: Table, actor: Membership, secret: bool) -> None:
    """The GM keeps NPCs' sheets behind the screen (``secret``, the default) or shows them to
    every seat. Every NPC's card is redrawn for each seat as it may now see it, and each seat's
    panel with it (a system's view hides a hidden NPC's figures: ``Seat.hidden``)."""
    with transaction.atomic():
        locked = lock_table(table.pk)
        me = acting(locked, actor, Verb.TABLE_CONFIGURE)
        if locked.npc_sheets_secret == secret:
            raise ServiceError("The NPCs' sheets are already " + ("the GM's alone." if secret else "shown to everyone."))
        locked.npc_sheets_secret = secret
        locked.save(update_fields=["npc_sheets_secret"])
        npcs = list(locked.characters.filter(is_npc=True, retired=False).select_related("owner").order_by("pk"))
        for npc in npcs:
            npc.table = locked
        shown = [character_shown(npc) for npc in npcs]
        summary = (f"{me.display_name} keeps the NPCs' sheets behind the screen: only the GM sees them."
                   if secret else f"{me.display_name} shows the NPCs' sheets to everyone.")
        event = append(locked, "table.configured", actor=me, summary=summary,
                       payload={"npc_sheets_secret": secret, "characters": [public for public, _ in shown]},
                       private={"characters": [character_data(npc) for npc in npcs]} if secret else {},
                       private_audience=Audience.GM)
        panels.attach([event], locked, procedure_state(locked) or {})


shown_value, listed_changes = _shown, _listed_changes  # a request's diff reads as an edit's line
