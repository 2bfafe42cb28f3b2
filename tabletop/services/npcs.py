"""NPCs in numbers: the GM copies an NPC, fields several from one sheet (an NPC's, or an entry of
their bestiary), each its own character with its own token; sets an NPC's tracks back to fresh;
retires the fallen (gone from the lists and the scene, kept in the log) and brings one back; and
keeps a bestiary, NPCs saved once to bring to any of their tables of the same system.

Each is the GM's (``Verb.NPC_MANAGE``), takes the table's lock once and logs one line for all it
did, whatever the number (a system that gives each character decks of its own logs those decks as
any new character's). A copy of an NPC whose sheet is behind the GM's screen is behind it too: its
events carry it whole only in the GM's part (``selectors.character_shown``). The bestiary is the
GM's alone: its lines and lists reach the GM's seat and no other.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.db.models import F

from games import registry
from games.core.fights import find
from tabletop.feed import panels
from tabletop.models import Audience, BestiaryEntry, Character, Membership, Scene, Table, Token
from tabletop.permissions import Verb
from tabletop.selectors import (
    character_facts, character_shown, combatant_id, procedure_state, sheet_is_secret,
)
from tabletop.selectors.npcs import bestiary_list, fight_roster, is_out, retired_list
from tabletop.selectors.scenes import scene_view, shown_badges, shown_scene, token_data, token_seen
from tabletop.services.base import NotFound, ServiceError, append, lock_member
from tabletop.services.characters import (
    SheetErrors, _make_its_decks, _sheet, character_event, sheet_changes,
)
from tabletop.services.scenes import _stored_or_removed

MAX_FIELDED = 20  # NPCs one step brings to the table
MAX_BESTIARY = 200  # entries of one GM's bestiary for one system
_NUMBERED = re.compile(r"^(.*\S)\s+(\d{1,6})$")


# Names


def base_name(name: str) -> str:
    """An NPC's name without its number: "Ghoul 2" is a Ghoul. The name of the lot it was fielded
    with, of its copies and of its bestiary entry."""
    found = _NUMBERED.match(name.strip())
    return found.group(1) if found else name.strip()


def numbered(locked: Table, base: str, count: int, *, start: int) -> list[str]:
    """``count`` names "<base> <n>" for n from ``start`` on, skipping each name taken at the table
    in any case (names are unique per table, and a retired character keeps its own: the log names
    it), each at most 60 characters."""
    taken = {n.casefold() for n in locked.characters.values_list("name", flat=True)}
    names: list[str] = []
    n = start
    while len(names) < count:
        tail = f" {n}"
        name = base[:60 - len(tail)].rstrip() + tail
        if name.casefold() not in taken:
            names.append(name)
            taken.add(name.casefold())
        n += 1
    return names


# Sheets


def fresh_sheet(locked: Table, sheet: Mapping[str, Any], name: str) -> dict[str, Any]:
    """``sheet`` with every track its rules keep back where it starts: each field its system marks
    ``kept`` set to what the system's cleaning makes of that field's default (Demon City's Current
    Toughness blank, which is Base; Passages' Wounds and Fatigue full; a Health now blank, whole).
    Refused, with what is at fault, for a sheet its rules no longer pass."""
    kept = {f.key: f.default for f in registry.get(locked.system).sheet_fields if f.rules == "kept"}
    try:
        return _sheet(locked, {**sheet, **kept})
    except SheetErrors as exc:
        raise ServiceError(f"{name}'s sheet does not pass the rules now ({exc.message}): "
                           "correct it first.") from None


def copied_sheet(locked: Table, sheet: Mapping[str, Any], name: str) -> dict[str, Any]:
    """What a new NPC made from ``sheet`` starts with: its fields as they stand, its tracks fresh,
    and nothing the rules left on it beside its fields (a card it held, a death)."""
    fields = {f.key for f in registry.get(locked.system).sheet_fields}
    return fresh_sheet(locked, {k: v for k, v in sheet.items() if k in fields}, name)


# Reading the input under the lock


def _character(locked: Table, character: Character) -> Character:
    fresh = Character.objects.filter(pk=character.pk, table=locked).select_related("owner").first()
    if fresh is None:
        raise NotFound("There is no such character at this table.")
    fresh.table = locked
    return fresh


def _npc(locked: Table, character: Character, doing: str) -> Character:
    """The NPC ``doing`` is done to, as it is now: refused for a player's character or one retired."""
    fresh = _character(locked, character)
    if not fresh.is_npc:
        raise ServiceError(f"{fresh.name} is not an NPC: only an NPC is {doing}.")
    if fresh.retired:
        raise ServiceError(f"{fresh.name} is retired: bring it back first.")
    return fresh


def _entry(me: Membership, locked: Table, entry_id: int) -> BestiaryEntry:
    """An entry of the acting GM's own bestiary for the table's system; any other id names none."""
    entry = BestiaryEntry.objects.filter(pk=entry_id, owner_id=me.user_id, system=locked.system).first()
    if entry is None:
        raise NotFound("There is no such entry in your bestiary for this game.")
    return entry


def _scene(locked: Table, scene_id: int | None) -> Scene | None:
    """The scene the new tokens stand on: the one the GM picked (of this table), else the one shown."""
    if scene_id is None:
        return shown_scene(locked)
    scene = Scene.objects.filter(pk=scene_id, table=locked).first()
    if scene is None:
        raise NotFound("There is no such scene at this table.")
    return scene


# Fielding NPCs


def npc_copy(*, character: Character, actor: Membership) -> Character:
    """A copy of an NPC: the same sheet and portrait, its tracks fresh, its own decks (as any new
    character's), named after it with the next free number ("Ghoul" makes "Ghoul 2")."""
    with transaction.atomic():
        locked, me = lock_member(character.table_id, actor, Verb.NPC_MANAGE)
        source = _npc(locked, character, "copied")
        (name,) = numbered(locked, base_name(source.name), 1, start=2)
        sheet = copied_sheet(locked, source.sheet, source.name)
        made = _field(locked, me, [name], sheet, portrait=source, scene=None, hidden=False,
                      said=f"{me.display_name} copies {source.name}: {name}.")
    return made[0]


def npc_add(*, table: Table, actor: Membership, count: int, character: Character | None = None,
            entry_id: int | None = None, scene_id: int | None = None, hidden: bool = False) -> list[Character]:
    """``count`` NPCs (1 to ``MAX_FIELDED``) from one sheet, an NPC's or an entry of the GM's
    bestiary, numbered "<name> 1" to "<name> N" past the names taken, each its own character (so
    its own combatant: a system reads every character at the table) with its own token on the
    shown scene (or the scene the GM picks), spread so that none hides another; ``hidden``: the
    GM's alone until revealed."""
    if not 1 <= count <= MAX_FIELDED:
        raise ServiceError(f"Field 1 to {MAX_FIELDED} at a time.", field="count")
    with transaction.atomic():
        locked, me = lock_member(table.pk, actor, Verb.NPC_MANAGE)
        if (character is None) == (entry_id is None):
            raise ServiceError("Choose the NPC, or the entry of your bestiary, to field.")
        if character is not None:
            source = _npc(locked, character, "fielded")
            name, sheet, portrait, where = source.name, copied_sheet(locked, source.sheet, source.name), source, ""
        else:
            entry = _entry(me, locked, entry_id or 0)
            name, sheet, portrait, where = entry.name, copied_sheet(locked, entry.sheet, entry.name), None, \
                " from the bestiary"
        scene = _scene(locked, scene_id)
        names = numbered(locked, base_name(name), count, start=1)
        return _field(locked, me, names, sheet, portrait=portrait, scene=scene, hidden=hidden,
                      said=f"{me.display_name} brings in {_listed(names)}{where}.")


def _field(locked: Table, me: Membership, names: Sequence[str], sheet: Mapping[str, Any], *,
           portrait: Character | None, scene: Scene | None, hidden: bool, said: str) -> list[Character]:
    """Makes the NPCs ``names`` of ``sheet`` (each with ``portrait``'s picture, when it has one),
    their tokens on ``scene``, and logs them in one line (``said``), then their decks."""
    def run(stored: list[str]) -> list[Character]:
        made = []
        for name in names:
            npc = Character.objects.create(table=locked, owner=None, is_npc=True, name=name, sheet=dict(sheet))
            npc.table = locked
            if portrait is not None:
                _copy_portrait(locked, portrait, npc, stored)
            made.append(npc)
        seen, every = _place(locked, scene, made, hidden) if scene is not None else ([], [])
        on = scene is not None and scene.shown
        gm_said = _with_tokens(said, len(made), scene, hidden) if every else said
        public_said = gm_said if seen == every and on else said  # a token out of sight is not mentioned
        shown = [character_shown(npc) for npc in made]
        whole = [private.get("character", public) for public, private in shown]
        public = [p for p, _ in shown]
        private = {**({"characters": whole} if whole != public else {}),
                   **({"tokens": every} if every != seen else {}), "scene_tools": scene_view(locked, me)}
        envelope = append(locked, "npcs.added", actor=me, summary=public_said,
                          private_summary=gm_said if gm_said != public_said else "",
                          payload={"characters": public, "tokens": seen, "shown": on},
                          private=private, private_audience=Audience.GM)
        for npc in made:
            _make_its_decks(locked, me, npc)
        panels.attach([envelope], locked, procedure_state(locked) or {})
        return made
    return _stored_or_removed(run)


def _with_tokens(said: str, count: int, scene: Scene | None, hidden: bool) -> str:
    """A fielding's line with where its tokens stand: "..., their tokens on The Crypt"."""
    assert scene is not None
    whose, which = ("their tokens", "them") if count > 1 else ("its token", "it")
    return f"{said[:-1]}, {whose} on {scene.name}{f' (hidden: only you see {which})' if hidden else ''}."


def _copy_portrait(locked: Table, source: Character, to: Character, stored: list[str]) -> None:
    """``to`` takes a picture of its own, the same as ``source``'s (each character's file is its
    own: replacing one removes it); a picture whose file is gone is left out."""
    if not source.portrait:
        return
    try:
        with source.portrait.storage.open(source.portrait.name, "rb") as picture:
            data = picture.read()
    except OSError:
        return
    to.portrait.save(f"{locked.pk}-{to.pk}-{secrets.token_hex(8)}.{source.portrait_type or 'png'}",
                     ContentFile(data), save=False)
    stored.append(to.portrait.name)
    to.portrait_type = source.portrait_type
    to.save(update_fields=["portrait", "portrait_type"])


def _place(locked: Table, scene: Scene, made: Sequence[Character],
           hidden: bool) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Each new NPC's token on ``scene``, at a free place of the loose grid a token placed alone
    takes: what every seat sees of them (none, when hidden or on a scene not shown), and the GM."""
    badges = shown_badges(locked)
    every, seen = [], []
    for npc, (x, y) in zip(made, _spots(scene, len(made))):
        token = Token.objects.create(scene=scene, character=npc, x=x, y=y, hidden=hidden)
        token.character = npc
        every.append(token_data(token, scene, badges))
        if scene.shown and token_seen(scene, token):  # not hidden, not under the fog
            seen.append(every[-1])
    return seen, every


def _spots(scene: Scene, count: int) -> list[tuple[int, int]]:
    """``count`` places on ``scene`` where no token stands: the loose grid near its top left that
    ``scenes.token_place`` fills, its free places first; on a crowded scene, beside its places."""
    grid = [(scene.width * (1 + i % 8) // 9, scene.height * (1 + i // 8) // 9) for i in range(64)]
    taken = set(scene.tokens.values_list("x", "y"))
    spots = [p for p in grid if p not in taken]
    shift = 0
    while len(spots) < count:
        shift += 1
        spots += [(min(scene.width, x + shift * scene.width // 90), y) for x, y in grid]
    return spots[:count]


def _listed(names: Sequence[str]) -> str:
    """"Ghoul 1", "Ghoul 1 and Ghoul 2", "Ghoul 1, Ghoul 2 and Ghoul 3"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# Tracks


def npc_reset(*, character: Character, actor: Membership) -> Character:
    """An NPC's tracks back to fresh (``fresh_sheet``): a reused NPC starts whole. Refused while
    the fight under way holds it (its rules keep its harm till the fight ends), and for a sheet
    whose tracks are fresh already."""
    with transaction.atomic():
        locked, me = lock_member(character.table_id, actor, Verb.NPC_MANAGE)
        fresh = _npc(locked, character, "reset here (a player's character heals by the rules)")
        game = registry.get(locked.system)
        if not any(f.rules == "kept" for f in game.sheet_fields):
            raise ServiceError(f"A {game.name} sheet keeps no tracks: there is nothing to reset.")
        rows = list(Character.objects.filter(table=locked).order_by("pk"))
        if find(fight_roster(locked, rows), combatant_id(fresh)) is not None:
            raise ServiceError(f"{fresh.name} is in the fight under way: reset its tracks once the fight is over.")
        sheet = fresh_sheet(locked, fresh.sheet, fresh.name)
        if sheet == fresh.sheet:
            raise ServiceError(f"{fresh.name}'s tracks are fresh already.")
        changed = sheet_changes(locked, character_facts(fresh), fresh.name, sheet)
        fresh.sheet = sheet
        fresh.version += 1
        fresh.save(update_fields=["sheet", "version"])
        line = f"{me.display_name} sets {fresh.name}'s tracks back to fresh"
        if sheet_is_secret(fresh):  # the GM's figures: the others learn that it is whole again
            character_event(locked, "character.reset", actor=me, character=fresh, summary=f"{line}.",
                            private_summary=f"{line}: {changed}." if changed else f"{line}.")
        else:
            character_event(locked, "character.reset", actor=me, character=fresh,
                            summary=f"{line}: {changed}." if changed else f"{line}.")
    return fresh


# Retiring


def characters_retire(*, table: Table, actor: Membership, character: Character | None = None,
                      fallen: bool = False) -> list[Character]:
    """Puts characters away: gone from the lists, the forms and the scene (their tokens removed),
    kept in the log, which still names them. ``character``: one (an NPC, or any character the GM
    chooses), refused while it stands in the fight under way; ``fallen``: every NPC out of the
    fight (the system says who is out: fallen, out of the fight, incapacitated, not Combat
    Eligible), during a fight or after it."""
    with transaction.atomic():
        locked, me = lock_member(table.pk, actor, Verb.NPC_MANAGE)
        rows = list(Character.objects.filter(table=locked).order_by("pk"))
        roster = fight_roster(locked, rows)
        if fallen:
            going = [c for c in rows if c.is_npc and not c.retired and is_out(locked, c, roster)]
            if not going:
                raise ServiceError("No NPC is out of the fight: there is no one to retire.")
        elif character is not None:
            one = _character(locked, character)
            if one.retired:
                raise ServiceError(f"{one.name} is retired already.")
            fighter = find(roster, combatant_id(one))
            if fighter is not None and not fighter.out:
                raise ServiceError(f"{one.name} is in the fight under way and can still act: retire it once it is "
                                   "out of the fight, or the fight is over.")
            going = [one]
        else:
            raise ServiceError("Choose the character to retire.")
        ids, names = [c.pk for c in going], [c.name for c in going]
        scene = shown_scene(locked)
        tokens = Token.objects.filter(character_id__in=ids, scene__table=locked)
        on_stage = [(pk, hidden) for pk, hidden in tokens.filter(scene=scene).values_list("pk", "hidden")] \
            if scene is not None else []
        tokens.delete()
        Character.objects.filter(pk__in=ids).update(retired=True, version=F("version") + 1)
        summary = (f"{me.display_name} retires the fallen: {_listed(names)}." if fallen else
                   f"{me.display_name} retires {names[0]}: gone from the lists and the scene.")
        envelope = append(locked, "characters.retired", actor=me, summary=summary,
                          payload={"characters": ids, "names": names,
                                   "tokens": [pk for pk, hidden in on_stage if not hidden]},
                          private={"retired": retired_list(locked), "tokens": [pk for pk, _ in on_stage],
                                   "scene_tools": scene_view(locked, me)},
                          private_audience=Audience.GM)
        panels.attach([envelope], locked, procedure_state(locked) or {})
    for c in going:
        c.retired = True
    return going


def character_return(*, character: Character, actor: Membership) -> Character:
    """Brings a retired character back to the lists (its tokens are placed again by hand)."""
    with transaction.atomic():
        locked, me = lock_member(character.table_id, actor, Verb.NPC_MANAGE)
        fresh = _character(locked, character)
        if not fresh.retired:
            raise ServiceError(f"{fresh.name} is not retired.")
        fresh.retired = False
        fresh.version += 1
        fresh.save(update_fields=["retired", "version"])
        public, whole = character_shown(fresh)
        envelope = append(locked, "character.returned", actor=me, payload={"character": public},
                          summary=f"{me.display_name} brings {fresh.name} back to the table.",
                          private={**whole, "retired": retired_list(locked), "scene_tools": scene_view(locked, me)},
                          private_audience=Audience.GM)
        panels.attach([envelope], locked, procedure_state(locked) or {})
    return fresh


# The bestiary


def _bestiary_event(locked: Table, me: Membership, kind: str, summary: str) -> None:
    """A line of the GM's bestiary, the GM's alone, with the list as it is now."""
    append(locked, kind, actor=me, audience=Audience.GM, summary=summary,
           payload={"bestiary": bestiary_list(me.user_id, locked.system), "system": registry.get(locked.system).name})


def bestiary_save(*, character: Character, actor: Membership, replace: bool = False) -> BestiaryEntry:
    """Saves an NPC to the GM's bestiary for the table's system, by its name without its number
    and with its tracks fresh; an entry of the same name is replaced only when the GM says so
    (``replace``), else refused."""
    with transaction.atomic():
        locked, me = lock_member(character.table_id, actor, Verb.NPC_MANAGE)
        fresh = _npc(locked, character, "saved to the bestiary")
        name = base_name(fresh.name)
        sheet = copied_sheet(locked, fresh.sheet, fresh.name)
        entries = BestiaryEntry.objects.filter(owner_id=me.user_id, system=locked.system)
        same = entries.filter(name__iexact=name).first()
        if same is not None and not replace:
            raise ServiceError(f"Your bestiary holds {same.name} already: tick “over one of the same name” to "
                               "save this one in its place.", field="replace")
        if same is None and entries.count() >= MAX_BESTIARY:
            raise ServiceError(f"Your bestiary holds {MAX_BESTIARY} NPCs for this game: forget one first.")
        try:
            with transaction.atomic():
                if same is not None:
                    same.name, same.sheet = name, sheet
                    same.save(update_fields=["name", "sheet"])
                    entry = same
                else:
                    entry = BestiaryEntry.objects.create(owner_id=me.user_id, system=locked.system, name=name,
                                                         sheet=sheet)
        except IntegrityError:  # saved a moment ago from another of the GM's tables
            raise ServiceError(f"Your bestiary holds {name} already: try again to replace it.") from None
        said = f"saves {fresh.name} to the bestiary" + (f" as {name}" if name != fresh.name else "") + \
            (", in place of the one it held" if same is not None else "")
        _bestiary_event(locked, me, "bestiary.saved", f"{me.display_name} {said}.")
    return entry


def bestiary_forget(*, table: Table, actor: Membership, entry_id: int) -> None:
    """Takes an entry out of the GM's bestiary (the NPCs made from it stay)."""
    with transaction.atomic():
        locked, me = lock_member(table.pk, actor, Verb.NPC_MANAGE)
        entry = _entry(me, locked, entry_id)
        name = entry.name
        entry.delete()
        _bestiary_event(locked, me, "bestiary.forgotten", f"{me.display_name} forgets {name} from the bestiary.")
