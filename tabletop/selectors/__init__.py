"""Reads of the table's rows: those that take a ``Viewer`` return only what it may see; the rest return rows whole."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from collections.abc import Collection, Mapping
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Max, Q
from django.utils import timezone

from games import contract, registry
from games.core.cards import deck_kind
from tabletop.ids import parse_id
from tabletop.models import (
    CardPlacement, Table, Character, Deck, Event, Membership, Pile, PileKind, PlaySession, Presence,
    ProcedureState, ProcessBeat, Role,
)
from tabletop.selectors import recap as recaps
from tabletop.feed.seat import Reading, Viewer, event_reading, private_part
from tabletop.permissions import Standing, deck_dealers, standing_of


def member_data(member: Membership) -> dict[str, Any]:
    """The public face of a seat, as events carry it and panels render it."""
    return {
        "id": member.pk,
        "name": member.display_name,
        "role": member.role,
        "removed": member.removed_at is not None,
    }


def character_data(character: Character) -> dict[str, Any]:
    owner = character.owner
    game = registry.get(character.table.system)
    return {
        "id": character.pk,
        "name": character.name,
        "is_npc": character.is_npc,
        "owner_id": owner.pk if owner else None,
        "owner_name": owner.display_name if owner else "",
        "sheet": character.sheet,
        "derived": game.derived(character.sheet),
        "glance": _glance(game.glance(character.sheet)),
        "version": character.version,
        # a retired character's event takes its card off every page (feed/parts.py)
        "retired": character.retired,
    }


def sheet_is_secret(character: Character) -> bool:
    """An NPC's sheet that only the GM sees (the table's setting, ``Table.npc_sheets_secret``)."""
    return character.is_npc and character.table.npc_sheets_secret


def behind_the_screen(character: Character, data: Mapping[str, Any]) -> dict[str, Any]:
    """A character as the seats that may not see its sheet see it (``character_data``): its
    name, colour, that it is an NPC, and what its system makes public of it
    (``GameSystem.npc_glance``: its harm, say); no sheet, stats or derived values."""
    colour = data["sheet"].get("colour")
    game = registry.get(character.table.system)
    public = game.npc_glance(game.glance(character.sheet))
    return {**data, "sheet": {"colour": colour} if colour else {}, "derived": [],
            "glance": _glance(public), "secret": True}


def character_shown(character: Character) -> tuple[dict[str, Any], dict[str, Any]]:
    """A character's event parts: what everyone sees, and what only the GM sees (the whole
    character, when its sheet is secret), as an event's ``payload`` and ``private``."""
    data = character_data(character)
    if not sheet_is_secret(character):
        return data, {}
    return behind_the_screen(character, data), {"character": data}


def _track(label: str, now: int, of: int) -> dict[str, Any]:
    fill = max(0, min(100, round(100 * now / of))) if of > 0 else (100 if now >= 0 else 0)
    tone = "ok" if fill > 60 else "hurt" if fill > 25 else "low"
    return {"label": label, "now": now, "of": of, "fill": fill, "tone": tone}


def _glance(glance: Any) -> dict[str, Any]:
    """A system's Glance as plain data for the character card (and the event that redraws it);
    each track with the share of its bar filled, 0 at or below nothing left."""
    return {
        "stats": [list(pair) for pair in glance.stats],
        "tracks": [_track(label, now, of) for label, now, of in glance.tracks],
        "tags": list(glance.tags),
        "out": glance.out,
    }


def deck_data(deck: Deck) -> dict[str, Any]:
    return {
        "id": deck.pk,
        "name": deck.name,
        "kind": deck.kind,
        "kind_label": deck_kind(deck.kind).label,
        "owner_id": deck.owner_id,
        "owner_name": deck.owner.display_name if deck.owner else "",
        "allow_reversed": deck.allow_reversed,
        "reversible": deck_kind(deck.kind).reversible,
        "players_may_use": deck.players_may_use,
        "rules": deck.rules,
        "dealer_id": deck.dealer_id,
        "dealer_name": deck.dealer.display_name if deck.dealer else "",
        # who deals it besides the GM, as the page's CSS matches it (``~=``)
        "dealers": " ".join(str(pk) for pk in deck_dealers(deck)),
    }


def membership_for(table: Table | int, user: User | AnonymousUser) -> Membership | None:
    """The user's seat at the table, removed or not, with its ``table`` read in the same
    statement (every view and socket asks); None for strangers."""
    if not user.is_authenticated:
        return None
    table_id = table if isinstance(table, int) else table.pk
    return Membership.objects.select_related("table").filter(table_id=table_id, user_id=user.pk).first()


def viewer_of(member: Membership | None) -> Viewer:
    return Viewer(membership_id=member.pk if member else 0, standing=standing_of(member))


# A process whose heartbeat is older than this holds no live socket (live/liveness.py beats).
DEAD_AFTER_S = 30


def online_member_ids(table_id: int) -> set[int]:
    """The GM and players with a socket open now on a live process (spectators' presence
    is not tracked live)."""

    alive = ProcessBeat.objects.filter(seen__gte=timezone.now() - timedelta(seconds=DEAD_AFTER_S))
    return set(
        Presence.objects.filter(
            membership__table_id=table_id, membership__removed_at=None,
            process__in=alive.values("process"),
        )
        .exclude(membership__role="spectator")
        .values_list("membership_id", flat=True)
    )


@dataclass(frozen=True)
class SeenEvent:
    event: Event
    reading: Reading

    @property
    def summary(self) -> str:
        if self.reading != "public" and self.event.private_summary:
            return self.event.private_summary
        return self.event.summary

    @property
    def private(self) -> dict[str, Any] | None:
        return private_part(self.event.private, self.reading) if self.reading != "public" else None


def events_for(
    viewer: Viewer, table_id: int, *, after: int = 0, upto: int | None = None,
    limit: int | None = None,
) -> list[SeenEvent]:
    """Events after ``after`` that ``viewer`` may see, in order (the newest ``limit`` if given)."""
    if viewer.standing in (Standing.REMOVED, Standing.STRANGER):
        return []
    rows = Event.objects.filter(table_id=table_id, seq__gt=after).select_related("actor", "owner")
    if upto is not None:
        rows = rows.filter(seq__lte=upto)
    if not viewer.is_gm:
        # Filter in SQL what can be filtered, then let the one visibility rule decide.
        rows = rows.filter(
            Q(audience="everyone") | Q(audience="owner", owner_id=viewer.membership_id)
        )
    rows = rows.order_by("-seq")[:limit] if limit else rows.order_by("seq")
    seen = []
    for event in rows:
        reading = event_reading(viewer, event)
        if reading is not None:
            seen.append(SeenEvent(event, reading))
    return sorted(seen, key=lambda s: s.event.seq)


def last_seq(table_id: int) -> int:
    return Event.objects.filter(table_id=table_id).aggregate(m=Max("seq"))["m"] or 0


POSITION = re.compile(r"(0|[1-9][0-9]{0,17})(?:\.([1-9][0-9]{0,8}))?")


def seq_at(viewer: Viewer, table_id: int, position: str) -> int | None:
    """The table's seq at a viewer's own position (``Event.position``): the GM's is the seq;
    anyone else's names an event they can see, or ``"0"`` for the start. None for a
    position that is no such thing, so a resume from it is refused rather than guessed."""
    match = POSITION.fullmatch(position)
    if match is None or viewer.standing in (Standing.REMOVED, Standing.STRANGER):
        return None
    number, own = int(match.group(1)), int(match.group(2) or 0)
    if number == 0 and own == 0:
        return 0
    if viewer.is_gm:
        exists = own == 0 and Event.objects.filter(table_id=table_id, seq=number).exists()
        return number if exists else None
    rows = Event.objects.filter(table_id=table_id, public_no=number, own_no=own)
    if own:
        rows = rows.filter(audience="owner", owner_id=viewer.membership_id)
    else:
        rows = rows.filter(audience="everyone")
    return rows.values_list("seq", flat=True).first()


@dataclass(frozen=True)
class TableState:
    """Everything the table page shows one viewer, read at one seq."""

    table: Table
    me: Membership
    viewer: Viewer
    seq: int
    members: list[dict[str, Any]]
    online: set[int]
    characters: list[dict[str, Any]]
    log: list[SeenEvent]

    @property
    def position(self) -> str:
        """The viewer's own position at ``seq`` (``Event.position``): what the page resumes from."""
        if self.viewer.is_gm:
            return str(self.seq)
        return self.log[-1].event.position(gm=False) if self.log else "0"


LOG_PAGE = 200


def table_state(table: Table, me: Membership) -> TableState:
    """Reads seq first: anything newer than it that the panels already show is replayed
    over them harmlessly, because every swap is by id (an upsert)."""
    viewer = viewer_of(me)
    seq = last_seq(table.pk)
    members = [member_data(m) for m in table.members.filter(removed_at=None)]
    characters = [
        character_data(c) if viewer.is_gm or not sheet_is_secret(c) else behind_the_screen(c, character_data(c))
        for c in table.characters.filter(retired=False).select_related("owner", "table")
    ]
    return TableState(
        table=table,
        me=me,
        viewer=viewer,
        seq=seq,
        members=members,
        online=online_member_ids(table.pk),
        characters=characters,
        log=events_for(viewer, table.pk, upto=seq, limit=LOG_PAGE),
    )


def gm_hand_is_secret(table: Table, member: Membership | None) -> bool:
    """Whether how many cards ``member`` holds is the GM's alone: the GM's own hand at a table that
    keeps NPC sheets behind the screen (``Table.npc_sheets_secret``), since an NPC's hand lies in
    the GM's hand and its size is a figure of its sheet (Shadows deals "Body + 1/2xPhysical")."""
    return member is not None and member.role == Role.GM and table.npc_sheets_secret


def draw_counts_held_back(table: Table) -> frozenset[int]:
    """The decks whose draw pile size is the GM's alone now: at a table that keeps NPC sheets
    behind the screen (``Table.npc_sheets_secret``), every deck of which the GM holds a card.

    The decided reading: an NPC's sheet is the GM's unless the GM shows it; other seats "see
    its name and what the rules make public ... and nothing more". An NPC's hand lies in the
    GM's hand and its size is a figure of its sheet (Shadows deals "Body + 1/2xPhysical"); the
    players' hand sizes are public, so the draw pile's drop across a deal would give the NPC's
    away. While the GM holds cards of a deck, its draw pile size, and every figure it could be
    read from (a sealed draw's position in the order, a new seal's size), reaches the GM alone
    (``table_counts``, ``piles.card_event``, ``piles.commit``); once the GM's hand holds none of
    it, everyone reads it again. The odds a player reads count the draw pile and the hands
    together (``contract.DeckView.unseen``), which a deal does not change."""
    if not table.npc_sheets_secret:
        return frozenset()
    return frozenset(CardPlacement.objects.filter(pile__table=table, pile__kind=PileKind.HAND, pile__owner__role=Role.GM)
                     .values_list("deck_id", flat=True).distinct())


def counts_shown(table: Table) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The table's card counts as everyone may see them, and as the GM sees them when the two
    differ (``draw_counts_held_back``), else None."""
    counts = _all_counts(table)
    held = draw_counts_held_back(table)
    if not held & {int(k) for k in counts["decks"]}:
        return counts, None
    public = {**counts, "decks": {k: ({key: v for key, v in c.items() if key != "draw"} | {"held": True})
                                  if int(k) in held else c for k, c in counts["decks"].items()}}
    return public, counts


def table_counts(table: Table, *, gm: bool = False) -> dict[str, Any]:
    """What everyone at the table may see of the cards (or the GM, ``gm``): counts, and the faces
    of public piles; a draw pile the GM's alone (``draw_counts_held_back``) says ``held``."""
    public, whole = counts_shown(table)
    return whole if gm and whole is not None else public


def _all_counts(table: Table) -> dict[str, Any]:
    """Every pile's count, and the faces of public piles.

    Two queries whatever the table holds: pile sizes by aggregate, then only the face-up cards.
    """
    decks: dict[str, Any] = {}
    hands: dict[str, int] = {}
    faces: dict[int, list[CardPlacement]] = {}
    for card in CardPlacement.objects.filter(
        pile__table=table, pile__kind__in=[PileKind.PLAY, PileKind.DISCARD]
    ).select_related("placed_by").order_by("position"):
        faces.setdefault(card.pile_id, []).append(card)
    play: list[dict[str, Any]] = []
    piles = list(Pile.objects.filter(table=table).select_related("deck", "owner").annotate(size=Count("cards"))
                 .order_by("pk"))
    ruled = {p.deck_id for p in piles if p.deck is not None and p.deck.rules}
    for pile in piles:
        if pile.kind == PileKind.HAND:
            if not gm_hand_is_secret(table, pile.owner):
                hands[str(pile.owner_id)] = pile.size
        elif pile.kind == PileKind.PLAY:
            play = [{"deck": c.deck_id, "token": c.token, "by": c.placed_by.display_name if c.placed_by else "",
                     "by_id": c.placed_by_id, **({"rules": True} if c.deck_id in ruled else {})}
                    for c in faces.get(pile.pk, [])]
        else:
            entry = decks.setdefault(str(pile.deck_id), {"name": pile.deck.name})
            entry[pile.kind] = pile.size
            if pile.kind == PileKind.DISCARD:
                shown = faces.get(pile.pk)
                entry["discard_top"] = shown[-1].token if shown else None
    return {"decks": decks, "hands": hands, "play": play}


def hand_contents(member: Membership) -> list[dict[str, Any]]:
    return [
        {"deck": c.deck_id, "token": c.token, **({"rules": True} if c.deck.rules else {})}
        for c in CardPlacement.objects.filter(pile__kind=PileKind.HAND, pile__owner=member)
        .select_related("deck").order_by("position")
    ]


def card_state(table: Table, me: Membership) -> dict[str, Any]:
    """The card panels for ``me``: decks and counts for all, hands only as ``me`` may see them."""
    from tabletop.feed import parts

    counts = table_counts(table, gm=me.role == Role.GM)
    decks = [deck_data(d) for d in Deck.objects.filter(table=table).select_related("owner", "dealer")]
    members = list(table.members.filter(removed_at=None))
    hands: dict[int, list[dict[str, Any]]] = {}
    for placement in CardPlacement.objects.filter(
        pile__table=table, pile__kind=PileKind.HAND
    ).select_related("pile", "deck").order_by("position"):
        if me.role == "gm" or placement.pile.owner_id == me.pk:
            hands.setdefault(placement.pile.owner_id, []).append(
                {"deck": placement.deck_id, "token": placement.token, **({"rules": True} if placement.deck.rules else {})}
            )
    return {
        **parts.counts_context(counts),
        "decks": parts.deck_rows(decks, counts),
        "hands": parts.visible_hands(me, members, hands),
        "players": [member_data(m) for m in members if m.role == "player"],
    }



# A game system's procedure, panel and forms (games/contract.py)


def combatant_id(character: Character) -> str:
    return f"c{character.pk}"


def cids_named(value: Any, known: Collection[str]) -> set[str]:
    """The combatant ids among ``known`` that stand as a value anywhere in ``value`` (an event's
    payload, its private part, a list of events): whom a rule's events are about."""
    if isinstance(value, str):
        return {value} if value in known else set()
    items = value.values() if isinstance(value, Mapping) else value if isinstance(value, (list, tuple)) else ()
    return set().union(*(cids_named(item, known) for item in items))


def character_facts(character: Character) -> contract.Character:
    return contract.Character(
        id=character.pk, cid=combatant_id(character), name=character.name, sheet=character.sheet,
        owner=character.owner_id, is_npc=character.is_npc,
    )


def member_facts(member: Membership, characters: list[Character]) -> contract.Member:
    """The sender of a command or a check, with the characters (of these) they own."""
    return contract.Member(
        id=member.pk, name=member.display_name, is_gm=member.role == Role.GM,
        controls=tuple(combatant_id(c) for c in characters if c.owner_id == member.pk),
    )


def table_facts(table: Table) -> contract.Table:
    """What a system's form parsers read: the characters (not the procedure's state, which may
    change before the lock is taken). A retired character is offered in no form, so no parser
    reads it."""
    characters = table.characters.filter(retired=False).order_by("pk")
    return contract.Table(characters=tuple(character_facts(c) for c in characters), read_id=parse_id)


def procedure_state(table: Table) -> dict[str, Any] | None:
    game = registry.get(table.system)
    if game.engine is None:
        return None
    row = ProcedureState.objects.filter(table=table).first()
    return row.state if row else game.engine.new_state()


def table_gm(table: Table) -> int | None:
    """The member id of the table's GM."""
    return Membership.objects.filter(table=table, role=Role.GM, removed_at=None).values_list("pk", flat=True).first()


def engine_log(table: Table) -> list[dict[str, Any]]:
    """Every event the table's engine emitted, whole (its public part with its private part),
    in order: what the engine folds again to take a step back."""
    game = registry.get(table.system)
    if game.engine is None:
        return []
    kinds = [f"{game.key}.{kind}" for kind in game.engine.events]
    checks = {f"{game.key}.{check.event}": check for check in game.checks}
    rows = Event.objects.filter(table=table, kind__in=kinds).order_by("seq").values_list("kind", "payload", "private")
    log = []
    for kind, payload, private in rows:
        check = checks.get(kind)
        # a check its engine folds (services/procedure.check_event): its data, type and combatant
        made = {**payload.get(check.name, {}), "type": check.event, "combatant": f"c{payload.get('character')}"} \
            if check is not None else payload.get("event", {})
        log.append({k: v for k, v in {**made, **(private or {})}.items() if k != "working"})
    return log


def session_shown(table: Table) -> dict[str, Any]:
    """The table's session as its session box shows it: the last one's number, whether it is
    open, and the date it opened (or closed); number 0 before the first."""
    last = PlaySession.objects.filter(table=table).order_by("-number").first()
    if last is None:
        return {"number": 0, "open": False, "date": ""}
    when = last.opened if last.closed is None else last.closed
    return {"number": last.number, "open": last.closed is None, "date": when.date().isoformat()}


def session_recap(table: Table, me: Membership, session: PlaySession) -> recaps.Recap:
    """The recap of one session (a ``PlaySession``), as ``me`` may read its log
    (tabletop/selectors/recap.py)."""
    upto = session.closed_seq if session.closed_seq is not None else last_seq(table.pk)
    seen = events_for(viewer_of(me), table.pk, after=session.opened_seq - 1, upto=upto)
    return recaps.build(table, me, session, seen)
