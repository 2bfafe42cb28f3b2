"""Tables, their links, seats and presence."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from games import registry
from tabletop.live import broadcast
from tabletop.models import (
    Audience, Table, Character, Membership, Presence, ProcessBeat, Role, new_link_token,
)
from tabletop.permissions import Verb
from tabletop.selectors import member_data, online_member_ids
from tabletop.services.base import (
    NotAllowed, NotFound, ServiceError, acting, append, clean_name, lock_table, unique_name,
)


def table_create(*, gm: AbstractBaseUser, name: str, system: str) -> Table:
    try:
        game = registry.get(system)
    except registry.UnknownSystem as exc:
        raise ServiceError(str(exc), field="system") from None
    title = clean_name(name, what="table name", max_length=100)
    with transaction.atomic():
        table = Table.objects.create(name=title, system=system, gm=gm)
        table = lock_table(table.pk)
        me = Membership.objects.create(
            table=table, user=gm, role=Role.GM, display_name=clean_name(gm.get_username())
        )
        append(
            table,
            "table.created",
            actor=me,
            summary=f"{me.display_name} opened the table for {title} ({game.name}).",
            payload={"member": member_data(me)},
        )
    return table


def table_regenerate_link(*, table: Table, actor: Membership, which: str) -> Table:
    """A new player or spectator link; the old one stops working at once.

    A new spectator link also ends the seats of spectators who came in through the
    old one: a GM replaces that link when it has leaked, and wants the leak closed.
    """
    if which not in ("player", "spectator"):
        raise NotFound("There is no such link.")
    with transaction.atomic():
        locked = lock_table(table.pk)
        me = acting(locked, actor, Verb.LINKS_MANAGE)
        setattr(locked, f"{which}_token", new_link_token())
        locked.save(update_fields=[f"{which}_token"])
        append(
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


def membership_replace_seat_link(*, target: Membership, actor: Membership) -> Membership:
    """A new personal seat link for ``target``; the old one stops working at once. The GM's:
    for a guest whose link leaked, or who lost it (the GM then hands on the new one)."""
    with transaction.atomic():
        locked = lock_table(target.table_id)
        me = acting(locked, actor, Verb.LINKS_MANAGE)
        member = locked.members.filter(pk=target.pk).first()
        if member is None:
            raise NotFound("There is no such member at this table.")
        member.seat_token = new_link_token()
        member.save(update_fields=["seat_token"])
        append(locked, "member.seat_link_replaced", actor=me, audience=Audience.GM,
               summary=f"{me.display_name} replaced {member.display_name}'s seat link; the old one no longer works.",
               payload={"member": member.pk})
    return member


def membership_join(
    *, table: Table, user: AbstractBaseUser | None, role: str, display_name: str = ""
) -> Membership:
    """Seats ``user`` at the table, or returns their seat if they already have one.

    With no user, a guest account is made for the seat, in the same transaction, so a
    refused join leaves no stray account behind.
    """
    if role not in (Role.PLAYER, Role.SPECTATOR):
        raise ServiceError("One joins a table as a player or a spectator.")
    with transaction.atomic():
        locked = lock_table(table.pk)
        existing = Membership.objects.filter(table=locked, user=user).first() if user else None
        if existing is not None:
            if existing.removed_at is not None:
                raise NotAllowed("The GM removed you from this table.")
            return existing
        if role == Role.SPECTATOR:
            count = locked.members.filter(role=Role.SPECTATOR).count() + 1
            name = display_name.strip() or f"Spectator {count}"
        else:
            name = display_name
        name = unique_name(locked, clean_name(name, what="display name"))
        member = Membership.objects.create(
            table=locked, user=user or guest_user_create(), role=role, display_name=name
        )
        append(
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
        locked = lock_table(target.table_id)
        me = acting(locked, actor, Verb.MEMBER_RENAME)
        member = Membership.objects.get(pk=target.pk)
        if member.removed_at is not None:
            raise ServiceError(f"{member.display_name} has left the table.")
        old = member.display_name
        member.display_name = unique_name(
            locked, clean_name(display_name, what="display name"), exclude=member.pk
        )
        member.save(update_fields=["display_name"])
        append(
            locked,
            "member.renamed",
            actor=me,
            summary=f"{me.display_name} renamed {old} to {member.display_name}.",
            payload={"member": member_data(member), "old": old},
        )
    return member


def _remove(table: Table, member: Membership, *, by: Membership) -> None:
    member.removed_at = timezone.now()
    member.save(update_fields=["removed_at"])
    Character.objects.filter(owner=member).update(owner=None)
    append(
        table,
        "member.removed",
        actor=by,
        summary=f"{by.display_name} removed {member.display_name} from the table.",
        payload={"member": member_data(member)},
    )
    transaction.on_commit(lambda: broadcast.member_removed(member), robust=True)


def membership_remove(*, target: Membership, actor: Membership) -> None:
    """Ends a seat: access is revoked and the member's sockets close at once."""
    with transaction.atomic():
        locked = lock_table(target.table_id)
        me = acting(locked, actor, Verb.MEMBER_REMOVE)
        member = Membership.objects.get(pk=target.pk)
        if member.role == Role.GM:
            raise ServiceError("The GM cannot be removed from their own table.")
        if member.removed_at is not None:
            raise ServiceError(f"{member.display_name} was already removed.")
        _remove(locked, member, by=me)


def presence_connect(*, member: Membership, channel_name: str, process: str = "") -> None:
    """Records an open socket held by ``process``. Presence is pushed, not logged, and only
    when a player's or the GM's status changes: spectators come and go in crowds, and a push
    to every socket for each of them would cost a busy table frames by the square of its
    audience."""
    with transaction.atomic():
        was_online = member.pk in online_member_ids(member.table_id)
        ProcessBeat.objects.update_or_create(process=process, defaults={"seen": timezone.now()})
        Presence.objects.get_or_create(
            membership=member, channel_name=channel_name, defaults={"process": process}
        )
    if not was_online and member.role != Role.SPECTATOR:
        broadcast.presence_changed(member.table_id)


def presence_disconnect(*, channel_name: str) -> None:
    rows = list(Presence.objects.filter(channel_name=channel_name).select_related("membership"))
    Presence.objects.filter(channel_name=channel_name).delete()
    for row in rows:
        member = row.membership
        if member.role != Role.SPECTATOR and not Presence.objects.filter(membership=member).exists():
            broadcast.presence_changed(member.table_id)


def process_heartbeat(*, process: str, dead_after_s: int) -> None:
    """Marks ``process`` alive, and forgets the sockets of processes silent too long
    (killed outright, they never ran their sockets' disconnect handlers)."""
    now = timezone.now()
    ProcessBeat.objects.update_or_create(process=process, defaults={"seen": now})
    dead = list(
        ProcessBeat.objects.filter(seen__lt=now - timedelta(seconds=dead_after_s)).values_list(
            "process", flat=True
        )
    )
    if not dead:
        return
    stale = Presence.objects.filter(process__in=dead)
    tables = set(stale.values_list("membership__table_id", flat=True))
    stale.delete()
    ProcessBeat.objects.filter(process__in=dead).delete()
    for table_id in sorted(tables):
        broadcast.presence_changed(table_id)
