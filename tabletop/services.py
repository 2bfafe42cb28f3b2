"""The only writer. Each function is one transaction: lock the table row, check,
change, append Events with the table's next seq, and broadcast after commit."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from games import registry
from games.core.dice import NotationError, roll_notation
from games.core.rng import Rng
from games.sheets import SheetError
from tabletop import broadcast
from tabletop.models import Audience, Campaign, Character, Event, Membership, Presence, Role, new_link_token
from tabletop.permissions import Verb, can, can_claim_character, can_edit_character, seat_of
from tabletop.selectors import character_data, member_data


class ServiceError(Exception):
    """A refusal with a message fit to show the person who asked. Nothing was changed."""

    status = 400

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class NotAllowed(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409


ROLL_MODES = {"public": "Public", "gm": "To the GM only", "blind": "Blind (only the GM sees it)"}


def _lock(campaign_id: int) -> Campaign:
    try:
        return Campaign.objects.select_for_update().get(pk=campaign_id)
    except Campaign.DoesNotExist:
        raise NotFound("There is no such table.") from None


def _acting(campaign: Campaign, actor: Membership, verb: Verb) -> Membership:
    """Re-reads the actor under the table lock, so a member removed a moment ago cannot act."""
    fresh = Membership.objects.filter(pk=actor.pk, campaign=campaign).first()
    if not can(seat_of(fresh), verb):
        raise NotAllowed("You may not do that at this table.")
    assert fresh is not None
    return fresh


def _append(
    campaign: Campaign,
    kind: str,
    *,
    actor: Membership | None,
    summary: str,
    payload: Mapping[str, Any] | None = None,
    audience: str = Audience.EVERYONE,
    owner: Membership | None = None,
    private: Mapping[str, Any] | None = None,
    private_summary: str = "",
    private_audience: str = Audience.OWNER,
) -> Event:
    """Appends one Event under the (already held) table lock and schedules its broadcast."""
    seq = campaign.next_seq
    campaign.next_seq = seq + 1
    campaign.save(update_fields=["next_seq"])
    event = Event.objects.create(
        campaign=campaign,
        seq=seq,
        kind=kind,
        actor=actor,
        owner=owner or actor,
        audience=audience,
        private_audience=private_audience,
        summary=summary,
        private_summary=private_summary,
        payload=dict(payload or {}),
        private=dict(private or {}),
    )
    transaction.on_commit(lambda: broadcast.event_committed(event))
    return event


def _unique_name(campaign: Campaign, name: str, *, exclude: int | None = None) -> str:
    """Two people at one table with the same name would make the log ambiguous."""
    taken = campaign.members.filter(removed_at=None, display_name__iexact=name)
    if exclude is not None:
        taken = taken.exclude(pk=exclude)
    if taken.exists():
        raise ServiceError(f"Someone at this table is already called {name}.", field="display_name")
    return name


def _clean_name(name: str, *, what: str = "name", max_length: int = 40) -> str:
    cleaned = " ".join((name or "").split())
    if not cleaned:
        raise ServiceError(f"Please give a {what}.", field="display_name")
    if len(cleaned) > max_length:
        raise ServiceError(f"A {what} is at most {max_length} characters.", field="display_name")
    return cleaned


# Campaigns and links


def campaign_create(*, gm: AbstractBaseUser, name: str, system: str) -> Campaign:
    try:
        game = registry.get(system)
    except registry.UnknownSystem as exc:
        raise ServiceError(str(exc), field="system") from None
    if not game.available:
        raise ServiceError(f"{game.name} is coming soon; it cannot host a table yet.", field="system")
    title = _clean_name(name, what="campaign name", max_length=100)
    with transaction.atomic():
        campaign = Campaign.objects.create(name=title, system=system, gm=gm)
        campaign = _lock(campaign.pk)
        me = Membership.objects.create(
            campaign=campaign, user=gm, role=Role.GM, display_name=_clean_name(gm.get_username())
        )
        _append(
            campaign,
            "campaign.created",
            actor=me,
            summary=f"{me.display_name} opened the table for {title} ({game.name}).",
            payload={"member": member_data(me)},
        )
    return campaign


def campaign_regenerate_link(*, campaign: Campaign, actor: Membership, which: str) -> Campaign:
    """A new player or spectator link; the old one stops working at once.

    A new spectator link also ends the seats of spectators who came in through the
    old one: a GM replaces that link when it has leaked, and wants the leak closed.
    """
    if which not in ("player", "spectator"):
        raise NotFound("There is no such link.")
    with transaction.atomic():
        locked = _lock(campaign.pk)
        me = _acting(locked, actor, Verb.LINKS_MANAGE)
        setattr(locked, f"{which}_token", new_link_token())
        locked.save(update_fields=[f"{which}_token"])
        _append(
            locked,
            "link.regenerated",
            actor=me,
            audience=Audience.GM,
            summary=f"{me.display_name} replaced the {which} link; the old one no longer works.",
            payload={"which": which},
        )
        if which == "spectator":
            for watcher in locked.members.filter(role=Role.SPECTATOR, removed_at=None):
                _remove(locked, watcher, by=me)
    return locked


# Memberships


def membership_join(
    *, campaign: Campaign, user: AbstractBaseUser, role: str, display_name: str = ""
) -> Membership:
    """Seats ``user`` at the table, or returns their seat if they already have one."""
    if role not in (Role.PLAYER, Role.SPECTATOR):
        raise ServiceError("One joins a table as a player or a spectator.")
    with transaction.atomic():
        locked = _lock(campaign.pk)
        existing = Membership.objects.filter(campaign=locked, user=user).first()
        if existing is not None:
            if existing.removed_at is not None:
                raise NotAllowed("The GM removed you from this table.")
            return existing
        if role == Role.SPECTATOR:
            count = locked.members.filter(role=Role.SPECTATOR).count() + 1
            name = display_name.strip() or f"Spectator {count}"
        else:
            name = display_name
        name = _unique_name(locked, _clean_name(name, what="display name"))
        member = Membership.objects.create(
            campaign=locked, user=user, role=role, display_name=name
        )
        _append(
            locked,
            "member.joined",
            actor=member,
            summary=f"{name} joined as {member.get_role_display().lower()}.",
            payload={"member": member_data(member)},
        )
    return member


def guest_user_create() -> AbstractBaseUser:
    """An account with no password, for someone who came through a link; the session is the key."""
    user_model = get_user_model()
    user = user_model(username=f"guest-{new_link_token()[:16]}")
    user.set_unusable_password()
    user.save()
    return user


def membership_rename(*, target: Membership, actor: Membership, display_name: str) -> Membership:
    with transaction.atomic():
        locked = _lock(target.campaign_id)
        me = _acting(locked, actor, Verb.MEMBER_RENAME)
        member = Membership.objects.get(pk=target.pk)
        if member.removed_at is not None:
            raise ServiceError(f"{member.display_name} has left the table.")
        old = member.display_name
        member.display_name = _unique_name(
            locked, _clean_name(display_name, what="display name"), exclude=member.pk
        )
        member.save(update_fields=["display_name"])
        _append(
            locked,
            "member.renamed",
            actor=me,
            summary=f"{me.display_name} renamed {old} to {member.display_name}.",
            payload={"member": member_data(member), "old": old},
        )
    return member


def _remove(campaign: Campaign, member: Membership, *, by: Membership) -> None:
    member.removed_at = timezone.now()
    member.save(update_fields=["removed_at"])
    Character.objects.filter(owner=member).update(owner=None)
    _append(
        campaign,
        "member.removed",
        actor=by,
        summary=f"{by.display_name} removed {member.display_name} from the table.",
        payload={"member": member_data(member)},
    )
    transaction.on_commit(lambda: broadcast.member_removed(member))


def membership_remove(*, target: Membership, actor: Membership) -> None:
    """Ends a seat: access is revoked and the member's sockets close at once."""
    with transaction.atomic():
        locked = _lock(target.campaign_id)
        me = _acting(locked, actor, Verb.MEMBER_REMOVE)
        member = Membership.objects.get(pk=target.pk)
        if member.role == Role.GM:
            raise ServiceError("The GM cannot be removed from their own table.")
        if member.removed_at is not None:
            raise ServiceError(f"{member.display_name} was already removed.")
        _remove(locked, member, by=me)


def presence_connect(*, member: Membership, channel_name: str) -> None:
    """Records an open socket; presence is not logged, only pushed."""
    Presence.objects.get_or_create(membership=member, channel_name=channel_name)
    transaction.on_commit(lambda: broadcast.presence_changed(member.campaign_id))


def presence_disconnect(*, channel_name: str) -> None:
    rows = list(Presence.objects.filter(channel_name=channel_name).select_related("membership"))
    Presence.objects.filter(channel_name=channel_name).delete()
    for row in rows:
        broadcast.presence_changed(row.membership.campaign_id)


# Characters


def _sheet(campaign: Campaign, data: Mapping[str, Any]) -> dict[str, Any]:
    game = registry.get(campaign.system)
    if game.clean_sheet is None:
        return {}
    try:
        return game.clean_sheet(data)
    except SheetError as exc:
        raise ServiceError(exc.message, field=exc.field) from None


def character_create(
    *,
    campaign: Campaign,
    actor: Membership,
    name: str,
    sheet: Mapping[str, Any],
    npc: bool = False,
    for_players: bool = False,
) -> Character:
    """A player makes their own character; the GM makes NPCs or characters for players to claim."""
    with transaction.atomic():
        locked = _lock(campaign.pk)
        verb = Verb.NPC_CREATE if (npc or for_players) else Verb.CHARACTER_CREATE
        me = _acting(locked, actor, verb)
        owner = None if (npc or for_players or me.role == Role.GM) else me
        character = Character.objects.create(
            campaign=locked,
            owner=owner,
            is_npc=npc,
            name=_clean_name(name, what="character name", max_length=60),
            sheet=_sheet(locked, sheet),
        )
        label = "an NPC" if npc else "a character"
        _append(
            locked,
            "character.created",
            actor=me,
            summary=f"{me.display_name} made {label}: {character.name}.",
            payload={"character": character_data(character)},
        )
    return character


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
        locked = _lock(character.campaign_id)
        fresh = Character.objects.filter(pk=character.pk, campaign=locked).first()
        if fresh is None:
            raise NotFound("There is no such character.")
        me = Membership.objects.filter(pk=actor.pk, campaign=locked).first()
        if not can_edit_character(me, fresh):
            raise NotAllowed("You may edit only your own character.")
        assert me is not None
        if version is not None and version != fresh.version:
            raise Conflict(f"{fresh.name} was changed by someone else; reload it and try again.")
        fresh.name = _clean_name(name, what="character name", max_length=60)
        fresh.sheet = _sheet(locked, sheet)
        fresh.version += 1
        fresh.save(update_fields=["name", "sheet", "version"])
        _append(
            locked,
            "character.updated",
            actor=me,
            summary=f"{me.display_name} updated {fresh.name}.",
            payload={"character": character_data(fresh)},
        )
    return fresh


def character_claim(*, character: Character, actor: Membership) -> Character:
    with transaction.atomic():
        locked = _lock(character.campaign_id)
        fresh = Character.objects.filter(pk=character.pk, campaign=locked).first()
        if fresh is None:
            raise NotFound("There is no such character.")
        me = Membership.objects.filter(pk=actor.pk, campaign=locked).first()
        if not can_claim_character(me, fresh):
            raise NotAllowed(f"{fresh.name} cannot be claimed.")
        assert me is not None
        fresh.owner = me
        fresh.version += 1
        fresh.save(update_fields=["owner", "version"])
        _append(
            locked,
            "character.claimed",
            actor=me,
            summary=f"{me.display_name} now plays {fresh.name}.",
            payload={"character": character_data(fresh)},
        )
    return fresh


# Dice and chat


def dice_roll(*, campaign: Campaign, actor: Membership, notation: str, mode: str, rng: Rng) -> Event:
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
        locked = _lock(campaign.pk)
        me = _acting(locked, actor, Verb.ROLL)
        if me.role == Role.GM and mode == "blind":
            mode = "gm"  # a GM's blind roll is simply their own secret roll
        said = f"{me.display_name} rolls {result.notation}"
        outcome = f"{said}: {result.total}  [{result.detail}]"
        if mode == "public":
            return _append(
                locked, "dice.rolled", actor=me, summary=outcome,
                payload={"mode": mode, "roll": result.as_dict()},
            )
        if mode == "gm":
            return _append(
                locked, "dice.rolled", actor=me, audience=Audience.OWNER,
                summary=f"{said} for the GM.", private_summary=f"{outcome} (GM only)",
                payload={"mode": mode, "notation": result.notation},
                private={"roll": result.as_dict()}, private_audience=Audience.OWNER,
            )
        return _append(
            locked, "dice.rolled", actor=me, audience=Audience.OWNER,
            summary=f"{said} blind; only the GM sees the result.",
            private_summary=f"{outcome} (blind)",
            payload={"mode": mode, "notation": result.notation},
            private={"roll": result.as_dict()}, private_audience=Audience.GM,
        )


def chat_post(*, campaign: Campaign, actor: Membership, text: str) -> Event:
    body = (text or "").strip()
    if not body:
        raise ServiceError("Type a message first.", field="text")
    limit = settings.TABLETOP_MAX_MESSAGE_CHARS
    if len(body) > limit:
        raise ServiceError(f"A message is at most {limit} characters.", field="text")
    with transaction.atomic():
        locked = _lock(campaign.pk)
        me = _acting(locked, actor, Verb.CHAT)
        return _append(
            locked, "chat.posted", actor=me, summary=f"{me.display_name}: {body}",
            payload={"text": body},
        )
