"""The platform's data. Only ``services.py`` writes these rows."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models


def new_link_token() -> str:
    """192 random bits, URL-safe: an invite link nobody can guess."""
    return secrets.token_urlsafe(24)


class Role(models.TextChoices):
    GM = "gm", "GM"
    PLAYER = "player", "Player"
    SPECTATOR = "spectator", "Spectator"


class Audience(models.TextChoices):
    EVERYONE = "everyone", "Everyone"
    GM = "gm", "GM only"
    OWNER = "owner", "Owner and GM"


class Campaign(models.Model):
    """A campaign and its live table (one table per campaign)."""

    name = models.CharField(max_length=100)
    system = models.CharField(max_length=40)
    gm = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="campaigns_run"
    )
    player_token = models.CharField(max_length=64, unique=True, default=new_link_token)
    spectator_token = models.CharField(max_length=64, unique=True, default=new_link_token)
    # The seq the next Event gets; read and bumped only under this row's lock.
    next_seq = models.PositiveBigIntegerField(default=1)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A seat at a table. Removal keeps the row (the log refers to it) and ends access."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices)
    display_name = models.CharField(max_length=40)
    joined = models.DateTimeField(auto_now_add=True)
    removed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["joined", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_seat_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.display_name} ({self.role})"

    @property
    def is_active(self) -> bool:
        return self.removed_at is None


class Character(models.Model):
    """A sheet. ``owner`` is empty for NPCs and for characters the GM made for players to claim."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="characters")
    owner = models.ForeignKey(
        Membership, on_delete=models.SET_NULL, null=True, blank=True, related_name="characters"
    )
    is_npc = models.BooleanField(default=False)
    name = models.CharField(max_length=60)
    sheet = models.JSONField(default=dict)
    # Bumped on every change; an edit made against an older version is refused.
    version = models.PositiveIntegerField(default=1)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "pk"]

    def __str__(self) -> str:
        return self.name


class Event(models.Model):
    """One entry of a table's append-only log.

    ``audience`` says who sees the event at all; ``private`` is a part of it that only
    ``private_audience`` sees (the cards drawn, the result of a blind roll). "owner" means
    ``owner`` plus the GM.
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveBigIntegerField()
    kind = models.CharField(max_length=40)
    actor = models.ForeignKey(
        Membership, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    owner = models.ForeignKey(
        Membership, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    audience = models.CharField(max_length=10, choices=Audience.choices)
    private_audience = models.CharField(
        max_length=10, choices=Audience.choices, default=Audience.OWNER
    )
    summary = models.TextField()
    private_summary = models.TextField(blank=True)
    payload = models.JSONField(default=dict)
    private = models.JSONField(default=dict)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "seq"], name="one_event_per_seq"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind}"


class Presence(models.Model):
    """One open socket. A member is online while they have at least one."""

    membership = models.ForeignKey(Membership, on_delete=models.CASCADE, related_name="sockets")
    channel_name = models.CharField(max_length=200, unique=True)
    connected = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.channel_name
