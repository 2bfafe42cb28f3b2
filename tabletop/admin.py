from __future__ import annotations

from django.contrib import admin

from tabletop.models import Table, Character, Event, Membership


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("name", "system", "gm", "created")


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("display_name", "role", "table", "removed_at")


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = ("name", "table", "owner", "is_npc")


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    """Read-only: the log is append-only, and only services append to it."""

    list_display = ("table", "seq", "kind", "audience", "summary")

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False
